"""The random stream of the randomised Tukey HSD (issue 33 §4): one code per (trial,
topic) row, its mixed-radix digits the Fisher-Yates swaps (stats/permutations.py).

The reference here is the test written plainly: one trial, one topic and one draw at a
time, the swaps done on a Python list, the sums in exact integer arithmetic. The stream
changed from the one before (one draw per trial, topic and swap); its level is tested
under the null, its power on a real difference, and its p-values agree with the old
stream's within Monte Carlo error.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from irtables.model import ResultSet
from irtables.stats import compare, randomized_tukey_hsd
from irtables.stats import randomized_tukey as rt
from irtables.stats.allpairs import pair_indices
from irtables.stats.permutations import digit_groups, position_table
from irtables.stats.randomized_tukey import randomized_tukey_many

SCALE = 10_000  # the matrices hold multiples of 1e-4: integer sums are exact


def _row_draws(rng: np.random.Generator, k: int) -> list[int]:
    """One row's Fisher-Yates digits d_{k-1}, ..., d_1, drawn as documented."""
    groups = digit_groups(k)
    if len(groups) == 1:
        codes = [int(rng.integers(0, math.factorial(k), dtype=np.int64))]
    else:
        highs = np.array([math.prod(g) for g in groups], dtype=np.int64)
        codes = [int(c) for c in rng.integers(0, highs, size=(1, len(groups)), dtype=np.int64)[0]]
    digits = []
    for code, group in zip(codes, groups, strict=True):
        for radix in group:
            code, digit = divmod(code, radix)
            digits.append(digit)
    return digits


def reference_ranges(x: np.ndarray, trials: int, seed: int) -> np.ndarray:
    """Range of the (integer) column sums of each trial, row by row."""
    rng = np.random.default_rng(seed)
    ints = np.round(x * SCALE).astype(np.int64).tolist()
    k = x.shape[1]
    out = []
    for _ in range(trials):
        sums = [0] * k
        for row in ints:
            arranged = list(range(k))
            for i, d in zip(range(k - 1, 0, -1), _row_draws(rng, k), strict=True):
                arranged[i], arranged[d] = arranged[d], arranged[i]
            for position, system in enumerate(arranged):
                sums[position] += row[system]
        out.append(max(sums) - min(sums))
    return np.array(out, dtype=np.float64) / SCALE


def reference_pvalues(x: np.ndarray, trials: int, seed: int) -> list[float]:
    """(b + 1) / (B + 1): trials whose range reaches the pair's difference of sums."""
    ranges = reference_ranges(x, trials, seed)
    sums = np.round(x * SCALE).astype(np.int64).sum(axis=0) / SCALE
    tol = 1e-10 * np.abs(x).sum() / x.shape[1]
    return [
        float(((ranges >= abs(sums[j] - sums[i]) - tol).sum() + 1) / (trials + 1))
        for j, i in pair_indices(x.shape[1])
    ]


def _matrix(n: int, k: int, seed: int | None = None) -> np.ndarray:
    rng = np.random.default_rng(n if seed is None else seed)
    base = rng.random(n)
    shifts = np.linspace(0.0, 0.004, k)
    return np.column_stack([base + s + rng.normal(0, 0.05, n) for s in shifts]).round(4)


# the table (k <= 10), the swaps on columns (k > 10), two draws per row (k > 20)
CASES = [(300, 4, 61), (4_500, 3, 7), (40, 10, 40), (30, 12, 30), (8, 21, 25)]


@pytest.mark.parametrize(("n", "k", "trials"), CASES)
def test_the_pvalues_of_a_seed_are_those_of_the_plain_test(n: int, k: int, trials: int) -> None:
    x = _matrix(n, k)
    got = randomized_tukey_hsd(x, n_resamples=trials, rng=11)
    expected = reference_pvalues(x, trials, seed=11)
    assert [p.pvalue for p in got.pairs] == pytest.approx(expected, abs=1e-15)
    assert len(set(expected)) > 1  # the pairs do not all share one p-value


