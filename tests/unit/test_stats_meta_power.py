"""Meta-analysis and power against statsmodels (an independent implementation)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy import stats

from irtables.errors import InputError
from irtables.stats import (
    Comparisons,
    PairedTestResult,
    hedges_g,
    meta_analyse,
    min_detectable_difference,
    paired_t_power,
    random_effects,
    topics_needed,
)

RNG = np.random.default_rng(44)
CASES = [
    (RNG.normal(0.2, 0.2, k), RNG.uniform(0.005, 0.05, k)) for k in (2, 3, 5, 8, 18) for _ in (0, 1)
] + [(np.array([0.1, 0.1, 0.1]), np.array([0.01, 0.02, 0.03]))]  # no heterogeneity: tau2 = 0


@pytest.mark.parametrize(
    ("eff", "var"), CASES, ids=[f"k{len(e)}-{i}" for i, (e, _) in enumerate(CASES)]
)
def test_random_effects_equal_statsmodels_combine_effects(eff: np.ndarray, var: np.ndarray) -> None:
    from statsmodels.stats.meta_analysis import combine_effects

    with warnings.catch_warnings():  # statsmodels' HKSJ variant warns on tau2 = 0; unused here
        warnings.simplefilter("ignore", RuntimeWarning)
        ref = combine_effects(eff, var, method_re="dl")
        frame = ref.summary_frame()
    ours = random_effects(eff, var)
    assert ours.q == pytest.approx(ref.q, rel=1e-10, abs=1e-12)
    if ref.tau2 < 0:
        # statsmodels leaves the moment estimate untruncated; DerSimonian-Laird takes
        # max(0, .), and with tau2 = 0 the random-effects model is the fixed-effect one
        assert ours.tau2 == 0.0 and ours.i2 == 0.0
        row = frame.loc["fixed effect"]
        assert ours.effect == pytest.approx(ref.mean_effect_fe, rel=1e-10)
    else:
        row = frame.loc["random effect"]
        assert ours.effect == pytest.approx(ref.mean_effect_re, rel=1e-10)
        assert ours.tau2 == pytest.approx(ref.tau2, rel=1e-9)
        assert ours.i2 == pytest.approx(max(0.0, ref.i2), rel=1e-9, abs=1e-12)
        np.testing.assert_allclose(ours.weights, frame["w_re"].iloc[: len(eff)], rtol=1e-10)
    assert ours.se == pytest.approx(row["sd_eff"], rel=1e-10)
    assert ours.ci_low == pytest.approx(row["ci_low"], rel=1e-9)
    assert ours.ci_high == pytest.approx(row["ci_upp"], rel=1e-9)


def test_hedges_g_of_paired_differences() -> None:
    d = RNG.normal(0.05, 0.2, 40)
    dz = d.mean() / d.std(ddof=1)
    g, v = hedges_g(dz, 40)
    j = 1 - 3 / (4 * 39 - 1)  # Hedges' small-sample correction
    assert g == pytest.approx(j * dz)
    # Borenstein et al. (2009), eq. 4.24: V_g = J^2 V_d, V_d = 1/n + d^2 / (2n)
    assert v == pytest.approx(j**2 * (1 / 40 + dz * dz / 80), rel=1e-12)
    assert v != pytest.approx(1 / 40 + g * g / 80, rel=1e-6)
    with pytest.raises(InputError):
        hedges_g(0.5, 2)


def result(dataset: str, es: float | None, n: int = 50, system: str = "a") -> PairedTestResult:
    return PairedTestResult(
        test="t", method="paired t-test", n=n, mean_diff=0.01, statistic=1.0, pvalue=0.2,
        effect_size=es, dataset=dataset, metric="AP", system=system, baseline="b",
    )  # fmt: skip


def test_meta_analyse_pools_each_comparison_over_its_datasets() -> None:
    rows = (
        result("d1", 0.3), result("d2", 0.1), result("d3", None),  # d3: undefined d_z
        result("d1", 0.2, system="c"),  # c is on one dataset only: not pooled
    )  # fmt: skip
    found = meta_analyse(Comparisons(rows, "t", "holm", "metric", 0.05))
    assert len(found) == 1
    m = found[0]
    assert (m.system, m.baseline, [s.dataset for s in m.studies], m.skipped) == (
        "a", "b", ["d1", "d2"], ("d3",)
    )  # fmt: skip
    gs = [hedges_g(0.3, 50), hedges_g(0.1, 50)]
    ref = random_effects([g for g, _ in gs], [v for _, v in gs], interval="hksj")
    assert m.pooled == ref and m.pooled.interval == "hksj"  # two datasets: HKSJ
    assert "Hartung–Knapp–Sidik–Jonkman" in m.method


@pytest.mark.parametrize(
    ("eff", "var"), CASES, ids=[f"k{len(e)}-{i}" for i, (e, _) in enumerate(CASES)]
)
def test_hksj_equals_a_direct_computation(eff: np.ndarray, var: np.ndarray) -> None:
    """Hartung-Knapp-Sidik-Jonkman, computed here from its definition (IntHout et al.
    2014): the DL tau^2 from statsmodels, q = sum w (y - mu)^2 / (k - 1) (at least 1, as
    Röver et al. 2015), se^2 = q / sum w, t with k - 1 df."""
    from statsmodels.stats.meta_analysis import combine_effects

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        tau2 = max(0.0, combine_effects(eff, var, method_re="dl").tau2)
    w = 1 / (var + tau2)
    mu = (w * eff).sum() / w.sum()
    k = len(eff)
    se = math.sqrt(max(1.0, (w * (eff - mu) ** 2).sum() / (k - 1)) / w.sum())
    crit = stats.t.ppf(0.975, k - 1)
    ours = random_effects(eff, var, interval="hksj")
    assert ours.effect == pytest.approx(mu, rel=1e-10)
    assert ours.se == pytest.approx(se, rel=1e-10)
    assert ours.ci_low == pytest.approx(mu - crit * se, rel=1e-9, abs=1e-12)
    assert ours.ci_high == pytest.approx(mu + crit * se, rel=1e-9, abs=1e-12)
    assert ours.pvalue == pytest.approx(2 * stats.t.sf(abs(mu / se), k - 1), rel=1e-9)
    auto = random_effects(eff, var, interval="auto")
    assert auto.interval == ("hksj" if k < 5 else "normal")


def test_meta_analysis_of_the_j2_variances_equals_statsmodels() -> None:
    from statsmodels.stats.meta_analysis import combine_effects

    found = [(0.3, 50), (0.1, 40), (0.25, 60), (0.4, 30), (0.05, 80)]
    gs = [hedges_g(dz, n) for dz, n in found]
    eff, var = np.array([g for g, _ in gs]), np.array([v for _, v in gs])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        ref = combine_effects(eff, var, method_re="dl")
    ours = random_effects(eff, var, interval="auto")  # five datasets: the normal interval
    assert ours.interval == "normal" and ours.q == pytest.approx(ref.q, rel=1e-10)
    if ref.tau2 >= 0:
        assert ours.effect == pytest.approx(ref.mean_effect_re, rel=1e-10)
        assert ours.se == pytest.approx(ref.sd_eff_w_re, rel=1e-10)


@pytest.mark.parametrize("effect", [0.1, 0.25, 0.5, 0.8])
@pytest.mark.parametrize("alternative", ["two-sided", "greater"])
def test_power_and_topic_set_size_equal_statsmodels(effect: float, alternative: str) -> None:
    from statsmodels.stats.power import TTestPower

    sm_alt = "larger" if alternative == "greater" else alternative
    tp = TTestPower()
    for n in (5, 20, 50, 158):
        ref = tp.power(effect_size=effect, nobs=n, alpha=0.05, alternative=sm_alt)
        if np.isnan(ref):  # statsmodels' noncentral t far tail can be NaN where power ~ 1
            assert paired_t_power(effect, n, alternative=alternative) > 0.999
            continue
        assert paired_t_power(effect, n, alternative=alternative) == pytest.approx(ref, abs=1e-9)
    real_n = tp.solve_power(effect_size=effect, alpha=0.05, power=0.8, alternative=sm_alt)
    sd = 0.2
    assert topics_needed(sd, effect * sd, alternative=alternative) == math.ceil(real_n - 1e-9)
    for n in (10, 50, 158):
        ref_es = tp.solve_power(nobs=n, alpha=0.05, power=0.8, alternative=sm_alt)
        mdd = min_detectable_difference(sd, n, alternative=alternative)
        assert mdd == pytest.approx(ref_es * sd, rel=1e-5)  # statsmodels solves to ~1e-6


def test_power_edge_cases() -> None:
    assert topics_needed(0.0, 0.05) == 2
    assert topics_needed(1.0, 1e-5) is None  # beyond MAX_TOPICS
    assert min_detectable_difference(0.2, 1) is None
    with pytest.raises(InputError, match="power"):
        topics_needed(0.2, 0.05, power=1.5)


def _scan_anova_topics(k: int, variance: float, difference: float) -> int:
    """The first n (from 2, one at a time) whose noncentral-F power reaches 0.8 at 0.05."""
    n = 2
    while True:
        df1, df2 = k - 1, (k - 1) * (n - 1)
        lam = n * difference**2 / (2 * variance)
        if stats.ncf.sf(stats.f.ppf(0.95, df1, df2), df1, df2, lam) >= 0.8:
            return n
        n += 1


@pytest.mark.parametrize(
    ("k", "variance", "difference"),
    [(2, 0.02, 0.1), (3, 0.01, 0.05), (5, 0.03, 0.1), (10, 0.02, 0.05), (20, 0.05, 0.2)],
)
def test_anova_topic_set_size_equals_a_scan_of_scipy_ncf(
    k: int, variance: float, difference: float
) -> None:
    from irtables.stats.power import anova_topics_needed

    assert anova_topics_needed(k, variance, difference) == _scan_anova_topics(
        k, variance, difference
    )


def test_anova_design_of_two_systems_is_the_paired_t_design() -> None:
    """k = 2: F(1, n - 1) is t², V_E is half the variance of the differences."""
    from irtables.stats.power import anova_topics_needed

    for variance, difference in ((0.02, 0.1), (0.01, 0.03), (0.05, 0.05)):
        paired = topics_needed(math.sqrt(2 * variance), difference)
        assert anova_topics_needed(2, variance, difference) == paired


def test_anova_power_matches_a_monte_carlo_two_way_design() -> None:
    """4 systems x 15 topics, range 1 sigma (two systems at +-1/2, two at 0): the share of
    4,000 simulated two-way ANOVAs whose F exceeds the 5% critical value (SE ~0.008)."""
    from irtables.stats.power import anova_power

    k, n, reps = 4, 15, 4000
    rng = np.random.default_rng(9)
    means = np.array([-0.5, 0.0, 0.0, 0.5])
    x = rng.normal(0, 1, (reps, n, 1)) + means + rng.normal(0, 1, (reps, n, k))
    grand = x.mean(axis=(1, 2), keepdims=True)
    sys_means, topic_means = x.mean(axis=1, keepdims=True), x.mean(axis=2, keepdims=True)
    ss_sys = n * ((sys_means - grand) ** 2).sum(axis=(1, 2))
    ss_res = ((x - sys_means - topic_means + grand) ** 2).sum(axis=(1, 2))
    df1, df2 = k - 1, (k - 1) * (n - 1)
    f = (ss_sys / df1) / (ss_res / df2)
    simulated = float(np.mean(f > stats.f.ppf(0.95, df1, df2)))
    assert anova_power(k, n, 1.0) == pytest.approx(simulated, abs=0.025)


def test_topic_set_sizes_carry_the_anova_design_of_all_systems() -> None:
    """needed_anova of a 3-system dataset: the scan above with V_E from a hand-made
    two-way residual; the supplement's table shows it beside the paired-t columns."""
    import pandas as pd

    from irtables.model import ResultSet
    from irtables.stats import topic_set_sizes
    from irtables.supplement.meta import tss_header, tss_note, tss_rows

    rng = np.random.default_rng(2)
    x = rng.uniform(0, 1, (12, 1)) * 0.5 + rng.uniform(0, 0.5, (12, 3))
    rs = ResultSet.from_frame(pd.DataFrame({
        "dataset": "d", "metric": "AP", "query": [f"q{q}" for q in range(12)] * 3,
        "system": np.repeat(["a", "b", "c"], 12), "value": x.T.ravel()}))  # fmt: skip
    resid = x - x.mean(axis=0) - x.mean(axis=1, keepdims=True) + x.mean()
    ve = float((resid**2).sum()) / (11 * 2)
    (t,) = topic_set_sizes(rs, differences=(0.05, 0.1))
    assert t.needed_anova == (
        (0.05, _scan_anova_topics(3, ve, 0.05)),
        (0.1, _scan_anova_topics(3, ve, 0.1)),
    )
    header = tss_header((0.05, 0.1))
    assert header[-2:] == ("n two-way ANOVA for Δ=0.05", "n two-way ANOVA for Δ=0.1")
    assert tss_rows([t], str)[0][-1] == f"{t.needed_anova[1][1]:,}"
    assert "not post-hoc power" in tss_note([t])


