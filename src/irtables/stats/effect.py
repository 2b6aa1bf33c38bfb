"""Effect size and confidence intervals of a mean paired difference."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from irtables.stats.result import ConfidenceInterval

FloatArray = npt.NDArray[np.float64]


@functools.lru_cache(maxsize=256)
def _t_quantile(q: float, df: int) -> float:
    """Student t quantile, cached: every comparison of a dataset has the same n."""
    from scipy.special import stdtrit

    return float(stdtrit(df, q))


def _scipy_stats() -> Any:
    """scipy.stats, imported on first use (it takes a second to import)."""
    from scipy import stats

    return stats


#: A standard deviation at most this fraction of the magnitude of the values it was
#: computed from (at least 1) is floating-point rounding, not variance. Every test uses
#: it: the paired tests on the differences, Tukey HSD and Dunnett on the residual of the
#: two-way ANOVA, the bootstrap on each replicate's standard error.
NOISE = 1e-10


def is_noise(sd: float, magnitude: float) -> bool:
    """Whether a standard deviation is rounding error for values of this magnitude.

    Examples
    --------
    >>> is_noise(1.96e-17, 0.1), is_noise(1e-3, 0.1), is_noise(0.0, 0.0)
    (True, False, True)
    """
    return sd <= NOISE * max(1.0, magnitude)


def snapped(d: FloatArray) -> FloatArray:
    """The differences on a grid of the tolerance every test uses (:data:`NOISE` times
    the largest absolute difference, at least 1): differences equal up to floating-point
    rounding become equal, and rounding error becomes zero. Wilcoxon ranks these, so
    that ``0.3 - 0.1`` and ``0.2 - 0.0`` tie as they do on paper.

    Examples
    --------
    >>> import numpy as np
    >>> d = snapped(np.array([0.3 - 0.1, 0.2 - 0.0, 0.1 - 0.1 + 1e-17]))
    >>> bool(d[0] == d[1]), float(d[2])
    (True, 0.0)
    """
    if not d.size:
        return d
    step = NOISE * max(1.0, float(np.abs(d).max()))
    return np.round(d / step) * step


def is_constant(d: FloatArray, sd: float | None = None) -> bool:
    """Whether differences are constant, exactly or up to floating-point rounding.

    ``0.1 - 0.0`` and ``0.3 - 0.2`` differ in the last bit: their standard deviation
    (1.96e-17) is rounding error, and a test dividing by it would find t = 7e15.

    Examples
    --------
    >>> import numpy as np
    >>> is_constant(np.array([0.1 - 0.0, 0.3 - 0.2])), is_constant(np.array([0.1, 0.2]))
    (True, False)
    """
    if d.size < 2:
        return False
    spread = float(np.std(d, ddof=1)) if sd is None else sd
    return is_noise(spread, float(np.abs(d).max()))


def cohens_dz(d: FloatArray) -> float | None:
    """Cohen's d_z: the mean difference divided by the standard deviation (ddof=1).

    Returns 0.0 when every difference is zero and ``None`` when it is undefined
    (fewer than two differences, or a constant nonzero difference, also when its
    standard deviation is only rounding error: see :func:`is_constant`).

    Examples
    --------
    >>> import numpy as np
    >>> round(cohens_dz(np.array([0.1, 0.3, 0.2])), 6)
    2.0
    >>> cohens_dz(np.zeros(4)), cohens_dz(np.array([0.5])), cohens_dz(np.array([0.1, 0.3 - 0.2]))
    (0.0, None, None)
    """
    if d.size and not d.any():
        return 0.0
    if d.size < 2:
        return None
    sd = float(np.std(d, ddof=1))
    return None if is_constant(d, sd) else float(np.mean(d)) / sd


def es_e_interval(
    ci: ConfidenceInterval | None, residual_variance: float
) -> ConfidenceInterval | None:
    """The interval of Sakai's ``ES_E``: the procedure's simultaneous interval of the
    difference divided by ``sqrt(V_E)``, the residual standard deviation of the two-way
    ANOVA (an infinite bound of a one-sided interval stays infinite).

    None without an interval or with a residual variance that is not positive.

    Examples
    --------
    >>> ci = ConfidenceInterval(-0.1, 0.3, level=0.95, method="Tukey HSD")
    >>> e = es_e_interval(ci, 0.04)
    >>> round(e.low, 6), round(e.high, 6), e.method
    (-0.5, 1.5, 'Tukey HSD / sqrt(V_E)')
    """
    if ci is None or not residual_variance > 0:
        return None
    sd = math.sqrt(residual_variance)
    return ConfidenceInterval(ci.low / sd, ci.high / sd, ci.level, f"{ci.method} / sqrt(V_E)")


def t_interval(
    d: FloatArray, level: float = 0.95, alternative: str = "two-sided"
) -> ConfidenceInterval | None:
    """t-based confidence interval of the mean difference, shaped by the test's alternative.

    Two-sided: ``mean ± t_{(1+level)/2} se``. One-sided, as ``scipy.stats.ttest_rel``'s
    ``confidence_interval()``: ``greater`` gives ``[mean - t_{level} se, inf)`` and
    ``less`` gives ``(-inf, mean + t_{level} se]``. ``None`` for fewer than two
    differences; a point (or half-line) interval when they are constant.

    Examples
    --------
    >>> import numpy as np
    >>> ci = t_interval(np.array([0.1, 0.3, 0.2]))
    >>> round(ci.low, 4), round(ci.high, 4)
    (-0.0484, 0.4484)
    >>> ci = t_interval(np.array([0.1, 0.3, 0.2]), alternative="greater")
    >>> round(ci.low, 4), ci.high
    (0.0314, inf)
    """
    n = d.size
    if n < 2:
        return None
    mean = float(np.mean(d))
    se = float(np.std(d, ddof=1)) / math.sqrt(n)
    return shaped_interval(mean, se, level, alternative, lambda q: _t_quantile(q, n - 1), "t")


def shaped_interval(
    center: float,
    scale: float,
    level: float,
    alternative: str,
    quantile: Callable[[float], float],
    method: str,
) -> ConfidenceInterval:
    """``center ± quantile · scale``: two-sided at ``(1+level)/2``, one-sided at ``level``.

    Examples
    --------
    >>> shaped_interval(1.0, 0.5, 0.95, "less", lambda q: 2.0, "t")
    ConfidenceInterval(low=-inf, high=2.0, level=0.95, method='t')
    """
    if alternative == "two-sided":
        half = quantile(0.5 + level / 2) * scale
        return ConfidenceInterval(center - half, center + half, level=level, method=method)
    half = quantile(level) * scale
    if alternative == "greater":
        return ConfidenceInterval(center - half, math.inf, level=level, method=method)
    return ConfidenceInterval(-math.inf, center + half, level=level, method=method)


def percentile_interval(
    samples: FloatArray, level: float = 0.95, alternative: str = "two-sided"
) -> ConfidenceInterval:
    """Percentile interval of bootstrap replicates of the mean difference.

    Two-sided: the ``(1-level)/2`` and ``(1+level)/2`` percentiles; ``greater``:
    ``[the (1-level) percentile, inf)``; ``less``: ``(-inf, the level percentile]``.

    Examples
    --------
    >>> import numpy as np
    >>> ci = percentile_interval(np.linspace(0, 1, 101), level=0.9)
    >>> round(ci.low, 3), round(ci.high, 3)
    (0.05, 0.95)
    >>> ci = percentile_interval(np.linspace(0, 1, 101), level=0.9, alternative="greater")
    >>> round(ci.low, 3), ci.high
    (0.1, inf)
    """
    method = "bootstrap percentile"
    if alternative == "greater":
        low = float(np.percentile(samples, (1 - level) * 100))
        return ConfidenceInterval(low, math.inf, level=level, method=method)
    if alternative == "less":
        high = float(np.percentile(samples, level * 100))
        return ConfidenceInterval(-math.inf, high, level=level, method=method)
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(samples, [tail, 100 - tail])
    return ConfidenceInterval(float(low), float(high), level=level, method=method)
