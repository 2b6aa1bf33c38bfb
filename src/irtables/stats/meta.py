"""Random-effects meta-analysis of one comparison across test collections.

Scores of different collections are not comparable, but standardized effects are
(Soboroff 2018). For each dataset where a system was compared with a baseline, the
standardized mean difference of the paired scores is Hedges' ``g = J d_z`` with
``d_z = mean(d) / sd(d)`` and ``J = 1 - 3 / (4 (n - 1) - 1)``, and its variance
``v = J^2 (1/n + d_z^2 / (2n))`` (the standardized mean change, Hedges 1981, Becker
1988; the small-sample factor on the variance as Borenstein et al. 2009, eq. 4.24).
The effects are pooled with DerSimonian and Laird's random-effects model: ``tau^2`` is
the between-collection variance (truncated at 0), ``I^2`` the share of the variation
that is heterogeneity rather than chance (Higgins & Thompson 2002). With fewer than
:data:`HKSJ_BELOW` collections the normal interval is too narrow: the interval and
p-value then use the Hartung-Knapp-Sidik-Jonkman variance and a t distribution with
``k - 1`` degrees of freedom (IntHout et al. 2014).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from irtables.errors import InputError, UnknownNameError, unknown_name_message
from irtables.stats.comparisons import Comparisons
from irtables.stats.result import PairedTestResult

FloatArray = npt.NDArray[np.float64]
METHOD = "DerSimonian–Laird random effects"
HKSJ = "Hartung–Knapp–Sidik–Jonkman"
#: Röver et al.'s (2015) modification of HKSJ, in words: its scale factor is at least 1.
HKSJ_FLOOR = "variance at least the normal one, Röver et al. 2015"
#: The interval is HKSJ's by default with fewer collections than this.
HKSJ_BELOW = 5
INTERVALS: tuple[str, ...] = ("auto", "normal", "hksj")


@dataclass(frozen=True, slots=True)
class StudyEffect:
    """One dataset's standardized effect: Hedges' g, its variance, interval and weight."""

    dataset: str
    n: int
    mean_diff: float
    effect: float
    variance: float
    ci_low: float
    ci_high: float
    weight: float  # share of the random-effects weight, in [0, 1]


@dataclass(frozen=True)
class Pooled:
    """The pooled effect of a random-effects meta-analysis and its heterogeneity."""

    effect: float
    se: float
    ci_low: float
    ci_high: float
    z: float
    pvalue: float
    tau2: float
    q: float
    df: int
    q_pvalue: float
    i2: float
    weights: tuple[float, ...]  # random-effects weights, normalised to sum to 1
    #: ``normal`` (z, normal interval) or ``hksj`` (``z`` holds HKSJ's t, k - 1 df)
    interval: str = "normal"


@dataclass(frozen=True)
class MetaAnalysis:
    """``system`` against ``baseline`` on ``metric``, pooled over the datasets of ``studies``."""

    metric: str
    system: str
    baseline: str
    studies: tuple[StudyEffect, ...]
    pooled: Pooled
    level: float = 0.95
    method: str = METHOD
    skipped: tuple[str, ...] = ()  # datasets whose effect is undefined (constant difference)


def hedges_g(d_z: float, n: int) -> tuple[float, float]:
    """Hedges' g of paired scores and its variance ``J^2 (1/n + d_z^2 / (2n))``.

    Examples
    --------
    >>> g, v = hedges_g(0.5, 50)
    >>> round(g, 4), round(v, 5)
    (0.4923, 0.02181)
    """
    if n < 3:
        raise InputError(f"a standardized effect needs at least 3 queries, got {n}")
    j = 1.0 - 3.0 / (4.0 * (n - 1) - 1.0)
    return j * d_z, j * j * (1.0 / n + d_z * d_z / (2.0 * n))


def _normal_quantile(q: float) -> float:
    from scipy.special import ndtri

    return float(ndtri(q))


def random_effects(
    effects: Sequence[float],
    variances: Sequence[float],
    *,
    level: float = 0.95,
    interval: str = "normal",
) -> Pooled:
    """DerSimonian-Laird random-effects pooling of study effects with known variances.

    ``tau^2 = max(0, (Q - (k - 1)) / (sum w - sum w^2 / sum w))`` with fixed-effect weights
    ``w = 1/v``; the pooled effect weighs each study by ``1 / (v + tau^2)``;
    ``I^2 = max(0, (Q - df) / Q)``. ``interval="normal"``: the interval and the two-sided
    p-value use the normal distribution and ``se = sqrt(1 / sum w*)``, the same numbers as
    ``statsmodels.stats.meta_analysis.combine_effects(..., method_re="dl")``.
    ``interval="hksj"``: ``se^2 = q / sum w*`` with ``q = max(1, sum w* (y - mu)^2 /
    (k - 1))`` and a t distribution with ``k - 1`` degrees of freedom
    (Hartung-Knapp-Sidik-Jonkman; ``q`` at least 1 as Röver et al. 2015, so that the
    interval is never narrower than the normal one's scale: effects that agree exactly
    would give ``se = 0``);
    ``"auto"``: HKSJ with fewer than :data:`HKSJ_BELOW` studies, else normal.

    Examples
    --------
    >>> p = random_effects([0.3, 0.5, 0.1], [0.01, 0.02, 0.015])
    >>> round(p.effect, 4), round(p.tau2, 4), round(p.i2, 3)
    (0.2916, 0.0189, 0.567)
    """
    from scipy.special import chdtrc, ndtr, stdtr, stdtrit

    if interval not in INTERVALS:
        raise UnknownNameError(unknown_name_message("interval", interval, INTERVALS))
    y = np.asarray(effects, dtype=np.float64)
    v = np.asarray(variances, dtype=np.float64)
    if y.ndim != 1 or y.shape != v.shape or y.size == 0:
        raise InputError("meta-analysis needs as many variances as effects, at least one")
    if not (np.isfinite(y).all() and np.isfinite(v).all() and (v > 0).all()):
        raise InputError("meta-analysis needs finite effects and positive variances")
    w = 1.0 / v
    fixed = float((w * y).sum() / w.sum())
    q = float((w * (y - fixed) ** 2).sum())
    df = y.size - 1
    scale = float(w.sum() - (w**2).sum() / w.sum())
    tau2 = max(0.0, (q - df) / scale) if scale > 0 else 0.0
    w_re = 1.0 / (v + tau2)
    effect = float((w_re * y).sum() / w_re.sum())
    if interval == "auto":
        interval = "hksj" if y.size < HKSJ_BELOW else "normal"
    if interval == "hksj" and df > 0:
        scale = max(1.0, float((w_re * (y - effect) ** 2).sum()) / df)
        se = math.sqrt(scale / float(w_re.sum()))
        half = float(stdtrit(df, 0.5 + level / 2)) * se
        z = effect / se
        p = float(2.0 * stdtr(df, -abs(z)))
    else:
        interval = "normal"
        se = math.sqrt(1.0 / float(w_re.sum()))
        half = _normal_quantile(0.5 + level / 2) * se
        z = effect / se
        p = float(2.0 * ndtr(-abs(z)))
    return Pooled(
        effect=effect,
        se=se,
        ci_low=effect - half,
        ci_high=effect + half,
        z=z,
        pvalue=p,
        tau2=tau2,
        q=q,
        df=df,
        q_pvalue=float(chdtrc(df, q)) if df > 0 else 1.0,
        i2=max(0.0, (q - df) / q) if q > 0 else 0.0,
        weights=tuple(float(x) for x in w_re / w_re.sum()),
        interval=interval,
    )


def meta_analyse(
    comparisons: Comparisons,
    *,
    metrics: Sequence[str] | None = None,
    level: float = 0.95,
    min_datasets: int = 2,
    interval: str = "auto",
) -> tuple[MetaAnalysis, ...]:
    """A meta-analysis for every (metric, system, baseline) compared on several datasets.

    Each dataset contributes Hedges' g from its comparison's ``n`` and ``effect_size``
    (Cohen's d_z); a dataset where d_z is undefined (a constant nonzero difference) is
    left out and named in ``skipped``. Comparisons on fewer than ``min_datasets`` usable
    datasets are not pooled. ``interval`` is :func:`random_effects`' (``auto``: HKSJ
    with fewer than five datasets); ``method`` names what was used. Order: metrics as
    first compared, then pairs as first seen.

    Examples
    --------
    >>> from irtables.stats import PairedTestResult
    >>> rows = tuple(PairedTestResult(test="t", method="t", n=50, mean_diff=0.02, statistic=1,
    ...     pvalue=0.1, effect_size=es, dataset=d, metric="AP", system="a", baseline="b")
    ...     for d, es in (("d1", 0.3), ("d2", 0.1), ("d3", 0.25)))
    >>> m = meta_analyse(Comparisons(rows, "t", "holm", "metric", 0.05))[0]
    >>> m.system, len(m.studies), round(m.pooled.effect, 3)
    ('a', 3, 0.212)
    """
    groups: dict[tuple[str, str, str], list[PairedTestResult]] = {}
    wanted = None if metrics is None else set(metrics)
    for r in comparisons.results:
        if wanted is not None and r.metric not in wanted:
            continue
        groups.setdefault((r.metric, r.system, r.baseline), []).append(r)
    out = []
    for (metric, system, baseline), found in groups.items():
        studies: list[tuple[str, int, float, float, float]] = []
        skipped: list[str] = []
        for r in found:
            if r.effect_size is None or r.n < 3:
                skipped.append(r.dataset)
                continue
            g, v = hedges_g(r.effect_size, r.n)
            studies.append((r.dataset, r.n, r.mean_diff, g, v))
        if len(studies) < min_datasets:
            continue
        pooled = random_effects(
            [s[3] for s in studies], [s[4] for s in studies], level=level, interval=interval
        )
        z = _normal_quantile(0.5 + level / 2)
        effects = tuple(
            StudyEffect(d, n, md, g, v, g - z * math.sqrt(v), g + z * math.sqrt(v), w)
            for (d, n, md, g, v), w in zip(studies, pooled.weights, strict=True)
        )
        out.append(
            MetaAnalysis(
                metric, system, baseline, effects, pooled, level, method_of(pooled), tuple(skipped)
            )
        )
    return tuple(out)


def method_of(pooled: Pooled) -> str:
    """How a pooled effect was computed, in words.

    Examples
    --------
    >>> m = method_of(random_effects([0.3, 0.5, 0.1], [0.01, 0.02, 0.015], interval="auto"))
    >>> print(m)  # doctest: +NORMALIZE_WHITESPACE
    DerSimonian–Laird random effects, Hartung–Knapp–Sidik–Jonkman interval (t, 2 df; variance
    at least the normal one, Röver et al. 2015)
    """
    if pooled.interval == "hksj":
        return f"{METHOD}, {HKSJ} interval (t, {pooled.df} df; {HKSJ_FLOOR})"
    return METHOD
