"""Dunnett's many-to-one test on the two-way (system x topic) design.

Each system is compared with one baseline, over the same topics. As for Tukey HSD the
topic effect is removed first: the two-way ANOVA without replication gives the residual
variance ``V_E`` with ``df = (n - 1)(k - 1)`` degrees of freedom, and system ``i``'s
difference from the baseline gives ``t_i = (mean_i - mean_0) / sqrt(2 V_E / n)``. The
``k - 1`` statistics jointly follow a multivariate t with ``df`` degrees of freedom and
correlation 1/2 between any two (they share the baseline's mean), and the family-wise
p-value of comparison ``i`` is ``P(max_j |T_j| >= |t_i|)`` (two-sided) or
``P(max_j T_j >= t_i)`` (one-sided) (Dunnett 1955; Sakai 2018, ch. 4). Controlling the
error over the ``k - 1`` comparisons with the baseline only, it is less conservative
than Tukey HSD read at the baseline's pairs.

The multivariate t probability is a double integral over the chi distribution of the
common scale and the shared normal component, computed with fixed Gauss quadrature
(deterministic; within 1e-14 of the exact t probability for one comparison):
``T_j = (lambda_j Y + sqrt(1 - lambda_j^2) E_j) / S`` with ``Y, E_j`` standard normal
and ``S = sqrt(chi2_df / df)``, whose correlations are ``lambda_i lambda_j`` (here
``lambda_j^2 = 1/2``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from irtables.base import portable_math
from irtables.errors import InputError, UnknownNameError, unknown_name_message
from irtables.stats.allpairs import (
    AllPairsResult,
    Judged,
    check_matrix,
    default_names,
    two_way_result,
)
from irtables.stats.anova import two_way_anova
from irtables.stats.gauss_nodes import (
    HERMITE_E_NODES,
    HERMITE_E_WEIGHTS,
    LEGENDRE_NODES,
    LEGENDRE_WEIGHTS,
)
from irtables.stats.paired import ALTERNATIVES
from irtables.stats.result import ConfidenceInterval

FloatArray = npt.NDArray[np.float64]
# Gauss nodes per dimension: 96 (stats/gauss_nodes.py), as 128 or 200 nodes to 1e-14


@functools.lru_cache(maxsize=8)
def _scale_nodes(df: int) -> tuple[FloatArray, FloatArray]:
    """Nodes and weights (density times Gauss-Legendre weight) of ``S = sqrt(chi2_df / df)``
    over the range that holds all but 1e-15 of each tail."""
    from scipy.special import chdtri, gammainccinv, gammaln

    low = math.sqrt(2.0 * float(gammainccinv(df / 2.0, 1.0 - 1e-15)) / df)
    high = math.sqrt(float(chdtri(df, 1e-15)) / df)
    u, w = LEGENDRE_NODES, LEGENDRE_WEIGHTS
    s = low + (high - low) * (u + 1.0) / 2.0
    half = df / 2.0
    log_f = (
        math.log(2.0) + half * math.log(half) - float(gammaln(half))
        + (df - 1) * portable_math.log(s) - half * s**2
    )  # fmt: skip
    return s, w * (high - low) / 2.0 * portable_math.exp(log_f)


@functools.lru_cache(maxsize=1)
def _normal_nodes() -> tuple[FloatArray, FloatArray]:
    """Gauss-Hermite nodes and weights of the standard normal."""
    y, w = HERMITE_E_NODES, HERMITE_E_WEIGHTS
    return y, w / math.sqrt(2.0 * math.pi)


def mvt_max_cdf(
    c: float, lambdas: Sequence[float], df: int | None, *, two_sided: bool = True
) -> float:
    """``P(max_j |T_j| < c)`` (or ``P(max_j T_j < c)`` one-sided) for the multivariate t
    with correlations ``lambda_i lambda_j`` and ``df`` degrees of freedom (None: normal).

    Examples
    --------
    >>> round(mvt_max_cdf(1.959964, [0.0], None), 6)  # one standard normal
    0.95
    >>> round(mvt_max_cdf(2.0, [math.sqrt(0.5)] * 2, 20, two_sided=False), 4)
    0.9474
    """
    from scipy.special import ndtr

    lam = np.asarray(lambdas, dtype=np.float64)
    if two_sided and c <= 0:
        return 0.0
    y, wy = _normal_nodes()
    if df is None:
        s, ws = np.ones(1), np.ones(1)
    else:
        s, ws = _scale_nodes(df)
    rest = np.sqrt(1.0 - lam**2)[None, None, :]
    shared = lam[None, None, :] * y[None, :, None]
    bound = c * s[:, None, None]
    upper = ndtr((bound - shared) / rest)
    inside = upper - ndtr((-bound - shared) / rest) if two_sided else upper
    inner = (np.prod(inside, axis=2) * wy[None, :]).sum(axis=1)
    return float(min(1.0, max(0.0, (inner * ws).sum())))


@functools.lru_cache(maxsize=64)
def _critical(level: float, lambdas: tuple[float, ...], df: int, two_sided: bool) -> float:
    from scipy.optimize import brentq

    return float(
        brentq(
            lambda c: mvt_max_cdf(c, lambdas, df, two_sided=two_sided) - level,
            1e-6,
            100.0,
            xtol=1e-12,
        )
    )


def dunnett_pvalues(
    t: npt.ArrayLike, df: int, *, alternative: str = "two-sided", lambdas: Sequence[float] = ()
) -> FloatArray:
    """Family-wise p-values of Dunnett statistics ``t`` (one per comparison).

    ``lambdas`` default to ``sqrt(1/2)`` each (every group the same size, as topics in
    a blocked design); a one-way design with group sizes ``n_j`` and baseline size
    ``n_0`` has ``lambda_j = sqrt(n_j / (n_j + n_0))``.

    Examples
    --------
    >>> [round(float(p), 4) for p in dunnett_pvalues([2.5, -0.3], 30)]
    [0.0336, 0.9366]
    """
    stats = np.asarray(t, dtype=np.float64)
    lam = tuple(lambdas) or (math.sqrt(0.5),) * stats.size
    if alternative not in ALTERNATIVES:
        raise UnknownNameError(unknown_name_message("alternative", alternative, ALTERNATIVES))
    two = alternative == "two-sided"
    sign = -1.0 if alternative == "less" else 1.0
    out = []
    for x in stats:
        c = abs(float(x)) if two else sign * float(x)
        out.append(1.0 - mvt_max_cdf(c, lam, df, two_sided=two))
    return np.asarray(out, dtype=np.float64)


def dunnett(
    values: npt.ArrayLike,
    systems: Sequence[str] | None = None,
    *,
    baseline: str | int = 0,
    alternative: str = "two-sided",
    level: float = 0.95,
) -> AllPairsResult:
    """Dunnett's test of every column of a (topics x systems) matrix against ``baseline``.

    ``pvalue`` of a comparison is the family-wise (simultaneous) p-value over the
    ``k - 1`` comparisons with the baseline; ``pvalue_raw`` the pair's own t-test on the
    same residual variance; ``ci`` the simultaneous interval ``diff ± c sqrt(2 V_E / n)``
    with ``c`` the ``level`` quantile of the maximum (two-sided ``[low, high]``,
    ``greater`` ``[low, inf)``, ``less`` ``(-inf, high]``); ``effect_size`` Sakai's
    ``ES_E = diff / sqrt(V_E)``. The statistic ``t`` carries the sign of the difference.
    As for Tukey HSD, a residual that is zero or rounding error leaves the test
    undefined (p = 1).

    Examples
    --------
    >>> r = dunnett([[0.2, 0.4, 0.3], [0.3, 0.6, 0.4], [0.1, 0.3, 0.3], [0.2, 0.5, 0.2]],
    ...             ["bm25", "dense", "splade"], baseline="bm25")
    >>> p = r.pair("dense", "bm25")
    >>> round(p.statistic, 3), round(p.pvalue, 4), [q.system for q in r.pairs]
    (5.303, 0.0033, ['dense', 'splade'])
    """
    x = check_matrix(values, tuple(systems) if systems is not None else None)
    n, k = x.shape
    names = tuple(systems) if systems is not None else default_names(k)
    if alternative not in ALTERNATIVES:
        raise UnknownNameError(unknown_name_message("alternative", alternative, ALTERNATIVES))
    if isinstance(baseline, str):
        if baseline not in names:
            raise UnknownNameError(unknown_name_message("baseline", baseline, names))
        b = names.index(baseline)
    elif 0 <= baseline < k:
        b = baseline
    else:
        raise InputError(f"baseline column {baseline} out of range for {k} systems")
    others = [(j, b) for j in range(k) if j != b]

    def judge(diffs: FloatArray, ve: float, df: int) -> Judged:
        se = math.sqrt(2.0 * ve / n)
        t = diffs / se
        lam = (math.sqrt(0.5),) * len(others)
        half = _critical(level, lam, df, alternative == "two-sided") * se
        return Judged(
            method=f"Dunnett, two-way ANOVA ({k} systems x {n} topics, residual df {df}), "
            f"{alternative}",
            statistic=t,
            pvalue=dunnett_pvalues(t, df, alternative=alternative),
            pvalue_raw=_raw_pvalues(t, df, alternative),
            interval=lambda d: _interval(d, half, level, alternative),
        )

    return two_way_result("dunnett", names, n, two_way_anova(x), others, judge)


def _raw_pvalues(t: FloatArray, df: int, alternative: str) -> FloatArray:
    from scipy.special import stdtr

    if alternative == "two-sided":
        return np.asarray(np.minimum(1.0, 2.0 * stdtr(df, -np.abs(t))), dtype=np.float64)
    side = t if alternative == "greater" else -t
    return np.asarray(stdtr(df, -side), dtype=np.float64)


def _interval(diff: float, half: float, level: float, alternative: str) -> ConfidenceInterval:
    low = diff - half if alternative != "less" else -math.inf
    high = diff + half if alternative != "greater" else math.inf
    return ConfidenceInterval(low, high, level, "Dunnett")