@pytest.mark.parametrize(("n", "k", "trials"), CASES)
def test_every_trials_range_is_that_of_the_plain_test(n: int, k: int, trials: int) -> None:
    x = _matrix(n, k)
    [(ranges, _)] = rt._random_sums(x[None], trials, np.random.default_rng(11), None)
    np.testing.assert_allclose(ranges, reference_ranges(x, trials, seed=11), rtol=0, atol=1e-9)


@pytest.mark.parametrize("k", [4, 12])
@pytest.mark.parametrize("cells", [1, 1_000, 50_000])
def test_the_size_of_a_pass_changes_nothing(
    k: int, cells: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    x = _matrix(60, k)
    before = randomized_tukey_hsd(x, n_resamples=97, rng=5)
    monkeypatch.setattr(rt, "_PASS_CELLS", cells)
    assert randomized_tukey_hsd(x, n_resamples=97, rng=5) == before


def test_metrics_run_together_give_what_each_gives_alone() -> None:
    xs = [_matrix(500, 6, seed) for seed in (1, 2, 3)]
    together = randomized_tukey_many(xs, n_resamples=300, rng=4)
    assert together == [randomized_tukey_hsd(x, n_resamples=300, rng=4) for x in xs]
    assert together[0] != together[1]


def test_every_code_of_the_table_is_a_different_permutation() -> None:
    table = position_table(5)[:, :5]
    assert sorted(map(tuple, table.tolist())) == sorted(itertools.permutations(range(5)))


@pytest.mark.parametrize("k", range(1, 8))
def test_the_table_moves_each_system_where_the_swaps_of_its_code_do(k: int) -> None:
    table = position_table(k)
    for code in range(math.factorial(k)):
        arranged = list(range(k))
        rest = code
        for i in range(k - 1, 0, -1):
            rest, d = divmod(rest, i + 1)
            arranged[i], arranged[d] = arranged[d], arranged[i]
        where = [arranged.index(system) for system in range(k)]
        assert table[code, :k].tolist() == where


def test_digit_groups_cover_every_swap_and_fit_an_int64() -> None:
    for k in (2, 10, 20, 21, 40):
        groups = digit_groups(k)
        assert [r for g in groups for r in g] == list(range(k, 1, -1))
        assert all(math.prod(g) < 2**63 for g in groups)
    assert len(digit_groups(20)) == 1 and len(digit_groups(21)) == 2


STUDIES = 2_000


def _null_studies(n: int, k: int, seed: int) -> np.ndarray:
    """Studies in which the systems do not differ: a topic effect plus i.i.d. noise."""
    rng = np.random.default_rng(seed)
    return rng.beta(2, 5, (STUDIES, n, 1)) + rng.normal(0.0, 0.1, (STUDIES, n, k))


@pytest.mark.slow
@pytest.mark.parametrize(("n", "k"), [(15, 10), (12, 11)])
def test_family_wise_level_under_the_null(n: int, k: int) -> None:
    """The smallest p-value of a study (any pair rejected: the family-wise error) is
    <= 0.05 in about 5% of null studies: within the binomial 99.9% interval."""
    x = _null_studies(n, k, seed=100 + k)
    rejected = sum(
        min(p.pvalue for p in randomized_tukey_hsd(s, n_resamples=199, rng=i).pairs) <= 0.05
        for i, s in enumerate(x)
    )
    low, high = stats.binom.interval(0.999, STUDIES, 0.05)
    assert low <= rejected <= high


def test_a_real_difference_is_found() -> None:
    rng = np.random.default_rng(8)
    x = rng.beta(2, 5, (25, 1)) + rng.normal(0.0, 0.1, (25, 10))
    x[:, 3] += 0.25
    r = randomized_tukey_hsd(x, n_resamples=999, rng=0)
    shifted = [p.pvalue for p in r.pairs if "s3" in (p.system, p.baseline)]
    others = [p.pvalue for p in r.pairs if "s3" not in (p.system, p.baseline)]
    assert len(shifted) == 9 and max(shifted) <= 0.01
    assert min(others) > 0.05


def old_stream_ranges(x: np.ndarray, trials: int, seed: int) -> np.ndarray:
    """The stream before issue 33 §4 (up to 4,096 topics): per pass of 8,192 // n
    trials, one call per swap position i for all its rows; swaps as above."""
    rng = np.random.default_rng(seed)
    n, k = x.shape
    per = 8192 // n
    ranges = []
    for start in range(0, trials, per):
        count = min(per, trials - start)
        draws = {
            i: rng.integers(0, i + 1, size=count * n, dtype=np.uint8) for i in range(k - 1, 0, -1)
        }
        for t in range(count):
            perm = np.tile(np.arange(k), (n, 1))
            rows = np.arange(n)
            for i in range(k - 1, 0, -1):
                r = draws[i][t * n : (t + 1) * n].astype(np.intp)
                perm[rows, i], perm[rows, r] = perm[rows, r], perm[rows, i].copy()
            sums = np.take_along_axis(x, perm, axis=1).sum(axis=0)
            ranges.append(sums.max() - sums.min())
    return np.array(ranges)


@pytest.mark.parametrize(("n", "k", "seed"), [(30, 4, 1), (50, 3, 2), (20, 5, 3)])
def test_pvalues_agree_with_the_old_stream_within_monte_carlo_error(
    n: int, k: int, seed: int
) -> None:
    b = 4_000
    x = _matrix(n, k, seed)
    x[:, -1] += 0.02  # p-values away from 0 and 1 as well as near them
    new = randomized_tukey_hsd(x, n_resamples=b, rng=seed)
    ranges = old_stream_ranges(x, b, seed)
    sums = x.sum(axis=0)
    tol = 1e-10 * np.abs(x).sum() / k
    for (j, i), pair in zip(pair_indices(k), new.pairs, strict=True):
        old = ((ranges >= abs(sums[j] - sums[i]) - tol).sum() + 1) / (b + 1)
        se = math.sqrt(2 * max(old * (1 - old), 1 / b) / b)  # of a difference of two
        assert abs(pair.pvalue - old) <= 4 * se


def _study() -> ResultSet:
    rng = np.random.default_rng(21)
    parts = []
    for dataset, n in (("a", 40), ("b", 40), ("c", 30)):
        queries = [f"q{i}" for i in range(n)]
        for metric in ("AP", "nDCG@10", "P@10"):
            base = rng.random(n)
            for s in range(4):
                values = (base + 0.01 * s + rng.normal(0, 0.05, n)).round(4)
                parts.append(
                    pd.DataFrame(
                        {"dataset": dataset, "system": f"s{s}", "query": queries,
                         "metric": metric, "value": values}
                    )
                )  # fmt: skip
    return ResultSet.from_frame(pd.concat(parts, ignore_index=True))


def test_compare_runs_the_metrics_together_with_what_each_gives_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from irtables.stats import procedures

    runs: list[int] = []

    def counted(matrices: list[np.ndarray], *args: Any, **kwargs: Any) -> list[Any]:
        runs.append(len(matrices))
        return randomized_tukey_many(matrices, *args, **kwargs)

    monkeypatch.setitem(procedures.SHARED_PROCEDURES, "randomized-tukey", counted)
    rs = _study()
    seen: list[tuple[int, int]] = []
    got = compare(
        rs, test="randomized-tukey", pairs="all", rng=9, options={"n_resamples": 400},
        progress=lambda done, total: seen.append((done, total)),
    )  # fmt: skip
    assert len(got.results) == 3 * 3 * 6
    for r in got.results:
        aligned = rs.aligned(r.dataset, r.metric, rs.systems(r.dataset))
        alone = randomized_tukey_hsd(aligned.values, aligned.systems, n_resamples=400, rng=9)
        pair = alone.pair(r.system, r.baseline)
        assert (r.pvalue_adjusted, r.pvalue) == (pair.pvalue, pair.pvalue_raw)
    assert runs == [6, 3]  # the 6 matrices of 40 topics at once, then the 3 of 30
    done = [d for d, _ in seen]
    assert done == sorted(done) and seen[-1] == (54, 54)