def _power_by_scipy_stats(effect: float, n: int, alternative: str, *, power: float = 0.0) -> float:
    """The power from scipy.stats' noncentral t, written out independently (minus ``power``)."""
    from scipy.special import stdtrit

    df, nc = n - 1, math.sqrt(n) * abs(effect)
    if alternative != "two-sided":
        return float(stats.nct.sf(float(stdtrit(df, 0.95)), df, nc)) - power
    crit = float(stdtrit(df, 0.975))
    far = float(stats.nct.sf(crit, df, -nc))
    return float(stats.nct.sf(crit, df, nc)) + (far if math.isfinite(far) else 0.0) - power


@pytest.mark.parametrize("alternative", ["two-sided", "greater"])
def test_power_is_the_same_float_as_scipy_stats_nct(alternative: str) -> None:
    for n in (2, 3, 7, 34, 158, 2000, 50_000):
        for effect in (0.0, 1e-4, 0.01, 0.06, 0.3, 0.5, 1.0, 3.0, 12.0):
            ref = _power_by_scipy_stats(effect, n, alternative)
            assert paired_t_power(effect, n, alternative=alternative) == ref, (n, effect)


def test_topic_set_sizes_import_neither_scipy_stats_nor_scipy_optimize() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from irtables.stats import min_detectable_difference, topics_needed\n"
        "print(topics_needed(0.2, 0.02), min_detectable_difference(0.2, 2000) > 0)\n"
        "print('scipy.stats' in sys.modules, 'scipy.optimize' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == [str(_topics_by_scipy_stats(0.2, 0.02)), "True", "False", "False"]


