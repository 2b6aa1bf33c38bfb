"""Two-way ANOVA, Tukey HSD and randomised Tukey HSD against independent references.

References: statsmodels' ``anova_lm`` on ``value ~ C(system) + C(topic)``; the
studentized range distribution integrated here from its definition with ``scipy.integrate``
(not ``scipy.stats.studentized_range``); exhaustive enumeration of all within-topic
permutations written with ``itertools``; Sakai's textbook values (fixture
``sakai_book_table5_1``).
"""

from __future__ import annotations

import functools
import itertools
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from irtables.errors import InputError
from irtables.stats import bootstrap, randomized_tukey_hsd, t_test, tukey_hsd, two_way_anova
from irtables.stats.allpairs import NO_VARIANCE
from tests.conftest import invoke, require_fixtures

RNG = np.random.default_rng(20260512)
SHAPES = [(20, 3), (7, 4), (50, 5), (158, 5), (12, 2), (30, 10)]
MATRICES = [np.round(RNG.beta(2, 3, size=s), 4) for s in SHAPES]


def sakai() -> np.ndarray:
    """Sakai's Table 5.1: nDCG@5 of systems X, Y, Z (skipped locally when absent)."""
    folder = require_fixtures() / "sakai_book_table5_1"
    cols = [pd.read_csv(folder / f"{name}.csv")["ndcg@5"].to_numpy() for name in "XYZ"]
    return np.column_stack(cols)


def long_frame(x: np.ndarray) -> pd.DataFrame:
    n, k = x.shape
    return pd.DataFrame(
        {
            "value": x.ravel(),
            "topic": np.repeat(np.arange(n), k).astype(str),
            "system": np.tile(np.arange(k), n).astype(str),
        }
    )


@pytest.mark.parametrize("x", MATRICES, ids=[f"{n}x{k}" for n, k in SHAPES])
def test_anova_equals_statsmodels_anova_lm(x: np.ndarray) -> None:
    from statsmodels.formula.api import ols
    from statsmodels.stats.anova import anova_lm

    ref = anova_lm(ols("value ~ C(system) + C(topic)", data=long_frame(x)).fit())
    ours = two_way_anova(x)
    for row, name in ((ours.systems, "C(system)"), (ours.topics, "C(topic)")):
        assert row.ss == pytest.approx(ref.loc[name, "sum_sq"], rel=1e-10)
        assert row.df == ref.loc[name, "df"]
        assert row.f == pytest.approx(ref.loc[name, "F"], rel=1e-9)
        assert row.pvalue == pytest.approx(ref.loc[name, "PR(>F)"], rel=1e-7, abs=1e-300)
    assert ours.residual.ss == pytest.approx(ref.loc["Residual", "sum_sq"], rel=1e-10)
    assert ours.residual.df == ref.loc["Residual", "df"]


def test_anova_and_tukey_equal_sakais_textbook_values() -> None:
    a = two_way_anova(sakai())
    assert (round(a.systems.ss, 4), round(a.topics.ss, 4), round(a.residual.ss, 4)) == (
        0.1083,
        1.0293,
        0.8317,
    )
    assert (round(a.systems.ms, 4), round(a.topics.ms, 4), round(a.residual.ms, 4)) == (
        0.0542,
        0.0542,
        0.0219,
    )
    assert (round(a.systems.f, 3), round(a.topics.f, 3)) == (2.475, 2.475)
    assert (round(a.systems.pvalue, 4), round(a.topics.pvalue, 4)) == (0.0976, 0.0086)
    assert (a.systems.df, a.topics.df, a.residual.df) == (2, 19, 38)
    assert [round(m, 4) for m in a.means] == [0.345, 0.27, 0.245]
    # 95% margin of error of each mean from the residual variance: t(0.975, 38) sqrt(V_E / n)
    assert round(stats.t.ppf(0.975, 38) * math.sqrt(a.residual_variance / 20), 4) == 0.0670
    r = tukey_hsd(sakai(), ["X", "Y", "Z"])
    es = [r.pair(*p).effect_size for p in (("X", "Y"), ("X", "Z"), ("Y", "Z"))]
    assert [round(e, 4) for e in es] == [0.5070, 0.6760, 0.1690]  # type: ignore[arg-type]


