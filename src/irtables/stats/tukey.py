"""Tukey HSD on the two-way (system x topic) design.

Every system ran the same topics, so the topic effect is removed first: a two-way ANOVA
without replication gives the residual variance ``V_E`` with ``(n - 1)(k - 1)`` degrees
of freedom, and each pair's difference of means is judged by the studentized range
``q = |mean_i - mean_j| / sqrt(V_E / n)`` over ``k`` systems (Tukey 1949; Sakai 2018,
ch. 4). The one-way Tukey HSD (``scipy.stats.tukey_hsd``, which ranx's ``tukey`` calls)
treats the systems as independent groups and leaves the topic variance in the error.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from irtables.stats.allpairs import (
    AllPairsResult,
    PairDifference,
    check_matrix,
    default_names,
    pair_indices,
)
from irtables.stats.anova import two_way_anova
from irtables.stats.result import ConfidenceInterval
from irtables.stats.studentized_range import studentized_range_ppf, studentized_range_sf

UNDEFINED = "undefined: fewer than two topics"
#: The method when every system differs from every other by a constant on every topic.
NO_VARIANCE = "undefined: constant differences on every topic (zero residual variance)"


@functools.lru_cache(maxsize=64)
def _q_critical(level: float, k: int, df: int) -> float:
    return studentized_range_ppf(level, k, df)


def _q_sf(q: npt.NDArray[np.float64], k: int, df: int) -> npt.NDArray[np.float64]:
    return studentized_range_sf(q, k, df)


def tukey_hsd(
    values: npt.ArrayLike, systems: Sequence[str] | None = None, *, level: float = 0.95
) -> AllPairsResult:
    """Tukey HSD of every pair of columns of a (topics x systems) matrix.

    p-values are ``studentized_range.sf(q, k, df_E)`` (computed vectorised, as scipy's
    to 1e-10: :mod:`~irtables.stats.studentized_range`); the simultaneous interval of each
    difference is ``diff ± q_{level}(k, df_E) sqrt(V_E / n)``; ``pvalue_raw`` is the
    two-sided t-test of the pair on the same residual variance (Fisher's LSD), and
    ``effect_size`` Sakai's ``ES_E = diff / sqrt(V_E)``. The statistic ``q`` carries the
    sign of the difference (``pair(b, a).statistic == -pair(a, b).statistic``).

    A residual that is zero or rounding error (``anova.no_variance``: every difference
    constant across topics) leaves q undefined, as the paired t-test does: statistic 0,
    p = 1, method :data:`NO_VARIANCE`, so that no marker is shown.

    Examples
    --------
    >>> r = tukey_hsd([[0.2, 0.4, 0.3], [0.3, 0.6, 0.4], [0.1, 0.3, 0.3], [0.2, 0.5, 0.2]],
    ...               ["bm25", "dense", "splade"])
    >>> p = r.pair("dense", "bm25")
    >>> round(p.mean_diff, 3), round(p.statistic, 3), round(p.pvalue, 4)
    (0.25, 7.5, 0.0044)
    >>> round(r.pair("bm25", "dense").statistic, 3)
    -7.5
    """
    x = check_matrix(values, tuple(systems) if systems is not None else None)
    n, k = x.shape
    names = tuple(systems) if systems is not None else default_names(k)
    anova = two_way_anova(x)
    means = np.asarray(anova.means)
    ve, df = anova.residual_variance, anova.residual.df
    idx = pair_indices(k)
    diffs = np.array([means[j] - means[i] for j, i in idx])
    if df == 0:
        return undefined_result("tukey", names, means, n)
    if not anova.no_variance:
        se = math.sqrt(ve / n)
        q = diffs / se
        p = np.minimum(1.0, _q_sf(np.abs(q), k, df))
        raw = _lsd_pvalues(np.abs(q) / math.sqrt(2.0), df)
        half = _q_critical(level, k, df) * se
        method = f"Tukey HSD, two-way ANOVA ({k} systems x {n} topics, residual df {df})"
        pairs = [
            PairDifference(
                system=names[j],
                baseline=names[i],
                mean_diff=float(d),
                statistic=float(qq),
                pvalue=float(pp),
                pvalue_raw=float(rr),
                ci=ConfidenceInterval(float(d) - half, float(d) + half, level, "Tukey HSD"),
                effect_size=float(d) / math.sqrt(ve),
            )
            for (j, i), d, qq, pp, rr in zip(idx, diffs, q, p, raw, strict=True)
        ]
    else:
        method = NO_VARIANCE
        pairs = [
            _undefined(names[j], names[i], float(d)) for (j, i), d in zip(idx, diffs, strict=True)
        ]
    return AllPairsResult(
        test="tukey",
        method=method,
        systems=names,
        means=tuple(float(m) for m in means),
        n=n,
        residual_variance=ve,
        residual_df=df,
        pairs=tuple(pairs),
    )


def _lsd_pvalues(t: npt.NDArray[np.float64], df: int) -> npt.NDArray[np.float64]:
    from scipy.special import stdtr

    return np.asarray(np.minimum(1.0, 2.0 * stdtr(df, -t)), dtype=np.float64)


def _undefined(system: str, baseline: str, diff: float) -> PairDifference:
    return PairDifference(system, baseline, diff, 0.0, 1.0, 1.0, None, None)


def undefined_result(
    test: str, names: tuple[str, ...], means: npt.NDArray[np.float64], n: int
) -> AllPairsResult:
    """The all-pairs result of fewer than two topics: no residual, so statistic 0 and
    p = 1 for every pair (no marker), method :data:`UNDEFINED`."""
    idx = pair_indices(len(names))
    return AllPairsResult(
        test=test,
        method=UNDEFINED,
        systems=names,
        means=tuple(float(m) for m in means),
        n=n,
        residual_variance=0.0,
        residual_df=0,
        pairs=tuple(_undefined(names[j], names[i], float(means[j] - means[i])) for j, i in idx),
    )
