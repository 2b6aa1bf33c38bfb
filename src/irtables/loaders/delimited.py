"""Delimited text: a fast pyarrow reader and an exact line-by-line reader.

The fast reader parses clean files with :mod:`pyarrow.csv`; any problem makes it give
up (return None) and the caller re-reads the text with :func:`records`, which knows the
physical line of every record and so can say exactly what is wrong where.
"""

from __future__ import annotations

import csv
import io
import re
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

from irtables.base.arrow import to_numpy
from irtables.base.numbers import parse_number
from irtables.errors import InputError
from irtables.loaders.arrow_csv import read_csv_bytes
from irtables.loaders.source import decode_text, lines_holding, more_lines_than_fit
from irtables.model.factor import Factor

#: pyarrow type of a categorical string column.
DICT_STRING = pa.dictionary(pa.int32(), pa.string())

DELIMITER_NAMES = {"\t": "tab", ",": "comma", ";": "semicolon"}


def fast_read(
    data: bytes,
    *,
    names: Sequence[str],
    skip_rows: int,
    delimiter: str,
    quoting: bool,
    types: Mapping[str, pa.DataType],
    empty_is_null: bool = False,
    check_utf8: bool = True,
) -> pa.Table | None:
    """Read delimited bytes with pyarrow; None if pyarrow finds anything wrong.

    Empty lines are not skipped (so that row ``i`` stays on line ``skip_rows + i + 1``):
    a file with blank lines takes the exact path. With ``check_utf8`` false, string
    columns are not checked for UTF-8: the caller checks them (see
    :func:`dictionary_factor`, which checks the distinct strings only).
    """
    if more_lines_than_fit(data, len(names)):  # a row: its delimiters and line end
        return None  # blank lines (pyarrow would make a row of each): the exact path
    alone = getattr(_one_thread, "on", False)
    read_options = pacsv.ReadOptions(
        column_names=list(names),
        skip_rows=skip_rows,
        block_size=_block_size(len(data), alone),
        use_threads=not alone,
    )
    parse_options = pacsv.ParseOptions(
        delimiter=delimiter,
        quote_char='"' if quoting else False,
        newlines_in_values=False,
        ignore_empty_lines=False,
    )
    convert_options = pacsv.ConvertOptions(
        column_types=dict(types),
        null_values=[""] if empty_is_null else [],
        strings_can_be_null=False,
        quoted_strings_can_be_null=False,
        check_utf8=check_utf8,
    )
    try:
        return read_csv_bytes(
            _without_final_newlines(data), read_options, parse_options, convert_options
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError):
        return None


_one_thread = threading.local()


@contextmanager
def one_thread_per_file() -> Iterator[None]:
    """Parse in the calling thread only, as one block (for callers that read several
    files at once, a file per core: pyarrow's own threads would only compete)."""
    _one_thread.on = True
    try:
        yield
    finally:
        _one_thread.on = False