@functools.cache
def _quadrature() -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """The nodes and weights of both integrals (eigenvalues of 160x160 and 400x400
    matrices: computed once, not for every p-value)."""
    hermite = np.polynomial.hermite_e.hermegauss(160)  # weight exp(-z^2/2)
    return hermite, np.polynomial.legendre.leggauss(400)


def studentized_range_sf(q: float, k: int, df: int) -> float:
    """P(Q > q) from the definition: Q = R / S with R the range of k standard normals and
    S = sqrt(chi2_df / df) independent; both integrals by fixed Gaussian quadrature."""
    (z, wz), (x, wx) = _quadrature()
    lo, hi = max(1e-9, 1 - 14 / math.sqrt(2 * df)), 1 + 14 / math.sqrt(2 * df)
    s = (hi - lo) / 2 * x + (hi + lo) / 2
    log_dens = (
        math.log(2) + (df / 2) * math.log(df / 2) - math.lgamma(df / 2)
        + (df - 1) * np.log(s) - df * s * s / 2
    )  # fmt: skip
    w = q * s  # P(R <= w) = k * integral of phi(z) (Phi(z) - Phi(z - w))^(k-1) dz
    inner = stats.norm.cdf(z[None, :]) - stats.norm.cdf(z[None, :] - w[:, None])
    range_cdf = k / math.sqrt(2 * math.pi) * (wz[None, :] * inner ** (k - 1)).sum(axis=1)
    cdf = (hi - lo) / 2 * float((wx * np.exp(log_dens) * range_cdf).sum())
    return 1.0 - cdf


@pytest.mark.parametrize("x", MATRICES[:4], ids=[f"{n}x{k}" for n, k in SHAPES[:4]])
def test_tukey_pvalues_equal_the_studentized_range_integrated_here(x: np.ndarray) -> None:
    n, k = x.shape
    r = tukey_hsd(x)
    a = two_way_anova(x)
    for p in r.pairs:
        q = abs(p.mean_diff) / math.sqrt(a.residual_variance / n)
        assert p.statistic == pytest.approx(math.copysign(q, p.mean_diff), rel=1e-12)
        assert p.pvalue == pytest.approx(studentized_range_sf(q, k, a.residual.df), abs=1e-9)
        # the raw p-value: t-test of the pair on the residual variance (Fisher's LSD)
        t = abs(p.mean_diff) / math.sqrt(2 * a.residual_variance / n)
        assert p.pvalue_raw == pytest.approx(2 * stats.t.sf(t, a.residual.df), rel=1e-9)


def brute_force_range_pvalues(x: np.ndarray) -> dict[tuple[int, int], tuple[float, float]]:
    """Every combination of one permutation per topic, counted in exact integer arithmetic."""
    ints = np.round(x * 10_000).astype(np.int64)  # the values have 4 decimals
    n, k = ints.shape
    perms = list(itertools.permutations(range(k)))
    observed = ints.sum(axis=0)
    total, adj = 0, dict.fromkeys(itertools.combinations(range(k), 2), 0)
    raw = dict.fromkeys(adj, 0)
    for combo in itertools.product(perms, repeat=n):
        sums = sum(ints[t, list(p)] for t, p in enumerate(combo))
        spread = int(sums.max() - sums.min())
        total += 1
        for i, j in adj:
            d = abs(int(observed[j] - observed[i]))
            adj[(i, j)] += spread >= d
            raw[(i, j)] += abs(int(sums[j] - sums[i])) >= d
    return {key: (adj[key] / total, raw[key] / total) for key in adj}


TINY = [
    np.array([[0.2, 0.4, 0.3], [0.3, 0.6, 0.3], [0.1, 0.3, 0.3], [0.5, 0.5, 0.2]]),
    np.round(RNG.random((6, 3)), 4),
    np.round(RNG.random((3, 4)), 4),
    np.round(RNG.random((10, 2)), 1),  # ties
]


@pytest.mark.parametrize("x", TINY, ids=["4x3-ties", "6x3", "3x4", "10x2-rounded"])
def test_randomized_tukey_exact_equals_exhaustive_enumeration(x: np.ndarray) -> None:
    r = randomized_tukey_hsd(x)
    assert "exact" in r.method
    ref = brute_force_range_pvalues(x)
    for (i, j), (p_adj, p_raw) in ref.items():
        pair = r.pair(f"s{j}", f"s{i}")
        assert pair.pvalue == pytest.approx(p_adj, abs=1e-12)
        assert pair.pvalue_raw == pytest.approx(p_raw, abs=1e-12)


