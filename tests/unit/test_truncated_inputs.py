"""A truncated compressed input is one error (issue 34 §2): every cut point of a small
compressed file, in every reader (qrels, run, per-query results), raises one
InputError naming the file, never a partial read and never another exception."""

from __future__ import annotations

import bz2
import gzip
import lzma
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pytest

from irtables.errors import InputError

COMPRESSORS: dict[str, Callable[[bytes], bytes]] = {
    "gz": gzip.compress,
    "bz2": bz2.compress,
    "xz": lzma.compress,
    "zst": lambda data: pa.compress(data, codec="zstd", asbytes=True),
}
QRELS = "".join(f"{q} 0 d{d} {(q * d) % 3}\n" for q in range(1, 6) for d in range(1, 9))
RUN = "".join(f"{q} Q0 d{d} {d} {10 - d / 7:.4f} bm25\n" for q in range(1, 6) for d in range(1, 9))
PER_QUERY = "query\tmetric\tvalue\n" + "".join(f"{q}\tAP\t0.{q}\n" for q in range(1, 9))


def _read_qrels(path: Path) -> object:
    from irtables.loaders.qrels import read_qrels

    return read_qrels(path)


def _read_run(path: Path) -> object:
    from irtables.loaders.trec_run import read_run

    return read_run(path)


def _read_results(path: Path) -> object:
    from irtables.loaders import load_file

    return load_file(path)


READERS = {
    "qrels": (QRELS, "q.txt", _read_qrels),
    "run": (RUN, "r.run", _read_run),
    "per-query": (PER_QUERY, "p.tsv", _read_results),
}


@pytest.mark.parametrize("ext", sorted(COMPRESSORS))
@pytest.mark.parametrize("reader", sorted(READERS))
def test_every_cut_point_is_one_input_error(tmp_path: Path, reader: str, ext: str) -> None:
    text, name, read = READERS[reader]
    data = COMPRESSORS[ext](text.encode())
    read(_write(tmp_path / f"whole.{name}.{ext}", data))  # whole, it reads
    for cut in range(2, len(data)):  # from 2 bytes on, a gzip file is one by its magic
        path = _write(tmp_path / f"{cut}.{name}.{ext}", data[:cut])
        with pytest.raises(InputError) as caught:
            read(path)
        assert caught.value.path == str(path), cut


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path