def _block_size(size: int, alone: bool) -> int:
    """Bytes parsed at a time. Each block gets its own dictionaries (unified afterwards):
    one block when parsing in one thread, else a few, to keep every core busy."""
    if alone:
        return max(1 << 20, min(size + 1, 1 << 30))
    return max(1 << 20, min(size // 4 + 1, 1 << 26))


def dictionary_factor(column: pa.ChunkedArray) -> Factor | None:
    """A dictionary-encoded string column as a :class:`Factor` (categories in order of
    first appearance); None if a string is not valid UTF-8.

    Examples
    --------
    >>> col = pa.chunked_array([pa.array(["b", "a", "b"]).dictionary_encode()])
    >>> f = dictionary_factor(col)
    >>> f.categories, f.codes.tolist()
    (('b', 'a'), [0, 1, 0])
    """
    if column.num_chunks != 1:
        column = column.unify_dictionaries()
    if column.num_chunks == 0:
        return Factor((), np.zeros(0, dtype=np.int32))
    dictionary = column.chunk(0).dictionary
    try:
        dictionary.validate(full=True)
    except pa.ArrowInvalid:
        return None
    codes = to_numpy(pa.chunked_array([c.indices for c in column.chunks]))
    return Factor(tuple(dictionary.to_pylist()), codes)


def _without_final_newlines(data: bytes) -> memoryview:
    """A zero-copy view of ``data`` without its trailing line breaks."""
    end = len(data)
    while end and data[end - 1] in b"\r\n":
        end -= 1
    return memoryview(data)[:end]


def records(
    data: bytes, path: str, *, delimiter: str, quoting: bool
) -> Iterator[tuple[int, list[str]]]:
    """Yield ``(line, fields)`` for every non-blank record, ``line`` 1-based.

    Examples
    --------
    >>> list(records(b"a,b\\r\\n\\r\\n1,2\\r\\n", "x.csv", delimiter=",", quoting=True))
    [(1, ['a', 'b']), (3, ['1', '2'])]
    """
    text = decode_text(data, path)
    if not quoting or '"' not in text:  # a record is a line: blank ones skipped in C
        yield from _unquoted_records(text, delimiter)
        return
    reader = csv.reader(
        io.StringIO(text, newline=""),
        delimiter=delimiter,
        quoting=csv.QUOTE_MINIMAL if quoting else csv.QUOTE_NONE,
        strict=True,
    )
    start = 1
    while True:
        try:
            fields = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise InputError(f"malformed record: {exc}", path=path, line=start) from exc
        line, start = start, reader.line_num + 1
        if any(f.strip() for f in fields):
            yield line, fields


def _unquoted_records(text: str, delimiter: str) -> Iterator[tuple[int, list[str]]]:
    r"""The records of text without quoting, as :func:`csv.reader` reads them (lines end
    with "\n", "\r\n" or "\r"; fields split at ``delimiter``), without a turn of a
    Python loop for a blank line: one regular expression finds the lines holding a
    character other than whitespace and the delimiter, and :meth:`str.count` numbers them.

    Examples
    --------
    >>> list(_unquoted_records("a,b\r\n , \r\n\r1,2\n", ","))
    [(1, ['a', 'b']), (4, ['1', '2'])]
    """
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    content = re.compile(rf"[^\s{re.escape(delimiter)}]")
    for index, line in lines_holding(text, content):
        yield index + 1, line.split(delimiter)


def first_record(data: bytes, path: str, *, delimiter: str, quoting: bool) -> tuple[int, list[str]]:
    """The first non-blank record (a header) and its line."""
    head = data[: data.find(b"\n", 0, 1 << 20) + 1 or len(data)]
    for found in records(
        head if head.strip() else data, path, delimiter=delimiter, quoting=quoting
    ):
        return found
    raise InputError("empty file; expected a header line", path=path)


def parse_float(text: str, path: str, line: int, what: str = "value") -> float:
    """Parse a number strictly (:mod:`irtables.base.numbers`), naming the line if not."""
    return parse_number(text, path, line, f"a number as {what}")


def sniff_delimiter(first_line: str, extension: str) -> str:
    """Tab for ``.tsv``/``.txt``, comma for ``.csv``; otherwise from the header line.

    Examples
    --------
    >>> sniff_delimiter("query,metric,value", ""), sniff_delimiter("a\\tb", "")
    (',', '\\t')
    """
    if extension == "csv":
        return ","
    if extension in ("tsv", "txt"):
        return "\t"
    if "\t" in first_line:
        return "\t"
    if ";" in first_line and "," not in first_line:
        return ";"
    return ","


def field_count_message(expected: Sequence[str], got: int, delimiter: str) -> str:
    """``expected 3 tab-separated fields (query, metric, value), got 2``."""
    sep = DELIMITER_NAMES.get(delimiter, repr(delimiter))
    return f"expected {len(expected)} {sep}-separated fields ({', '.join(expected)}), got {got}"
