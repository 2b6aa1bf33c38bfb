"""Reading a file's bytes: decompression, byte-order marks, UTF-8 and file-name parts.

Every input file (per-query results, runs, qrels) is read through :func:`open_input`:
gzip, bzip2, xz and Zstandard data are recognised by their first bytes (whatever the
file is called) and decompressed while they stream, and the stream is checked as it
goes, so that a pathological file costs no more than its first bad bytes:

- a line (text between two newlines) longer than :data:`MAX_LINE_BYTES` is refused;
- a NUL byte in a text file is refused (no text format holds one);
- compressed data expanding to more than :data:`MAX_EXPANSION` times the size of the
  file on disk, plus :data:`EXPANSION_ALLOWANCE`, is refused (a "zip bomb").
"""

from __future__ import annotations

import io
import lzma
import mmap
import os
import re
import zlib
from collections.abc import Generator, Iterator
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, TypeVar

from irtables.errors import InputError
from irtables.loaders.decompress import COMPRESSION_MAGIC, StreamsReader, zstd_damage

if TYPE_CHECKING:
    import pyarrow.parquet as pq

_E = TypeVar("_E", bound=BaseException)
GZIP_MAGIC = COMPRESSION_MAGIC["gzip"]
PARQUET_MAGIC = b"PAR1"
UTF8_BOM = b"\xef\xbb\xbf"
#: After "BZh": the block size (1-9), then the magic of a block or of the end of stream.
_BZIP2_BLOCK = re.compile(rb"BZh[1-9](1AY&SY|\x17rE8P\x90)", re.DOTALL)
#: File-name extensions of compressed files (they end a system name as ``gz`` does).
COMPRESSED_EXTENSIONS = frozenset({"gz", "bz2", "xz", "zst"})
#: The longest line of a text input, in bytes (1 MiB).
MAX_LINE_BYTES = 1 << 20
#: Decompressed bytes allowed per byte of a compressed file (beyond the allowance).
MAX_EXPANSION = 100
EXPANSION_ALLOWANCE = 16 << 20
_CHUNK = MAX_LINE_BYTES  # lines inside one chunk are shorter than the limit

#: Extensions that end a system name: ``bm25.run.tsv.gz`` is system ``bm25``.
KNOWN_EXTENSIONS = frozenset(
    {
        *COMPRESSED_EXTENSIONS,
        "txt",
        "tsv",
        "csv",
        "json",
        "jsonl",
        "ndjson",
        "parquet",
        "pq",
        "run",
        "trec",
        "eval",
        "res",
        "perquery",
    }
)


def without_compression(name: str) -> str:
    """A file name without its compression suffix (``.gz``, ``.bz2``, ``.xz``, ``.zst``).

    Examples
    --------
    >>> without_compression("bm25.dl19.run.zst"), without_compression("x.gz")
    ('bm25.dl19.run', 'x')
    """
    head, dot, last = name.rpartition(".")
    return head if dot and head and last.lower() in COMPRESSED_EXTENSIONS else name


def compressed_format(head: bytes) -> str | None:
    """The compression format whose magic bytes start ``head`` (None: not compressed).

    Examples
    --------
    >>> import gzip, lzma
    >>> compressed_format(gzip.compress(b"x")), compressed_format(lzma.compress(b"x"))
    ('gzip', 'xz')
    >>> compressed_format(b"301 Q0 d1 1 2.5 r") is None
    True
    """
    for name, magic in COMPRESSION_MAGIC.items():
        if head.startswith(magic):
            if name == "bzip2" and not _BZIP2_BLOCK.match(head):
                continue  # a text that starts with "BZh"
            return name
    return None


