"""Parsing a stream with pyarrow's CSV parser, block by block, read in this thread.

``pyarrow.csv.open_csv`` on a Python file object reads ahead from a thread of its own,
which calls the file's ``read`` in Python: when reading fails (a truncated compressed
file) and the process exits with the error, that thread can still be inside, or waiting
to enter, Python, and the interpreter's shutdown aborts the process (``terminate called
without an active exception``, exit status 134). Here every byte is read by the calling
thread, and each block of whole lines is parsed from memory by ``pyarrow.csv.read_csv``,
whose threads never call into Python.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

import pyarrow as pa
import pyarrow.csv as pacsv

#: Bytes read at a time (a block then ends at the last line end inside it).
BLOCK_BYTES = 1 << 20


class _Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


def csv_batches(
    source: _Readable,
    names: list[str],
    parse: pacsv.ParseOptions,
    convert: pacsv.ConvertOptions,
) -> Iterator[pa.RecordBatch]:
    """The record batches of the CSV text read from ``source``: blocks of whole lines
    (cut after their last ``"\\n"``; a longer line waits for the next read), each parsed
    with ``names`` as its columns, ``parse`` and ``convert``.

    Raises
    ------
    pyarrow.ArrowInvalid
        A line pyarrow cannot parse (as ``open_csv`` would).

    Examples
    --------
    >>> import io
    >>> parse = pacsv.ParseOptions(delimiter=" ")
    >>> convert = pacsv.ConvertOptions(column_types={"a": pa.string(), "b": pa.int64()})
    >>> batches = csv_batches(io.BytesIO(b"x 1\\ny 2\\nz 3"), ["a", "b"], parse, convert)
    >>> [b.column(1).to_pylist() for b in batches]  # the last line has no line end
    [[1, 2], [3]]
    """
    rest = b""
    while True:
        data = source.read(BLOCK_BYTES)
        if data:
            data = rest + data
            end = data.rfind(b"\n") + 1
            data, rest = data[:end], data[end:]
            if not data:
                continue
        else:
            data, rest = rest, b""
            if not data:
                return
        read = pacsv.ReadOptions(column_names=names, block_size=len(data) + 1)
        table = pacsv.read_csv(pa.BufferReader(data), read, parse, convert)
        yield from table.combine_chunks().to_batches()
