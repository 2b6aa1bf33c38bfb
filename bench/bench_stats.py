"""Benchmark: randomization tests of 10 systems vs a baseline x 5 metrics x 5 datasets,
then Tukey HSD and randomised Tukey HSD of 10 systems x 7,000 topics.

Part 1: 7,000 queries per dataset, 10,000 sign flips per comparison (250 comparisons),
through ``irtables.stats.compare`` in one process; then ranx's Fisher randomization test
on the same per-query numbers (``pip install ranx`` into the venv; skipped when absent).
ranx runs one comparison at a time, so by default it is timed on a sample of comparisons
and its permutations per second are compared; ``--ranx-all`` times all 250.

Part 2: the five metrics of one dataset of the same study, its first 10 systems (45
pairs): Tukey HSD on the two-way design and randomised Tukey HSD with 10,000
permutations within topics (through ``compare``, which runs the five metrics together,
and one metric at a time); then ranx's ``tukey`` (scipy's one-way Tukey HSD) on the
same numbers; wall and CPU time, and their ratios to ranx.
``--skip-fisher`` runs part 2 only.

Run: ``.venv/bin/python bench/bench_stats.py [--ranx-comparisons 5] [--ranx-all] [--skip-fisher]``
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
import pandas as pd

from irtables.model import ResultSet
from irtables.stats import Comparisons, compare

DATASETS, METRICS, SYSTEMS, QUERIES, PERMUTATIONS = 5, 5, 11, 7_000, 10_000


def make_results(seed: int = 0) -> ResultSet:
    """Synthetic per-query values in [0, 1] rounded to 4 decimals, as trec_eval prints them."""
    rng = np.random.default_rng(seed)
    parts = []
    queries = np.array([f"q{i}" for i in range(QUERIES)], dtype=object)
    for ds in range(DATASETS):
        for metric in range(METRICS):
            base = rng.beta(2, 3, QUERIES)
            for system in range(SYSTEMS):
                shift = 0.002 * system
                vals = np.clip(base + shift + rng.normal(0, 0.05, QUERIES), 0, 1).round(4)
                parts.append(pd.DataFrame({
                    "dataset": f"d{ds}", "system": f"s{system:02d}", "query": queries,
                    "metric": f"m{metric}", "value": vals,
                }))  # fmt: skip
    return ResultSet.from_frame(pd.concat(parts, ignore_index=True))


def progress_bar(done: int, total: int) -> None:
    """A minimal text progress bar on stderr."""
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r  [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def bench_irtables(rs: ResultSet) -> tuple[float, Comparisons]:
    start = time.perf_counter()
    comps = compare(
        rs, baseline="s00", test="randomization", correction="holm",
        options={"n_resamples": PERMUTATIONS}, rng=0, progress=progress_bar,
    )  # fmt: skip
    return time.perf_counter() - start, comps


def bench_ranx(rs: ResultSet, limit: int | None) -> tuple[float, int, list[float]] | None:
    try:
        from ranx.statistical_tests import fisher_randomization_test  # type: ignore[import-untyped]
    except ImportError:
        return None
    pairs = []
    for ds in rs.datasets():
        for metric in rs.metrics(ds):
            aligned = rs.aligned(ds, metric, rs.systems(ds))
            base = np.ascontiguousarray(aligned.column("s00"))
            pairs += [(base, np.ascontiguousarray(aligned.column(s)), ds, metric, s)
                      for s in aligned.systems[1:]]  # fmt: skip
    pairs = pairs[:limit] if limit else pairs
    fisher_randomization_test(pairs[0][0][:10], pairs[0][1][:10], 10, 0.05, 42)  # JIT warm-up
    start = time.perf_counter()
    ps = []
    for i, (base, sys_, *_rest) in enumerate(pairs, 1):
        p, _ = fisher_randomization_test(base, sys_, PERMUTATIONS, 0.05, 42)
        ps.append(float(p))
        progress_bar(i, len(pairs))
    return time.perf_counter() - start, len(pairs), ps


TUKEY_SYSTEMS = 10


def _cpu_and_wall() -> tuple[float, float]:
    return time.process_time(), time.perf_counter()


def bench_tukey(rs: ResultSet) -> None:
    """Tukey HSD and randomised Tukey HSD on d0, 10 systems x 7,000 topics x 5 metrics,
    side by side with ranx's tukey; goals (issue 33 §4): tukey <= 0.2 x ranx,
    randomized-tukey (10,000 permutations) <= 1 x ranx.

    randomized-tukey is timed as ``compare`` runs it (the five metrics of the query set
    together, with the same permutations), and also one metric at a time."""
    from irtables.stats import randomized_tukey_hsd, tukey_hsd

    try:
        from ranx.statistical_tests import tukey_hsd_test
    except ImportError:
        tukey_hsd_test = None
    names = rs.systems("d0")[:TUKEY_SYSTEMS]
    metrics = rs.metrics("d0")
    matrices = [rs.aligned("d0", m, names).values for m in metrics]
    x = matrices[0]
    print(f"tukey: {x.shape[1]} systems x {x.shape[0]:,} topics x {len(metrics)} metrics "
          f"({len(names) * 9 // 2} pairs each)")  # fmt: skip
    times = {
        "tukey": [0.0, 0.0],
        "randomized-tukey": [0.0, 0.0],
        "randomized-tukey, one metric at a time": [0.0, 0.0],
        "ranx tukey": [0.0, 0.0],
    }
    cpu, wall = _cpu_and_wall()
    together = compare(
        rs, test="randomized-tukey", pairs="all", datasets=["d0"], systems=names,
        options={"n_resamples": PERMUTATIONS}, rng=0,
    )  # fmt: skip
    c, w = _cpu_and_wall()
    times["randomized-tukey"] = [w - wall, c - cpu]
    gap, diff, same = 0.0, 0.0, True
    for metric, x in zip(metrics, matrices, strict=True):
        cpu, wall = _cpu_and_wall()
        hsd = tukey_hsd(x, names)
        c, w = _cpu_and_wall()
        times["tukey"][0] += w - wall
        times["tukey"][1] += c - cpu
        rnd = randomized_tukey_hsd(x, names, n_resamples=PERMUTATIONS, rng=0)
        c2, w2 = _cpu_and_wall()
        times["randomized-tukey, one metric at a time"][0] += w2 - w
        times["randomized-tukey, one metric at a time"][1] += c2 - c
        same &= all(
            together.get(system=p.system, baseline=p.baseline, metric=metric).pvalue_adjusted
            == p.pvalue
            for p in rnd.pairs
        )
        gap = max(
            [gap, *(abs(a.pvalue - b.pvalue) for a, b in zip(hsd.pairs, rnd.pairs, strict=True))]
        )
        if tukey_hsd_test is None:
            continue
        scores = [np.ascontiguousarray(x[:, j]) for j in range(x.shape[1])]
        cpu, wall = _cpu_and_wall()
        found = tukey_hsd_test(list(names), scores, 0.05)
        c, w = _cpu_and_wall()
        times["ranx tukey"][0] += w - wall
        times["ranx tukey"][1] += c - cpu
        theirs = {(r["control"], r["treatment"]): float(r["p-value"]) for r in found}
        diff = max([diff, *(abs(p.pvalue - theirs[(p.baseline, p.system)]) for p in hsd.pairs)])
    for name, (wall, cpu) in times.items():
        print(f"{name}: {wall:.2f} s wall, {cpu:.2f} s CPU")
    print(f"randomized-tukey: compare's p-values equal one metric's at a time: {same}")
    print(f"max |p_tukey - p_randomized| over the pairs: {gap:.4f}")
    if tukey_hsd_test is None:
        print("ranx: not installed, skipped (pip install ranx to compare)")
        return
    print(f"max |p_two-way - p_ranx one-way| = {diff:.4f} (different designs)")
    ranx_wall, ranx_cpu = times["ranx tukey"]
    one = "randomized-tukey, one metric at a time"
    for name, goal in (("tukey", 0.2), ("randomized-tukey", 1.0), (one, 1.0)):
        wall, cpu = times[name]
        by_wall = "met" if wall <= goal * ranx_wall else "missed"
        by_cpu = "met" if cpu <= goal * ranx_cpu else "missed"
        print(f"{name} / ranx tukey = {wall / ranx_wall:.2f}x wall, {cpu / ranx_cpu:.2f}x CPU "
              f"(goal <= {goal}x: {by_wall} by wall, {by_cpu} by CPU)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ranx-comparisons", type=int, default=5)
    parser.add_argument("--ranx-all", action="store_true")
    parser.add_argument("--skip-fisher", action="store_true")
    args = parser.parse_args()
    total = DATASETS * METRICS * (SYSTEMS - 1)
    t0 = time.perf_counter()
    rs = make_results()
    print(f"data: {len(rs.frame):,} rows built in {time.perf_counter() - t0:.2f} s")
    if args.skip_fisher:
        bench_tukey(rs)
        return
    print(f"irtables: {total} comparisons x {PERMUTATIONS:,} sign flips x {QUERIES:,} queries")
    elapsed, comps = bench_irtables(rs)
    print(f"irtables: {elapsed:.2f} s, {total * PERMUTATIONS / elapsed:,.0f} permutations/s")
    ranx = bench_ranx(rs, None if args.ranx_all else args.ranx_comparisons)
    if ranx is None:
        print("ranx: not installed, skipped (pip install ranx to compare)")
        bench_tukey(rs)
        return
    r_elapsed, n, ps = ranx
    rate = n * PERMUTATIONS / r_elapsed
    print(f"ranx fisher: {n} comparisons in {r_elapsed:.2f} s, {rate:,.0f} permutations/s "
          f"(all {total}: ~{total * PERMUTATIONS / rate:.0f} s)")  # fmt: skip
    ours = [r.pvalue for r in comps.results[:n]]
    diff = max(abs(a - b) for a, b in zip(ours, ps, strict=True))
    print(f"speed-up: {(total * PERMUTATIONS / elapsed) / rate:.1f}x; "
          f"max |p_irtables - p_ranx| on the sampled comparisons: {diff:.4f}")  # fmt: skip
    bench_tukey(rs)


if __name__ == "__main__":
    main()
