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
    Judged,
    check_matrix,
    default_names,
    pair_indices,
    two_way_result,
)
from irtables.stats.anova import two_way_anova
from irtables.stats.result import ConfidenceInterval
from irtables.stats.studentized_range import studentized_range_ppf, studentized_range_sf


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
    p = 1, method :data:`~irtables.stats.allpairs.NO_VARIANCE`, so that no marker is shown.

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

    def judge(diffs: npt.NDArray[np.float64], ve: float, df: int) -> Judged:
        se = math.sqrt(ve / n)
        q = diffs / se
        half = _q_critical(level, k, df) * se
        return Judged(
            method=f"Tukey HSD, two-way ANOVA ({k} systems x {n} topics, residual df {df})",
            statistic=q,
            pvalue=np.minimum(1.0, _q_sf(np.abs(q), k, df)),
            pvalue_raw=_lsd_pvalues(np.abs(q) / math.sqrt(2.0), df),
            interval=lambda d: ConfidenceInterval(d - half, d + half, level, "Tukey HSD"),
        )

    return two_way_result("tukey", names, n, two_way_anova(x), pair_indices(k), judge)


def _lsd_pvalues(t: npt.NDArray[np.float64], df: int) -> npt.NDArray[np.float64]:
    from scipy.special import stdtr

    return np.asarray(np.minimum(1.0, 2.0 * stdtr(df, -t)), dtype=np.float64)
