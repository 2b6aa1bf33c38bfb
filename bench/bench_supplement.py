"""Benchmark: ``irtables supplement`` against ``irtables tables`` on the same study.

Run with ``make bench`` (``python bench/bench_supplement.py``). Two seeded studies are
generated with ``bench/make_synthetic.py`` into ``bench/out/`` unless already there:

- *medium*: 3 datasets x 6 systems x 2,000 queries x 40 metrics;
- *msmarco*: 2 datasets x 5 systems x 7,000 queries x 40 metrics (MS MARCO dev sized).

For each study, in one run, ``python -m irtables tables STUDY -o ...``, then ``python -m
irtables supplement STUDY -o ...`` (figures drawn in worker processes, one per core), ``...
supplement --no-pdf`` and ``... supplement -j 1`` (figures drawn in-process, for
comparison; left out by ``--no-serial``) run in fresh child processes, alternating, best of
``--repeat``; ``--cores N`` runs each of them on N cores only (``taskset``, which irtables
sees as all the cores there are); ``--against SRC`` runs each command also with irtables
imported from another checkout's ``src/`` (before and after, alternating): wall time as the
user sees it (interpreter start-up, imports and pdflatex included), CPU time and peak
memory from ``os.wait4`` (CPU of the process and of the children it waited for, pdflatex
included; the figure workers are children of multiprocessing's fork server, so the ``-j 1``
row is the one with the supplement's whole CPU time). ``--max-load X`` waits before each
command until the 1-minute load average is below X (on a shared machine). The output is a
Markdown table per study and the targets of the issues: on the medium study the supplement
within 4x the tables, and within 3x with ``--no-pdf`` (issue 23); under 15 s on the
MS-MARCO-sized one.

``--profile`` also runs the supplement of the medium study once in this process under
cProfile (figures in-process) and prints where its time goes, stage by stage (the numbers
behind bench/README.md; cProfile roughly doubles the time of Python-heavy stages).
Exit status: 0, or 1 if a step failed (or, with ``--check``, if a target was missed).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from common import OUT, REPO, Waited, ensure_synthetic, wait_child


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

# Stages of the supplement for --profile: label, module and name of the function (the
# name the caller looks up, so that a timer can wrap it).
STAGES = (
    ("load the results and the configuration", "irtables.supplement.run", "load_study"),
    ("plans of metric-vs-K and PR figures (means)", "irtables.supplement.build", "_early_plans"),
    ("all tables and significance tests (build_all)", "irtables.supplement.build", "build_all"),
    ("per-query analysis (wins, ties, losses)", "irtables.supplement.build", "_analyses"),
    ("meta-analysis, topic-set sizes", "irtables.supplement.build", "across_datasets"),
    ("render the tables (LaTeX, Markdown, CSV)", "irtables.supplement.build", "_tables"),
    ("per-query and failure reports", "irtables.supplement.build", "_analysis_files"),
    ("methods text, supplement.tex (Jinja)", "irtables.supplement.build", "render_page"),
    ("figures (draw, save PDF + PNG)", "irtables.supplement.drawing", "FigureDrawing.results"),
    ("pdflatex (supplement.pdf)", "irtables.supplement.run", "compile_pdf"),
    ("README.md", "irtables.supplement.run", "readme"),
    ("index.html (tables as HTML, Markdown pages)", "irtables.supplement.run", "index_page"),
    ("manifest (hashes of the inputs)", "irtables.supplement.run", "_manifest"),
    ("write the files", "irtables.supplement.run", "_write"),
)


@dataclass
class Step:
    """One measured command."""

    name: str
    seconds: float
    cpu_seconds: float
    peak_mib: float
    note: str = ""


def wait_for_quiet(max_load: float, timeout: float) -> str:
    """Wait (up to ``timeout`` s) until the 1-minute load average is below ``max_load``;
    returns the load average it started with, for the report."""
    deadline = time.monotonic() + timeout
    while os.getloadavg()[0] >= max_load and time.monotonic() < deadline:
        time.sleep(5)
    return f"{os.getloadavg()[0]:.1f}"


def ensure_study(study: Study) -> None:
    """Generate the study unless a complete one with the same parameters exists."""
    ensure_synthetic(study.path, study.datasets, study.systems, study.queries)


#: What is timed on each study: a label and the irtables arguments after the study folder.
COMMANDS = (
    ("irtables tables", ("tables", "--force")),
    ("irtables supplement", ("supplement", "--force")),
    ("irtables supplement --no-pdf", ("supplement", "--force", "--no-pdf")),
    ("irtables supplement -j 1 (figures in-process)", ("supplement", "--force", "-j", "1")),
)
#: Targets of issue 23 on the medium study: (label of COMMANDS, largest ratio to tables).
RATIOS = (("irtables supplement", 4.0), ("irtables supplement --no-pdf", 3.0))


def measure(study: Study, args: argparse.Namespace) -> dict[str, list[Step]] | str:
    """Best wall time of ``--repeat`` alternating runs of each of :data:`COMMANDS`, for
    this checkout (key ``""``) and, with ``--against SRC``, for that one (key ``SRC``)."""
    sources = ["", *([args.against] if args.against else [])]
    best: dict[tuple[str, str], Step] = {}
    for _ in range(args.repeat):
        for label, (command, *options) in COMMANDS:
            if label not in args.commands:
                continue
            for source in sources:  # alternating: the same load for both
                load = wait_for_quiet(args.max_load, args.wait) if args.max_load else ""
                outdir = study.path.parent / command
                argv = [
                    sys.executable,
                    "-m",
                    "irtables",
                    command,
                    str(study.path),
                    "-o",
                    str(outdir),
                ]
                if args.cores:  # this many cores only (irtables sees them as all there are)
                    argv = ["taskset", "-c", f"0-{args.cores - 1}", *argv]
                # --rebuild: a build each time (this checkout; without it a rerun with
                # nothing changed only compares hashes, measured by bench_rerun.py)
                rebuild = [] if source else ["--rebuild"]
                child = _run_from(source, [*argv, *options, *rebuild])
                if child.code != 0:
                    return (
                        f"`{label}` failed with exit status {child.code}:\n{child.stderr.strip()}"
                    )
                key = (source, label)
                if key not in best or child.seconds < best[key].seconds:
                    note = f"best of {args.repeat}" + (f", load {load} at start" if load else "")
                    best[key] = Step(label, child.seconds, child.cpu, child.peak_mib, note)
    return {
        source: [best[(source, label)] for label, _ in COMMANDS if (source, label) in best]
        for source in sources
    }


def _run_from(source: str, argv: list[str]) -> Waited:
    """Run ``argv`` with irtables imported from ``source`` (a ``src`` folder), or from
    this checkout when it is empty."""
    saved = os.environ.get("PYTHONPATH")
    try:
        if source:
            os.environ["PYTHONPATH"] = source
        return wait_child(argv)
    finally:
        if saved is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = saved


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


def verdicts(study: Study, steps: list[Step]) -> list[tuple[str, bool]]:
    """The target lines of one study and whether each target is met."""
    by_name = {step.name: step for step in steps}
    tables = by_name["irtables tables"]
    if study.max_ratio is None:
        assert study.max_seconds is not None
        took = by_name["irtables supplement"].seconds
        return [
            (
                f"target: supplement < {study.max_seconds:g} s -> {took:.2f} s",
                took < study.max_seconds,
            )
        ]
    found = []
    for label, limit in RATIOS:
        if label in by_name:
            ratio = by_name[label].seconds / tables.seconds
            name = label.removeprefix("irtables ")
            found.append((f"target: {name} <= {limit:g}x tables -> {ratio:.2f}x", ratio <= limit))
    return found


def profile(study: Study) -> str:
    """Where the supplement's time goes: one run with a timer around each stage, one
    under cProfile (both in this process, figures drawn in-process)."""
    import importlib

    from irtables.supplement.run import make_supplement

    outdir = study.path.parent / "supplement-profiled"
    timed: dict[str, float] = {}
    originals = []
    for label, module_name, name in STAGES:
        owner: object = importlib.import_module(module_name)
        attribute = name
        if "." in name:  # a method
            cls, attribute = name.split(".")
            owner = getattr(owner, cls)
        function = getattr(owner, attribute)
        originals.append((owner, attribute, function, label))
        setattr(owner, attribute, _timer(function, label, timed))
    start = time.perf_counter()
    try:
        make_supplement(study.path, outdir=outdir, force=True, workers=1)
    finally:
        for owner, attribute, function, _ in originals:
            setattr(owner, attribute, function)
    wall = time.perf_counter() - start

    profiler = cProfile.Profile()
    start = time.perf_counter()
    profiler.enable()
    make_supplement(study.path, outdir=outdir, force=True, workers=1)
    profiler.disable()
    profiled = time.perf_counter() - start
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    cumulative: dict[str, float] = {}
    for _, _, function, label in originals:
        code = getattr(function, "__code__", None)
        for (filename, line, fname), (_, _, _, cum, _) in stats.items():
            if code is not None and (filename, line, fname) == (
                code.co_filename,
                code.co_firstlineno,
                code.co_name,
            ):
                cumulative[label] = cumulative.get(label, 0.0) + cum
    startup = wait_child([sys.executable, "-c", "import irtables.supplement.run"])
    lines = [
        f"`make_supplement` on {study.describe()}, figures in-process (workers=1):",
        f"{wall:.2f} s with timers, {profiled:.2f} s under cProfile; before it, "
        f"python start-up + imports {startup.seconds:.2f} s (a fresh process)",
        "",
        "| stage | seconds (timer) | share | cProfile cumulative s |",
        "| --- | ---: | ---: | ---: |",
    ]
    for label, _, _ in STAGES:
        seconds = timed.get(label, 0.0)
        cum = f"{cumulative[label]:.2f}" if label in cumulative else "(thread)"
        lines.append(f"| {label} | {seconds:.2f} | {seconds / wall:.0%} | {cum} |")
    lines.append("")
    lines.append(
        "pdflatex runs in a thread while README.md and index.html are rendered (their "
        "timers overlap); cProfile sees the main thread only. The first stage that "
        "imports scipy's optimizers pays for it (the meta-analysis in the timed run)."
    )
    return "\n".join(lines)


def _timer(
    function: Callable[..., object], label: str, timed: dict[str, float]
) -> Callable[..., object]:
    def timed_call(*args: object, **kwargs: object) -> object:
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            timed[label] = timed.get(label, 0.0) + time.perf_counter() - start

    return timed_call


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
    parser.add_argument(
        "--cores", type=int, default=0, help="run every command on this many cores (taskset)"
    )
    parser.add_argument(
        "--against",
        metavar="SRC",
        help="also run every command, alternating, with irtables from SRC (another "
        "checkout's src/, e.g. from `git archive REV src templates`)",
    )
    args = parser.parse_args(argv)
    args.commands = [label for label, _ in COMMANDS[: 3 if args.no_serial else 4]]

    failed = missed = False
    for study in STUDIES:
        if args.only and study.name != args.only:
            continue
        ensure_study(study)
        result = measure(study, args)
        cores = f", {args.cores} core(s) (taskset)" if args.cores else f", {os.cpu_count()} cores"
        print(f"\n{study.describe()} ({study.path.relative_to(REPO)}){cores}\n")
        if isinstance(result, str):
            print(result)
            failed = True
            continue
        for source, steps in result.items():
            if source:
                print(f"\nthe same, alternating, with irtables from {source}:\n")
            print(markdown(steps))
            print()
            for line, ok in verdicts(study, steps):
                print(f"{line} {'ok' if ok else 'MISSED'}")
                missed = missed or (not ok and not source)
    if args.profile:
        medium = STUDIES[0]
        ensure_study(medium)
        print()
        print(profile(medium))
    return 1 if failed or (args.check and missed) else 0


if __name__ == "__main__":
    sys.exit(main())
