"""The topic-set size table of a study: per dataset and metric, from the observed variance.

The variance of per-topic differences between two systems is estimated from all the
systems of a dataset at once: ``2 V_E``, twice the residual variance of the two-way
ANOVA, which equals the mean over all system pairs of the sample variance of their
per-topic differences (Sakai 2016 estimates it from past data the same way).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from irtables.model import MissingPolicy, ResultSet
from irtables.stats.anova import two_way_anova
from irtables.stats.power import anova_topics_needed, min_detectable_difference, topics_needed

#: Differences the table plans for, by default (absolute, in the metric's units).
DEFAULT_DIFFERENCES = (0.02, 0.05, 0.1)


@dataclass(frozen=True)
class TopicSetSize:
    """How many topics a paired t-test needs, and what the topics at hand can detect.

    ``sd_diff = sqrt(2 V_E)``; ``mdd`` is the minimum detectable difference with
    ``topics`` topics; ``needed`` pairs each planned difference with the topics it needs
    (None: more than :data:`~irtables.stats.power.MAX_TOPICS`); ``needed_anova`` the
    same for the ANOVA-based design of all ``systems`` at once, the difference read as
    the range of the system means: on the two-way design (error variance ``V_E``, as the
    tests), or ``design="one-way"``, Sakai's (2016) design as he defines it (the
    within-system variance, topics not taken out)
    (:func:`~irtables.stats.power.anova_topics_needed`).

    A design computed from the same data it would be applied to is a plan for the next
    test collection, not post-hoc power of the tests that ran.
    """

    dataset: str
    metric: str
    systems: int
    topics: int
    residual_variance: float
    sd_diff: float
    alpha: float
    power: float
    alternative: str
    mdd: float | None
    needed: tuple[tuple[float, int | None], ...]
    needed_anova: tuple[tuple[float, int | None], ...] = ()
    #: The ANOVA design of ``needed_anova`` (:data:`~irtables.base.names.ANOVA_DESIGNS`)
    #: and its error variance: the two-way residual ``V_E``, or the one-way within-system
    #: variance of Sakai's design.
    design: str = "two-way"
    anova_variance: float | None = None


def topic_set_sizes(
    results: ResultSet,
    *,
    datasets: Sequence[str] | None = None,
    metrics: Mapping[str, Sequence[str]] | Sequence[str] | None = None,
    systems: Mapping[str, Sequence[str]] | None = None,
    alpha: float = 0.05,
    power: float = 0.8,
    differences: Sequence[float] = DEFAULT_DIFFERENCES,
    alternative: str = "two-sided",
    missing: MissingPolicy = "error",
    design: str = "two-way",
) -> tuple[TopicSetSize, ...]:
    """One :class:`TopicSetSize` per (dataset, metric) with at least two systems and topics.

    ``metrics`` may be given per dataset; ``systems`` (per dataset) restricts the systems
    whose variance is pooled (default: all of the dataset).

    Examples
    --------
    >>> import pandas as pd
    >>> rs = ResultSet.from_frame(pd.DataFrame({
    ...     "dataset": "d", "metric": "AP", "query": [str(q) for q in range(6)] * 2,
    ...     "system": ["a"] * 6 + ["b"] * 6,
    ...     "value": [0.2, 0.4, 0.1, 0.5, 0.3, 0.6, 0.3, 0.5, 0.1, 0.7, 0.3, 0.8]}))
    >>> t = topic_set_sizes(rs)[0]
    >>> t.topics, round(t.sd_diff, 4), t.needed[1]
    (6, 0.0894, (0.05, 28))
    """
    out = []
    for dataset in datasets if datasets is not None else results.datasets():
        names = tuple(systems[dataset]) if systems and dataset in systems else None
        names = names or results.systems(dataset)
        if len(names) < 2:
            continue
        wanted = metrics.get(dataset, ()) if isinstance(metrics, Mapping) else metrics
        present = results.metrics(dataset)
        if wanted is not None:
            here = set(present)
            present = tuple(m for m in wanted if m in here)
        for metric in present:
            aligned = results.aligned(dataset, metric, names, missing=missing)
            n = len(aligned.queries)
            if n < 2:
                continue
            ve = two_way_anova(aligned.values).residual_variance
            sd = math.sqrt(2.0 * ve)
            error = ve if design == "two-way" else within_variance(aligned.values)
            out.append(
                TopicSetSize(
                    dataset=dataset,
                    metric=metric,
                    systems=len(names),
                    topics=n,
                    residual_variance=ve,
                    sd_diff=sd,
                    alpha=alpha,
                    power=power,
                    alternative=alternative,
                    mdd=min_detectable_difference(
                        sd, n, alpha=alpha, power=power, alternative=alternative
                    ),
                    needed=tuple(
                        (
                            float(d),
                            topics_needed(sd, d, alpha=alpha, power=power, alternative=alternative),
                        )
                        for d in differences
                    ),
                    needed_anova=tuple(
                        (
                            float(d),
                            anova_topics_needed(
                                len(names), error, d, alpha=alpha, power=power, design=design
                            ),
                        )
                        for d in differences
                    ),
                    design=design,
                    anova_variance=error,
                )
            )
    return tuple(out)


def within_variance(values: npt.ArrayLike) -> float:
    """The one-way ANOVA's error variance of a (topics x systems) matrix: the pooled
    variance of each system's scores around its own mean, ``sum (x - mean_j)^2 / (k(n-1))``
    (the topics are not taken out: Sakai 2016's variance for the ANOVA-based design).

    Examples
    --------
    >>> round(within_variance([[0.2, 0.4], [0.4, 0.6]]), 12)
    0.02
    """
    x = np.asarray(values, dtype=np.float64)
    n, k = x.shape
    if n < 2:
        return 0.0
    return float(((x - x.mean(axis=0)) ** 2).sum() / (k * (n - 1)))
