"""Benchmark: ``irtables supplement`` against ``irtables tables`` on the same study.

Run with ``make bench`` (``python bench/bench_supplement.py``). Two seeded studies are
generated with ``bench/make_synthetic.py`` into ``bench/out/`` unless already there:

- *medium*: 3 datasets x 6 systems x 2,000 queries x 40 metrics;
- *msmarco*: 2 datasets x 5 systems x 7,000 queries x 40 metrics (MS MARCO dev sized).

For each study, in one run, ``python -m irtables tables STUDY -o ...``, then
``python -m irtables supplement STUDY -o ...`` (figures drawn in worker processes, one per
core) and ``... supplement -j 1`` (figures drawn in-process, for comparison) run in fresh
child processes, alternating, best of ``--repeat``: wall time as the user sees it
(interpreter start-up, imports and pdflatex included), CPU time and peak memory from
``os.wait4`` (CPU of the process and of the children it waited for, pdflatex included; the
figure workers are children of multiprocessing's fork server, so the ``-j 1`` row is the
one with the supplement's whole CPU time). ``--max-load X`` waits before each command until
the 1-minute load average is below X (on a shared machine). The output is a Markdown
table per study and the targets of the issue: the supplement within 4x the tables on the
medium study, and under 15 s on the MS-MARCO-sized one.

``--profile`` also runs the supplement of the medium study once in this process under
cProfile (figures in-process) and prints where its time goes, stage by stage (the numbers
behind bench/README.md; cProfile roughly doubles the time of Python-heavy stages).
Exit status: 0, or 1 if a step failed (or, with ``--check``, if a target was missed).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
OUT = HERE / "out"
STAMP_NAME = ".complete.json"  # written last: a partial generation is redone


@dataclass(frozen=True)
class Study:
    """A synthetic study of the benchmark and the target for its supplement."""

    name: str
    datasets: int
    systems: int
    queries: int
    max_ratio: float | None = None  # supplement / tables
    max_seconds: float | None = None  # supplement alone

    @property
    def path(self) -> Path:
        """Where the study's files are generated."""
        return OUT / f"supplement-{self.name}" / "study"

    def describe(self) -> str:
        """One line: the size of the study."""
        return (
            f"{self.name}: {self.datasets} datasets x {self.systems} systems x "
            f"{self.queries:,} queries x 40 metrics"
        )


STUDIES = (
    Study("medium", 3, 6, 2000, max_ratio=4.0),
    Study("msmarco", 2, 5, 7000, max_seconds=15.0),
)

# Stages of the supplement for --profile: label and (file suffix, function name); the time
# of each is cProfile's cumulative time of that function.
STAGES = (
    ("load the results and the configuration", ("study/pipeline.py", "resolve_study")),
    ("all tables and significance tests (build_all)", ("tables/build.py", "build_all")),
    ("  of which the significance tests", ("tables/build.py", "_significance")),
    ("render the tables (LaTeX, Markdown, CSV)", ("supplement/build.py", "_tables")),
    ("per-query analysis (wins, ties, losses)", ("supplement/build.py", "_analyses")),
    ("per-query and failure reports", ("supplement/build.py", "_analysis_files")),
    ("figure plans (means, panels)", ("supplement/build.py", "_early_plans")),
    ("figures (draw and save PDF + PNG)", ("supplement/drawing.py", "results")),
    ("methods text model", ("supplement/methods.py", "methods_model")),
    (
        "Jinja pages (methods, supplement.tex, README, index.html)",
        ("supplement/templates.py", "render_page"),
    ),
    ("pdflatex (supplement.pdf)", ("supplement/pdf.py", "compile_pdf")),
    ("index.html (tables as HTML, Markdown pages)", ("supplement/index_page.py", "index_page")),
    ("manifest (hashes of the inputs)", ("supplement/run.py", "_manifest")),
    ("write the files", ("supplement/run.py", "_write")),
)


@dataclass
class Step:
    """One measured command."""

    name: str
    seconds: float
    cpu_seconds: float
    peak_mib: float
    note: str = ""


def run_child(argv: list[str]) -> tuple[int, Step, str]:
    """Run ``argv``; return its exit status, measures and stderr.

    ``os.wait4`` gives the rusage of the child and of the processes it waited for (the
    figure workers, pdflatex): CPU time is their sum, peak memory the largest of them.
    """
    with tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=REPO, stdout=subprocess.DEVNULL, stderr=err, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: tell Popen
        err.seek(0)
        stderr = err.read()
    cpu = usage.ru_utime + usage.ru_stime
    return proc.returncode, Step(" ".join(argv[2:4]), seconds, cpu, usage.ru_maxrss / 1024), stderr


def wait_for_quiet(max_load: float, timeout: float) -> str:
    """Wait (up to ``timeout`` s) until the 1-minute load average is below ``max_load``;
    returns the load average it started with, for the report."""
    deadline = time.monotonic() + timeout
    while os.getloadavg()[0] >= max_load and time.monotonic() < deadline:
        time.sleep(5)
    return f"{os.getloadavg()[0]:.1f}"


def ensure_study(study: Study) -> None:
    """Generate the study unless a complete one with the same parameters exists."""
    params = {"datasets": study.datasets, "systems": study.systems, "queries": study.queries}
    stamp = study.path / STAMP_NAME
    if stamp.is_file() and json.loads(stamp.read_text()) == params:
        return
    sys.path.insert(0, str(HERE))
    from make_synthetic import generate

    print(f"generating {study.describe()} in {study.path.relative_to(REPO)} ...", flush=True)
    if stamp.exists():
        stamp.unlink()
    for old in study.path.glob("*/*.tsv"):
        old.unlink()
    generate(study.path, study.datasets, study.systems, study.queries, seed=0)
    stamp.write_text(json.dumps(params))


