"""Benchmark: runs evaluated on a Dask cluster against the local process pool.

Run with ``python bench/bench_dask.py [--runs 200] [--workers 2]`` (needs
``irtables[dask]``). Robust04-shaped runs (``make_runs.py``, seeded) are evaluated by
``irtables evaluate -q`` with the benchmark's measures (``bench_trec.py``): once with a
local pool of ``--workers`` processes (``-j``), once on a ``distributed.LocalCluster`` of
``--workers`` worker processes (one thread each) started beforehand, as a lab's cluster
would be (its start is not counted). The two take turns, ``--repeat`` rounds, medians.

Prints the overhead ratio (cluster / pool; goal <= 1.2x), the cost of one job on the
cluster (seconds x workers / runs) and from it an estimate for a 10,000-run sweep on
N workers (jobs spread evenly, files on a filesystem as fast as this one).
"""

from __future__ import annotations

import argparse
import sys

from bench_trec import in_turn, irtables_cmd
from common import OUT, generate, markdown, precompile
from make_runs import ROBUST04

SWEEP = 10_000


def main(argv: list[str] | None = None) -> int:
    """Measure and print the table, the ratio and the estimate."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args(argv)
    from distributed import LocalCluster

    precompile()
    qrels, runs = generate(ROBUST04, OUT / "trec" / ROBUST04.name, args.runs)
    argv_ = irtables_cmd(qrels, runs)
    with LocalCluster(
        n_workers=args.workers, processes=True, threads_per_worker=1, dashboard_address=":0"
    ) as cluster:
        found = in_turn(
            {
                f"local pool (-j {args.workers})": [*argv_, "-j", str(args.workers)],
                f"LocalCluster ({args.workers} workers)": [
                    *argv_,
                    "--scheduler",
                    cluster.scheduler_address,
                ],
            },
            args.repeat,
        )
    pool, dask = found.values()
    print(f"\n{args.runs} Robust04-shaped runs, {args.workers} workers")
    rows = [
        [name, t.seconds, t.cpu, f"{t.seconds / pool.seconds:.2f}x"] for name, t in found.items()
    ]
    print(markdown(["how", "seconds", "CPU s (client)", "x pool"], rows))
    per_job = dask.seconds * args.workers / args.runs
    print(f"\n- overhead: cluster / pool = {dask.seconds / pool.seconds:.2f}x (goal <= 1.2x)")
    print(f"- one job on the cluster: {per_job:.2f} s of a worker")
    for workers in (8, 32, 128):
        hours = SWEEP * per_job / workers / 3600
        print(f"- {SWEEP:,} runs on {workers} workers: about {hours:.2f} h")
    return 0


if __name__ == "__main__":
    sys.exit(main())
