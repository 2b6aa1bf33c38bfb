"""Dunnett's many-to-one test on the blocked design, against independent computations:
scipy's multivariate t (quasi-Monte Carlo, many points) with the blocked design's
residual df and correlation 1/2, and scipy.stats.dunnett on the one-way design."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from irtables.model import ResultSet
from irtables.stats import compare, dunnett, tukey_hsd, two_way_anova
from irtables.stats.many_to_one import dunnett_pvalues

RNG = np.random.default_rng(20)


def mvt_cdf(c: float, m: int, df: int, two_sided: bool) -> float:
    """P(max |T| < c) (or max T < c) from scipy's multivariate t with correlation 1/2."""
    shape = np.full((m, m), 0.5)
    np.fill_diagonal(shape, 1.0)
    lower = np.full(m, -c) if two_sided else None
    dist = stats.multivariate_t(shape=shape, df=df)
    # 200,000 points: within about 2e-7 of this module's quadrature (10 million: 5e-9)
    return float(dist.cdf(np.full(m, c), lower_limit=lower, maxpts=200_000, random_state=1))


def blocked(n: int, k: int) -> np.ndarray:
    topic = RNG.beta(2, 3, (n, 1))
    return np.clip(topic + RNG.normal(0, 0.08, (n, k)) + np.linspace(0, 0.06, k), 0, 1)


@pytest.mark.parametrize(
    ("n", "k", "alternative"),
    [(10, 3, "two-sided"), (25, 4, "two-sided"), (50, 5, "two-sided"), (25, 4, "greater"),
     (25, 4, "less")],
)  # fmt: skip
def test_pvalues_and_intervals_equal_the_multivariate_t(n: int, k: int, alternative: str) -> None:
    x = blocked(n, k)
    r = dunnett(x, baseline=0, alternative=alternative)
    a = two_way_anova(x)
    df, se = a.residual.df, math.sqrt(2 * a.residual_variance / n)
    two = alternative == "two-sided"
    for j, p in enumerate(r.pairs, start=1):
        t = (x[:, j].mean() - x[:, 0].mean()) / se
        assert p.statistic == pytest.approx(t, rel=1e-12)
        c = abs(t) if two else (t if alternative == "greater" else -t)
        expected = 1.0 - mvt_cdf(c, k - 1, df, two)
        assert p.pvalue == pytest.approx(expected, abs=1e-6)
        raw = 2 * stats.t.sf(abs(t), df) if two else stats.t.sf(c, df)
        assert p.pvalue_raw == pytest.approx(raw, rel=1e-9)
        assert p.effect_size == pytest.approx(p.mean_diff / math.sqrt(a.residual_variance))
    # simultaneous intervals: the critical value has multivariate-t coverage 0.95
    ci = r.pairs[0].ci
    assert ci is not None
    half = (ci.high - r.pairs[0].mean_diff) if alternative != "less" else None
    if alternative == "greater":
        half = r.pairs[0].mean_diff - ci.low
        assert ci.high == math.inf
    if alternative == "less":
        half = ci.high - r.pairs[0].mean_diff
        assert ci.low == -math.inf
    assert half is not None
    assert mvt_cdf(half / se, k - 1, df, two) == pytest.approx(0.95, abs=1e-6)


def test_the_one_way_case_equals_scipy_dunnett() -> None:
    groups = [RNG.normal(0.1 * i, 1.0, 15) for i in range(4)]
    res = stats.dunnett(*groups[1:], control=groups[0], random_state=1)
    df = sum(g.size for g in groups) - len(groups)
    mse = sum(((g - g.mean()) ** 2).sum() for g in groups) / df
    t = [(g.mean() - groups[0].mean()) / math.sqrt(mse * 2 / 15) for g in groups[1:]]
    assert t == pytest.approx(list(res.statistic), rel=1e-12)
    # scipy integrates by quasi-Monte Carlo at its default precision (about 1e-4)
    assert dunnett_pvalues(t, df) == pytest.approx(list(res.pvalue), abs=1e-4)
    greater = stats.dunnett(*groups[1:], control=groups[0], alternative="greater", random_state=1)
    assert dunnett_pvalues(t, df, alternative="greater") == pytest.approx(
        list(greater.pvalue), abs=1e-4
    )


def test_dunnett_is_less_conservative_than_tukey_at_the_baseline() -> None:
    x = blocked(30, 5)
    d, t = dunnett(x), tukey_hsd(x)
    for p in d.pairs:
        assert p.pvalue < t.pair(p.system, p.baseline).pvalue


def test_compare_runs_dunnett_per_baseline_and_refuses_all_pairs() -> None:
    x = blocked(20, 3)
    frame = pd.DataFrame(
        [
            {"dataset": "d", "metric": "AP", "query": f"q{q}", "system": s, "value": x[q, j]}
            for q in range(20)
            for j, s in enumerate(["bm25", "dense", "splade"])
        ]
    )
    rs = ResultSet.from_frame(frame)
    c = compare(rs, baseline="bm25", test="dunnett", alternative="greater")
    direct = dunnett(x, ["bm25", "dense", "splade"], baseline="bm25", alternative="greater")
    assert [r.p for r in c] == pytest.approx([p.pvalue for p in direct.pairs], rel=1e-12)
    assert {r.family_size for r in c} == {2} and c.correction == "dunnett"
    with pytest.raises(Exception, match="not all pairs"):
        compare(rs, pairs="all", test="dunnett")


def test_dunnett_in_the_tables_one_sided_legend() -> None:
    from irtables.config import parse_config
    from irtables.tables import build_all
    from tests.unit.test_dataset_baselines import study

    cfg = parse_config(
        {
            "compare": {"baseline": "bm25", "test": "dunnett", "alternative": "greater"},
            "tables": {"main": {"metrics": ["NDCG@10", "MAP"]}},
        }
    )
    built = build_all(study(), cfg)
    caption = built.tables[0].full_caption
    assert "†: significantly better than bm25 (Dunnett's test" in caption
    assert "by the multivariate t distribution)" in caption and "‡" not in caption
    assert built.comparisons is not None and built.comparisons.correction == "dunnett"


def test_one_topic_or_constant_differences_leave_dunnett_undefined_as_tukey() -> None:
    """No residual (one topic) or a residual that is rounding error (each system a
    constant shift of the baseline): every comparison with the baseline is undefined,
    p = 1 and no interval, with the method Tukey HSD gives on the same matrix."""
    one = np.array([[0.2, 0.4, 0.5]])
    shifted = np.array([[0.1, 0.3, 0.2], [0.5, 0.7, 0.6], [0.2, 0.4, 0.3], [0.3, 0.5, 0.4]])
    for x, method, df in ((one, "undefined: fewer than two topics", 0), (shifted, None, 6)):
        r = dunnett(x, ["a", "b", "c"], baseline="b")
        assert r.method == (method or tukey_hsd(x).method)
        assert r.method.startswith("undefined")
        assert r.residual_df == df
        assert [(p.system, p.baseline) for p in r.pairs] == [("a", "b"), ("c", "b")]
        assert all(p.pvalue == p.pvalue_raw == 1.0 and p.statistic == 0.0 for p in r.pairs)
        assert all(p.ci is None and p.effect_size is None for p in r.pairs)
        assert r.pair("c", "b").mean_diff == pytest.approx(x[:, 2].mean() - x[:, 1].mean())
