"""Tidy and wide tables: CSV / TSV (fast pyarrow path), Parquet and JSON Lines.

A *tidy* table has one row per (query, metric): columns ``query, metric, value`` (also
spelled ``qid``/``query_id`` and ``measure``) and optionally ``system`` and ``dataset``.
A *wide* table has a query column and one column per metric.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from irtables.base.arrow import to_numpy
from irtables.base.numbers import json_number, reject_json_constant
from irtables.errors import InputError, UnknownNameError
from irtables.loaders.base import Parsed, check_not_empty
from irtables.loaders.columns import tidy_roles, wide_roles
from irtables.loaders.delimited import (
    DICT_STRING,
    dictionary_factor,
    fast_read,
    field_count_message,
    first_record,
    parse_float,
    records,
    sniff_delimiter,
)
from irtables.loaders.source import (
    PARQUET_MAGIC,
    decode_text,
    main_extension,
    nonblank_lines,
)
from irtables.measures import parse_measure

_JSON_START = re.compile(rb"\s*\{")  # JSON Lines: whitespace, then an object (no copy)
TIDY_EXPECTED = "a header with query, metric, value and one row per (query, metric)"


def read_tidy(data: bytes, path: str) -> Parsed:
    """Read a tidy table: Parquet, JSON Lines or delimited text, chosen by content.

    Examples
    --------
    >>> p = read_tidy(b"qid,measure,value\\n0301,P_10,0.5\\n", "x.csv")
    >>> p.as_frame().astype({"query": str, "metric": str}).values.tolist()
    [['0301', 'P_10', 0.5]]
    """
    if data.startswith(PARQUET_MAGIC):
        return read_parquet(data, path, wide=False)
    check_not_empty(data, path, TIDY_EXPECTED)
    if main_extension(path) in ("jsonl", "ndjson") or _JSON_START.match(data):
        return read_jsonl(data, path)
    return read_tidy_text(data, path)


def read_wide(data: bytes, path: str) -> Parsed:
    """Read a wide table (query column + one column per metric): CSV, TSV or Parquet.

    An empty cell means the metric was not computed for that query: no row.

    Examples
    --------
    >>> p = read_wide(b"qid\\tP_10\\tmap\\n1\\t0.5\\t0.25\\n", "x.tsv")
    >>> p.as_frame().astype({"query": str, "metric": str}).values.tolist()
    [['1', 'P_10', 0.5], ['1', 'map', 0.25]]
    """
    if data.startswith(PARQUET_MAGIC):
        return read_parquet(data, path, wide=True)
    check_not_empty(data, path, "a header with a query column and one column per metric")
    delimiter, (line, header) = _header(data, path)
    roles = wide_roles(header, path, line)
    names = _column_names(roles)
    types = {
        n: (pa.float64() if r == "metric" else DICT_STRING)
        for n, r in zip(names, roles, strict=True)
    }
    table = fast_read(
        data,
        names=names,
        skip_rows=line,
        delimiter=delimiter,
        quoting=delimiter != "\t",
        types=types,
        empty_is_null=True,
    )
    if table is not None:
        keys = {
            r: _strings(table.column(n))
            for n, r in zip(names, roles, strict=True)
            if r and r != "metric"
        }
        metric_cols = [table.column(n) for n, r in zip(names, roles, strict=True) if r == "metric"]
        values = np.column_stack([c.to_numpy().astype(np.float64) for c in metric_cols])
        present = ~np.column_stack([c.is_null().to_numpy() for c in metric_cols])
        lines = np.arange(table.num_rows, dtype=np.int64) + line + 1
    else:
        rows = _slow_rows(data, path, delimiter, header)
        keys = {
            r: np.array([f[i] for _, f in rows], dtype=object)
            for i, r in enumerate(roles)
            if r and r != "metric"
        }
        lines = np.array([ln for ln, _ in rows], dtype=np.int64)
        cells = [[f[i] for _, f in rows] for i, r in enumerate(roles) if r == "metric"]
        present = np.column_stack([[c.strip() != "" for c in col] for col in cells])
        values = np.column_stack(
            [
                [
                    parse_float(c, path, ln) if c.strip() else np.nan
                    for c, ln in zip(col, lines, strict=True)
                ]
                for col in cells
            ]
        )
    metrics = [h for h, r in zip(header, roles, strict=True) if r == "metric"]
    _check_metric_names(metrics, path, line)
    return _melt(keys, metrics, values, present, lines)


def read_tidy_text(data: bytes, path: str, *, require_system: bool = False) -> Parsed:
    """Read a tidy CSV/TSV; the delimiter comes from the extension or the header."""
    delimiter, (line, header) = _header(data, path)
    roles = tidy_roles(header, path, line)
    if require_system and "system" not in roles:
        raise InputError("expected a PyTerrier header name,qid,measure,value", path=path, line=line)
    names = _column_names(roles)
    types = {
        n: (pa.float64() if r == "value" else DICT_STRING)
        for n, r in zip(names, roles, strict=True)
    }
    table = fast_read(
        data,
        names=names,
        skip_rows=line,
        delimiter=delimiter,
        quoting=delimiter != "\t",
        types=types,
        check_utf8=False,  # the distinct strings are checked below
    )
    if table is not None:
        factors = {
            r: dictionary_factor(table.column(n))
            for n, r in zip(names, roles, strict=True)
            if r and r != "value"
        }
        if all(f is not None for f in factors.values()):
            values = np.asarray(to_numpy(table.column(names[roles.index("value")])), np.float64)
            checked = {r: f for r, f in factors.items() if f is not None}
            return Parsed(factors=checked, values=values, first_line=line + 1)
    rows = _slow_rows(data, path, delimiter, header)
    cols: dict[str, list[str] | list[float]] = {}
    value_at = roles.index("value")
    for i, role in enumerate(roles):
        if role is not None and role != "value":
            cols[role] = [f[i] for _, f in rows]
    cols["value"] = [parse_float(f[value_at], path, ln) for ln, f in rows]
    lines = np.array([ln for ln, _ in rows], dtype=np.int64)
    import pandas as pd

    return Parsed(frame=pd.DataFrame(cols), lines=lines)


def read_jsonl(data: bytes, path: str) -> Parsed:
    """Read JSON Lines: one object per line with query, metric, value keys."""
    rows: list[dict[str, object]] = []
    lines: list[int] = []
    roles: list[str | None] | None = None
    keys: list[str] = []
    for n, raw in nonblank_lines(decode_text(data, path)):
        try:
            obj = json.loads(raw, parse_constant=reject_json_constant)
        except json.JSONDecodeError as exc:
            raise InputError(f"invalid JSON: {exc.msg}", path=path, line=n) from exc
        except RecursionError:
            raise InputError("invalid JSON: nested too deeply", path=path, line=n) from None
        except ValueError as exc:  # NaN, Infinity
            raise InputError(f"invalid JSON: {exc}", path=path, line=n) from None
        if not isinstance(obj, dict):
            raise InputError("expected a JSON object per line", path=path, line=n)
        if roles is None:
            keys = list(obj)
            roles = tidy_roles(keys, path, n)
        elif list(obj) != keys and sorted(obj) != sorted(keys):
            raise InputError(f"expected the keys {', '.join(keys)}", path=path, line=n)
        rows.append(obj)
        lines.append(n)
    if roles is None:
        raise InputError(f"empty file; expected {TIDY_EXPECTED}", path=path)
    cols: dict[str, list[object]] = {}
    for key, role in zip(keys, roles, strict=True):
        if role is not None:
            cols[role] = [
                _json_field(r[key], role, path, ln) for r, ln in zip(rows, lines, strict=True)
            ]
    import pandas as pd

    return Parsed(frame=pd.DataFrame(cols), lines=np.array(lines, dtype=np.int64))


def read_parquet(data: bytes, path: str, *, wide: bool) -> Parsed:
    """Read a Parquet table; integer query ids become strings."""
    import pandas as pd
    import pyarrow.parquet as pq

    from irtables.loaders.source import check_parquet_size

    try:
        parquet = pq.ParquetFile(pa.BufferReader(data))
        check_parquet_size(parquet, len(data), path)
        table = parquet.read()
    except (pa.ArrowException, OSError) as exc:
        raise InputError(f"unreadable Parquet file: {exc}", path=path) from exc
    header = table.column_names
    roles = wide_roles(header, path, None) if wide else tidy_roles(header, path, None)
    numeric = "metric" if wide else "value"
    numbers = {
        n: _parquet_floats(table.column(n), n, path)
        for n, r in zip(header, roles, strict=True)
        if r == numeric
    }
    keys = {
        r: _parquet_strings(table.column(n), n, path)
        for n, r in zip(header, roles, strict=True)
        if r and r != numeric
    }
    if wide:
        _check_metric_names(list(numbers), path, None)
        values = np.column_stack([v for v, _ in numbers.values()])
        present = np.column_stack([p for _, p in numbers.values()])
        return _melt(keys, list(numbers), values, present, None)
    ((values, present),) = numbers.values()
    if not present.all():
        raise InputError("the value column has missing values", path=path)
    frame = pd.DataFrame({**{r: pd.Categorical(k) for r, k in keys.items()}, "value": values})
    return Parsed(frame=frame[[r for r in roles if r]])


# --- helpers ---------------------------------------------------------------------------


def _header(data: bytes, path: str) -> tuple[str, tuple[int, list[str]]]:
    head = decode_text(data[: data.find(b"\n") + 1 or len(data)], path)
    delimiter = sniff_delimiter(head, main_extension(path))
    return delimiter, first_record(data, path, delimiter=delimiter, quoting=delimiter != "\t")


def _column_names(roles: Sequence[str | None]) -> list[str]:
    return [f"c{i}_{r or 'index'}" for i, r in enumerate(roles)]


def _slow_rows(
    data: bytes, path: str, delimiter: str, header: Sequence[str]
) -> list[tuple[int, list[str]]]:
    rows = list(records(data, path, delimiter=delimiter, quoting=delimiter != "\t"))[1:]
    for line, fields in rows:
        if len(fields) != len(header):
            raise InputError(
                field_count_message([h or "index" for h in header], len(fields), delimiter),
                path=path,
                line=line,
            )
    return rows


def _melt(
    keys: dict[str, npt.NDArray[np.object_]],
    metrics: Sequence[str],
    values: npt.NDArray[np.float64],
    present: npt.NDArray[np.bool_],
    lines: npt.NDArray[np.int64] | None,
) -> Parsed:
    """Wide matrix -> tidy rows, row-major (every metric of row 1, then of row 2 ...)."""
    import pandas as pd

    n_rows, n_metrics = values.shape
    keep = present.ravel().astype(bool)  # a header without rows stacks to float64
    frame = {role: np.repeat(col, n_metrics)[keep] for role, col in keys.items()}
    codes = np.tile(np.arange(n_metrics), n_rows)[keep]
    out = pd.DataFrame(
        {
            **frame,
            "metric": pd.Categorical.from_codes(codes, categories=pd.Index(list(metrics))),
            "value": values.ravel()[keep],
        }
    )
    row_lines = None if lines is None else np.repeat(lines, n_metrics)[keep]
    return Parsed(frame=out, lines=row_lines)


def _check_metric_names(names: Sequence[str], path: str, line: int | None) -> None:
    """Metric names of a wide header are checked at the header, not at the first row."""
    for name in names:
        try:
            parse_measure(name.strip())
        except UnknownNameError as exc:
            raise UnknownNameError(exc.reason, path=path, line=line) from None


def _strings(column: pa.ChunkedArray) -> npt.NDArray[np.object_]:
    return np.asarray(column.cast(pa.string()).to_pylist(), dtype=object)


def _parquet_strings(column: pa.ChunkedArray, name: str, path: str) -> npt.NDArray[np.object_]:
    if column.null_count:
        raise InputError(f"column {name!r} has {column.null_count} missing value(s)", path=path)
    kind = column.type.value_type if pa.types.is_dictionary(column.type) else column.type
    if not (
        pa.types.is_integer(kind) or pa.types.is_string(kind) or pa.types.is_large_string(kind)
    ):
        raise InputError(f"expected strings or integers in column {name!r}, got {kind}", path=path)
    return _strings(column)


def _parquet_floats(
    column: pa.ChunkedArray, name: str, path: str
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
    if not (pa.types.is_floating(column.type) or pa.types.is_integer(column.type)):
        raise InputError(f"expected numbers in column {name!r}, got {column.type}", path=path)
    present = ~np.asarray(column.is_null().to_numpy(), dtype=bool)
    values = column.cast(pa.float64()).to_numpy()
    return np.asarray(values, dtype=np.float64), present


def _json_field(value: object, role: str, path: str, line: int) -> object:
    if role == "value":
        return json_number(value, path, line, what="a number as value")
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise InputError(
            f"expected a string or integer as {role}, got {value!r}", path=path, line=line
        )
    return str(value)