def _topics_by_scipy_stats(sd: float, difference: float) -> int:
    """The fewest topics whose power (scipy.stats) reaches 0.8, by counting up from 2."""
    n = 2
    while _power_by_scipy_stats(difference / sd, n, "two-sided") < 0.8:
        n += 1
    return n


@pytest.mark.parametrize(("sd", "difference"), [(0.1, 0.2), (0.2, 0.1), (0.3, 0.05), (0.46, 0.05)])
def test_topics_needed_equal_counting_up_with_scipy_stats(sd: float, difference: float) -> None:
    assert topics_needed(sd, difference) == _topics_by_scipy_stats(sd, difference)


@pytest.mark.parametrize("alternative", ["two-sided", "greater"])
def test_min_detectable_difference_equals_brentq_on_a_grid(alternative: str) -> None:
    from scipy.optimize import brentq

    for n in (2, 3, 10, 34, 158, 2000, 50_000):
        for power in (0.5, 0.8, 0.95):

            def gap(effect: float, n: int = n, power: float = power) -> float:
                return _power_by_scipy_stats(effect, n, alternative, power=power)

            high = 1.0
            while gap(high) < 0:
                high *= 2
            ref = brentq(gap, 0.0, high, xtol=1e-12, rtol=1e-12) * 0.3
            ours = min_detectable_difference(0.3, n, power=power, alternative=alternative)
            assert ours == pytest.approx(ref, rel=1e-10, abs=0), (n, power)


