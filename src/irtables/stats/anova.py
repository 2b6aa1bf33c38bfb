"""Two-way ANOVA without replication: systems x topics, every system on every topic.

IR experiments are a randomised block design: each topic (query) is a block that every
system ran. The topic effect is taken out of the residual, so the residual variance
``V_E`` is what system comparisons are judged against (Sakai 2018, ch. 4). Pure numpy;
the F tail comes from ``scipy.special``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from irtables.errors import InputError
from irtables.stats.effect import is_noise

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class AnovaRow:
    """One line of an ANOVA table (``f`` and ``pvalue`` are None for the residual)."""

    source: str
    ss: float
    df: int
    ms: float
    f: float | None = None
    pvalue: float | None = None


@dataclass(frozen=True)
class TwoWayAnova:
    """The ANOVA of a (topics x systems) matrix, with the system means.

    ``residual_variance`` is ``V_E = SS_E / ((n - 1)(k - 1))``. ``F`` is infinite when
    the residual is zero and a factor varies, and p is then 0. ``no_variance`` says that
    ``sqrt(V_E)`` is zero or rounding error for the scores' magnitude
    (:func:`~irtables.stats.effect.is_noise`, the tolerance every test uses): each
    system then differs from each other by a constant on every topic, and the tests
    built on ``V_E`` (Tukey HSD, Dunnett) are undefined.

    Examples
    --------
    >>> a = two_way_anova(np.array([[0.2, 0.4], [0.3, 0.6], [0.1, 0.3]]))
    >>> round(a.systems.ss, 4), a.residual.df, round(a.residual_variance, 5)
    (0.0817, 2, 0.00167)
    """

    systems: AnovaRow
    topics: AnovaRow
    residual: AnovaRow
    means: tuple[float, ...]
    no_variance: bool = False

    @property
    def residual_variance(self) -> float:
        """``V_E``, the mean square of the residual."""
        return self.residual.ms


def _f_row(source: str, ss: float, df: int, residual_ms: float, residual_df: int) -> AnovaRow:
    from scipy.special import fdtrc

    ms = ss / df if df > 0 else 0.0
    if df == 0 or residual_df == 0:
        return AnovaRow(source, ss, df, ms)
    if residual_ms > 0:
        f = ms / residual_ms
        return AnovaRow(source, ss, df, ms, f, float(fdtrc(df, residual_df, f)))
    f = math.inf if ms > 0 else 0.0
    return AnovaRow(source, ss, df, ms, f, 0.0 if ms > 0 else 1.0)


def two_way_anova(values: npt.ArrayLike) -> TwoWayAnova:
    """Two-way ANOVA without replication of a (topics x systems) matrix.

    The sums of squares are those of ``statsmodels``' ``anova_lm`` on
    ``value ~ C(system) + C(topic)`` (type I, which equals type II for this balanced design).

    Examples
    --------
    >>> a = two_way_anova([[0.2, 0.4], [0.3, 0.6], [0.1, 0.3]])
    >>> round(a.systems.f, 3), round(a.systems.pvalue, 4)
    (49.0, 0.0198)
    """
    x = np.asarray(values, dtype=np.float64)
    if x.ndim != 2 or x.shape[0] < 1 or x.shape[1] < 1:
        raise InputError(f"ANOVA needs a (topics x systems) matrix, got shape {x.shape}")
    if not np.isfinite(x).all():
        raise InputError("ANOVA input contains NaN or infinite values")
    n, k = x.shape
    grand = float(x.mean())
    system_means = x.mean(axis=0)
    topic_means = x.mean(axis=1)
    ss_systems = float(n * ((system_means - grand) ** 2).sum())
    ss_topics = float(k * ((topic_means - grand) ** 2).sum())
    residual = x - system_means[None, :] - topic_means[:, None] + grand
    ss_residual = float((residual**2).sum())
    df_e = (n - 1) * (k - 1)
    ms_e = ss_residual / df_e if df_e > 0 else 0.0
    return TwoWayAnova(
        systems=_f_row("systems", ss_systems, k - 1, ms_e, df_e),
        topics=_f_row("topics", ss_topics, n - 1, ms_e, df_e),
        residual=AnovaRow("residual", ss_residual, df_e, ms_e),
        means=tuple(float(m) for m in system_means),
        no_variance=df_e > 0 and is_noise(math.sqrt(ms_e), float(np.abs(x).max())),
    )
