"""pyarrow's CSV readers over Python data, returning only once pyarrow let go of it.

pyarrow reads a Python stream (and parses Python bytes) in its own threads, and wraps
every block it reads in a buffer that holds the Python object. Such a buffer is released
by whichever thread drops it last, which takes the GIL to do so, and that may be one of
pyarrow's threads, a little after the reader has returned or failed. If the interpreter
is exiting by then (an error right after a read), Python ends that thread as it asks for
the GIL (``pthread_exit``), which in C++ code aborts the process: ``terminate called
without an active exception``, exit status 134, after the right ``Error:`` line.

So the readers here lend pyarrow :class:`memoryview` objects only (of bytes, and of each
block of a stream), keep a weak reference to each, and wait, when the reading ends in
any way, until pyarrow has dropped them all: then no thread of pyarrow holds a Python
object, and none will take the GIL at exit.
"""

from __future__ import annotations

import io
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import BinaryIO

import pyarrow as pa
import pyarrow.csv as pacsv

from irtables.loaders.source import without_frames

#: The longest wait for pyarrow to drop the Python objects it was lent, in seconds (it
#: takes microseconds; a wait this long means something else holds them).
RELEASE_TIMEOUT = 2.0


def read_csv_bytes(
    data: bytes | memoryview,
    read: pacsv.ReadOptions,
    parse: pacsv.ParseOptions,
    convert: pacsv.ConvertOptions,
) -> pa.Table:
    """:func:`pyarrow.csv.read_csv` of ``data``, returned (or raised) once pyarrow's
    threads hold nothing of it.

    Examples
    --------
    >>> names = pacsv.ReadOptions(column_names=["a", "b"])
    >>> table = read_csv_bytes(b"1,x\\n2,y\\n", names, pacsv.ParseOptions(), pacsv.ConvertOptions())
    >>> table.column("b").to_pylist()
    ['x', 'y']
    """
    view = memoryview(data)
    lent: list[weakref.ref[object]] = [weakref.ref(view)]
    try:
        return pacsv.read_csv(pa.BufferReader(view), read, parse, convert)
    finally:
        del view
        wait_released(lent)


@contextmanager
def csv_batches(
    stream: BinaryIO | io.RawIOBase,
    read: pacsv.ReadOptions,
    parse: pacsv.ParseOptions,
    convert: pacsv.ConvertOptions,
) -> Iterator[Iterator[pa.RecordBatch]]:
    """The record batches of :func:`pyarrow.csv.open_csv` reading ``stream``.

    On leaving the block (at the end, on a ``return`` or an error) the reader is
    dropped, ``stream`` is no longer read (pyarrow sees its end), and the block is left
    only once pyarrow holds none of the blocks it read. An exception raised by
    ``stream.read`` in a thread of pyarrow is raised here, when the block is left, with
    the stream's end given to pyarrow in its place.

    Examples
    --------
    >>> names = pacsv.ReadOptions(column_names=["a"])
    >>> options = names, pacsv.ParseOptions(), pacsv.ConvertOptions()
    >>> with csv_batches(io.BytesIO(b"1\\n2\\n"), *options) as batches:
    ...     [b.num_rows for b in batches]
    [2]
    """
    lender = _Lender(stream)
    lent = lender.lent
    lent.append(weakref.ref(lender))
    batches = _Batches(pacsv.open_csv(lender, read, parse, convert))
    try:
        yield batches
    finally:
        batches.close()
        lender.stop()
        failure = lender.failure
        del lender
        wait_released(lent)
    if failure is not None:
        raise failure


def wait_released(lent: list[weakref.ref[object]]) -> None:
    """Wait (the GIL released) until every object referred to in ``lent`` is gone, or
    :data:`RELEASE_TIMEOUT` passed."""
    deadline = time.monotonic() + RELEASE_TIMEOUT
    pause = 0.0001
    while any(ref() is not None for ref in lent) and time.monotonic() < deadline:
        time.sleep(pause)
        pause = min(pause * 2, 0.01)


class _Batches:
    """The batches of a pyarrow reader, which :meth:`close` drops: the caller's frame
    (and an exception's traceback through it) holds this object, never the reader."""

    def __init__(self, reader: pacsv.CSVStreamingReader) -> None:
        self._reader: pacsv.CSVStreamingReader | None = reader
        self._batches: Iterator[pa.RecordBatch] | None = iter(reader)

    def __iter__(self) -> Iterator[pa.RecordBatch]:
        return self

    def __next__(self) -> pa.RecordBatch:
        if self._batches is None:
            raise StopIteration
        return next(self._batches)

    def close(self) -> None:
        reader, self._reader, self._batches = self._reader, None, None
        if reader is not None:
            reader.close()


class _Lender(io.RawIOBase):
    """``stream`` as pyarrow reads it: each block a :class:`memoryview` with a weak
    reference kept in :attr:`lent`; after :meth:`stop`, or once a read failed (kept in
    :attr:`failure`, without its traceback), the end of the stream."""

    def __init__(self, stream: BinaryIO | io.RawIOBase) -> None:
        super().__init__()
        self._stream: BinaryIO | io.RawIOBase | None = stream
        self.lent: list[weakref.ref[object]] = []
        self.failure: Exception | None = None

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> memoryview:
        stream = self._stream
        if stream is None:
            return memoryview(b"")
        try:
            data = stream.read(-1 if size is None else size)
        except Exception as exc:  # raised in pyarrow's thread, it could abort the process
            self.failure = without_frames(exc)
            self._stream = None
            return memoryview(b"")
        view = memoryview(data or b"")
        self.lent.append(weakref.ref(view))
        return view

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def stop(self) -> None:
        """Read no more of the stream: pyarrow gets its end."""
        self._stream = None
