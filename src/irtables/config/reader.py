"""Typed access to a parsed TOML document, with errors that name the file and the key."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from typing import Any

from irtables.base.controls import CONTROLS
from irtables.errors import ConfigError

#: Control characters other than tab, line feed and carriage return.
_CONTROL = re.compile(f"(?![\t\n\r])[{CONTROLS}]")
_ANY_CONTROL = re.compile(f"[{CONTROLS}]")
#: The largest integer TOML has (a signed 64-bit one).
INT64_MAX = 2**63 - 1


class TomlReader:
    """Reads values of one TOML document; every error names ``source``, the key and what
    was expected (``irtables.toml: output.decimals: expected an integer, got 'two'``)."""

    def __init__(self, source: str):
        self.source = source

    def error(self, key: str, expected: str, got: Any) -> ConfigError:
        return ConfigError(f"{self.source}: {key}: expected {expected}, got {got!r}")

    def only(self, t: Mapping[str, Any], where: str, allowed: set[str]) -> None:
        """Refuse a key of ``t`` not in ``allowed``, naming the known ones and the closest
        (``unknown key 'tables.x.mesure'; did you mean 'measure'? (known: ...)``)."""
        for key in t:
            if key not in allowed:
                full = f"{where}.{key}" if where else key
                close = difflib.get_close_matches(str(key), sorted(allowed), n=1, cutoff=0.75)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                raise ConfigError(
                    f"{self.source}: unknown key {full!r}{hint} "
                    f"(known: {', '.join(sorted(allowed))})"
                )

    def tables(
        self,
        items: Any,
        where: str,
        expected: str,
        item: str,
        keys: Collection[str],
        *,
        non_empty: bool = False,
    ) -> Iterator[tuple[str, Mapping[str, Any]]]:
        """The tables of an array of tables (``[[datasets]]``, ``groups = [{...}]``), each
        with its place (``where[i]``). The array is checked at once (``expected``; not
        empty with ``non_empty``), each table as it is reached: a table (``item``) holding
        only ``keys``."""
        if not isinstance(items, list) or (non_empty and not items):
            raise self.error(where, expected, items)
        return self._each_table(items, where, item, set(keys))

    def _each_table(
        self, items: list[Any], where: str, item: str, keys: set[str]
    ) -> Iterator[tuple[str, Mapping[str, Any]]]:
        for i, t in enumerate(items):
            at = f"{where}[{i}]"
            if not isinstance(t, dict):
                raise self.error(at, item, t)
            self.only(t, at, keys)
            yield at, t

    def table(self, t: Mapping[str, Any], key: str) -> Mapping[str, Any]:
        value = t.get(key.rsplit(".", 1)[-1], {})
        if not isinstance(value, dict):
            raise self.error(key, "a table", value)
        return value

    def opt_str(self, t: Mapping[str, Any], where: str, key: str) -> str | None:
        value = t.get(key)
        if value is not None and not isinstance(value, str):
            raise self.error(f"{where}.{key}", "a string", value)
        return value

    def req_str(self, t: Mapping[str, Any], where: str, key: str) -> str:
        value = self.opt_str(t, where, key)
        if not value:
            raise self.error(f"{where}.{key}", "a non-empty string", value)
        return value

    def int_(self, t: Mapping[str, Any], where: str, key: str, default: int) -> int:
        value = t.get(key, default)
        if type(value) is not int:
            raise self.error(f"{where}.{key}", "an integer", value)
        return value

    def bool_(self, t: Mapping[str, Any], where: str, key: str, default: bool) -> bool:
        value = t.get(key, default)
        if not isinstance(value, bool):
            raise self.error(f"{where}.{key}", "true or false", value)
        return value

    def choice(
        self, t: Mapping[str, Any], where: str, key: str, choices: Iterable[str], default: str
    ) -> str:
        value = self.opt_str(t, where, key) or default
        known = list(choices)
        if value not in known:
            raise self.error(f"{where}.{key}", f"one of {', '.join(known)}", value)
        return value

    def text(self, t: Mapping[str, Any], where: str, key: str) -> str | None:
        """A string shown in outputs (name, caption, description): printable text only.

        Line breaks and tabs are allowed (they become spaces); other control
        characters would corrupt CSV and TSV files or drive a terminal.
        """
        value = self.opt_str(t, where, key)
        if value is not None:
            bad = _CONTROL.search(value)
            if bad is not None:
                code = f"U+{ord(bad.group(0)):04X}"
                raise self.error(f"{where}.{key}", f"printable text (no {code})", value)
        return value

    def ident(self, t: Mapping[str, Any], where: str, key: str) -> str:
        """A required id (dataset or system): non-empty, no control characters."""
        value = self.req_str(t, where, key)
        if _ANY_CONTROL.search(value):
            raise self.error(f"{where}.{key}", "an id without control characters", value)
        return value

    def label(self, t: Mapping[str, Any], where: str, key: str, default: str) -> str:
        """A LaTeX label: only the characters of :data:`~irtables.base.labels.LABEL_PATTERN`
        (``{dataset}`` may stand for the dataset in Table S1's label)."""
        value = self.opt_label(t, where, key)
        return default if value is None else value

    def opt_label(self, t: Mapping[str, Any], where: str, key: str) -> str | None:
        """An optional LaTeX label, checked as :meth:`label` checks it."""
        from irtables.base.labels import label_problem

        value = self.opt_str(t, where, key)
        if value is None:
            return None
        problem = label_problem(value.replace("{dataset}", "dataset"))
        if problem is not None:
            raise ConfigError(f"{self.source}: {where}.{key}: {problem}")
        return value

    def str_list(
        self, t: Mapping[str, Any], where: str, key: str, default: tuple[str, ...]
    ) -> tuple[str, ...]:
        value = t.get(key, list(default))
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.error(f"{where}.{key}", "a list of strings", value)
        return tuple(value)

    def unique(
        self,
        where: str,
        values: Sequence[Any],
        what: str,
        same: Callable[[Any], object] | None = None,
    ) -> None:
        """Refuse a value of the list at ``where`` given before (a repeated row or
        column), naming its place and the earlier one; ``same`` maps a value to what makes
        two the same (a metric's canonical name: ``map`` and ``AP``)."""
        first: dict[object, int] = {}
        for i, value in enumerate(values):
            j = first.setdefault(same(value) if same else value, i)
            if j != i:
                given = f"{where}[{j}]" + (f" ({values[j]!r})" if values[j] != value else "")
                raise self.error(f"{where}[{i}]", f"{what} not already given as {given}", value)

    def unique_list(
        self,
        t: Mapping[str, Any],
        where: str,
        key: str,
        default: tuple[str, ...],
        what: str,
        same: Callable[[Any], object] | None = None,
    ) -> tuple[str, ...]:
        """A list of strings (:meth:`str_list`) none of which repeats another
        (:meth:`unique`)."""
        values = self.str_list(t, where, key, default)
        self.unique(f"{where}.{key}", values, what, same)
        return values

    def str_or_list(self, t: Mapping[str, Any], where: str, key: str, expected: str) -> list[str]:
        """A non-empty string or a list of them (default: none), as a list."""
        value = t.get(key, [])
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list) or not all(isinstance(x, str) and x for x in items):
            raise self.error(f"{where}.{key}", expected, value)
        return items

    def positive_ints(
        self,
        t: Mapping[str, Any],
        where: str,
        key: str,
        default: tuple[int, ...],
        *,
        non_empty: bool = False,
    ) -> tuple[int, ...]:
        """A list of positive integers (cutoffs); ``non_empty``: at least one."""
        value = t.get(key, list(default))
        if (
            not isinstance(value, list)
            or not all(type(k) is int and k > 0 for k in value)
            or (non_empty and not value)
        ):
            empty = "a non-empty" if non_empty else "a"
            raise self.error(f"{where}.{key}", f"{empty} list of positive integers", value)
        for i, k in enumerate(value):
            if k > INT64_MAX:  # TOML's integers are 64-bit; Python's parser reads any
                raise ConfigError(
                    f"{self.source}: {where}.{key}[{i}]: expected an integer of at most "
                    f"{INT64_MAX}, got {k} (out of range)"
                )
        self.unique(f"{where}.{key}", value, "a cutoff")
        return tuple(value)
