"""From a reader's raw frame to a checked :class:`LoadedFile` (vectorised checks).

Metric names are resolved to canonical measures; values must be finite, in [0, 1] for
bounded measures and non-negative integers for counts; a (query, metric) pair may occur
once per file (per system and dataset when the file has those columns).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pandas as pd

from irtables.errors import InputError, UnknownNameError
from irtables.loaders.base import (
    CONTROL_CHARACTERS,
    OPTIONAL_COLUMNS,
    LoadedFile,
    Parsed,
    check_name,
)
from irtables.measures import FAMILIES, Measure, parse_measure
from irtables.model.results import combine_codes, distinct_keys

#: Tolerance for values of bounded measures computed in floating point (1 + 1e-9 is ok).
BOUND_TOLERANCE = 1e-9
KEY_COLUMNS = (*OPTIONAL_COLUMNS, "query", "metric")


def finish(parsed: Parsed, path: str, fmt: str) -> LoadedFile:
    """Resolve metric names, check values and keys, and build the :class:`LoadedFile`.

    Raises
    ------
    InputError
        Naming the file, the line (where the format has lines) and what was expected.
    UnknownNameError
        For a metric name that no tool spells that way, with the closest known name.
    """
    frame = parsed.frame
    if frame.empty:
        raise InputError("no per-query rows found; expected at least one", path=path)
    columns = [c for c in (*OPTIONAL_COLUMNS, "query") if c in frame.columns]
    out = pd.DataFrame({c: _category(frame[c]) for c in columns})
    for column in columns:
        _check_names(out[column], column, path, parsed)
    metric, measures = _canonical(_category(frame["metric"]), path, parsed.line)
    out["metric"] = metric
    out["value"] = np.asarray(frame["value"], dtype=np.float64)
    _check_values(out, measures, path, parsed)
    _check_unique(out, path, parsed)
    summary = _summary(parsed, path)
    return LoadedFile(path=path, format=fmt, frame=out, summary=summary, runid=parsed.runid)


def _category(series: pd.Series) -> pd.Series:
    if isinstance(series.dtype, pd.CategoricalDtype):
        cats = series.cat.categories
        if pd.api.types.is_string_dtype(cats.dtype) and not cats.hasnans:
            return series.reset_index(drop=True)
        return series.astype(str).astype("category").reset_index(drop=True)
    return series.astype(str).astype("category").reset_index(drop=True)


def _check_names(column: pd.Series, what: str, path: str, parsed: Parsed) -> None:
    """Refuse names with control characters, naming the line of the first such row."""
    for code, name in enumerate(column.cat.categories):
        if CONTROL_CHARACTERS.search(str(name)):
            row = int(np.flatnonzero(column.cat.codes.to_numpy() == code)[0])
            check_name(str(name), what, path, parsed.line(row))


def _canonical(metric: pd.Series, path: str, line_of: object) -> tuple[pd.Series, list[Measure]]:
    """Map raw names to canonical ones (two spellings of one measure merge)."""
    raw = [str(c) for c in metric.cat.categories]
    codes = metric.cat.codes.to_numpy()
    measures: list[Measure] = []
    for i, name in enumerate(raw):
        try:
            measures.append(parse_measure(name.strip()))
        except UnknownNameError as exc:
            row = int(np.flatnonzero(codes == i)[0])
            line = line_of(row) if callable(line_of) else None
            raise UnknownNameError(exc.reason, path=path, line=line) from None
    names = [m.name for m in measures]
    unique = list(dict.fromkeys(names))
    remap = np.array([unique.index(n) for n in names], dtype=np.int64)
    new_codes = remap[codes] if len(remap) else codes
    cat = pd.Categorical.from_codes(new_codes, categories=pd.Index(unique, dtype=str))
    canonical = [measures[names.index(n)] for n in unique]
    return pd.Series(cat, name="metric"), canonical


def _check_values(frame: pd.DataFrame, measures: list[Measure], path: str, parsed: Parsed) -> None:
    values = frame["value"].to_numpy()
    codes = frame["metric"].cat.codes.to_numpy()
    bounded = np.array([m.bounded for m in measures], dtype=bool)[codes]
    counts = np.array([_is_count(m) for m in measures], dtype=bool)[codes]
    finite = np.isfinite(values)
    with np.errstate(invalid="ignore"):
        out_of_range = bounded & ((values < -BOUND_TOLERANCE) | (values > 1 + BOUND_TOLERANCE))
        bad_count = counts & ((values < 0) | (values != np.round(values)))
    bad = ~finite | out_of_range | bad_count
    if not bad.any():
        return
    row = int(np.argmax(bad))
    value = float(values[row])
    name = str(frame["metric"].iloc[row])
    query = str(frame["query"].iloc[row])
    if not finite[row]:
        reason = f"expected a finite number, got {value!r} (query {query}, metric {name})"
    elif out_of_range[row]:
        reason = f"expected a value in [0, 1] for {name}, got {value:g} (query {query})"
    else:
        reason = f"expected a non-negative integer count for {name}, got {value:g} (query {query})"
    raise InputError(reason, path=path, line=parsed.line(row))


def _is_count(measure: Measure) -> bool:
    return measure.extra is None and FAMILIES[measure.family].count


def _check_unique(frame: pd.DataFrame, path: str, parsed: Parsed) -> None:
    columns = [c for c in KEY_COLUMNS if c in frame.columns]
    sizes = [len(frame[c].cat.categories) + 1 for c in columns]
    codes = [frame[c].cat.codes.to_numpy().astype(np.intp) + 1 for c in columns]
    key, space = combine_codes(codes, sizes)
    if len(distinct_keys(key, space)) == len(key):
        return
    dup = pd.Series(key).duplicated().to_numpy()
    row = int(np.argmax(dup))
    first = int(np.flatnonzero(key == key[row])[0])
    rec = frame.iloc[row]
    owner = "".join(f", {c} {rec[c]}" for c in OPTIONAL_COLUMNS if c in frame.columns)
    first_line = parsed.line(first)
    before = f" (first on line {first_line})" if first_line is not None else ""
    raise InputError(
        f"query {rec['query']} has metric {rec['metric']} twice{owner}{before}",
        path=path,
        line=parsed.line(row),
    )


def _summary(parsed: Parsed, path: str) -> pd.DataFrame:
    raw = parsed.summary
    if raw is None or raw.empty:
        return pd.DataFrame({"metric": pd.Series([], dtype=str), "value": _no_values()})
    lines: npt.NDArray[np.int64] = raw["line"].to_numpy(dtype=np.int64)
    metric, _ = _canonical(_category(raw["metric"]), path, lambda i: int(lines[i]))
    values = raw["value"].to_numpy(dtype=np.float64)
    if not np.isfinite(values).all():
        row = int(np.argmax(~np.isfinite(values)))
        reason = f"expected a finite number, got {float(values[row])!r}"
        raise InputError(reason, path=path, line=int(lines[row]))
    out = pd.DataFrame({"metric": metric.astype(str), "value": values})
    if "system" in raw.columns:
        out.insert(0, "system", raw["system"].astype(str).to_numpy())
    return out


def _no_values() -> pd.Series:
    return pd.Series([], dtype="float64")
