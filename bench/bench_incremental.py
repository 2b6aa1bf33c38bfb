"""Benchmark: rebuilding the tables after one of 50 runs changed (the cache at work).

Run with ``make bench`` (``python bench/bench_incremental.py``). A study whose only
dataset is given as qrels + 50 Robust04-shaped runs (249 topics x 1,000 documents;
seeded, generated into ``bench/out/incremental``) and an ``irtables.toml`` with Table 1
(nDCG@10, MAP, P@10, R@100, MRR@10) and a Table S1 (nDCG, P, R at 5 cutoffs):

1. cold: ``irtables tables`` with an empty cache (every run evaluated, on every core);
2. warm: the same again with ``--rebuild``, nothing changed (the tables step: hashing
   the files, reading the cache, tests and rendering);
3. changed: one run file rewritten with other scores, then ``irtables tables``;
4. one run's evaluation: ``irtables evaluate`` of that run with the same measures.

Each step is a fresh process (wall time, start-up included), the median of
``--repeat`` runs for steps 2-4 (step 3 changes the run back and forth).
Target (issue 13): changed <= 1.5 x one run's evaluation + the tables step.
"""

from __future__ import annotations

import argparse
import shutil
import sys

from common import IRTABLES, OUT, generate, markdown, measure, verdict
from make_runs import ROBUST04

STUDY = OUT / "incremental"
N_RUNS = 50
CONFIG = """# bench/bench_incremental.py
[output]
dir = "tables"
formats = ["latex", "markdown", "csv"]

[[datasets]]
id = "robust"
qrels = "runs/qrels.txt"
runs = "runs/run*.txt"

[compare]
baseline = "run01"

[tables.main]
metrics = ["NDCG@10", "MAP", "P@10", "R@100", "MRR@10"]

[tables.k_breakdown]
metrics = ["NDCG", "P", "R"]
k = [5, 10, 20, 100, 1000]
"""


def main(argv: list[str] | None = None) -> int:
    """Build the study, measure the four steps, print the table and the target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--check", action="store_true", help="exit 1 if the target is missed")
    args = parser.parse_args(argv)
    qrels, runs = generate(ROBUST04, STUDY / "runs", N_RUNS)
    (STUDY / "irtables.toml").write_text(CONFIG)
    cache = STUDY / ".irtables-cache"
    shutil.rmtree(cache, ignore_errors=True)
    tables = [*IRTABLES, "tables", str(STUDY), "-o", str(STUDY / "tables"), "--force"]
    cold = measure(tables)
    # --rebuild: the tables step itself (without it, a rerun with nothing changed only
    # compares hashes: bench_rerun.py)
    warm = measure([*tables, "--rebuild"], repeat=args.repeat)
    changed = runs[-1]
    # another run of the same shape (outside the study): its content replaces run 50
    _, (spare,) = generate(ROBUST04, OUT / "incremental-spare", 1)
    original = changed.read_bytes()
    times = []
    for i in range(args.repeat):
        changed.write_bytes(spare.read_bytes() if i % 2 == 0 else original)
        times.append(measure(tables))
    changed.write_bytes(original)
    rebuild = sorted(t.seconds for t in times)[len(times) // 2]
    measures = ["-m", "ndcg_cut_10", "-m", "map", "-m", "P_10", "-m", "recall_100", "-m", "RR@10"]
    for family in ("ndcg_cut", "P", "recall"):
        measures += [x for k in (5, 10, 20, 100, 1000) for x in ("-m", f"{family}_{k}")]
    one = measure([*IRTABLES, "evaluate", str(qrels), str(changed), *measures], repeat=args.repeat)
    rows = [
        ["cold: 50 runs evaluated (empty cache)", cold.seconds, f"{cold.peak_mib:.0f}"],
        ["warm: nothing changed (the tables step)", warm.seconds, f"{warm.peak_mib:.0f}"],
        ["one run changed", rebuild, f"{max(t.peak_mib for t in times):.0f}"],
        ["irtables evaluate of that run", one.seconds, f"{one.peak_mib:.0f}"],
    ]
    print(f"\nIncremental rebuild: {N_RUNS} Robust04-shaped runs given as qrels + runs")
    print(markdown(["step", "seconds", "peak MiB"], rows))
    limit = 1.5 * one.seconds + warm.seconds
    ok = rebuild <= limit
    print(
        f"\n- one run changed: {rebuild:.2f} s <= 1.5 x {one.seconds:.2f} + {warm.seconds:.2f} "
        f"= {limit:.2f} s: {verdict(ok)} (cold build: {cold.seconds:.2f} s)"
    )
    return 1 if args.check and not ok else 0


if __name__ == "__main__":
    sys.exit(main())
