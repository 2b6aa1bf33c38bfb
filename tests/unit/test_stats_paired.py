"""Paired tests against scipy (same method), brute-force enumeration and hand-worked cases."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats

from irtables.errors import InputError, UnknownNameError
from irtables.stats import TESTS, bootstrap, get_test, randomization, sign_test, t_test, wilcoxon
from irtables.stats.paired import ALL_ZERO, UNDEFINED
from irtables.stats.vectorised import t_test_many

RNG = np.random.default_rng(20240501)
RANDOM_CASES = [
    (RNG.random(n), RNG.random(n)) for n in (3, 5, 8, 12, 30, 51, 80, 200) for _ in range(3)
]
ROUNDED = [(np.round(a, 1), np.round(b, 1)) for a, b in RANDOM_CASES]  # ties and zeros
CASES = (
    RANDOM_CASES
    + ROUNDED
    + [
        (np.array([0.1, 0.2]), np.array([0.3, 0.1])),
        (np.array([0.5, 0.5, 0.7]), np.array([0.5, 0.4, 0.4])),
    ]
)
IDS = [f"n{len(a)}-{i}" for i, (a, _) in enumerate(CASES)]


@pytest.mark.parametrize(("a", "b"), CASES, ids=IDS)
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_t_test_equals_scipy(a: np.ndarray, b: np.ndarray, alternative: str) -> None:
    ours = t_test(a, b, alternative=alternative)  # type: ignore[arg-type]
    ref = stats.ttest_rel(a, b, alternative=alternative)
    assert ours.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-10, abs=1e-300)
    ci = ref.confidence_interval(0.95)  # follows the alternative: one-sided is a half-line
    assert ours.ci is not None
    assert ours.ci.low == pytest.approx(ci.low, rel=1e-10)
    assert ours.ci.high == pytest.approx(ci.high, rel=1e-10)
    d = a - b
    assert ours.effect_size == pytest.approx(d.mean() / d.std(ddof=1))


@pytest.mark.parametrize(("a", "b"), CASES, ids=IDS)
@pytest.mark.parametrize("zero_method", ["wilcox", "pratt", "zsplit"])
@pytest.mark.parametrize("correction", [True, False])
def test_wilcoxon_equals_scipy_with_the_same_method(
    a: np.ndarray, b: np.ndarray, zero_method: str, correction: bool
) -> None:
    d = np.round(a - b, 10)  # equal up to rounding is a tie (values below 1: NOISE = 1e-10)
    if zero_method == "wilcox" and not (d != 0).any():
        pytest.skip("all zero")
    ours = wilcoxon(a, b, zero_method=zero_method, correction=correction)  # type: ignore[arg-type]
    method = "exact" if ours.method == "exact" else "approx"
    ref = stats.wilcoxon(d, zero_method=zero_method, correction=correction, method=method)
    assert ours.statistic == ref.statistic
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-12)


def test_wilcoxon_chooses_and_records_its_method() -> None:
    small = wilcoxon([0.3, 0.5, 0.4, 0.9], [0.2, 0.2, 0.2, 0.2])
    assert small.method == "exact"
    tied = wilcoxon([0.3, 0.5, 0.4, 0.9], [0.2, 0.4, 0.2, 0.2])
    assert tied.method == "normal approximation, continuity correction, zero_method=wilcox"
    big = wilcoxon(np.arange(60) / 100 + 0.5, np.full(60, 0.5) + 1e-3)
    assert big.method.startswith("normal approximation")
    forced = wilcoxon([0.3, 0.5, 0.4, 0.9], [0.2, 0.2, 0.2, 0.2], method="approx")
    assert forced.method.startswith("normal approximation")


def test_wilcoxon_ranks_differences_equal_up_to_rounding_as_ties() -> None:
    """P@10 differences 0.3 - 0.1 and 0.2 - 0.0 differ in their last bit: ranked as they
    are, there are no ties and the exact method was chosen (p = 0.6406); on the
    differences rounded to 1e-10 they tie, and scipy's normal approximation with the tie
    correction gives 0.9432."""
    a = np.array([0.4, 0.8, 0.4, 0.3, 0.9, 0.9, 0.0, 0.5])
    b = np.array([0.3, 0.7, 0.5, 0.5, 0.6, 0.7, 0.1, 0.7])
    ref = stats.wilcoxon(np.round(a - b, 10), method="approx", correction=True)
    ours = wilcoxon(a, b)
    assert ours.method == "normal approximation, continuity correction, zero_method=wilcox"
    assert ours.statistic == ref.statistic == 17.0
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
    assert round(ours.pvalue, 4) == 0.9432
    # rounding error alone is a zero difference, not a win
    tiny = wilcoxon([0.3, 0.5, 0.7], [0.1 + 0.2, 0.5, 0.7])
    assert tiny.method == ALL_ZERO and tiny.pvalue == 1.0


def test_wilcoxon_matches_scipy_default_on_large_n() -> None:
    a, b = RNG.random(158), RNG.random(158)
    ref = stats.wilcoxon(a, b)  # auto -> approx without continuity correction for n > 50
    ours = wilcoxon(a, b, correction=False)
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-12)


@pytest.mark.parametrize(("a", "b"), CASES, ids=IDS)
def test_sign_test_equals_binomtest(a: np.ndarray, b: np.ndarray) -> None:
    d = a - b
    wins, losses = int((d > 0).sum()), int((d < 0).sum())
    if wins + losses == 0:
        pytest.skip("all zero")
    ours = sign_test(a, b)
    assert ours.statistic == wins
    assert ours.pvalue == stats.binomtest(wins, wins + losses, 0.5).pvalue
    assert ours.method == f"exact binomial, {d.size - wins - losses} ties dropped"


def brute_force_p(d: np.ndarray, alternative: str) -> float:
    """Enumerate every sign pattern in plain Python (the independent reference)."""
    obs = float(np.mean(d))
    tol = 1e-9 * float(np.mean(np.abs(d)))
    hits = 0
    for signs in itertools.product((1.0, -1.0), repeat=d.size):
        m = float(np.mean(d * np.array(signs)))
        if alternative == "two-sided":
            hits += abs(m) >= abs(obs) - tol
        elif alternative == "greater":
            hits += m >= obs - tol
        else:
            hits += m <= obs + tol
    return hits / 2**d.size


EXACT_CASES = [
    np.array([0.1, 0.2, 0.3]),
    np.array([0.1, -0.1, 0.2, 0.0, 0.4]),
    np.array([0.25, 0.25, -0.25, 0.5, 0.0, 0.0, -0.5, 0.75]),
    *(np.round(RNG.normal(0.05, 0.2, n), 2) for n in (1, 2, 6, 10, 12)),
]


@pytest.mark.parametrize("d", EXACT_CASES, ids=lambda d: f"n{d.size}")
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_exact_randomization_equals_brute_force(d: np.ndarray, alternative: str) -> None:
    r = randomization(d, np.zeros_like(d), alternative=alternative)  # type: ignore[arg-type]
    expected = 1.0 if not d.any() else brute_force_p(d, alternative)
    assert r.pvalue == pytest.approx(expected, abs=1e-12)
    if d.any():
        assert r.method == f"randomization, exact ({2**d.size} sign patterns)"


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_monte_carlo_randomization_within_three_standard_errors(seed: int) -> None:
    d = np.round(np.random.default_rng(seed).normal(0.08, 0.3, 14), 3)
    exact = randomization(d, np.zeros(14)).pvalue
    mc = randomization(d, np.zeros(14), n_resamples=20_000, exact_threshold=0, rng=seed)
    se = np.sqrt(exact * (1 - exact) / 20_000)
    assert abs(mc.pvalue - exact) <= 3 * se + 1 / 20_001
    assert mc.method == f"randomization (20000 sign flips, seed {seed})"


def test_monte_carlo_p_is_never_zero() -> None:
    d = np.full(100, 0.5) + np.linspace(0, 0.01, 100)
    r = randomization(d, np.zeros(100), n_resamples=999)
    assert r.pvalue == 1 / 1000


def test_bootstrap_shift_p_value_and_percentile_interval() -> None:
    a, b = RNG.random(60) + 0.1, RNG.random(60)
    r = bootstrap(a, b, n_resamples=2000, rng=3)
    t = t_test(a, b)
    assert r.ci_bootstrap is not None and r.ci is not None
    assert r.ci_bootstrap.low == pytest.approx(r.ci.low, abs=0.03)
    assert r.ci_bootstrap.high == pytest.approx(r.ci.high, abs=0.03)
    assert r.pvalue == pytest.approx(t.pvalue, abs=0.02)
    assert r.method == "studentized paired bootstrap (2000 resamples, seed 3)"
    assert bootstrap(a, b, n_resamples=2000, rng=3) == r


def test_generator_is_consumed_not_reseeded() -> None:
    gen = np.random.default_rng(5)
    d = RNG.normal(0.02, 0.2, 40)
    first = randomization(d, np.zeros(40), n_resamples=500, rng=gen)
    second = randomization(d, np.zeros(40), n_resamples=500, rng=gen)
    assert "caller's generator" in first.method
    assert first.pvalue != second.pvalue or first.pvalue == 1 / 501


@pytest.mark.parametrize("name", list(TESTS))
def test_all_differences_zero_gives_p_one(name: str) -> None:
    x = np.array([0.1, 0.5, 0.3, 0.3])
    r = get_test(name)(x, x.copy())
    assert (r.pvalue, r.statistic, r.method, r.mean_diff) == (1.0, 0.0, ALL_ZERO, 0.0)
    assert r.effect_size == 0.0


@pytest.mark.parametrize("name", list(TESTS))
def test_single_query_gives_a_defined_p(name: str) -> None:
    r = get_test(name)([0.7], [0.2])
    assert r.pvalue == 1.0
    assert r.n == 1 and r.ci is None and r.effect_size is None
    if name in ("t", "bootstrap"):
        assert r.method == UNDEFINED


@pytest.mark.parametrize("name", list(TESTS))
def test_two_queries_do_not_warn_or_nan(name: str) -> None:
    r = get_test(name)([0.7, 0.1], [0.2, 0.3])
    assert 0 <= r.pvalue <= 1
    assert not np.isnan(r.statistic)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_constant_nonzero_difference_is_no_evidence(alternative: str) -> None:
    """Two queries with equal differences once gave p = 0 and a marker: t is undefined."""
    r = t_test([0.5, 0.75], [0.25, 0.5], alternative=alternative)  # type: ignore[arg-type]
    assert (r.statistic, r.pvalue, r.effect_size) == (0.0, 1.0, None)
    assert r.method == "undefined: constant difference (zero variance)"
    b = bootstrap([0.5, 0.75, 1.0], [0.25, 0.5, 0.75], alternative=alternative)  # type: ignore[arg-type]
    assert b.pvalue == 1.0 and b.method == r.method


def test_differences_equal_up_to_rounding_are_constant() -> None:
    """0.3 - 0.2 and 0.1 - 0.0 differ in the last bit: scipy finds t = 7.2e15 there."""
    a, b = np.array([0.3, 0.1, 0.7]), np.array([0.2, 0.0, 0.6])
    d = a - b
    assert d.std(ddof=1) > 0  # the variance is rounding error, not zero
    with pytest.warns(RuntimeWarning, match="catastrophic cancellation"):
        naive = stats.ttest_rel(a, b).statistic  # scipy itself distrusts it
    assert abs(naive) > 1e14
    r = t_test(a, b)
    assert (r.statistic, r.pvalue, r.effect_size) == (0.0, 1.0, None)
    assert r.method == "undefined: constant difference (variance is rounding error)"
    (many,) = t_test_many(a[:, None], b[:, None])
    assert many == r
    assert bootstrap(a, b).pvalue == 1.0


@pytest.mark.parametrize("name", list(TESTS))
def test_bad_input_is_an_error(name: str) -> None:
    func = get_test(name)
    with pytest.raises(InputError, match="n = 0"):
        func([], [])
    with pytest.raises(InputError, match="equally long"):
        func([0.1, 0.2], [0.1])
    with pytest.raises(InputError, match="NaN"):
        func([0.1, np.nan], [0.1, 0.2])
    with pytest.raises(UnknownNameError, match="did you mean 'greater'"):
        func([0.1], [0.2], alternative="greatr")


def test_unknown_names_suggest_the_closest() -> None:
    with pytest.raises(UnknownNameError, match="unknown test 'wilcoxn'; did you mean 'wilcoxon'"):
        get_test("wilcoxn")
    with pytest.raises(UnknownNameError, match="did you mean 'pratt'"):
        wilcoxon([0.1, 0.2], [0.2, 0.1], zero_method="prat")  # type: ignore[arg-type]


def test_wilcoxon_is_exact_below_50_differences_as_r() -> None:
    """R's wilcox.test: exact when n < 50 (no ties, no zeros), else the normal
    approximation with continuity correction."""
    rng = np.random.default_rng(49)
    for n, method in ((49, "exact"), (50, "approx")):
        d = rng.normal(0.1, 1.0, n)
        r = wilcoxon(d, np.zeros(n))
        ref = stats.wilcoxon(d, method=method, correction=True)
        assert r.pvalue == pytest.approx(float(ref.pvalue), rel=1e-12)
        assert r.method.startswith("exact" if method == "exact" else "normal approximation")


def test_zero_method_is_a_compare_setting_and_scipys_pratt() -> None:
    from irtables.config import parse_config

    cfg = parse_config({"compare": {"baseline": "a", "test": "wilcoxon", "zero_method": "pratt"}})
    assert cfg.compare.zero_method == "pratt"
    d = np.array([0.0, 0.0, 0.0, 0.1, 0.2, -0.05, 0.3, 0.15, 0.0, 0.25])
    r = wilcoxon(d, np.zeros(10), zero_method="pratt")
    ref = stats.wilcoxon(d, zero_method="pratt", method="approx", correction=True)
    assert r.pvalue == pytest.approx(float(ref.pvalue), rel=1e-12) and "pratt" in r.method
