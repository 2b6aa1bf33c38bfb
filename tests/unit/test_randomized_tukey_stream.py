"""Randomised Tukey HSD shuffles many trials per numpy pass however many topics there are
(issue 33 §4), with the random stream it has always used: a seed gives the same
p-values as before. The reference here is the test written plainly, one trial and one
topic row at a time, drawing from the generator in the documented order."""

from __future__ import annotations

import numpy as np
import pytest

from irtables.stats import randomized_tukey_hsd
from irtables.stats.allpairs import pair_indices

CHUNK_ROWS = 8192  # rows of one pass up to 4,096 topics: the draws are made per pass


def reference_ranges(x: np.ndarray, trials: int, seed: int) -> np.ndarray:
    """Range of the column sums of each trial: Fisher-Yates within each topic (for
    position i = k-1 .. 1 swap i with a draw r in 0..i). Draws: up to 4,096 topics, for
    each pass of CHUNK_ROWS // n trials, one call per i for all its rows; beyond, one
    call per (trial, i)."""
    rng = np.random.default_rng(seed)
    n, k = x.shape
    per = CHUNK_ROWS // n if n <= CHUNK_ROWS // 2 else 1
    ranges = []
    for start in range(0, trials, per):
        count = min(per, trials - start)
        draws = {
            i: rng.integers(0, i + 1, size=count * n, dtype=np.uint8) for i in range(k - 1, 0, -1)
        }
        for t in range(count):
            rows = x.copy()
            for row in range(n):
                for i in range(k - 1, 0, -1):
                    r = draws[i][t * n + row]
                    rows[row, i], rows[row, r] = rows[row, r], rows[row, i]
            sums = rows.sum(axis=0)
            ranges.append(sums.max() - sums.min())
    return np.array(ranges)


def reference_pvalues(x: np.ndarray, trials: int, seed: int) -> list[float]:
    """(b + 1) / (B + 1): trials whose range reaches the pair's difference of sums."""
    ranges = reference_ranges(x, trials, seed)
    sums = x.sum(axis=0)
    tol = 1e-10 * np.abs(x).sum() / x.shape[1]
    return [
        float(((ranges >= abs(sums[j] - sums[i]) - tol).sum() + 1) / (trials + 1))
        for j, i in pair_indices(x.shape[1])
    ]


def _matrix(n: int, k: int) -> np.ndarray:
    rng = np.random.default_rng(n)
    base = rng.random(n)
    shifts = [0.0, 0.0005, 0.004, 0.0008][:k]
    return np.column_stack([base + s + rng.normal(0, 0.05, n) for s in shifts]).round(4)


CASES = [(300, 4, 61), (4_500, 3, 25)]  # one pass of 27 trials; a pass per trial before


@pytest.mark.parametrize(("n", "k", "trials"), CASES)
def test_the_pvalues_of_a_seed_are_those_of_the_plain_test(n: int, k: int, trials: int) -> None:
    x = _matrix(n, k)
    got = randomized_tukey_hsd(x, n_resamples=trials, rng=11)
    expected = reference_pvalues(x, trials, seed=11)
    assert [p.pvalue for p in got.pairs] == pytest.approx(expected, abs=1e-15)
    assert len(set(expected)) > 1  # the pairs do not all share one p-value


@pytest.mark.parametrize(("n", "k", "trials"), CASES)
def test_every_trials_range_is_that_of_the_plain_test(n: int, k: int, trials: int) -> None:
    from irtables.stats.randomized_tukey import _random_sums

    x = _matrix(n, k)
    ranges, _ = _random_sums(x, trials, np.random.default_rng(11), None)
    np.testing.assert_allclose(ranges, reference_ranges(x, trials, seed=11), rtol=0, atol=1e-9)