@pytest.mark.parametrize("x", TINY[:3], ids=["4x3-ties", "6x3", "3x4"])
def test_randomized_tukey_monte_carlo_is_within_3_se_of_the_exact_value(x: np.ndarray) -> None:
    b = 20_000
    r = randomized_tukey_hsd(x, n_resamples=b, rng=7, exact_limit=1)
    assert "20000 permutations" in r.method
    for (i, j), (p_adj, _) in brute_force_range_pvalues(x).items():
        se = math.sqrt(max(p_adj * (1 - p_adj), 1 / b) / b)
        assert abs(r.pair(f"s{j}", f"s{i}").pvalue - p_adj) <= 3 * se + 1 / (b + 1)


def slow_randomized_tukey(x: np.ndarray, trials: int, seed: int) -> dict[tuple[int, int], float]:
    """A plain loop, in exact integer arithmetic, with numpy's own per-row shuffle."""
    rng = np.random.default_rng(seed)
    ints = np.round(x * 10_000).astype(np.int64)
    observed = ints.sum(axis=0)
    counts = dict.fromkeys(itertools.combinations(range(x.shape[1]), 2), 0)
    for _ in range(trials):
        sums = rng.permuted(ints, axis=1).sum(axis=0)
        spread = sums.max() - sums.min()
        for i, j in counts:
            counts[(i, j)] += spread >= abs(observed[j] - observed[i])
    return {key: (c + 1) / (trials + 1) for key, c in counts.items()}


def test_randomized_tukey_is_within_3_se_of_an_independent_monte_carlo() -> None:
    x = np.round(sakai(), 1)
    b = 10_000
    ours = randomized_tukey_hsd(x, n_resamples=b, rng=0)
    ref = slow_randomized_tukey(x, b, seed=123)
    for (i, j), p in ref.items():
        se = math.sqrt(2 * max(p * (1 - p), 1 / b) / b)  # of the difference of two estimates
        assert abs(ours.pair(f"s{j}", f"s{i}").pvalue - p) <= 3 * se


def test_randomized_tukey_agrees_with_elinor_on_sakais_data_where_there_are_no_ties() -> None:
    # elinor (10,000 iterations) compares floating-point means without a tolerance, so a
    # permuted range equal to the observed difference counts or not by rounding; for X-Z
    # and Y-Z that rarely matters, for X-Y (5% of the trials tie) it does.
    r = randomized_tukey_hsd(sakai(), ["X", "Y", "Z"], n_resamples=10_000, rng=0)
    for pair, theirs in ((("X", "Z"), 0.1040), (("Y", "Z"), 0.8926)):
        se = math.sqrt(2 * theirs * (1 - theirs) / 10_000)
        assert abs(r.pair(*pair).pvalue - theirs) <= 3 * se


def test_two_systems_randomized_tukey_is_the_sign_flip_test() -> None:
    from irtables.stats import randomization

    x = np.round(RNG.random((12, 2)), 3)
    a = randomized_tukey_hsd(x).pairs[0]
    b = randomization(x[:, 1], x[:, 0])
    assert a.pvalue == pytest.approx(b.pvalue, abs=1e-12)


def test_seeded_and_deterministic() -> None:
    x = np.round(RNG.random((40, 4)), 3)
    one = randomized_tukey_hsd(x, n_resamples=500, rng=3)
    two = randomized_tukey_hsd(x, n_resamples=500, rng=3)
    assert one == two
    assert all(0 < p.pvalue <= 1 and p.pvalue >= p.pvalue_raw for p in one.pairs)


def test_degenerate_and_bad_input() -> None:
    same = np.tile(np.array([[0.1], [0.5], [0.3]]), (1, 3))
    r = tukey_hsd(same)
    assert all(p.pvalue == 1.0 for p in r.pairs)
    shifted = np.column_stack([same[:, 0], same[:, 0] + 0.1])
    assert tukey_hsd(shifted).pairs[0].pvalue == 1.0  # no variance: undefined, as the t-test
    assert tukey_hsd(np.array([[0.1, 0.2]])).pairs[0].pvalue == 1.0  # one topic
    with pytest.raises(InputError, match="at least two systems"):
        tukey_hsd(np.ones((3, 1)))
    with pytest.raises(InputError, match="NaN"):
        randomized_tukey_hsd(np.array([[0.1, np.nan]]))


