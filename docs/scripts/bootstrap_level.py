"""The level of the studentized bootstrap (and the paired t-test) under the null
hypothesis, from many simulated studies: the numbers the statistics guide quotes.

Run by hand (minutes on one core; not part of the tests):

    .venv/bin/python docs/scripts/bootstrap_level.py sym 10 500 11    # 100,000 studies
    .venv/bin/python docs/scripts/bootstrap_level.py sym 20 300 12    # 60,000 studies
    .venv/bin/python docs/scripts/bootstrap_level.py skew 10 200 13   # 40,000 studies
    .venv/bin/python docs/scripts/bootstrap_level.py skew 20 200 14

Arguments: the kind of per-query differences (``sym``: a topic effect plus normal noise
on each system, so symmetric differences, as ``tests/unit/test_stats_level.py``;
``skew``: a centred exponential difference, mean 0, scale 0.1), the number of topics, the
number of blocks of 200 studies, and a seed. Each block shares one set of 999 resamples
(seed ``seed * 100000 + block``). Prints each test's rejection rate at alpha = 0.05 with
its standard error.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import numpy as np

from irtables.stats.paired import bootstrap_many
from irtables.stats.vectorised import t_test_many

BLOCK = 200
Pair = tuple[np.ndarray, np.ndarray]


def symmetric(n: int, seed: int, blocks: int) -> Iterator[Pair]:
    """Studies of two systems that do not differ: a topic effect plus noise."""
    rng = np.random.default_rng(seed)
    for _ in range(blocks):
        x = rng.beta(2, 5, (n, BLOCK))[:, :, None] + rng.normal(0.0, 0.1, (n, BLOCK, 2))
        yield np.ascontiguousarray(x[:, :, 1]), np.ascontiguousarray(x[:, :, 0])


def skewed(n: int, seed: int, blocks: int) -> Iterator[Pair]:
    """Studies whose per-query differences are skewed with mean 0 (exponential - 0.1)."""
    rng = np.random.default_rng(seed)
    for _ in range(blocks):
        base = rng.beta(2, 5, (n, BLOCK))
        diff = rng.exponential(0.1, (n, BLOCK)) - 0.1
        yield np.ascontiguousarray(base + diff), np.ascontiguousarray(base)


def main(kind: str, n: int, blocks: int, seed: int) -> None:
    draw = symmetric if kind == "sym" else skewed
    boot: list[float] = []
    t: list[float] = []
    for i, (a, b) in enumerate(draw(n, seed, blocks)):
        boot += [r.pvalue for r in bootstrap_many(a, b, n_resamples=999, rng=seed * 100000 + i)]
        t += [r.pvalue for r in t_test_many(a, b)]
    for name, found in (("bootstrap", boot), ("t-test", t)):
        rate = float(np.mean(np.asarray(found) <= 0.05))
        se = (rate * (1 - rate) / len(found)) ** 0.5
        print(f"{kind} n={n} studies={len(found)} {name}: {100 * rate:.2f}% (se {100 * se:.2f}%)")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
