"""Benchmark: after one run of one dataset of two changes, the supplement's rerun costs
at most 0.75x its first build (issue 33 §2).

Run with ``python bench/bench_rerun_changed.py``. The study: the sweep of the tests
(``tests/data/sweep``) with two of its datasets (``robust03`` and ``tar2017``, 32 runs
each), generated into ``bench/out/rerun-changed``. Each repeat copies it afresh (no
cache of evaluated runs, no supplement), builds ``supplement --no-pdf`` (the first
build), changes one run of ``robust03`` (two documents of ``dense.run`` swap ranks:
Table 1 changes) and builds again (the rerun); fresh processes, wall and CPU time, the
medians of ``--repeat`` repeats. The same with the PDF when pdflatex is on the PATH.
Target: rerun <= 0.75 x first build.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from pathlib import Path

from common import IRTABLES, OUT, REPO, Timing, markdown, measure, precompile, verdict

sys.path.insert(0, str(REPO))
from tests.data.sweep.make_sweep import make_sweep

LIMIT = 0.75
DROPPED = "ehealth16"  # the sweep's third dataset: the study keeps two
CHANGED = Path("runs/robust03/dense.run")


def _base() -> Path:
    """The two-dataset sweep study, generated once per bench run."""
    folder = OUT / "rerun-changed-base"
    shutil.rmtree(folder, ignore_errors=True)
    make_sweep(folder)
    shutil.rmtree(folder / "runs" / DROPPED)
    config = folder / "irtables.toml"
    text = config.read_text()
    text = re.sub(rf'\[\[datasets\]\]\nid = "{DROPPED}"\n(?:[^\[\n][^\n]*\n)*\n?', "", text)
    text = text.replace(f', {DROPPED} = "bm25"', "")
    if DROPPED in text:
        raise SystemExit(f"could not drop {DROPPED} from {config}")
    config.write_text(text)
    return folder


def _change_run(study: Path) -> None:
    """Swap the documents of the first two lines of one run of ``robust03``."""
    path = study / CHANGED
    lines = path.read_text().splitlines(keepends=True)
    first, second = lines[0].split(), lines[1].split()
    first[2], second[2] = second[2], first[2]
    lines[:2] = [" ".join(first) + "\n", " ".join(second) + "\n"]
    path.write_text("".join(lines))


def _once(base: Path, pdf: bool) -> tuple[Timing, Timing]:
    study = OUT / "rerun-changed"
    shutil.rmtree(study, ignore_errors=True)
    shutil.copytree(base, study)
    command = [*IRTABLES, "supplement", str(study), "-o", str(study / "sup")]
    command += [] if pdf else ["--no-pdf"]
    first = measure(command)
    _change_run(study)
    return first, measure(command)


def _median(timings: list[Timing]) -> Timing:
    ordered = sorted(timings, key=lambda t: t.seconds)
    middle = ordered[len(ordered) // 2]
    cpu = sorted(t.cpu for t in timings)[len(timings) // 2]
    return Timing(middle.seconds, max(t.peak_mib for t in timings), cpu)


def main(argv: list[str] | None = None) -> int:
    """Measure first builds and reruns after one run changed; print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-pdf-only", action="store_true", help="skip the PDF builds")
    parser.add_argument("--check", action="store_true", help="exit 1 if the target is missed")
    args = parser.parse_args(argv)
    precompile()  # bytecode, as an installed irtables has
    base = _base()
    kinds = [False] if args.no_pdf_only or shutil.which("pdflatex") is None else [False, True]
    rows, ok, ok_cpu = [], True, True
    for pdf in kinds:
        pairs = [_once(base, pdf) for _ in range(max(args.repeat, 1))]
        first, rerun = _median([p[0] for p in pairs]), _median([p[1] for p in pairs])
        ratio, ratio_cpu = rerun.seconds / first.seconds, rerun.cpu / first.cpu
        ok, ok_cpu = ok and ratio <= LIMIT, ok_cpu and ratio_cpu <= LIMIT
        rows.append(
            [
                "supplement" if pdf else "supplement --no-pdf",
                f"{first.seconds:.2f} ({first.cpu:.2f} CPU)",
                f"{rerun.seconds:.2f} ({rerun.cpu:.2f} CPU)",
                f"{ratio:.2f}",
                f"{ratio_cpu:.2f}",
            ]
        )
    print(f"\nOne run of one dataset of two changed ({CHANGED}), medians of {args.repeat}")
    header = ["command", "first build s", "rerun s", "x first", "x first (CPU)"]
    print(markdown(header, rows))
    print(f"\n- rerun <= {LIMIT} x first build, wall: {verdict(ok)}; CPU: {verdict(ok_cpu)}")
    return 1 if args.check and not (ok and ok_cpu) else 0


if __name__ == "__main__":
    sys.exit(main())
