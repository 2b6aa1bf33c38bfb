"""From a reader's raw frame to a checked :class:`LoadedFile` (vectorised checks).

Metric names are resolved to canonical measures; values must be finite, in [0, 1] for
bounded measures and non-negative integers for counts; a (query, metric) pair may occur
once per file (per system and dataset when the file has those columns).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from irtables.errors import InputError, UnknownNameError
from irtables.loaders.base import (
    CONTROL_CHARACTERS,
    OPTIONAL_COLUMNS,
    LoadedFile,
    Parsed,
    check_name,
)
from irtables.measures import FAMILIES, Measure, parse_measure
from irtables.model.factor import Factor, combine_codes, repeated_rows
from irtables.model.parts import shape_of

if TYPE_CHECKING:
    import pandas as pd

#: Tolerance for values of bounded measures computed in floating point (1 + 1e-9 is ok).
BOUND_TOLERANCE = 1e-9
KEY_COLUMNS = (*OPTIONAL_COLUMNS, "query", "metric")


def finish(parsed: Parsed, path: str, fmt: str, *, bounds: bool = True) -> LoadedFile:
    """Resolve metric names, check values and keys, and build the :class:`LoadedFile`.

    With ``bounds`` false, values outside a measure's range (P@10 = 1.2) and counts that
    are no whole number are kept (for ``lint`` to report); non-finite values are errors.

    Raises
    ------
    InputError
        Naming the file, the line (where the format has lines) and what was expected.
    UnknownNameError
        For a metric name that no tool spells that way, with the closest known name.
    """
    raw, values = _columns(parsed)
    if not len(values):
        raise InputError("no per-query rows found; expected at least one", path=path)
    factors = {c: raw[c] for c in (*OPTIONAL_COLUMNS, "query") if c in raw}
    for column, factor in factors.items():
        _check_names(factor, column, path, parsed)
    factors["metric"], measures = _canonical(raw["metric"], path, parsed.line)
    _check_values(factors, values, measures, path, parsed, bounds=bounds)
    shape = None
    if set(factors) == {"query", "metric"} and all(f.codes.min() >= 0 for f in factors.values()):
        shape = shape_of(factors["query"], factors["metric"], values)
    if shape is None or not shape.regular:  # a regular part has each key once, in order
        _check_unique(factors, path, parsed)
    own = _summary(parsed, path)
    return LoadedFile(
        path=path,
        format=fmt,
        factors=factors,
        values=values,
        own_means=own,
        runid=parsed.runid,
        num_q=parsed.num_q,
        shape=shape,
    )


def _columns(parsed: Parsed) -> tuple[dict[str, Factor], npt.NDArray[np.float64]]:
    """The key columns of a reader's rows as factors, and their values."""
    if parsed.factors is not None and parsed.values is not None:
        return dict(parsed.factors), np.asarray(parsed.values, dtype=np.float64)
    frame = parsed.frame
    if frame is None:
        raise ValueError("a reader returned neither a frame nor factors")
    factors = {c: Factor.from_series(frame[c]) for c in KEY_COLUMNS if c in frame.columns}
    return factors, np.asarray(frame["value"], dtype=np.float64)


def _check_names(factor: Factor, what: str, path: str, parsed: Parsed) -> None:
    """Refuse empty names and names with control characters, naming the line of the
    first such row (an empty query id would count as one more query in every mean)."""
    for code, name in enumerate(factor.categories):
        if not name.strip():
            row = int(np.flatnonzero(factor.codes == code)[0])
            reason = f"empty {what} ({name!r}); every row needs one"
            raise InputError(reason, path=path, line=parsed.line(row))
    if not CONTROL_CHARACTERS.search(" ".join(factor.categories)):
        return  # one search over every name (the space between them is no control)
    for code, name in enumerate(factor.categories):
        if CONTROL_CHARACTERS.search(name):
            row = int(np.flatnonzero(factor.codes == code)[0])
            check_name(name, what, path, parsed.line(row))


def _canonical(
    metric: Factor, path: str, line_of: Callable[[int], int | None] | None
) -> tuple[Factor, list[Measure]]:
    """Map raw names to canonical ones (two spellings of one measure merge)."""
    measures: list[Measure] = []
    for i, name in enumerate(metric.categories):
        try:
            measures.append(parse_measure(name.strip()))
        except UnknownNameError as exc:
            row = int(np.flatnonzero(metric.codes == i)[0])
            line = line_of(row) if line_of is not None else None
            raise UnknownNameError(exc.reason, path=path, line=line) from None
    names = [m.name for m in measures]
    first: dict[str, int] = {}  # each canonical name's first raw spelling
    for i, n in enumerate(names):
        first.setdefault(n, i)
    unique = list(first)
    canonical = [measures[i] for i in first.values()]
    if unique == names:
        return Factor(tuple(names), metric.codes), canonical
    position = {n: j for j, n in enumerate(unique)}
    remap = np.array([position[n] for n in names], dtype=metric.codes.dtype)
    return Factor(tuple(unique), remap[metric.codes]), canonical