def test_tukey_statistic_carries_the_sign_of_the_difference_either_way_round() -> None:
    x = np.array([[0.2, 0.6, 0.3], [0.3, 0.7, 0.2], [0.1, 0.5, 0.3], [0.4, 0.6, 0.1]])
    r = tukey_hsd(x, ["X", "Y", "Z"])
    for a, b in itertools.permutations("XYZ", 2):
        p = r.pair(a, b)
        assert math.copysign(1.0, p.statistic) == math.copysign(1.0, p.mean_diff)
        assert p.statistic == -r.pair(b, a).statistic and p.pvalue == r.pair(b, a).pvalue


@pytest.mark.parametrize("shift", [0.1, 0.375, 1 / 3])
def test_constant_differences_give_no_marker_from_any_test(shift: float) -> None:
    """A system that differs by a constant on every topic: every variance-based test is
    undefined (p = 1) with one tolerance, the residual of the ANOVA being rounding error."""
    base = np.array([0.1, 0.5, 0.3, 0.7, 0.2, 0.9, 0.05, 0.45])
    x = np.column_stack([base, base + shift, base + 2 * shift])
    anova = two_way_anova(x)
    assert anova.no_variance and 0 <= anova.residual_variance < 1e-25
    r = tukey_hsd(x, ["a", "b", "c"])
    assert r.method == NO_VARIANCE
    assert all(p.pvalue == 1.0 and p.pvalue_raw == 1.0 and p.statistic == 0 for p in r.pairs)
    t = t_test(x[:, 1], x[:, 0])
    assert t.pvalue == 1.0 and t.method.startswith("undefined: constant difference")
    assert bootstrap(x[:, 1], x[:, 0], n_resamples=99).pvalue == 1.0
    rt = randomized_tukey_hsd(x, n_resamples=99)
    assert all(p.effect_size is None for p in rt.pairs)
    noisy = x + np.array([[1e-3], [0], [0], [0], [0], [0], [0], [0]]) * np.array([0, 1, 0])
    assert not two_way_anova(noisy).no_variance and tukey_hsd(noisy).pairs[0].pvalue < 1


def test_one_topic_gives_what_tukey_gives_from_the_randomized_test_too() -> None:
    """One topic leaves no residual: both Tukey tests are undefined, p = 1 (no marker)."""
    x = np.array([[0.2, 0.4, 0.5]])
    for test in (tukey_hsd, randomized_tukey_hsd):
        r = test(x, ["a", "b", "c"])
        assert r.method == "undefined: fewer than two topics"
        assert [(p.system, p.baseline) for p in r.pairs] == [("b", "a"), ("c", "a"), ("c", "b")]
        assert all(p.pvalue == p.pvalue_raw == 1.0 and p.effect_size is None for p in r.pairs)
        assert r.pair("c", "a").mean_diff == pytest.approx(0.3)
        assert r.means == pytest.approx((0.2, 0.4, 0.5))


def test_three_systems_on_one_query_make_a_table_under_randomized_tukey(tmp_path: Path) -> None:
    # before: internal error (ZeroDivisionError) in stats/randomized_tukey.py
    rows = "".join(f"d,{s},q1,AP,{v}\n" for s, v in (("a", 0.2), ("b", 0.4), ("c", 0.5)))
    (tmp_path / "all.csv").write_text("dataset,system,query,metric,value\n" + rows)
    (tmp_path / "irtables.toml").write_text(
        '[compare]\ntest = "randomized-tukey"\nall_pairs = true\n'
    )
    out = tmp_path / "out.csv"
    result = invoke("compare", str(tmp_path), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    rows = [line.split(",") for line in out.read_text().splitlines()[1:]]
    assert [(r[2], r[3], r[12], r[18]) for r in rows] == [
        ("b", "a", "1.0", "False"),
        ("c", "a", "1.0", "False"),
        ("c", "b", "1.0", "False"),
    ]
