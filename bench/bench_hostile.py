"""Benchmark: what a small pathological input costs before it is refused (issue 24 §5,
issue 23 §2).

Run with ``python bench/bench_hostile.py``. Each case is one fresh ``irtables`` process
(wall seconds, peak resident MiB, exit status and the error line):

- gzip files of about 1 MB expanding to 1 GiB of NUL bytes or of one line, one of
  about 0.5 MB expanding to 256 MiB of repeated ``map 1 0.5`` lines, and two of about
  2 MB expanding to 2 GiB of blank lines or of lines of spaces, read as a run
  (``irtables evaluate``) and as per-query results (``irtables lint``);
- runs retrieving one document 10,000 and 300,000 times (a looped run).

Before these limits (same machine, ``c3169a6``): the gzip files took 2.1-3.4 GB and
7.6-37 s; 10,000 repeated lines took 30 s, 300,000 more than 13 minutes.
"""

from __future__ import annotations

import argparse
import gzip
import sys

from common import IRTABLES, OUT, markdown, wait_child

MIB = 1 << 20


def _gzip(path: str, chunk: bytes, total: int) -> None:
    with gzip.open(path, "wb", compresslevel=9) as handle:
        block = chunk * (MIB // len(chunk))
        for _ in range(total // len(block)):
            handle.write(block)


def _inputs() -> dict[str, str]:
    folder = OUT / "hostile"
    folder.mkdir(parents=True, exist_ok=True)
    made = {
        "NUL bytes (1 GiB)": (b"\0", 1024 * MIB),
        "one line (1 GiB)": (b"1", 1024 * MIB),
        "repeated lines (256 MiB)": (b"map\t1\t0.5\n", 256 * MIB),
        "blank lines (2 GiB)": (b"\n", 2048 * MIB),
        "lines of spaces (2 GiB)": (b"  \t \n", 2048 * MIB),
    }
    paths = {}
    for i, (name, (chunk, total)) in enumerate(made.items()):
        path = folder / f"bomb{i}.txt.gz"
        if not path.exists():
            _gzip(str(path), chunk, total)
        paths[name] = str(path)
    (folder / "q.qrels").write_text("1 0 d1 1\n")
    (folder / "r.run").write_text("1 Q0 d1 1 1.0 r\n")
    for n in (10_000, 300_000):
        path = folder / f"loop{n}.run"
        if not path.exists():
            path.write_text("1 Q0 d1 1 1.0 r\n" * n)
        paths[f"one document x {n:,}"] = str(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    """Measure every case and print one table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args(argv)
    paths = _inputs()
    qrels = str(OUT / "hostile" / "q.qrels")
    run = str(OUT / "hostile" / "r.run")
    rows = []
    for name, path in paths.items():
        commands = {"evaluate (run)": [*IRTABLES, "evaluate", qrels, path, "-m", "map"]}
        if "document" not in name:
            commands["evaluate (qrels)"] = [*IRTABLES, "evaluate", path, run, "-m", "map"]
            commands["lint (per-query)"] = [*IRTABLES, "lint", path]
        for how, argv_ in commands.items():
            done = wait_child(argv_)
            error = next((ln for ln in done.stderr.splitlines() if ln.startswith("Error:")), "")
            rows.append((name, how, done.code, done.seconds, done.peak_mib, error[-70:]))
    header = ("input", "read by", "exit", "seconds", "peak MiB", "error (end)")
    print(markdown(header, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