#: What is timed on each study: a label and the irtables arguments after the study folder.
COMMANDS = (
    ("irtables tables", ("tables", "--force")),
    ("irtables supplement", ("supplement", "--force")),
    ("irtables supplement -j 1 (figures in-process)", ("supplement", "--force", "-j", "1")),
)


def measure(study: Study, args: argparse.Namespace) -> list[Step] | str:
    """Best wall time of ``--repeat`` alternating runs of each of :data:`COMMANDS`."""
    best: dict[str, Step] = {}
    for _ in range(args.repeat):
        for label, (command, *options) in COMMANDS:
            if label not in args.commands:
                continue
            load = wait_for_quiet(args.max_load, args.wait) if args.max_load else ""
            outdir = study.path.parent / command
            argv = [sys.executable, "-m", "irtables", command, str(study.path), "-o", str(outdir)]
            code, step, err = run_child([*argv, *options])
            if code != 0:
                return f"`{label}` failed with exit status {code}:\n{err.strip()}"
            if label not in best or step.seconds < best[label].seconds:
                step.name = label
                step.note = f"best of {args.repeat}" + (f", load {load} at start" if load else "")
                best[label] = step
    return [best[label] for label, _ in COMMANDS if label in best]


def markdown(steps: list[Step]) -> str:
    """The result table of one study in Markdown."""
    floor = steps[0].seconds
    cpu_floor = steps[0].cpu_seconds
    lines = [
        "| command | wall s | ratio to tables | CPU s | CPU ratio | peak MiB | note |",
        "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for step in steps:
        lines.append(
            f"| {step.name} | {step.seconds:.2f} | {step.seconds / floor:.2f}x | "
            f"{step.cpu_seconds:.2f} | {step.cpu_seconds / cpu_floor:.2f}x | "
            f"{step.peak_mib:.0f} | {step.note} |"
        )
    return "\n".join(lines)


def verdict(study: Study, tables: Step, supplement: Step) -> tuple[str, bool]:
    """The target line of one study and whether the target is met."""
    if study.max_ratio is not None:
        ratio = supplement.seconds / tables.seconds
        ok = ratio <= study.max_ratio
        return f"target: supplement <= {study.max_ratio:g}x tables -> {ratio:.2f}x", ok
    assert study.max_seconds is not None
    ok = supplement.seconds < study.max_seconds
    return f"target: supplement < {study.max_seconds:g} s -> {supplement.seconds:.2f} s", ok


def profile(study: Study) -> str:
    """Run the supplement of ``study`` in this process under cProfile; stage by stage."""
    from irtables.supplement.run import make_supplement

    outdir = study.path.parent / "supplement-profiled"
    profiler = cProfile.Profile()
    start = time.perf_counter()
    profiler.enable()
    make_supplement(study.path, outdir=outdir, force=True)
    profiler.disable()
    total = time.perf_counter() - start
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    cumulative: dict[tuple[str, str], float] = {}
    for (filename, _, function), (_, _, _, cum, _) in stats.items():
        for _, (suffix, name) in STAGES:
            if function == name and filename.endswith(suffix):
                cumulative[(suffix, name)] = cumulative.get((suffix, name), 0.0) + cum
    code, startup, _ = run_child([sys.executable, "-c", "import irtables.supplement.run"])
    lines = [
        f"cProfile of `make_supplement` on {study.describe()}: {total:.2f} s in all",
        f"(before it, unprofiled: python start-up + imports {startup.seconds:.2f} s)"
        if code == 0
        else "",
        "",
        "| stage | seconds | share |",
        "| --- | ---: | ---: |",
    ]
    for label, key in STAGES:
        seconds = cumulative.get(key, 0.0)
        lines.append(f"| {label} | {seconds:.2f} | {seconds / total:.0%} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Generate if needed, measure, print the tables; see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1, help="runs of each command (best of)")
    parser.add_argument("--only", choices=[s.name for s in STUDIES], help="one study only")
    parser.add_argument("--profile", action="store_true", help="profile the medium study")
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    parser.add_argument(
        "--max-load",
        type=float,
        default=0.0,
        help="before each command, wait until the 1-minute load average is below this",
    )
    parser.add_argument("--wait", type=float, default=600.0, help="longest wait (s) for that")
    parser.add_argument(
        "--no-serial", action="store_true", help="skip the run with the figures in-process"
    )
    args = parser.parse_args(argv)
    args.commands = [label for label, _ in COMMANDS[: 2 if args.no_serial else 3]]

    failed = missed = False
    for study in STUDIES:
        if args.only and study.name != args.only:
            continue
        ensure_study(study)
        result = measure(study, args)
        print(f"\n{study.describe()} ({study.path.relative_to(REPO)})\n")
        if isinstance(result, str):
            print(result)
            failed = True
            continue
        print(markdown(result))
        line, ok = verdict(study, result[0], result[1])
        print(f"\n{line} {'ok' if ok else 'MISSED'}")
        missed = missed or not ok
    if args.profile:
        medium = STUDIES[0]
        ensure_study(medium)
        print()
        print(profile(medium))
    return 1 if failed or (args.check and missed) else 0


if __name__ == "__main__":
    sys.exit(main())
