"""Benchmark: a rerun with nothing changed costs what ``irtables check`` costs (issue 33 §1).

Run with ``make bench`` (``python bench/bench_rerun.py``). Two studies: the sweep of the
tests (``tests/data/sweep``: three datasets of qrels + 32 runs each, generated into
``bench/out/rerun-sweep``) and the example in ``results/`` (copied into
``bench/out/rerun-example``). For each: a first build of ``tables`` and of
``supplement --no-pdf``, then, nothing changed, ``check``, ``tables`` and ``supplement``
again (fresh processes, wall and CPU time, the median of ``--repeat`` runs) and their
ratios to ``check``, of wall and of CPU time (on a loaded machine the wall ratio is
mostly the load's).
Target: each rerun <= 1.5 x ``irtables check`` on the same study.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from common import IRTABLES, OUT, REPO, markdown, measure, verdict

sys.path.insert(0, str(REPO))
from tests.data.sweep.make_sweep import make_sweep

LIMIT = 1.5


def _study(name: str) -> tuple[str, Path]:
    folder = OUT / f"rerun-{name}"
    shutil.rmtree(folder, ignore_errors=True)
    if name == "sweep":
        make_sweep(folder)
    else:
        shutil.copytree(REPO / "results", folder, ignore=shutil.ignore_patterns("tables"))
    return name, folder


def main(argv: list[str] | None = None) -> int:
    """Build both studies, measure the reruns against ``check``, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--check", action="store_true", help="exit 1 if the target is missed")
    args = parser.parse_args(argv)
    rows, ok, ok_cpu = [], True, True
    for name, folder in (_study("sweep"), _study("example")):
        tables = [*IRTABLES, "tables", str(folder), "-o", f"{folder}/tables"]
        supplement = [*IRTABLES, "supplement", str(folder), "-o", f"{folder}/sup", "--no-pdf"]
        check = [*IRTABLES, "check", str(folder), "-o", f"{folder}/sup"]
        first_tables, first_supplement = measure(tables), measure(supplement)
        checked = measure(check, repeat=args.repeat)
        again = {
            "tables": measure(tables, repeat=args.repeat),
            "supplement --no-pdf": measure(supplement, repeat=args.repeat),
        }
        firsts = {"tables": first_tables, "supplement --no-pdf": first_supplement}
        rows.append(
            [name, "check", f"{checked.seconds:.2f}", f"{checked.cpu:.2f}", "1.00", "1.00", ""]
        )
        for command, t in again.items():
            ratio, ratio_cpu = t.seconds / checked.seconds, t.cpu / checked.cpu
            ok, ok_cpu = ok and ratio <= LIMIT, ok_cpu and ratio_cpu <= LIMIT
            first = firsts[command]
            rows.append(
                [
                    name,
                    f"{command}, nothing changed",
                    f"{t.seconds:.2f}",
                    f"{t.cpu:.2f}",
                    f"{ratio:.2f}",
                    f"{ratio_cpu:.2f}",
                    f"{first.seconds:.2f} ({first.cpu:.2f} CPU)",
                ]
            )
    print("\nReruns with nothing changed, against irtables check (fresh processes)")
    header = ["study", "command", "wall s", "CPU s", "x check", "x check (CPU)", "first build"]
    print(markdown(header, rows))
    print(f"\n- every rerun <= {LIMIT} x check, wall: {verdict(ok)}; CPU: {verdict(ok_cpu)}")
    return 1 if args.check and not (ok and ok_cpu) else 0


if __name__ == "__main__":
    sys.exit(main())