class CheckedStream(io.RawIOBase):
    """The decompressed bytes of an input file, checked while they are read.

    ``text`` checks lines and NUL bytes (None: decided from the first bytes, which are
    text unless they start a Parquet file). Failures raise :class:`InputError` naming
    the file and the line reached. With ``defer``, for readers that call :meth:`read`
    from their own threads (pyarrow's), a failure instead ends the stream (reads return
    no bytes) and is raised when the ``with`` block is left, whatever the reader made
    of the shortened stream: an exception thrown into such a thread can abort the
    process.
    """

    def __init__(self, path: Path, *, text: bool | None = None, defer: bool = False) -> None:
        super().__init__()
        self.failure: InputError | None = None
        self._defer = defer
        self.path = path
        self._raw: BinaryIO = path.open("rb")
        try:
            head = self._raw.read(16)
            self._raw.seek(0)
            self.format = compressed_format(head)
            self._inner: BinaryIO = _decompressing(self._raw, self.format, str(path))
            size = os.fstat(self._raw.fileno()).st_size
        except BaseException:
            self._raw.close()
            raise
        self._limit = size + MAX_EXPANSION * size + EXPANSION_ALLOWANCE if self.format else None
        self._text = text
        self._total = 0  # bytes read so far
        self._pending = 0  # bytes since the last newline

    @property
    def compressed_tell(self) -> int:
        """Bytes of the file on disk read so far (for progress)."""
        return self._raw.tell()

    def _line_at(self, offset: int) -> int:
        """The 1-based line of the byte at ``offset`` (counted again from the start of
        the file: newlines are not counted while reading, which would slow every read)."""
        count = 0
        with (
            self.path.open("rb") as raw,
            closing(_decompressing(raw, self.format, str(self.path))) as inner,
        ):
            while offset > 0:
                chunk = inner.read(min(offset, _CHUNK))
                if not chunk:
                    break
                count += chunk.count(b"\n")
                offset -= len(chunk)
        return count + 1

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def read(self, size: int | None = -1) -> bytes:
        if size is None or size < 0:
            return self.readall()
        if self.failure is not None:
            return b""
        try:
            data = self._read_inner(min(size, _CHUNK))
            self._check(data)
        except InputError as exc:
            if not self._defer:
                raise
            self.failure = without_frames(exc)
            return b""
        return data

    def readall(self) -> bytes:
        buffer = io.BytesIO()  # getvalue() shares its bytes: no second copy
        while chunk := self.read(_CHUNK):
            buffer.write(chunk)
        return buffer.getvalue()

    def _read_inner(self, size: int) -> bytes:
        try:
            return bytes(self._inner.read(size))
        except (EOFError, zlib.error, lzma.LZMAError, OSError) as exc:
            raise self._broken(exc) from None
        except Exception as exc:  # pyarrow's errors for broken Zstandard data
            if type(exc).__module__.startswith("pyarrow"):
                raise self._broken(exc) from None
            raise

    def _broken(self, exc: BaseException) -> InputError:
        if not self.format:
            return InputError(f"cannot read ({exc or type(exc).__name__})", path=str(self.path))
        where = ""
        if self.format == "zstd" and (found := _zstd_damage(self.path)) is not None:
            where = f": {found}"
        what = f"broken or truncated {self.format} data{where}"
        return InputError(f"{what} ({exc or type(exc).__name__})", path=str(self.path))

    def _check(self, data: bytes) -> None:
        if not data:
            return
        if self._text is None:
            self._text = not data.startswith(PARQUET_MAGIC)
        start = self._total
        self._total += len(data)
        if self._limit is not None and self._total > self._limit:
            raise InputError(
                f"{self.format} data expands more than {MAX_EXPANSION} times "
                "(a decompression bomb?); decompress it to read it",
                path=str(self.path),
            )
        if not self._text:
            return
        limit = MAX_LINE_BYTES  # read here: lines inside one chunk are shorter than it
        first = data.find(b"\n")
        # where the line that continues into this chunk passes the limit (lines that
        # start in it end in it too, and are shorter than a chunk)
        too_long = limit - self._pending
        if self._pending + (len(data) if first < 0 else first) <= limit:
            too_long = len(data)
        nul = data.find(b"\0", 0, too_long + 1)
        if nul >= 0:
            line = self._line_at(start + nul)
            raise InputError("expected text, found a NUL byte", path=str(self.path), line=line)
        if too_long < len(data):
            line = self._line_at(start + too_long)
            raise InputError(f"line longer than {_size(limit)}", path=str(self.path), line=line)
        last = data.rfind(b"\n")
        self._pending = self._pending + len(data) if last < 0 else len(data) - last - 1

    def __exit__(self, *exc_info: object) -> None:
        self.close()
        if self.failure is not None:  # the cause of whatever the reader raised
            raise self.failure

    def close(self) -> None:
        try:
            if self._inner is not self._raw:
                self._inner.close()
        finally:
            self._raw.close()
            super().close()


def without_frames(exc: _E) -> _E:
    """``exc`` without its traceback (and without the context it suppresses), to be kept
    and raised later: the frames it held (and their callers') would keep alive every
    object they refer to, such as what a reader lent to pyarrow
    (:mod:`irtables.loaders.arrow_csv`)."""
    if exc.__suppress_context__:
        exc.__context__ = None
    return exc.with_traceback(None)