def _sakai_table_5_1() -> np.ndarray:
    """Sakai's Table 5.1 (20 topics x systems X, Y, Z, nDCG@5), from the fixtures."""
    import csv

    from tests.conftest import require_fixtures

    folder = require_fixtures() / "sakai_book_table5_1"
    columns = []
    for name in ("X", "Y", "Z"):
        with (folder / f"{name}.csv").open(encoding="utf-8") as f:
            columns.append([float(r["ndcg@5"]) for r in csv.DictReader(f)])
    return np.array(columns).T


def _one_way_topics(k: int, variance: float, diff: float, alpha: float, power: float) -> int:
    """Sakai's one-way ANOVA-based design, by brute force with scipy.stats.ncf: the
    smallest n whose F(k - 1, k(n - 1)) test has the power, noncentrality n diff²/(2σ²)."""
    n = 2
    while True:
        df1, df2 = k - 1, k * (n - 1)
        crit = stats.f.ppf(1 - alpha, df1, df2)
        if stats.ncf.sf(crit, df1, df2, n * diff**2 / (2 * variance)) >= power:
            return n
        n += 1


def test_sakais_one_way_design_as_he_defines_it() -> None:
    """``anova_design = "one-way"``: error df k(n - 1) and the within-system variance,
    which is statsmodels' one-way ANOVA residual mean square on Sakai's Table 5.1; the
    topics needed equal a brute-force search over scipy's noncentral F, and exceed the
    two-way design's (which takes the topic variance out)."""
    import pandas as pd
    import statsmodels.formula.api as smf
    from statsmodels.stats.anova import anova_lm

    from irtables.model import ResultSet
    from irtables.stats.topicset import topic_set_sizes, within_variance

    x = _sakai_table_5_1()
    n, k = x.shape
    frame = pd.DataFrame(
        {
            "dataset": "sakai",
            "system": np.repeat(["X", "Y", "Z"], n),
            "query": [f"Q{i + 1}" for i in range(n)] * k,
            "metric": "nDCG@5",
            "value": x.T.ravel(),
        }
    )
    one_way = anova_lm(smf.ols("value ~ C(system)", data=frame).fit())
    assert within_variance(x) == pytest.approx(one_way.loc["Residual", "mean_sq"], rel=1e-12)
    rs = ResultSet.from_frame(frame)
    (sakai,) = topic_set_sizes(rs, design="one-way", differences=(0.1, 0.2))
    (two,) = topic_set_sizes(rs, differences=(0.1, 0.2))
    assert sakai.design == "one-way" and two.design == "two-way"
    variance = one_way.loc["Residual", "mean_sq"]
    for (diff, got), (_, blocked) in zip(sakai.needed_anova, two.needed_anova, strict=True):
        assert got == _one_way_topics(k, variance, diff, 0.05, 0.8)
        assert got is not None and blocked is not None and got > blocked
    # the two-way residual variance is the book's 0.0219
    assert two.anova_variance == pytest.approx(0.0219, abs=5e-5)


def test_the_supplement_names_the_design_it_ran() -> None:
    from irtables.config import parse_config
    from irtables.model import ResultSet
    from irtables.stats.topicset import topic_set_sizes
    from irtables.supplement.meta import tss_header, tss_note

    x = _sakai_table_5_1()
    rows = [
        ("s", name, f"Q{i}", "AP", float(x[i, j]))
        for j, name in enumerate("XYZ")
        for i in range(20)
    ]
    import pandas as pd

    rs = ResultSet.from_frame(
        pd.DataFrame(rows, columns=["dataset", "system", "query", "metric", "value"])
    )
    config = parse_config({"compare": {"anova_design": "one-way"}})
    sizes = topic_set_sizes(rs, design=config.compare.anova_design)
    note = tss_note(sizes)
    assert "Sakai 2016's ANOVA-based design as he defines it" in note and "k(n − 1)" in note
    assert "n one-way ANOVA for Δ=0.05" in tss_header((0.05,), "one-way")
    two = tss_note(topic_set_sizes(rs))
    assert "two-way (system × topic) ANOVA" in two and "adapts Sakai 2016" in two
