"""The schema of a table section's keys: :class:`Key` records, nested ones included.

A :class:`Key` says what a key means, what its value must be (``type``) and, for an
array of tables (``groups = [{...}]``), the keys of each entry (``entries``). The reader
checks an entry against it (:func:`checked_entries`: unknown keys, with the closest
known one, and the type of each value), and the configuration reference lists each
entry's keys as a section of its own (:func:`entry_sections`): one schema for both.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from irtables.config.reader import TomlReader

#: What a value of each simple type must be (the words of the reader's errors), and the
#: test of a value. An ``array of tables`` is checked by its reader
#: (:func:`checked_entries`), which names the entry that is not a table.
TYPES: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "string": ("a string", lambda v: isinstance(v, str)),
    "list of strings": (
        "a list of strings",
        lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
    ),
    "boolean": ("true or false", lambda v: isinstance(v, bool)),
    "integer": ("an integer", lambda v: type(v) is int),
}


@dataclass(frozen=True)
class Key:
    """A key of a ``[tables.<name>]`` section (or of an entry of one of its arrays of
    tables) and what it means (a sentence, or a function writing it from the
    registries): the parser accepts it, the configuration reference describes it (with
    its default when ``field`` names the :class:`~irtables.config.tables.TableSpec`
    field it fills). A key several layouts take is one :class:`Key`, described once.

    ``type``: what its value must be (a key of :data:`TYPES`; ``"array of tables"``,
    read by :func:`checked_entries`; or words of the reference only, such as ``"list of
    dataset ids or tables"``; empty: not said). ``entries``: the keys of each table of
    its array (``groups = [{name, systems}]``).
    """

    name: str
    description: str | Callable[[], str]
    #: The :class:`TableSpec` field the key fills, when the reference shows its default
    #: (the field's value in a built-in section the file does not write).
    field: str = ""
    type: str = ""
    entries: tuple[Key, ...] = ()

    @property
    def text(self) -> str:
        """The description, written out."""
        return self.description if isinstance(self.description, str) else self.description()

    @property
    def entry_names(self) -> set[str]:
        """The keys an entry of its array of tables may have."""
        return {k.name for k in self.entries}


def entry_sections(section: str, keys: Iterable[Key]) -> dict[str, dict[str, Key]]:
    """The sections of the entries of ``keys`` that are arrays of tables, by name as the
    configuration reference titles them (``tables.<name>.groups[]``), each followed by
    those of its own entries; keys sorted.

    Examples
    --------
    >>> rows = Key("rows", "Rows.", entries=(Key("system", "Its id."),))
    >>> groups = Key("groups", "Groups.", entries=(Key("name", "Heading."), rows))
    >>> {s: list(k) for s, k in entry_sections("t", [groups]).items()}
    {'t.groups[]': ['name', 'rows'], 't.groups[].rows[]': ['system']}
    """
    out: dict[str, dict[str, Key]] = {}
    for key in keys:
        if key.entries:
            where = f"{section}.{key.name}[]"
            out[where] = {k.name: k for k in sorted(key.entries, key=lambda k: k.name)}
            out |= entry_sections(where, key.entries)
    return out


def check_types(r: TomlReader, t: Mapping[str, Any], where: str, keys: Iterable[Key]) -> None:
    """Refuse a value of ``t`` that is not of its key's ``type`` (a type of
    :data:`TYPES`), naming the key and what it must be."""
    for key in keys:
        found = TYPES.get(key.type)
        if key.name in t and found is not None and not found[1](t[key.name]):
            raise r.error(f"{where}.{key.name}", found[0], t[key.name])


def checked_entries(
    r: TomlReader,
    items: Any,
    where: str,
    key: Key,
    expected: tuple[str, str],
    *,
    non_empty: bool = False,
) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """The tables of the array of tables ``items`` of ``key`` (at ``where``), each with
    its place (``where[i]``), checked against the key's schema: only keys of its
    ``entries`` (else an unknown-key error naming them), each value of its type.
    ``expected`` says what the array and an entry must be, for the errors."""
    for at, t in r.tables(items, where, *expected, key.entry_names, non_empty=non_empty):
        check_types(r, t, at, key.entries)
        yield at, t
