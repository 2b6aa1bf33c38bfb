"""Strict numbers, shared by every loader: what trec_eval and pandas users mean by one.

Python's ``float`` reads ``0.2_5`` as 0.25, full-width ``０.５`` as 0.5 and ``nan``;
``int`` reads ``1_0`` as 10; pyarrow reads ``0x10`` as an integer 16; pandas casts a
grade of ``1e30`` to a negative int64. None of these is a number in a result file.
Here a number is ASCII: an optional sign, digits with an optional decimal point, an
optional exponent (``[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?``), surrounded by spaces
at most, and finite; an integer (a relevance grade) is an optional sign and digits,
within int64. Anything else is an :class:`~irtables.errors.InputError` naming the file
and line.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from irtables.base.arrow import to_numpy
from irtables.errors import InputError

if TYPE_CHECKING:  # pandas is imported where a column is read
    import pandas as pd

NUMBER_PATTERN = r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
INTEGER_PATTERN = r"[+-]?[0-9]+"
_INT64 = (-(2**63), 2**63 - 1)
LineOf = Callable[[int], int | None]


def parse_number(text: str, path: str, line: int | None, what: str = "a number") -> float:
    """A finite number written as trec_eval writes one, else an error naming file:line.

    Examples
    --------
    >>> parse_number(" 0.25", "x", 1), parse_number("1e-3", "x", 1), parse_number("-.5", "x", 1)
    (0.25, 0.001, -0.5)
    >>> parse_number("0.2_5", "run.tsv", 3, "a number as value")
    Traceback (most recent call last):
    ...
    irtables.errors.InputError: run.tsv:3: expected a number as value, got '0.2_5'
    """
    stripped = text.strip(" \t\r\n")
    if re.fullmatch(NUMBER_PATTERN, stripped) is None:
        raise InputError(f"expected {what}, got {text!r}", path=path, line=line)
    value = float(stripped)
    if not math.isfinite(value):
        raise InputError(f"expected {what}, got {text!r} (out of range)", path=path, line=line)
    return value


def parse_integer(text: str, path: str, line: int | None, what: str = "an integer") -> int:
    """An integer within int64 (a relevance grade), else an error naming file:line.

    Examples
    --------
    >>> parse_integer("2", "q", 1), parse_integer("-1", "q", 1)
    (2, -1)
    >>> parse_integer("1e30", "qrels", 7, "an integer relevance grade in column 4")
    Traceback (most recent call last):
    ...
    irtables.errors.InputError: qrels:7: expected an integer relevance grade in column 4, got '1e30'
    """
    stripped = text.strip(" \t\r\n")
    if re.fullmatch(INTEGER_PATTERN, stripped) is None:
        raise InputError(f"expected {what}, got {text!r}", path=path, line=line)
    value = int(stripped)
    if not _INT64[0] <= value <= _INT64[1]:
        raise InputError(f"expected {what}, got {text!r} (out of range)", path=path, line=line)
    return value


def json_number(
    value: object, path: str, line: int | None, *, what: str = "a number", where: str = ""
) -> float:
    """A JSON value that is a finite number (not a boolean, not a string, not 1e400).

    Examples
    --------
    >>> json_number(0.5, "x.json", 1), json_number(1, "x.json", 1)
    (0.5, 1.0)
    >>> json_number("0.5", "x.json", 2, what="a number as value")
    Traceback (most recent call last):
    ...
    irtables.errors.InputError: x.json:2: expected a number as value, got '0.5'
    """
    number = math.nan
    if not isinstance(value, bool) and isinstance(value, int | float):
        try:
            number = float(value)
        except OverflowError:
            number = math.inf
    if not math.isfinite(number):
        raise InputError(f"{where}expected {what}, got {value!r}", path=path, line=line)
    return number


def reject_json_constant(name: str) -> float:
    """``parse_constant`` for :func:`json.loads`: ``NaN`` and ``Infinity`` are not numbers."""
    raise ValueError(f"{name} is not a number")


def numbers_from_strings(
    values: pa.Array | pa.ChunkedArray | Sequence[str], path: str, line_of: LineOf, what: str
) -> npt.NDArray[np.float64]:
    """Strictly parse a column of strings into finite float64 (vectorised).

    Examples
    --------
    >>> numbers_from_strings(["1", " .5", "2e1"], "x", lambda i: i + 2, "a score").tolist()
    [1.0, 0.5, 20.0]
    """
    strings = _strings(values)
    _check_pattern(strings, NUMBER_PATTERN, path, line_of, what)
    out = to_numpy(pc.cast(pc.utf8_trim_whitespace(strings), pa.float64())).astype(np.float64)
    check_finite(out, path, line_of, what, original=strings)
    return out


def numbers_from_column(
    column: pd.Series, path: str, line_of: LineOf, what: str, *, finite: bool = True
) -> npt.NDArray[np.float64]:
    """Strictly parsed numbers of a pandas column: a numeric one as float64 (checked to
    be finite unless ``finite`` is False), anything else (booleans too) as strings read
    by :func:`numbers_from_strings`.

    Examples
    --------
    >>> import pandas as pd
    >>> numbers_from_column(pd.Series(["1", ".5"]), "x", lambda i: i + 2, "a score").tolist()
    [1.0, 0.5]
    """
    import pandas as pd

    if pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column):
        values = column.to_numpy(dtype=np.float64)
        if finite:
            check_finite(values, path, line_of, what)
        return values
    return numbers_from_strings(column.astype(str).tolist(), path, line_of, what)


def integers_from_strings(
    values: pa.Array | pa.ChunkedArray | Sequence[str], path: str, line_of: LineOf, what: str
) -> npt.NDArray[np.int64]:
    """Strictly parse a column of strings into int64 (vectorised).

    Examples
    --------
    >>> integers_from_strings(["0", "2", "-1"], "q", lambda i: i + 1, "a grade").tolist()
    [0, 2, -1]
    """
    strings = _strings(values)
    plain = _plain_integers(strings)
    if plain is not None:
        return plain
    _check_pattern(strings, INTEGER_PATTERN, path, line_of, what)
    trimmed = pc.utf8_trim_whitespace(strings)
    try:
        return to_numpy(pc.cast(trimmed, pa.int64())).astype(np.int64)
    except (pa.ArrowInvalid, OverflowError):  # "+2" (Arrow wants no plus), or out of range
        parsed = [
            parse_integer(str(t), path, line_of(i), what) for i, t in enumerate(strings.to_pylist())
        ]
        return np.asarray(parsed, dtype=np.int64)


#: The bytes of a plain integer: digits and the minus sign.
_PLAIN_INTEGER_BYTES = np.zeros(256, dtype=np.bool_)
_PLAIN_INTEGER_BYTES[list(b"0123456789-")] = True


def _plain_integers(strings: pa.Array) -> npt.NDArray[np.int64] | None:
    """The integers of a column whose every string is ``-?[0-9]+`` within int64 (what
    a qrels file holds), else None (then the strings are checked one pattern at a time).

    Arrow's cast alone is not strict enough (it reads ``0x10`` as 16): the cast must
    succeed *and* every byte be a digit or ``-``. A byte test and a cast cost a few
    milliseconds; the regular expression, on a first call, costs a fifth of a second.

    Examples
    --------
    >>> _plain_integers(pa.array(["0", "-2", "013"])).tolist()
    [0, -2, 13]
    >>> _plain_integers(pa.array(["0x10"])), _plain_integers(pa.array(["+1"]))
    (None, None)
    """
    if strings.null_count or not pa.types.is_string(strings.type):
        return None
    try:
        cast = pc.cast(strings, pa.int64())
    except (pa.ArrowInvalid, OverflowError):
        return None
    offsets = np.frombuffer(
        strings.buffers()[1], dtype=np.int32, count=len(strings) + 1, offset=strings.offset * 4
    )
    data = strings.buffers()[2]
    if data is not None and len(strings):
        text = np.frombuffer(data, dtype=np.uint8)[offsets[0] : offsets[-1]]
        if not _PLAIN_INTEGER_BYTES[text].all():
            return None
    return to_numpy(cast).astype(np.int64, copy=False)


def check_finite(
    values: npt.NDArray[np.float64],
    path: str,
    line_of: LineOf,
    what: str,
    *,
    original: pa.Array | None = None,
) -> None:
    """Raise for the first NaN or infinite value, naming its line."""
    finite = np.isfinite(values)
    if finite.all():
        return
    row = int(np.argmin(finite))
    shown = original[row].as_py() if original is not None else float(values[row])
    raise InputError(f"expected {what}, got {shown!r}", path=path, line=line_of(row))


def whole_numbers(
    values: npt.NDArray[np.float64], path: str, line_of: LineOf, what: str
) -> npt.NDArray[np.int64]:
    """Numbers read as floats (Parquet, pandas) that must be integers within int64."""
    ok = np.isfinite(values) & (values == np.round(values))
    with np.errstate(invalid="ignore"):
        ok &= (values >= -(2.0**63)) & (values < 2.0**63)
    if not ok.all():
        row = int(np.argmin(ok))
        raise InputError(f"expected {what}, got {values[row]!r}", path=path, line=line_of(row))
    return values.astype(np.int64)


def _strings(values: pa.Array | pa.ChunkedArray | Sequence[str]) -> pa.Array:
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks() if values.num_chunks != 1 else values.chunk(0)
    if not isinstance(values, pa.Array):
        values = pa.array(list(values), type=pa.string())
    if pa.types.is_dictionary(values.type):
        values = values.cast(values.type.value_type)
    if not (pa.types.is_string(values.type) or pa.types.is_large_string(values.type)):
        values = values.cast(pa.string())
    return values


def _check_pattern(strings: pa.Array, pattern: str, path: str, line_of: LineOf, what: str) -> None:
    ok = pc.match_substring_regex(strings, f"^[ \\t\\r\\n]*{pattern}[ \\t\\r\\n]*$")
    ok = pc.fill_null(ok, False)
    if pc.all(ok).as_py() is not False:
        return
    row = int(np.argmin(to_numpy(ok)))
    raise InputError(f"expected {what}, got {strings[row].as_py()!r}", path=path, line=line_of(row))