def _check_values(
    factors: Mapping[str, Factor],
    values: npt.NDArray[np.float64],
    measures: list[Measure],
    path: str,
    parsed: Parsed,
    *,
    bounds: bool = True,
) -> None:
    metric = factors["metric"]
    problem = first_bad_value(values, measures, metric.codes, bounds=bounds)
    if problem is None:
        return
    row, reason = problem
    query = factors["query"].categories[factors["query"].codes[row]]
    name = metric.categories[metric.codes[row]]
    where = f"query {query}" if f" for {name}," in reason else f"query {query}, metric {name}"
    raise InputError(f"{reason} ({where})", path=path, line=parsed.line(row))


def first_bad_value(
    values: npt.NDArray[np.float64],
    measures: list[Measure],
    codes: npt.NDArray[np.integer],
    *,
    bounds: bool = True,
) -> tuple[int, str] | None:
    """The first value that no measure can take, and why; None if every value is valid.

    Every value must be finite, in [0, 1] (within :data:`BOUND_TOLERANCE`) for a bounded
    measure and a non-negative integer for a count. ``codes[i]`` is the index in
    ``measures`` of the measure of ``values[i]``. With ``bounds`` false only finiteness
    is checked (``lint`` reports values out of range as violations of its own).

    Examples
    --------
    >>> from irtables.measures import parse_measure
    >>> ms = [parse_measure("AP"), parse_measure("num_rel")]
    >>> first_bad_value(np.array([0.5, 3.0, 5.0, 2.0]), ms, np.array([0, 1, 0, 1]))
    (2, 'expected a value in [0, 1] for AP, got 5')
    >>> first_bad_value(np.array([0.5, 3.0]), ms, np.array([0, 1])) is None
    True
    """
    counts_present = any(_is_count(m) for m in measures)
    low, high = (float(values.min()), float(values.max())) if len(values) else (0.0, 0.0)
    if not counts_present and low >= -BOUND_TOLERANCE and high <= 1 + BOUND_TOLERANCE:
        return None  # every value finite and in [0, 1]: nothing to check per row (NaN fails)
    bounded = np.array([m.bounded and bounds for m in measures], dtype=bool)[codes]
    counts = np.array([_is_count(m) for m in measures], dtype=bool)[codes]
    finite = np.isfinite(values)
    with np.errstate(invalid="ignore"):
        out_of_range = bounded & ((values < -BOUND_TOLERANCE) | (values > 1 + BOUND_TOLERANCE))
        bad_count = counts & ((values < 0) | (values != np.round(values))) & bounds
    bad = ~finite | out_of_range | bad_count
    if not bad.any():
        return None
    row = int(np.argmax(bad))
    value = float(values[row])
    name = measures[int(codes[row])].name
    if not finite[row]:
        return row, f"expected a finite number, got {value!r}"
    if out_of_range[row]:
        return row, f"expected a value in [0, 1] for {name}, got {value:g}"
    return row, f"expected a non-negative integer count for {name}, got {value:g}"


def _is_count(measure: Measure) -> bool:
    return measure.extra is None and FAMILIES[measure.family].count


def _check_unique(factors: Mapping[str, Factor], path: str, parsed: Parsed) -> None:
    columns = [c for c in KEY_COLUMNS if c in factors]
    sizes = [len(factors[c].categories) + 1 for c in columns]
    codes = [factors[c].codes.astype(np.intp) + 1 for c in columns]
    key, space = combine_codes(codes, sizes)
    repeats = repeated_rows(key, space)
    if not len(repeats):
        return
    row = int(repeats.min())  # the earliest row whose key came before
    first = int(np.flatnonzero(key == key[row])[0])
    name = {c: _name(factors[c], row) for c in columns}
    owner = "".join(f", {c} {name[c]}" for c in OPTIONAL_COLUMNS if c in factors)
    first_line = parsed.line(first)
    before = f" (first on line {first_line})" if first_line is not None else ""
    raise InputError(
        f"query {name['query']} has metric {name['metric']} twice{owner}{before}",
        path=path,
        line=parsed.line(row),
    )


def _name(factor: Factor, row: int) -> str:
    code = int(factor.codes[row])
    return factor.categories[code] if code >= 0 else "nan"


def _summary(parsed: Parsed, path: str) -> pd.DataFrame | None:
    raw = parsed.summary
    if raw is None or raw.empty:
        return None
    import pandas as pd

    lines: npt.NDArray[np.int64] = raw["line"].to_numpy(dtype=np.int64)
    metric, _ = _canonical(Factor.from_series(raw["metric"]), path, lambda i: int(lines[i]))
    values = raw["value"].to_numpy(dtype=np.float64)
    if not np.isfinite(values).all():
        row = int(np.argmax(~np.isfinite(values)))
        reason = f"expected a finite number, got {float(values[row])!r}"
        raise InputError(reason, path=path, line=int(lines[row]))
    names = pd.Series(metric.names(), dtype=object).astype(str)
    out = pd.DataFrame({"metric": names, "value": values})
    if "system" in raw.columns:
        out.insert(0, "system", raw["system"].astype(str).to_numpy())
    return out
