"""A truncated compressed input ends the command with one `Error:` line and exit status 2,
never an abort at exit (issue 34 §2): pyarrow's threads used to drop the last Python
buffer of a read while the interpreter was exiting after the error, and Python ended the
thread inside C++ code ("terminate called without an active exception", exit 134).

Every cut point of a small file, in every compression format and through every reader
(qrels and run through ``evaluate``, a per-query results file through ``tables``), is
run in one child Python per format that calls the command line in-process and then
exits (a thread left behind aborts that exit); a few cut points run as processes of
their own, under a concurrent busy loop, for the exit status of each.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # about a minute on two idle cores, minutes on busy ones

ROOT = Path(__file__).resolve().parents[2]
FORMATS = ("gz", "bz2", "xz", "zst")
READERS = ("qrels", "run", "results")

#: Writes the whole and the cut files of a format, and the argument lists that read them.
_SETUP = r"""
import bz2, gzip, lzma, pathlib, pyarrow as pa
COMPRESS = {"gz": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress,
            "zst": lambda b: pa.compress(b, codec="zstd", asbytes=True)}
QRELS = "".join(f"{q} 0 d{d} {(q * d) % 3}\n" for q in range(1, 6) for d in range(1, 9))
RUN = "".join(f"{q} Q0 d{d} {d} {10 - d / 7:.4f} bm25\n" for q in range(1, 6) for d in range(1, 9))
PER_QUERY = "query\tmetric\tvalue\n" + "".join(f"{q}\tAP\t0.{q}\n" for q in range(1, 9))

def cases(tmp, ext, cuts=None):
    tmp = pathlib.Path(tmp)
    (tmp / "qrels.txt").write_text(QRELS)
    (tmp / "bm25.run").write_text(RUN)
    out = []
    for reader, text in (("qrels", QRELS), ("run", RUN), ("results", PER_QUERY)):
        data = COMPRESS[ext](text.encode())
        for cut in (cuts or range(2, len(data))):  # from 2 bytes on, a file is one by its magic
            if cut >= len(data):
                continue
            if reader == "qrels":
                path = tmp / f"q{cut}.txt.{ext}"
                args = ["evaluate", str(path), str(tmp / "bm25.run"), "-m", "map"]
            elif reader == "run":
                path = tmp / f"r{cut}.run.{ext}"
                args = ["evaluate", str(tmp / "qrels.txt"), str(path), "-m", "map"]
            else:
                folder = tmp / f"t{cut}" / "dl19"
                folder.mkdir(parents=True)
                (folder / "bm25.tsv").write_text(PER_QUERY)
                path = folder / f"cut.tsv.{ext}"
                args = ["tables", str(folder.parent), "-o", str(tmp / f"out{cut}")]
            path.write_bytes(data[:cut])
            out.append((reader, cut, str(path), args))
    return out
"""

#: Runs every case of one format in-process and prints what went wrong, as JSON.
_IN_PROCESS = (
    _SETUP
    + r"""
import json, sys
from click.testing import CliRunner
from irtables.cli import main
from irtables.loaders import arrow_csv
held = []  # reads after which pyarrow still held what it was lent
waited = arrow_csv.wait_released
def checked_wait(lent):
    waited(lent)
    held.extend(1 for ref in lent if ref() is not None)
arrow_csv.wait_released = checked_wait
wrong = []
count = 0
for reader, cut, path, args in cases(sys.argv[2], sys.argv[1]):
    result = CliRunner().invoke(main, args)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    count += 1
    one = len(lines) == 1 and lines[0].startswith("Error: ") and path in lines[0]
    if result.exit_code != 2 or not one:
        wrong.append([reader, cut, result.exit_code, result.stderr[-400:]])
print(json.dumps({"count": count, "wrong": wrong, "held": len(held)}))
"""
)

_WRITE_CASES = (
    _SETUP + "import json, sys\nprint(json.dumps(cases(sys.argv[2], sys.argv[1], [9, 33])))\n"
)


def _cli(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "irtables", *args],
        capture_output=True,
        text=True,
        env=_env(),
        cwd=cwd,
        timeout=120,
    )


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{ROOT}"}


@pytest.fixture
def busy() -> Iterator[None]:
    """Two processes spinning while the test runs (the abort depended on load)."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


@pytest.mark.parametrize("ext", FORMATS)
def test_every_cut_point_in_process(tmp_path: Path, ext: str) -> None:
    child = subprocess.run(
        [sys.executable, "-c", _IN_PROCESS, ext, str(tmp_path)],
        capture_output=True,
        text=True,
        env=_env(),
        cwd=tmp_path,
        timeout=300,
    )
    assert child.returncode == 0, child.stderr[-2000:]  # 134: a thread was left behind
    assert "terminate called" not in child.stderr
    report = json.loads(child.stdout)
    assert report["count"] > 3 * 40, report["count"]  # every reader, every cut point
    assert report["wrong"] == []
    assert report["held"] == 0  # every read waited until pyarrow let go of its blocks


def test_cut_points_as_processes_under_load(tmp_path: Path, busy: None) -> None:
    for ext in FORMATS:
        folder = tmp_path / ext
        folder.mkdir()
        made = subprocess.run(
            [sys.executable, "-c", _WRITE_CASES, ext, str(folder)],
            capture_output=True,
            text=True,
            env=_env(),
            check=True,
        )
        cases = json.loads(made.stdout)
        with ThreadPoolExecutor(2) as pool:
            runs = list(pool.map(_cli, [case[3] for case in cases], [folder] * len(cases)))
        for (reader, cut, path, _), done in zip(cases, runs, strict=True):
            where = (ext, reader, cut, done.stderr[-600:])
            lines = [line for line in done.stderr.splitlines() if line.strip()]
            assert done.returncode == 2, where
            assert len(lines) == 1, where
            assert lines[0].startswith("Error: ") and path in lines[0], where
            for bad in ("terminate called", "internal error", "Traceback"):
                assert bad not in done.stderr, where
