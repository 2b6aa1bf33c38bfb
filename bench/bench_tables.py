"""Benchmark: render all tables of a large synthetic study, against pyarrow's read time.

Run with ``make bench`` (``python bench/bench_tables.py``). Steps:

1. generate the study with ``bench/make_synthetic.py`` into ``bench/out/study`` unless it is
   already there (5 datasets x 10 systems x 7,000 queries x 40 metrics, seed 0);
2. the floor: ``pyarrow.csv.read_csv`` over every per-query file, best of 3, in a fresh
   child process (seconds measured inside the child with ``time.perf_counter``);
3. ``python -m irtables tables bench/out/study -o bench/out/tables`` in a fresh child
   process, best of 3: wall time as the user sees it (interpreter start-up and imports
   included), with its CPU seconds (user + system);
4. for context, the start-up of a Python process that imports ``irtables.cli``.

irtables' modules are compiled to bytecode first (``compileall``), as an installed
package is: with ``PYTHONDONTWRITEBYTECODE`` set, an editable install would otherwise
compile every module from source in every process.

Peak memory is each child's maximum resident set size (``os.wait4`` rusage ``ru_maxrss``).
The script prints a Markdown table (step, seconds, peak MiB, ratio to the pyarrow read) and
the targets of the issue: irtables within 3x of the pyarrow read, under 2 GiB.
Exit status: 0, or 1 if a step failed (or, with ``--check``, if a target was missed).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import sys
from dataclasses import dataclass

from common import OUT, REPO, ensure_synthetic, precompile, wait_child

STUDY = OUT / "study"
TABLES = OUT / "tables"
TARGET_RATIO = 3.0
TARGET_MIB = 2048.0

# Runs in a child: reads every file with pyarrow, prints the best time of `repeat` as JSON.
PYARROW_READ = """
import json, sys, time
from pathlib import Path
import pyarrow.csv as pacsv
files = sorted(Path(sys.argv[1]).glob("*/*.tsv"))
parse = pacsv.ParseOptions(delimiter="\\t")
times, cpus, rows = [], [], 0
for _ in range(int(sys.argv[2])):
    start, cpu = time.perf_counter(), time.process_time()
    tables = [pacsv.read_csv(f, parse_options=parse) for f in files]
    times.append(time.perf_counter() - start)
    cpus.append(time.process_time() - cpu)
    rows = sum(t.num_rows for t in tables)
    del tables
best = times.index(min(times))
print(json.dumps({"seconds": times[best], "cpu": cpus[best], "all": times, "files": len(files),
                  "rows": rows}))
"""


@dataclass
class Step:
    """One measured step of the benchmark."""

    name: str
    seconds: float
    peak_mib: float
    note: str = ""
    cpu: float | None = None


def bench_pyarrow(repeat: int) -> Step:
    """The floor: pyarrow reads all files (best of ``repeat``) in a fresh process."""
    argv = [sys.executable, "-c", PYARROW_READ, str(STUDY), str(repeat)]
    child = wait_child(argv, keep_stdout=True)
    if child.code != 0:
        raise RuntimeError(f"pyarrow read failed:\n{child.stderr}")
    result = json.loads(child.stdout)
    note = f"{result['files']} files, {result['rows']:,} rows, best of {repeat}"
    return Step(
        "pyarrow.csv.read_csv (floor)", result["seconds"], child.peak_mib, note, result["cpu"]
    )


def bench_irtables(repeat: int) -> Step | str:
    """``python -m irtables tables STUDY -o TABLES``: the best wall time of ``repeat`` runs."""
    if importlib.util.find_spec("irtables.cli") is None:
        return "irtables.cli is not available yet: the irtables step was skipped"
    precompile()
    seconds, peak, cpu = float("inf"), 0.0, 0.0
    for _ in range(repeat):
        shutil.rmtree(TABLES, ignore_errors=True)  # the benchmark's own output: a fresh folder
        argv = [sys.executable, "-m", "irtables", "tables", str(STUDY), "-o", str(TABLES)]
        child = wait_child(argv)
        if child.code != 0:
            err = child.stderr.strip()
            return f"`irtables tables` failed with exit status {child.code}:\n{err}"
        if child.seconds < seconds:
            seconds, cpu = child.seconds, child.cpu
        peak = max(peak, child.peak_mib)
    produced = sorted(p for p in TABLES.rglob("*") if p.is_file())
    if not produced:
        return f"`irtables tables` wrote no file into {TABLES}"
    note = f"{len(produced)} files written, wall time incl. start-up, best of {repeat}"
    return Step("irtables tables (all tables)", seconds, peak, note, cpu)


def bench_startup() -> Step | None:
    """Interpreter start-up plus ``import irtables.cli``: the fixed cost inside step 3."""
    if importlib.util.find_spec("irtables.cli") is None:
        return None
    child = wait_child([sys.executable, "-c", "import irtables.cli"])
    if child.code != 0:
        return None
    return Step(
        "python start-up + import irtables.cli", child.seconds, child.peak_mib, "context", child.cpu
    )


def markdown(steps: list[Step], floor: float) -> str:
    """The result table in Markdown."""
    lines = [
        "| step | seconds | CPU s | peak MiB | ratio to pyarrow read | note |",
        "| --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for step in steps:
        ratio = step.seconds / floor
        cpu = "" if step.cpu is None else f"{step.cpu:.2f}"
        lines.append(
            f"| {step.name} | {step.seconds:.2f} | {cpu} | {step.peak_mib:.0f} | {ratio:.2f}x"
            f" | {step.note} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Generate if needed, measure, print the table; see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=int, default=5)
    parser.add_argument("--systems", type=int, default=10)
    parser.add_argument("--queries", type=int, default=7000)
    parser.add_argument("--repeat", type=int, default=3, help="pyarrow reads (best of)")
    parser.add_argument("--irtables-repeat", type=int, default=3, help="irtables runs (best of)")
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    args = parser.parse_args(argv)

    ensure_synthetic(STUDY, args.datasets, args.systems, args.queries)
    floor = bench_pyarrow(args.repeat)
    steps = [floor]
    irtables = bench_irtables(args.irtables_repeat)
    startup = bench_startup()
    if isinstance(irtables, Step):
        steps.append(irtables)
    if startup is not None:
        steps.append(startup)

    print()
    print(
        f"Synthetic study: {args.datasets} datasets x {args.systems} systems x "
        f"{args.queries:,} queries x 40 metrics ({STUDY.relative_to(REPO)})"
    )
    print()
    print(markdown(steps, floor.seconds))
    print()
    if isinstance(irtables, str):
        print(irtables)
        return 1
    ratio = irtables.seconds / floor.seconds
    ok_time, ok_mem = ratio <= TARGET_RATIO, irtables.peak_mib <= TARGET_MIB
    print(
        f"target: <= {TARGET_RATIO:g}x the pyarrow read -> {ratio:.2f}x "
        f"{'ok' if ok_time else 'MISSED'}; peak < 2 GiB -> {irtables.peak_mib:.0f} MiB "
        f"{'ok' if ok_mem else 'MISSED'}"
    )
    return 1 if args.check and not (ok_time and ok_mem) else 0


if __name__ == "__main__":
    sys.exit(main())
