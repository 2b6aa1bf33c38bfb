"""Tidy and wide tables: CSV / TSV (fast pyarrow path), Parquet and JSON Lines.

A *tidy* table has one row per (query, metric): columns ``query, metric, value`` (also
spelled ``qid``/``query_id`` and ``measure``) and optionally ``system`` and ``dataset``.
A *wide* table has a query column and one column per metric.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

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
    read = _read_delimited(data, path, wide_roles, "metric", empty_is_null=True)
    roles, line = read.roles, read.line
    if read.table is not None:
        keys = {r: _strings(read.table.column(n)) for n, r in read.key_columns()}
        metric_cols = [read.table.column(n) for n in read.numeric_names()]
        values = np.column_stack([c.to_numpy().astype(np.float64) for c in metric_cols])
        present = ~np.column_stack([c.is_null().to_numpy() for c in metric_cols])
        lines = np.arange(read.table.num_rows, dtype=np.int64) + line + 1
    else:
        rows = read.slow_rows(data, path)
        keys = {r: np.array(c, dtype=object) for r, c in _slow_keys(rows, roles, "metric")}
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
    metrics = [h for h, r in zip(read.header, roles, strict=True) if r == "metric"]
    _check_metric_names(metrics, path, line)
    return _melt(keys, metrics, values, present, lines)


def read_tidy_text(data: bytes, path: str, *, require_system: bool = False) -> Parsed:
    """Read a tidy CSV/TSV; the delimiter comes from the extension or the header."""
    roles_of = _pyterrier_roles if require_system else tidy_roles
    # the distinct strings are checked below (dictionary_factor), not every cell
    read = _read_delimited(data, path, roles_of, "value", check_utf8=False)
    roles = read.roles
    if read.table is not None:
        factors = {r: dictionary_factor(read.table.column(n)) for n, r in read.key_columns()}
        if all(f is not None for f in factors.values()):
            (value_name,) = read.numeric_names()
            values = np.asarray(to_numpy(read.table.column(value_name)), np.float64)
            checked = {r: f for r, f in factors.items() if f is not None}
            return Parsed(factors=checked, values=values, first_line=read.line + 1)
    rows = read.slow_rows(data, path)
    cols: dict[str, list[str] | list[float]] = dict(_slow_keys(rows, roles, "value"))
    value_at = roles.index("value")
    cols["value"] = [parse_float(f[value_at], path, ln) for ln, f in rows]
    lines = np.array([ln for ln, _ in rows], dtype=np.int64)
    import pandas as pd

    return Parsed(frame=pd.DataFrame(cols), lines=lines)


def _pyterrier_roles(header: Sequence[str], path: str, line: int | None) -> list[str | None]:
    """The roles of a tidy header that must name the system (PyTerrier's)."""
    roles = tidy_roles(header, path, line)
    if "system" not in roles:
        raise InputError("expected a PyTerrier header name,qid,measure,value", path=path, line=line)
    return roles


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
    if wide:
        _check_metric_names(
            [n for n, r in zip(header, roles, strict=True) if r == numeric], path, None
        )
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
        values = np.column_stack([v for v, _ in numbers.values()])
        present = np.column_stack([p for _, p in numbers.values()])
        return _melt(keys, list(numbers), values, present, None)
    ((values, present),) = numbers.values()
    if not present.all():
        raise InputError("the value column has missing values", path=path)
    frame = pd.DataFrame({**{r: pd.Categorical(k) for r, k in keys.items()}, "value": values})
    return Parsed(frame=frame[[r for r in roles if r]])


# --- helpers ---------------------------------------------------------------------------


Roles = Callable[[Sequence[str], str, int | None], list[str | None]]


@dataclass(frozen=True)
class _Delimited:
    """A delimited table's header, its columns' roles and, where pyarrow read it (the
    fast path), its table; ``numeric`` is the role read as numbers."""

    delimiter: str
    line: int  # the header's line; row i of the table is on line ``line + i + 1``
    header: list[str]
    roles: list[str | None]
    numeric: str
    table: pa.Table | None

    def key_columns(self) -> list[tuple[str, str]]:
        """(column name in the table, role) of each key column (not numeric, not index)."""
        return [
            (n, r)
            for n, r in zip(_column_names(self.roles), self.roles, strict=True)
            if r and r != self.numeric
        ]

    def numeric_names(self) -> list[str]:
        """The table's names of the numeric columns, in order."""
        names = _column_names(self.roles)
        return [n for n, r in zip(names, self.roles, strict=True) if r == self.numeric]

    def slow_rows(self, data: bytes, path: str) -> list[tuple[int, list[str]]]:
        """The rows read by Python's csv (the exact path), after the header."""
        return _slow_rows(data, path, self.delimiter, self.header)


def _read_delimited(
    data: bytes,
    path: str,
    roles_of: Roles,
    numeric: str,
    *,
    empty_is_null: bool = False,
    check_utf8: bool = True,
) -> _Delimited:
    """The step both delimited readers take: the header (delimiter sniffed), the roles
    ``roles_of`` gives its columns, and pyarrow's read of the rows (``numeric`` columns
    as float64, the others as dictionary strings), None where pyarrow cannot."""
    head = decode_text(data[: data.find(b"\n") + 1 or len(data)], path)
    delimiter = sniff_delimiter(head, main_extension(path))
    quoting = delimiter != "\t"
    line, header = first_record(data, path, delimiter=delimiter, quoting=quoting)
    roles = roles_of(header, path, line)
    names = _column_names(roles)
    types = {
        n: (pa.float64() if r == numeric else DICT_STRING)
        for n, r in zip(names, roles, strict=True)
    }
    table = fast_read(
        data,
        names=names,
        skip_rows=line,
        delimiter=delimiter,
        quoting=quoting,
        types=types,
        empty_is_null=empty_is_null,
        check_utf8=check_utf8,
    )
    return _Delimited(delimiter, line, header, roles, numeric, table)


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


def _slow_keys(
    rows: Sequence[tuple[int, list[str]]], roles: Sequence[str | None], numeric: str
) -> list[tuple[str, list[str]]]:
    """(role, cells) of each key column of rows read on the exact path."""
    return [(r, [f[i] for _, f in rows]) for i, r in enumerate(roles) if r and r != numeric]


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
    """Metric names of a wide header are checked at the header, not at the first row:
    each must name a known measure, and no two the same one (``AP`` twice, or ``map`` and
    ``AP``)."""
    seen: dict[str, str] = {}
    for name in names:
        try:
            canonical = parse_measure(name.strip()).name
        except UnknownNameError as exc:
            raise UnknownNameError(exc.reason, path=path, line=line) from None
        if canonical in seen:
            first = seen[canonical]
            same = f"column {name!r} given twice"
            if first != name:
                same = f"columns {first!r} and {name!r} both name the measure {canonical}"
            raise InputError(f"{same}; keep one column per measure", path=path, line=line)
        seen[canonical] = name


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
