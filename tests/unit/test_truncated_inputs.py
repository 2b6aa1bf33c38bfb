"""A truncated compressed input is one error and exit status 2, every time (issue 34
§2): every cut point of a small compressed file, in every reader, raises one
InputError naming the file (never a partial read, never another exception); and no
reader hands a Python file to pyarrow's read-ahead thread, which could still be inside
Python when the process exits with the error (``terminate called without an active
exception``, exit status 134, in 39 of 504 cut points of a qrels file on a busy machine)."""

from __future__ import annotations

import bz2
import gzip
import lzma
import subprocess
import sys
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


def test_no_reader_uses_pyarrow_read_ahead(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import pyarrow.csv as pacsv

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("pyarrow.csv.open_csv reads a Python file from its own thread")

    monkeypatch.setattr(pacsv, "open_csv", refused)
    for reader, (text, name, read) in READERS.items():
        for ext, compress in COMPRESSORS.items():
            read(_write(tmp_path / f"{reader}.{name}.{ext}", compress(text.encode())))


def test_the_command_exits_2_with_one_line_under_load(tmp_path: Path) -> None:
    data = lzma.compress(QRELS.encode() * 40)
    run = _write(tmp_path / "r.run", RUN.encode())
    spin = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        for cut in (len(data) // 2,):  # one cut: a process costs seconds under load
            qrels = _write(tmp_path / f"{cut}.qrels.xz", data[:cut])
            done = subprocess.run(
                [sys.executable, "-m", "irtables", "evaluate", str(qrels), str(run), "-m", "map"],
                capture_output=True,
                text=True,
                timeout=120,
            )
            errors = [line for line in done.stderr.splitlines() if line.startswith("Error:")]
            assert done.returncode == 2, done.stderr
            assert len(errors) == 1 and str(qrels) in errors[0], done.stderr
            assert "terminate called" not in done.stderr
    finally:
        spin.kill()
        spin.wait()
