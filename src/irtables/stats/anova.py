"""Two-way ANOVA without replication: systems x topics, every system on every topic.

IR experiments are a randomised block design: each topic (query) is a block that every
system ran. The topic effect is taken out of the residual, so the residual variance
``V_E`` is what system comparisons are judged against (Sakai 2018, ch. 4). Pure numpy;
the F tail comes from ``scipy.special``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from irtables.errors import InputError
from irtables.stats.effect import is_noise

if TYPE_CHECKING:
    from irtables.model import MissingPolicy, ResultSet

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


@dataclass(frozen=True)
class AnovaOf:
    """The two-way ANOVA of one dataset and metric over ``systems`` and ``n`` topics."""

    dataset: str
    metric: str
    systems: tuple[str, ...]
    n: int
    anova: TwoWayAnova

    @property
    def rows(self) -> tuple[AnovaRow, AnovaRow, AnovaRow]:
        """Systems, topics, residual: the lines of the ANOVA table."""
        return (self.anova.systems, self.anova.topics, self.anova.residual)


def anova_tables(
    results: ResultSet,
    *,
    metrics: Sequence[str] | None = None,
    datasets: Sequence[str] | None = None,
    missing: MissingPolicy = "error",
) -> tuple[AnovaOf, ...]:
    """The two-way ANOVA (systems x topics) of every dataset with two systems or more and
    every metric it has, in the order of the results.

    Examples
    --------
    >>> import pandas as pd
    >>> from irtables.model import ResultSet
    >>> rs = ResultSet.from_frame(pd.DataFrame({
    ...     "dataset": "d", "metric": "AP", "query": ["1", "2", "3"] * 2,
    ...     "system": ["bm25"] * 3 + ["dense"] * 3,
    ...     "value": [0.2, 0.3, 0.1, 0.4, 0.6, 0.3]}))
    >>> a = anova_tables(rs)[0]
    >>> a.dataset, a.metric, [r.source for r in a.rows], round(a.anova.systems.f, 1)
    ('d', 'AP', ['systems', 'topics', 'residual'], 49.0)
    """
    out = []
    wanted = None if metrics is None else set(metrics)
    for dataset in datasets if datasets is not None else results.datasets():
        systems = results.systems(dataset)
        if len(systems) < 2:
            continue
        for metric in results.metrics(dataset):
            if wanted is not None and metric not in wanted:
                continue
            aligned = results.aligned(dataset, metric, systems, missing=missing)
            if not aligned.queries:
                continue
            out.append(
                AnovaOf(
                    dataset,
                    metric,
                    aligned.systems,
                    len(aligned.queries),
                    two_way_anova(aligned.values),
                )
            )
    return tuple(out)
