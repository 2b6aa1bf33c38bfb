"""Result records of the all-pairs procedures (Tukey HSD, randomised Tukey HSD, Dunnett),
and the assembly they share: :func:`two_way_result` of the procedures on the two-way
ANOVA's residual variance."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from irtables.errors import InputError
from irtables.stats.result import ConfidenceInterval

if TYPE_CHECKING:
    from irtables.stats.anova import TwoWayAnova

FloatArray = npt.NDArray[np.float64]

#: The method of an all-pairs test with fewer than two topics (no residual).
UNDEFINED = "undefined: fewer than two topics"
#: The method when every system differs from every other by a constant on every topic.
NO_VARIANCE = "undefined: constant differences on every topic (zero residual variance)"


@dataclass(frozen=True, slots=True)
class PairDifference:
    """One pair of an all-pairs procedure: ``system`` minus ``baseline``.

    ``pvalue`` is the simultaneous (family-wise) p-value of the procedure; ``pvalue_raw``
    the pair's own p-value before accounting for the other pairs (the t-test on the
    residual variance for Tukey HSD, the pair's permutation p for the randomised
    version). ``ci`` is the simultaneous interval of the difference; ``effect_size`` is
    Sakai's ``ES_E``: the difference over the residual standard deviation ``sqrt(V_E)``.
    """

    system: str
    baseline: str
    mean_diff: float
    statistic: float
    pvalue: float
    pvalue_raw: float
    ci: ConfidenceInterval | None
    effect_size: float | None

    def reversed(self) -> PairDifference:
        """The same comparison read the other way round (``baseline - system``)."""
        ci = None if self.ci is None else replace(self.ci, low=-self.ci.high, high=-self.ci.low)
        es = None if self.effect_size is None else -self.effect_size
        return replace(
            self,
            system=self.baseline,
            baseline=self.system,
            mean_diff=-self.mean_diff,
            statistic=-self.statistic,
            ci=ci,
            effect_size=es,
        )


@dataclass(frozen=True)
class AllPairsResult:
    """Every pair of ``systems`` compared at once over the same topics.

    ``pairs`` hold the later system against the earlier one (``systems[j] - systems[i]``
    for ``i < j``); :meth:`pair` reads any pair either way round.
    """

    test: str
    method: str
    systems: tuple[str, ...]
    means: tuple[float, ...]
    n: int
    residual_variance: float
    residual_df: int
    pairs: tuple[PairDifference, ...]

    def pair(self, system: str, baseline: str) -> PairDifference:
        """The comparison of ``system`` with ``baseline`` (``system - baseline``)."""
        for p in self.pairs:
            if (p.system, p.baseline) == (system, baseline):
                return p
            if (p.system, p.baseline) == (baseline, system):
                return p.reversed()
        raise KeyError(f"no pair {system} vs {baseline} among {', '.join(self.systems)}")


def check_matrix(values: npt.ArrayLike, systems: tuple[str, ...] | None) -> FloatArray:
    """A finite (topics x systems) float matrix, with at least two systems and a name each."""
    x = np.asarray(values, dtype=np.float64)
    if x.ndim != 2 or x.shape[0] == 0:
        raise InputError(f"all-pairs tests need a (topics x systems) matrix, got shape {x.shape}")
    if x.shape[1] < 2:
        raise InputError("all-pairs tests need at least two systems")
    if not np.isfinite(x).all():
        raise InputError("all-pairs test input contains NaN or infinite values")
    if systems is not None and len(systems) != x.shape[1]:
        raise InputError(f"{len(systems)} system names for {x.shape[1]} columns")
    return x


def default_names(k: int) -> tuple[str, ...]:
    """``s0, s1, ...`` for unnamed columns."""
    return tuple(f"s{i}" for i in range(k))


def pair_indices(k: int) -> list[tuple[int, int]]:
    """``(j, i)`` for every ``i < j``: the later system against the earlier one."""
    return [(j, i) for i in range(k) for j in range(i + 1, k)]


@dataclass(frozen=True)
class Judged:
    """What a procedure on the residual variance makes of the pairs' differences.

    ``statistic``, ``pvalue`` and ``pvalue_raw`` hold one value per pair, in the order
    of the differences it judged; ``interval`` gives the simultaneous interval of one
    difference.
    """

    method: str
    statistic: FloatArray
    pvalue: FloatArray
    pvalue_raw: FloatArray
    interval: Callable[[float], ConfidenceInterval]


#: A procedure: (differences of means, ``V_E``, residual df) -> its judgement.
Judge = Callable[[FloatArray, float, int], Judged]


def two_way_result(
    test: str,
    names: tuple[str, ...],
    n: int,
    anova: TwoWayAnova,
    pairs: Sequence[tuple[int, int]],
    judge: Judge,
) -> AllPairsResult:
    """The result of a procedure on the two-way ANOVA of ``n`` topics (Tukey HSD, Dunnett).

    ``pairs`` are ``(j, i)`` column indices, compared as ``names[j] - names[i]``;
    ``judge`` sees their differences of means only when the residual variance is
    defined. Fewer than two topics (residual df 0) or a residual that is rounding
    error (``anova.no_variance``) leave every pair undefined: statistic 0, p = 1, no
    interval, method :data:`UNDEFINED` or :data:`NO_VARIANCE`. ``effect_size`` is
    Sakai's ``ES_E = diff / sqrt(V_E)``.

    Examples
    --------
    >>> from irtables.stats.anova import two_way_anova
    >>> a = two_way_anova([[0.2, 0.4], [0.3, 0.6], [0.1, 0.3]])
    >>> r = two_way_result("t1", ("a", "b"), 3, a, [(1, 0)], lambda d, ve, df: Judged(
    ...     "toy", d, d * 0, d * 0, lambda x: ConfidenceInterval(x, x, 0.95, "toy")))
    >>> r.method, round(r.pair("b", "a").mean_diff, 3), r.residual_df
    ('toy', 0.233, 2)
    """
    means = np.asarray(anova.means)
    ve, df = anova.residual_variance, anova.residual.df
    diffs = np.array([means[j] - means[i] for j, i in pairs])
    if df == 0 or anova.no_variance:
        method = UNDEFINED if df == 0 else NO_VARIANCE
        found = _undefined_pairs(names, pairs, diffs)
    else:
        judged = judge(diffs, ve, df)
        method = judged.method
        found = tuple(
            PairDifference(
                system=names[j],
                baseline=names[i],
                mean_diff=float(d),
                statistic=float(s),
                pvalue=float(p),
                pvalue_raw=float(r),
                ci=judged.interval(float(d)),
                effect_size=float(d) / math.sqrt(ve),
            )
            for (j, i), d, s, p, r in zip(
                pairs, diffs, judged.statistic, judged.pvalue, judged.pvalue_raw, strict=True
            )
        )
    return AllPairsResult(test, method, names, _floats(means), n, ve, df, found)


def undefined_result(
    test: str, names: tuple[str, ...], means: FloatArray, n: int
) -> AllPairsResult:
    """The all-pairs result of fewer than two topics: no residual, so statistic 0 and
    p = 1 for every pair (no marker), method :data:`UNDEFINED`."""
    idx = pair_indices(len(names))
    diffs = np.array([means[j] - means[i] for j, i in idx])
    pairs = _undefined_pairs(names, idx, diffs)
    return AllPairsResult(test, UNDEFINED, names, _floats(means), n, 0.0, 0, pairs)


def _undefined_pairs(
    names: tuple[str, ...], pairs: Sequence[tuple[int, int]], diffs: FloatArray
) -> tuple[PairDifference, ...]:
    return tuple(
        PairDifference(names[j], names[i], float(d), 0.0, 1.0, 1.0, None, None)
        for (j, i), d in zip(pairs, diffs, strict=True)
    )


def _floats(values: FloatArray) -> tuple[float, ...]:
    return tuple(float(v) for v in values)
