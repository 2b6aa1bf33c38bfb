"""Benchmark: irtables evaluate against the real trec_eval 9.0.8 and pytrec_eval.

Run with ``make bench`` (``python bench/bench_trec.py``). Shapes (seeded, generated once
into ``bench/out/trec/`` by ``bench/make_runs.py``):

- **robust04**: 249 topics x 1,000 documents (``LA052189-0089``-style ids), ~311 k
  judgements, ~70 relevant per topic; one run, then 20 runs;
- **msmarco**: 6,980 topics x 1,000 documents (integer ids), ~1 relevant per topic.

Measures: every measure trec_eval prints by default (but ``gm_map``, which irtables does
not compute) plus nDCG@K, P@K and R@K at trec_eval's cutoffs (5 ... 1000): trec_eval is
called with ``-q -m official -m ndcg_cut -m recall``, pytrec_eval with the same measure
names, irtables with the same measures (``-q``, tidy TSV to standard output). Every tool
is a fresh process timed from the outside (start-up included), median of ``--repeat`` runs
(irtables' modules compiled to bytecode first, as an installed package has them);
20 trec_eval runs are 20 calls one after the other, 20 irtables runs one call (every
core), 20 pytrec_eval runs one script. Peak memory is the child's maximum resident set.

Targets (issue 13): robust04 one run: irtables <= trec_eval; 20 runs: irtables <= 0.5x
20 trec_eval calls; msmarco: irtables <= 0.3x trec_eval, peak < 2x the run file.

``--pool`` measures only whether the default ``--jobs`` pays (issue 23 section 4): one
Robust04-shaped run, one TREC DL-shaped run (43 topics x 1,000 documents, graded) and 20
Robust04 runs, each with the default ``--jobs``, with ``-j 1`` and with ``-j 2`` (a pool
forced), beside trec_eval; the commands of a case take turns, ``--repeat`` rounds, medians.
Targets: one run of either shape <= trec_eval, the default <= ``-j 1``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from common import (
    IRTABLES,
    OUT,
    PYTHON,
    PYTREC_EVAL,
    REPO,
    Timing,
    generate,
    have_pytrec_eval,
    markdown,
    measure,
    measure_sequence,
    precompile,
    run_child,
    trec_eval_binary,
    verdict,
)
from make_runs import DL, MSMARCO, ROBUST04, Shape

CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
LEVELS = tuple(f"{x / 10:.2f}" for x in range(11))
#: irtables' names for trec_eval's default measures (no gm_map) plus nDCG/P/R at CUTOFFS.
IRTABLES_MEASURES = (
    "num_ret",
    "num_rel",
    "num_rel_ret",
    "map",
    "Rprec",
    "bpref",
    "recip_rank",
    *(f"iprec_at_recall_{x}" for x in LEVELS),
    *(f"{family}_{k}" for k in CUTOFFS for family in ("P", "ndcg_cut", "recall")),
)
TREC_EVAL_MEASURES = ("-m", "official", "-m", "ndcg_cut", "-m", "recall")
PYTREC_MEASURES = ",".join(
    (*IRTABLES_MEASURES[:7], "gm_map", "iprec_at_recall", "P", "ndcg_cut", "recall")
)


def irtables_cmd(qrels: Path, runs: list[Path]) -> list[str]:
    """``irtables evaluate -q`` of the benchmark's measures (to standard output, as
    trec_eval writes)."""
    argv = [*IRTABLES, "evaluate", str(qrels), *map(str, runs), "-q"]
    for m in IRTABLES_MEASURES:
        argv += ["-m", m]
    return argv


def trec_eval_cmd(binary: Path, qrels: Path, run: Path) -> list[str]:
    """trec_eval -q with its default measures plus nDCG and recall at its cutoffs."""
    return [str(binary), "-q", *TREC_EVAL_MEASURES, str(qrels), str(run)]


def pytrec_cmd(qrels: Path, runs: list[Path]) -> list[str]:
    """A Python process evaluating ``runs`` with pytrec_eval (qrels parsed once)."""
    return [PYTHON, "-c", PYTREC_EVAL, str(qrels), PYTREC_MEASURES, *map(str, runs)]


def compare_tools(
    label: str, shape: Shape, runs: int, repeat: int, binary: Path, pytrec: bool
) -> dict[str, Timing]:
    """Time the three tools on ``runs`` runs of ``shape``."""
    qrels, run_paths = generate(shape, OUT / "trec" / shape.name, runs)
    if runs == 1:
        found = {"trec_eval": measure(trec_eval_cmd(binary, qrels, run_paths[0]), repeat=repeat)}
    else:
        found = {
            "trec_eval": measure_sequence([trec_eval_cmd(binary, qrels, p) for p in run_paths])
        }
    found["irtables"] = measure(irtables_cmd(qrels, run_paths), repeat=repeat)
    if pytrec:
        found["pytrec_eval"] = measure(pytrec_cmd(qrels, run_paths), repeat=1)
    size = run_paths[0].stat().st_size / 2**20
    print(
        f"\n{label}: {shape.topics:,} topics x {shape.depth:,} documents, {runs} run(s), "
        f"{size:.0f} MiB per run file"
    )
    base = found["trec_eval"].seconds
    rows = [
        [
            tool,
            t.seconds,
            t.cpu,
            f"{t.peak_mib:.0f}",
            f"{t.seconds / base:.2f}x",
            f"{t.cpu / found['trec_eval'].cpu:.2f}x",
            f"{t.peak_mib / size:.2f}",
        ]
        for tool, t in found.items()
    ]
    header = ["tool", "seconds", "CPU s", "peak MiB", "x trec_eval", "CPU x trec_eval"]
    print(markdown([*header, "peak / run file"], rows))
    return found


def in_turn(commands: dict[str, list[str]], repeat: int) -> dict[str, Timing]:
    """Each command once per round, ``repeat`` rounds: median wall and CPU seconds (the
    machine's load drifts; taking turns spreads it over every command alike)."""
    found: dict[str, list[tuple[float, float, float]]] = {name: [] for name in commands}
    for _ in range(max(repeat, 1)):
        for name, argv in commands.items():
            found[name].append(run_child(argv, cwd=REPO))
    out = {}
    for name, runs in found.items():
        runs.sort(key=lambda r: r[0])
        cpu = sorted(r[2] for r in runs)[len(runs) // 2]
        out[name] = Timing(runs[len(runs) // 2][0], max(r[1] for r in runs), cpu)
    return out


def compare_jobs(binary: Path, repeat: int, runs: int) -> list[tuple[str, float, float]]:
    """The default ``--jobs`` against ``-j 1`` and ``-j 2``, beside trec_eval; targets."""
    from irtables.workers.executor import available_cores, pool_size

    cases = [("Robust04-shaped, one run", ROBUST04, 1), ("TREC DL-shaped, one run", DL, 1)]
    cases.append((f"Robust04-shaped, {runs} runs", ROBUST04, runs))
    targets = []
    for label, shape, count in cases:
        qrels, paths = generate(shape, OUT / "trec" / shape.name, count)
        argv = irtables_cmd(qrels, paths)
        commands = {"irtables (default -j)": argv, "irtables -j 1": [*argv, "-j", "1"]}
        commands["irtables -j 2"] = [*argv, "-j", "2"]
        if count == 1:
            commands["trec_eval"] = trec_eval_cmd(binary, qrels, paths[0])
        found = in_turn(commands, repeat if count == 1 else max(repeat // 2, 1))
        if count > 1:  # one call per run, in a row: measured once
            found["trec_eval"] = measure_sequence([trec_eval_cmd(binary, qrels, p) for p in paths])
        base, serial = found["trec_eval"], found["irtables -j 1"]
        print(f"\n{label} ({shape.topics:,} topics x {shape.depth:,} documents)")
        rows = [
            [
                name,
                t.seconds,
                t.cpu,
                f"{t.seconds / base.seconds:.2f}x",
                f"{t.seconds / serial.seconds:.2f}x",
            ]
            for name, t in found.items()
        ]
        print(markdown(["command", "seconds", "CPU s", "x trec_eval", "x -j 1"], rows))
        default = found["irtables (default -j)"]
        ratio = default.seconds / serial.seconds
        workers = pool_size(None, [path.stat().st_size for path in paths])  # the default's
        if workers == 1:  # nothing to measure: the same code path, so the ratio is noise
            print(
                f"\nThe default -j runs these in this process, as -j 1 does (pool_size: 1 "
                f"worker on {available_cores()} cores): its ratio to -j 1, {ratio:.2f}, is "
                "the machine's noise."
            )
            ratio = 1.0
        targets.append((f"{label}: default <= -j 1", ratio, 1.0))
        if count == 1:
            targets.append((f"{label}: irtables <= trec_eval", default.seconds / base.seconds, 1.0))
    return targets


def report(targets: list[tuple[str, float, float]], check: bool) -> int:
    """Print the targets; the exit status (1 with ``check`` when one is missed)."""
    print("\nTargets:")
    missed = 0
    for name, value, limit in targets:
        ok = value <= limit
        missed += not ok
        print(f"- {name}: {value:.2f} (limit {limit:g}) {verdict(ok)}")
    return 1 if check and missed else 0


def main(argv: list[str] | None = None) -> int:
    """Generate if needed, measure, print the tables and the targets."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="single-run timings (median of)")
    parser.add_argument("--runs", type=int, default=20, help="runs of the multi-run case")
    parser.add_argument("--skip-msmarco", action="store_true")
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    parser.add_argument("--pool", action="store_true", help="only: does the default -j pay?")
    args = parser.parse_args(argv)
    binary = trec_eval_binary()
    precompile()
    if args.pool:
        return report(compare_jobs(binary, args.repeat, args.runs), args.check)
    pytrec = have_pytrec_eval()
    if not pytrec:
        print("pytrec_eval is not installed: its column is left out")
    one = compare_tools("Robust04-shaped, one run", ROBUST04, 1, args.repeat, binary, pytrec)
    many = compare_tools(
        f"Robust04-shaped, {args.runs} runs", ROBUST04, args.runs, 1, binary, pytrec
    )
    targets = [
        (
            "robust04, 1 run: irtables <= trec_eval",
            one["irtables"].seconds / one["trec_eval"].seconds,
            1.0,
        ),
        (
            f"robust04, {args.runs} runs: irtables <= 0.5x {args.runs} trec_eval calls",
            many["irtables"].seconds / many["trec_eval"].seconds,
            0.5,
        ),
    ]
    if not args.skip_msmarco:
        marco = compare_tools("MS MARCO-shaped, one run", MSMARCO, 1, 3, binary, pytrec)
        size = (OUT / "trec" / "msmarco" / "run01.txt").stat().st_size / 2**20
        targets += [
            (
                "msmarco: irtables <= 0.3x trec_eval",
                marco["irtables"].seconds / marco["trec_eval"].seconds,
                0.3,
            ),
            ("msmarco: irtables peak < 2x the run file", marco["irtables"].peak_mib / size, 2.0),
        ]
    return report(targets, args.check)


if __name__ == "__main__":
    sys.exit(main())