def _decompressing(raw: BinaryIO, fmt: str | None, name: str) -> BinaryIO:
    """The decompressed bytes of the file ``raw`` (called ``name``) in the compression
    format ``fmt``: all of its streams, and nothing after them (see
    :mod:`irtables.loaders.decompress`)."""
    if fmt == "zstd":  # the standard library has no Zstandard before 3.14
        import pyarrow as pa

        stream: BinaryIO = pa.CompressedInputStream(pa.PythonFile(raw, mode="r"), "zstd")
        return stream
    if fmt is not None:
        return StreamsReader(raw, fmt, name)  # type: ignore[return-value]
    return raw


def _zstd_damage(path: Path) -> str | None:
    """Where the Zstandard file ``path`` stops being whole frames (see
    :func:`~irtables.loaders.decompress.zstd_damage`), read through a memory map."""
    try:
        with path.open("rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as data:
            return zstd_damage(data)
    except (OSError, ValueError):
        return None


def _size(n: int) -> str:
    return f"{n >> 20} MiB" if n >= 1 << 20 else f"{n} bytes"


def check_parquet_size(parquet: pq.ParquetFile, size: int, path: str) -> None:
    """Refuse, from its footer, a Parquet file that would expand more than compressed
    data may (:data:`MAX_EXPANSION`): what its columns declare uncompressed, or 8 bytes
    per cell (dictionary-encoded values expand to that once read), against ``size``, the
    bytes of the file.

    Raises
    ------
    InputError
        Naming the file and how many rows it declares.
    """
    meta = parquet.metadata
    stored = 0
    for g in range(meta.num_row_groups):
        group = meta.row_group(g)
        stored += sum(group.column(c).total_uncompressed_size for c in range(group.num_columns))
    declared = max(stored, meta.num_rows * max(meta.num_columns, 1) * 8)
    if declared > MAX_EXPANSION * size + EXPANSION_ALLOWANCE:
        raise InputError(
            f"Parquet data of {meta.num_rows} rows expands more than {MAX_EXPANSION} times "
            "(a decompression bomb?)",
            path=path,
        )


def open_input(
    path: str | os.PathLike[str], *, text: bool | None = None, defer: bool = False
) -> CheckedStream:
    """Open an input file for reading its decompressed, checked bytes (see the module;
    ``defer``: see :class:`CheckedStream`).

    Raises
    ------
    InputError
        If the file cannot be opened.
    """
    name = os.fspath(path)
    try:
        return CheckedStream(Path(name), text=text, defer=defer)
    except OSError as exc:
        raise InputError(f"cannot read file: {exc.strerror or exc}", path=name) from exc


_NON_SPACE = re.compile(r"\S")
#: What :meth:`str.splitlines` ends a line at, besides "\n".
_OTHER_LINE_BREAKS = re.compile("[\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")


def content_lines(path: str | os.PathLike[str]) -> Iterator[tuple[int, str]]:
    r"""The lines of a text file that hold more than whitespace, with their numbers:
    lines as :meth:`str.splitlines` gives them, numbered from 1 over every line.

    Streamed a chunk of whole lines at a time, so that an error stops the reading where
    it is, and a line is handed to Python only if it holds something: a run of blank
    lines (millions of them expand from a small compressed file) is skipped by the
    regular expression engine and counted by :meth:`str.count`, so it costs what
    decompressing it costs, not a loop turn per line.

    Raises
    ------
    InputError
        A broken file, a line that is not UTF-8 (its number counted in newlines), or what
        :class:`CheckedStream` refuses.

    Examples
    --------
    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "run.txt"
    >>> _ = p.write_bytes(b"a b\n\n  \t\n\rc d\r\ne")
    >>> list(content_lines(p))
    [(1, 'a b'), (5, 'c d'), (6, 'e')]
    """
    name = os.fspath(path)
    counted = 0  # lines before the chunk, as str.splitlines counts them
    newlines = 0  # newlines before the chunk
    rest = b""
    with open_input(path, text=True) as stream:
        while True:
            read = stream.read(_CHUNK)
            data = rest + read
            if read:  # whole lines only: a chunk ends with its last newline
                end = data.rfind(b"\n") + 1
                data, rest = data[:end], data[end:]
            if not data:
                if read:
                    continue  # a line longer than a chunk (the stream bounds it)
                return
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError as exc:
                good = data.rfind(b"\n", 0, exc.start) + 1  # the lines before the bad one
                yield from _numbered_content(data[:good].decode("utf-8"), counted)
                line = newlines + data.count(b"\n", 0, good) + 1
                raise InputError("not valid UTF-8 text", path=name, line=line) from exc
            counted = yield from _numbered_content(text, counted)
            newlines += data.count(b"\n")
            if not read:
                return


def nonblank_lines(text: str) -> Iterator[tuple[int, str]]:
    r"""The lines of ``text`` holding more than whitespace, numbered from 1 as
    :meth:`str.splitlines` numbers every line (blank ones skipped as
    :func:`content_lines` skips them).

    Examples
    --------
    >>> list(nonblank_lines("a\n\n \nb"))
    [(1, 'a'), (4, 'b')]
    """
    yield from _numbered_content(text, 0)


def lines_holding(text: str, char: re.Pattern[str]) -> Iterator[tuple[int, str]]:
    r"""``(index, line)`` of each line of ``text`` (lines end with "\n" alone; the first
    has index 0) in which ``char`` is found. The text between two such lines is skipped
    by the regular expression engine and counted by :meth:`str.count`: a million blank
    lines cost what scanning their bytes costs, not a turn of a Python loop each.

    Examples
    --------
    >>> list(lines_holding("a\n\n  \nb c\n", re.compile(r"\S")))
    [(0, 'a'), (3, 'b c')]
    """
    index = start = 0  # ``index``: the line that starts at ``start``
    while (found := char.search(text, start)) is not None:
        begin = max(text.rfind("\n", start, found.start()) + 1, start)
        index += text.count("\n", start, begin)
        end = text.find("\n", found.start())
        end = len(text) if end < 0 else end
        yield index, text[begin:end]
        index, start = index + 1, end + 1


def _numbered_content(text: str, before: int) -> Generator[tuple[int, str], None, int]:
    """The lines of ``text`` holding more than whitespace, numbered after ``before``
    lines; returns ``before`` plus the lines of ``text``."""
    if not text:
        return before
    if _OTHER_LINE_BREAKS.search(text) is None:  # lines end with "\n" only
        joined = text[:-1] if text.endswith("\n") else text
    else:
        joined = "\n".join(text.splitlines())
    for index, line in lines_holding(joined, _NON_SPACE):
        yield before + index + 1, line
    return before + joined.count("\n") + 1


def more_lines_than_fit(data: bytes, row_bytes: int, *, partial: bool = False) -> bool:
    r"""Whether ``data`` holds more line ends than rows of at least ``row_bytes`` bytes
    (line end included) could fill: then some line is blank or too short to be a row, and
    a fast reader (which would make a row of each blank line, millions from a small
    compressed file) should leave the file to the exact one. ``partial``: ``data`` may
    start and end inside a line (one line end more is allowed). One pass of
    :meth:`bytes.count`, and one more for text whose lines end with "\r" alone.

    Examples
    --------
    >>> more_lines_than_fit(b"1 0 d1 1\n\n\n\n", 8), more_lines_than_fit(b"1 0 d1 1\n", 8)
    (True, False)
    """
    ends = data.count(b"\n") or data.count(b"\r")
    return (ends - partial) * row_bytes > len(data)


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """Read a file, decompressing it (detected by its magic bytes) and dropping a BOM.

    Raises
    ------
    InputError
        If the file cannot be read, is broken compressed data, or is refused by the
        checks of :class:`CheckedStream`.
    """
    with open_input(path) as stream:
        data = stream.readall()
    return data[len(UTF8_BOM) :] if data.startswith(UTF8_BOM) else data


def decode_text(data: bytes, path: str) -> str:
    """Decode UTF-8, naming the line of the first undecodable byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError("expected UTF-8 text", path=path, line=line) from exc


def name_parts(path: str | os.PathLike[str]) -> tuple[str, tuple[str, ...]]:
    """Split a file name into its stem and its known extensions.

    The stem is everything before the first known extension.

    Examples
    --------
    >>> name_parts("runs/bm25.run.tsv.gz")
    ('bm25', ('run', 'tsv', 'gz'))
    >>> name_parts("bm25.k1=0.9.csv")
    ('bm25.k1=0.9', ('csv',))
    >>> name_parts("monot5")
    ('monot5', ())
    """
    parts = Path(path).name.split(".")
    for i in range(1, len(parts)):
        if parts[i].lower() in KNOWN_EXTENSIONS:
            return ".".join(parts[:i]), tuple(p.lower() for p in parts[i:])
    return ".".join(parts), ()


def main_extension(path: str | os.PathLike[str]) -> str:
    """The last known extension other than a compression's (``""`` if none).

    Examples
    --------
    >>> main_extension("a/bm25.run.tsv.gz"), main_extension("x.json"), main_extension("x")
    ('tsv', 'json', '')
    """
    exts = [e for e in name_parts(path)[1] if e not in COMPRESSED_EXTENSIONS]
    return exts[-1] if exts else ""
