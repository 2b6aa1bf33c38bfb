"""Property: the checked input stream gives back exactly the file's bytes (plain or
compressed, however it is read), and refuses a file exactly when one of its lines is
longer than the limit or it holds a NUL byte, naming the line where that happens."""

from __future__ import annotations

import gzip
import io
import lzma
import tempfile
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import irtables.loaders.source as source
from irtables.errors import InputError

LIMIT = 16
TEXT = st.lists(
    st.binary(max_size=3 * LIMIT).map(lambda b: b.replace(b"\n", b"")), max_size=12
).map(b"\n".join) | st.sampled_from([b"BZh", b"BZh9", b"BZh91AY", b"\xfd7zX"]).flatmap(
    lambda head: st.binary(max_size=LIMIT).map(lambda rest: head + _incomplete(rest))
)  # texts that start like a compressed file's magic bytes are still plain text


def _incomplete(rest: bytes) -> bytes:
    """``rest`` without what would complete a magic number (``&SY``, ``\x17rE``, ``Z``)."""
    for byte in (b"\n", b"&", b"\x17", b"Z"):
        rest = rest.replace(byte, b" ")
    return rest


PACK = {"plain": lambda b: b, "gzip": gzip.compress, "xz": lzma.compress}
#: Whole magic numbers of gzip (RFC 1952), xz and Zstandard (RFC 8878): a file that starts
#: with one is read as compressed data (none of them is UTF-8, so no text starts so); a
#: broken stream after one is tested in ``test_input_limits``.
WHOLE_MAGIC = (b"\x1f\x8b", b"\xfd7zXZ\x00", b"\x28\xb5\x2f\xfd")


def _expected_failure(data: bytes) -> tuple[str, int] | None:
    """What the stream must refuse first, with its 1-based line (None: nothing)."""
    lines = data.split(b"\n")
    for number, line in enumerate(lines, start=1):
        long_at = LIMIT if len(line) > LIMIT else None
        nul_at = line.find(b"\0") if b"\0" in line else None
        if long_at is None and nul_at is None:
            continue
        # bytes are checked in reading order: whichever problem comes first is named
        if nul_at is not None and (long_at is None or nul_at <= long_at):
            return "NUL byte", number
        return "line longer", number
    return None


@settings(max_examples=300)
@given(data=TEXT, pack=st.sampled_from(sorted(PACK)), sizes=st.lists(st.integers(1, 40)))
def test_bytes_come_back_or_the_first_problem_is_named(
    data: bytes, pack: str, sizes: list[int]
) -> None:
    assume(pack != "plain" or not data.startswith(WHOLE_MAGIC))
    with pytest.MonkeyPatch.context() as mp, tempfile.TemporaryDirectory() as folder:
        mp.setattr(source, "MAX_LINE_BYTES", LIMIT)
        mp.setattr(source, "_CHUNK", LIMIT)
        path = Path(folder) / "f.txt"
        path.write_bytes(PACK[pack](data))
        expected = _expected_failure(data)
        read = io.BytesIO()
        try:
            with source.open_input(path, text=True) as stream:
                for size in [*sizes, -1]:
                    read.write(stream.read(size))
        except InputError as exc:
            assert expected is not None, (data, str(exc))
            what, line = expected
            assert what in exc.reason and exc.line == line, (data, str(exc), expected)
            return
        assert expected is None, (data, expected)
        assert read.getvalue() == data
