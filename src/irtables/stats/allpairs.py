"""Result records of the all-pairs procedures (Tukey HSD, randomised Tukey HSD)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from irtables.errors import InputError
from irtables.stats.result import ConfidenceInterval

FloatArray = npt.NDArray[np.float64]


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
