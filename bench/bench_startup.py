"""Benchmark: how long the command line takes to start, and a small evaluation.

Run with ``make bench`` (``python bench/bench_startup.py``). Each command is a fresh
process, timed from the outside, median of ``--repeat`` runs:

- ``python -c pass`` (the floor) and ``python -c "import numpy"`` (for scale);
- ``irtables --help`` and ``irtables <command> --help`` for every command;
- ``irtables evaluate`` of a TREC DL-shaped run (43 topics x 1,000 documents, graded
  qrels, seeded, generated into ``bench/out/trec/dl``) with nDCG@10, MAP, P@10, R@1000
  and RR@10, and trec_eval 9.0.8 on the same run for context.

Targets (issue 13): every ``--help`` <= 0.25 s; the DL evaluation <= 0.4 s.
"""

from __future__ import annotations

import argparse
import sys

from common import IRTABLES, OUT, PYTHON, generate, markdown, measure, trec_eval_binary, verdict
from make_runs import DL

COMMANDS = ("tables", "compare", "evaluate", "lint", "diff", "supplement", "check", "cache")
HELP_TARGET = 0.25
EVALUATE_TARGET = 0.4


def main(argv: list[str] | None = None) -> int:
    """Measure and print the table and the targets."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    args = parser.parse_args(argv)
    qrels, (run,) = generate(DL, OUT / "trec" / "dl", 1)
    rows: list[list[object]] = []
    floor = measure([PYTHON, "-c", "pass"], repeat=args.repeat)
    rows.append(["python -c pass", floor.seconds, floor.cpu, ""])
    numpy = measure([PYTHON, "-c", "import numpy"], repeat=args.repeat)
    rows.append(["python -c 'import numpy'", numpy.seconds, numpy.cpu, ""])
    helps = [["--help"], *([c, "--help"] for c in COMMANDS)]
    worst = 0.0
    for args_ in helps:
        timing = measure([*IRTABLES, *args_], repeat=args.repeat)
        worst = max(worst, timing.seconds)
        rows.append(
            [
                f"irtables {' '.join(args_)}",
                timing.seconds,
                timing.cpu,
                verdict(timing.seconds <= HELP_TARGET),
            ]
        )
    measures = ["-m", "ndcg_cut_10", "-m", "map", "-m", "P_10", "-m", "recall_1000"]
    measures += ["-m", "RR@10"]
    timing = measure(
        [*IRTABLES, "evaluate", str(qrels), str(run), "-l", "2", *measures], repeat=args.repeat
    )
    evaluate = timing.seconds
    rows.append(
        [
            "irtables evaluate (DL run, 5 measures)",
            evaluate,
            timing.cpu,
            verdict(evaluate <= EVALUATE_TARGET),
        ]
    )
    binary = trec_eval_binary()
    trec_eval = measure(
        [
            str(binary),
            "-l",
            "2",
            "-m",
            "ndcg_cut.10",
            "-m",
            "map",
            "-m",
            "P.10",
            "-m",
            "recall.1000",
            "-m",
            "recip_rank",
            str(qrels),
            str(run),
        ],
        repeat=args.repeat,
    )
    rows.append(["trec_eval 9.0.8 (same run; context)", trec_eval.seconds, trec_eval.cpu, ""])
    print(f"\nStart-up: wall seconds (median of {args.repeat} fresh processes) and CPU seconds")
    print(markdown(["command", "seconds", "CPU s", "target"], rows))
    ok_help, ok_eval = worst <= HELP_TARGET, evaluate <= EVALUATE_TARGET
    print(f"\n- slowest --help: {worst:.3f} s (target <= {HELP_TARGET} s) {verdict(ok_help)}")
    print(
        f"- evaluate, TREC DL run: {evaluate:.3f} s (target <= {EVALUATE_TARGET} s) "
        f"{verdict(ok_eval)}"
    )
    return 1 if args.check and not (ok_help and ok_eval) else 0


if __name__ == "__main__":
    sys.exit(main())
