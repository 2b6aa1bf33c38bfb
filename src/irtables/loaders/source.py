"""Reading a file's bytes: gzip, byte-order marks, UTF-8 and file-name parts."""

from __future__ import annotations

import gzip
import os
import zlib
from pathlib import Path

from irtables.errors import InputError

GZIP_MAGIC = b"\x1f\x8b"
PARQUET_MAGIC = b"PAR1"
UTF8_BOM = b"\xef\xbb\xbf"

#: Extensions that end a system name: ``bm25.run.tsv.gz`` is system ``bm25``.
KNOWN_EXTENSIONS = frozenset(
    {
        "gz",
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


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """Read a file, decompressing gzip (detected by its magic bytes) and dropping a BOM.

    Raises
    ------
    InputError
        If the file cannot be read or is a broken gzip stream.
    """
    name = os.fspath(path)
    try:
        data = Path(name).read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read file: {exc.strerror or exc}", path=name) from exc
    return prepare_bytes(data, name)


def prepare_bytes(data: bytes, path: str) -> bytes:
    """Decompress gzip data and drop a UTF-8 byte-order mark.

    Examples
    --------
    >>> import gzip
    >>> prepare_bytes(gzip.compress(b"\\xef\\xbb\\xbfq\\tAP\\t1\\n"), "x.gz")
    b'q\\tAP\\t1\\n'
    """
    if data.startswith(GZIP_MAGIC):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as exc:
            raise InputError(f"broken gzip data: {exc}", path=path) from exc
    if data.startswith(UTF8_BOM):
        data = data[len(UTF8_BOM) :]
    return data


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
    """The last known extension other than ``gz`` (``""`` if none).

    Examples
    --------
    >>> main_extension("a/bm25.run.tsv.gz"), main_extension("x.json"), main_extension("x")
    ('tsv', 'json', '')
    """
    exts = [e for e in name_parts(path)[1] if e != "gz"]
    return exts[-1] if exts else ""
