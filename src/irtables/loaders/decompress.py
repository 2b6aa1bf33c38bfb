"""The decompressed bytes of a whole compressed file, and nothing less.

A compressed file may hold several streams one after another (``cat a.gz b.gz``,
``bzip2 -c a >f; bzip2 -c b >>f``): every one of them is read, as gzip, bzip2 and xz
themselves read them. Anything else after a stream (text appended to the file, a
truncated or damaged stream, random bytes) is an :class:`~irtables.errors.InputError`
naming the file and the byte offset where it starts: the standard library's bzip2 and
xz readers stop silently at such bytes, and a run would be read in part. Zero bytes
after the last stream are padding (gzip ignores them, xz allows them) and are skipped.

gzip, bzip2 and xz are decompressed here, one stream at a time; Zstandard by pyarrow
(the standard library has none before Python 3.14), which reads concatenated frames and
refuses anything else: then :func:`zstd_damage` locates the bytes it refused.
"""

from __future__ import annotations

import bz2
import lzma
import mmap
import zlib
from collections.abc import Callable
from typing import BinaryIO, Protocol

from irtables.errors import InputError

#: The first bytes of each compression format read, by name.
COMPRESSION_MAGIC = {
    "gzip": b"\x1f\x8b",
    "bzip2": b"BZh",
    "xz": b"\xfd7zXZ\x00",
    "zstd": b"\x28\xb5\x2f\xfd",
}
_RAW_CHUNK = 1 << 16  # compressed bytes read at a time


class _Decoder(Protocol):
    """One stream's decompressor (the interface of :class:`bz2.BZ2Decompressor`)."""

    @property
    def eof(self) -> bool: ...
    @property
    def unused_data(self) -> bytes: ...
    @property
    def needs_input(self) -> bool: ...
    def decompress(self, data: bytes, max_length: int = -1) -> bytes: ...


class _GzipMember:
    """One gzip member, read by zlib (header, trailer, CRC and length checked), with
    the interface of :class:`bz2.BZ2Decompressor`."""

    def __init__(self) -> None:
        self._inner = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
        self._full = False  # the last call filled its output: more may be pending

    @property
    def eof(self) -> bool:
        return self._inner.eof

    @property
    def unused_data(self) -> bytes:
        return self._inner.unused_data

    @property
    def needs_input(self) -> bool:
        return not self._inner.unconsumed_tail and not self._full

    def decompress(self, data: bytes, max_length: int = -1) -> bytes:
        limit = max(max_length, 0)
        out = self._inner.decompress(self._inner.unconsumed_tail + data, limit)
        self._full = limit > 0 and len(out) == limit
        return out


def _xz() -> _Decoder:
    return lzma.LZMADecompressor(lzma.FORMAT_XZ)


#: A new decompressor of one stream, by compression format.
_DECODERS: dict[str, Callable[[], _Decoder]] = {
    "gzip": _GzipMember,
    "bzip2": bz2.BZ2Decompressor,
    "xz": _xz,
}


class StreamsReader:
    """Read every stream of a gzip, bzip2 or xz file, and refuse what follows them.

    ``read(size)`` returns at most ``size`` decompressed bytes (``b""`` at the end).

    Raises
    ------
    InputError
        A damaged or truncated stream (naming the byte where it starts), or data after a
        stream that starts none (naming its offset).
    """

    def __init__(self, raw: BinaryIO, fmt: str, name: str) -> None:
        self._raw = raw
        self._fmt = fmt
        self._name = name
        self._new = _DECODERS[fmt]
        self._decoder: _Decoder = self._new()
        self._start = 0  # the byte of the file where the current stream starts
        self._input = b""  # bytes read from the file, not yet given to the decoder
        self._done = False

    def read(self, size: int = -1) -> bytes:
        size = size if size > 0 else 1 << 20
        while not self._done:
            if self._decoder.eof and not self._next_stream():
                break
            if self._decoder.needs_input and not self._input:
                self._input = self._raw.read(_RAW_CHUNK)
                if not self._input:
                    raise self._damaged("the file ends inside it")
            data, self._input = self._input, b""
            try:
                out = self._decoder.decompress(data, size)
            except (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError) as exc:
                raise self._damaged(str(exc) or type(exc).__name__) from None
            if out:
                return out
        return b""

    def close(self) -> None:
        """Nothing to release: the file is the caller's."""

    def _next_stream(self) -> bool:
        """After a stream: start the next one (True), or find that only zero bytes
        (padding) remain (False)."""
        rest = self._decoder.unused_data
        at = self._raw.tell() - len(rest)  # the offset of rest[0]
        while True:
            data = rest.lstrip(b"\0")
            at, rest = at + len(rest) - len(data), data
            if len(rest) >= len(COMPRESSION_MAGIC[self._fmt]) or not (
                more := self._raw.read(_RAW_CHUNK)
            ):
                break
            rest += more
        if not rest:
            self._done = True
            return False
        if not rest.startswith(COMPRESSION_MAGIC[self._fmt]):
            raise InputError(
                f"unexpected data at byte {at}, after the end of the {self._fmt} data "
                f"(not the start of another {self._fmt} stream: appended to the file, or damaged?)",
                path=self._name,
            )
        self._decoder = self._new()
        self._start, self._input = at, rest
        return True

    def _damaged(self, why: str) -> InputError:
        return InputError(
            f"broken or truncated {self._fmt} data in the stream starting at byte "
            f"{self._start} ({why})",
            path=self._name,
        )


def zstd_damage(data: bytes | mmap.mmap) -> str | None:
    """Where the Zstandard ``data`` (a whole file) stops being whole frames: the
    offset and what is found there, or None if every byte belongs to a complete frame
    (then the damage is inside a block). Only frame and block headers are read.

    Examples
    --------
    >>> import pyarrow as pa
    >>> frame = pa.compress(b"1 Q0 d 1 2 r\\n", codec="zstd", asbytes=True)
    >>> zstd_damage(frame + frame) is None
    True
    >>> zstd_damage(frame + b"2 Q0 d 1 2 r\\n") == f"unexpected data at byte {len(frame)}"
    True
    >>> zstd_damage(frame + frame[:-3])
    'the frame starting at byte 22 is truncated or damaged'
    """
    at = 0
    while at < len(data):
        head = data[at : at + 8]
        if head[:4] == COMPRESSION_MAGIC["zstd"]:
            end = _zstd_frame_end(data, at)
        elif len(head) == 8 and head[1:4] == b"\x2a\x4d\x18" and head[0] & 0xF0 == 0x50:
            end = at + 8 + int.from_bytes(head[4:], "little")  # a skippable frame
        else:
            return f"unexpected data at byte {at}"
        if end is None or end > len(data):
            return f"the frame starting at byte {at} is truncated or damaged"
        at = end
    return None


def _zstd_frame_end(data: bytes | mmap.mmap, at: int) -> int | None:
    """The offset after the Zstandard frame starting at ``at`` (None: it is truncated
    or its headers are damaged)."""
    if at + 5 > len(data):
        return None
    descriptor = data[at + 4]
    single = descriptor >> 5 & 1
    content_size = (single, 2, 4, 8)[descriptor >> 6]
    pos = at + 5 + (not single) + (0, 1, 2, 4)[descriptor & 3] + content_size
    while pos + 3 <= len(data):
        header = int.from_bytes(data[pos : pos + 3], "little")
        kind, size = header >> 1 & 3, header >> 3
        if kind == 3:  # reserved
            return None
        pos += 3 + (1 if kind == 1 else size)
        if header & 1:  # the last block
            return pos + 4 * (descriptor >> 2 & 1)
    return None
