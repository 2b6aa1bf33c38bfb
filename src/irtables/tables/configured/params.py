"""Parameters read from system ids (``bm25_k1=0.9_b=0.4``) or given in the configuration."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from irtables.base.numbers import NUMBER_PATTERN
from irtables.config.tables import TableSpec
from irtables.errors import IrtablesError

_FIRST = re.compile(r"(?:^|_)([A-Za-z][A-Za-z0-9.]*)=")
_NEXT = re.compile(r"_([A-Za-z][A-Za-z0-9_.]*)=")


@dataclass(frozen=True)
class SystemParams:
    """A system id split into its base name and its ``name=value`` parameters."""

    system: str
    base: str
    values: dict[str, str]


def parse_system_id(system: str) -> SystemParams:
    """Split ``bm25_k1=0.9_b=0.4`` into the base ``bm25`` and ``{k1: 0.9, b: 0.4}``.

    Values run to the next ``_`` (or the end); a parameter name after the first may
    itself contain ``_`` (``dense_lr=1e-5_warmup_steps=100``). An id without ``=`` has no
    parameters.

    Examples
    --------
    >>> p = parse_system_id("bm25_k1=0.9_b=0.4")
    >>> p.base, p.values
    ('bm25', {'k1': '0.9', 'b': '0.4'})
    >>> parse_system_id("dense_lr=1e-5_warmup_steps=100").values
    {'lr': '1e-5', 'warmup_steps': '100'}
    >>> parse_system_id("monot5").values
    {}
    """
    first = _FIRST.search(system)
    if first is None:
        return SystemParams(system, system, {})
    base = system[: first.start()]
    values: dict[str, str] = {}
    name, pos = first.group(1), first.end()
    while True:
        following = _NEXT.search(system, pos)
        end = following.start() if following else len(system)
        values[name] = system[pos:end]
        if following is None:
            break
        name, pos = following.group(1), following.end()
    return SystemParams(system, base, values)


def sort_key(value: str) -> tuple[int, float, str]:
    """Numbers in numeric order before other values in text order.

    A number is written as irtables reads numbers everywhere (ASCII digits, an optional
    sign, point and exponent) and is finite; ``nan``, ``inf``, ``1e999``, ``0x10`` or
    ``1_000`` are text, so every key compares (a NaN key would make the order arbitrary).

    Examples
    --------
    >>> sorted(["10", "9.5", "auto", "nan", "1e999", "0.90"], key=sort_key)
    ['0.90', '9.5', '10', '1e999', 'auto', 'nan']
    >>> sort_key("0.9") == sort_key("0.90")
    True
    """
    if re.fullmatch(NUMBER_PATTERN, value) is not None:
        number = float(value)
        if math.isfinite(number):
            return (0, number, "")
    return (1, 0.0, value)


def sweep(spec: TableSpec, systems: Sequence[str]) -> list[SystemParams]:
    """The systems of a sensitivity table with the values of its parameters.

    From ``points`` in the configuration when given; otherwise from the ids of
    ``systems`` that carry every parameter of ``spec.parameters`` (and whose base name is
    ``spec.system``, when set). Other parameters must be constant or fixed by
    ``spec.fixed``: two systems at the same point are an error naming both.
    """
    where = f"tables.{spec.name}"
    if spec.points:
        known = set(systems)
        points = []
        for p in spec.points:
            if p.system not in known:
                raise IrtablesError(
                    f"{where}.points: system {p.system!r} has no results "
                    f"(known: {', '.join(systems)})"
                )
            points.append(SystemParams(p.system, p.system, dict(p.values)))
        return _unique(points, spec.parameters, where)
    fixed = dict(spec.fixed)
    found = []
    carrying = []  # the systems that carry every parameter, whatever their fixed values
    for system in systems:
        parsed = parse_system_id(system)
        if spec.system is not None and parsed.base != spec.system:
            continue
        if not all(name in parsed.values for name in spec.parameters):
            continue
        carrying.append(parsed)
        if any(
            n in parsed.values and sort_key(parsed.values[n]) != sort_key(v)
            for n, v in fixed.items()
        ):
            continue
        found.append(parsed)
    if not found and carrying:
        raise IrtablesError(f"{where}.fixed: {_no_run_at(fixed, carrying)}")
    if not found:
        names = " and ".join(spec.parameters)
        raise IrtablesError(
            f"{where}: no system id carries {names} (expected ids like "
            f"bm25_{spec.parameters[0]}=0.9; or list them in {where}.points)"
        )
    return _unique(found, spec.parameters, where)


def _no_run_at(fixed: dict[str, str], carrying: list[SystemParams]) -> str:
    """Which fixed value no system has, and the values there are: ``no run has depth =
    999 (depth: 100, 1000)``."""
    for name, value in fixed.items():
        values = {p.values[name] for p in carrying if name in p.values}
        if not values:
            return f"no run has {name} = {value}: no system id carries {name}"
        if sort_key(value) not in {sort_key(v) for v in values}:
            there = ", ".join(sorted(values, key=sort_key))
            return f"no run has {name} = {value} (values of {name}: {there})"
    pairs = ", ".join(f"{n} = {v}" for n, v in fixed.items())
    return f"no run has {pairs} at once"


def _unique(
    points: list[SystemParams], parameters: Sequence[str], where: str
) -> list[SystemParams]:
    seen: dict[tuple[str, ...], str] = {}
    for p in points:
        key = tuple(p.values[n] for n in parameters)
        if key in seen:
            others = sorted(set(p.values) - set(parameters))
            hint = f"; fix {', '.join(others)} with {where}.fixed" if others else ""
            point = ", ".join(f"{n}={v}" for n, v in zip(parameters, key, strict=True))
            raise IrtablesError(
                f"{where}: systems {seen[key]} and {p.system} are both at {point}{hint}"
            )
        seen[key] = p.system
    return points
