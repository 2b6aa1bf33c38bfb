"""Topic-set size and minimum detectable difference for the paired t-test (Sakai 2016).

With ``sigma_d`` the standard deviation of per-topic differences between two systems,
the paired t-test on ``n`` topics has power ``P(|T| >= t_crit)`` (two-sided) where ``T``
follows a noncentral t distribution with ``n - 1`` degrees of freedom and noncentrality
``sqrt(n) delta / sigma_d``. The topic-set size for a difference ``delta`` is the
smallest ``n`` whose power reaches ``1 - beta``; the minimum detectable difference of
``n`` topics is the ``delta`` whose power is exactly ``1 - beta``. The numbers agree with
``statsmodels.stats.power.TTestPower`` (which solves for a real-valued ``n``).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from irtables.base.names import ANOVA_DESIGNS
from irtables.errors import InputError
from irtables.stats.paired import check_alternative

#: Largest topic-set size searched; beyond it the answer is reported as not reachable.
MAX_TOPICS = 10_000_000


def _check(alpha: float, power: float, alternative: str) -> None:
    if not 0 < alpha < 1:
        raise InputError(f"alpha must be between 0 and 1, got {alpha}")
    if not 0 < power < 1:
        raise InputError(f"power must be between 0 and 1, got {power}")
    check_alternative(alternative)


def paired_t_power(
    effect: float, n: int, *, alpha: float = 0.05, alternative: str = "two-sided"
) -> float:
    """Power of the paired t-test on ``n`` topics for a standardized effect ``delta/sigma_d``.

    One-sided alternatives test in the direction of the effect (``greater`` for a
    positive one), as statsmodels' ``larger``.

    Examples
    --------
    >>> round(paired_t_power(0.5, 34), 4)
    0.8078
    """
    from scipy.special import stdtrit

    if n < 2:
        return 0.0
    df = n - 1
    nc = math.sqrt(n) * abs(effect)
    if alternative == "two-sided":
        crit = float(stdtrit(df, 1 - alpha / 2))
        # the far tail P(T <= -crit) as P(T' >= crit) with noncentrality -nc; scipy's
        # cdf of the far tail can be NaN when it is negligible
        far = _nct_sf(crit, df, -nc)
        return _nct_sf(crit, df, nc) + (far if math.isfinite(far) else 0.0)
    crit = float(stdtrit(df, 1 - alpha))
    return _nct_sf(crit, df, nc)


def _nct_sf(x: float, df: int, nc: float) -> float:
    """``scipy.stats.nct.sf(x, df, nc)`` for one finite ``x``, ``df >= 1``, finite ``nc``.

    scipy.stats takes the better part of a second to import; its ``nct.sf`` is
    scipy.special's ``_nct_sf`` clipped to [0, 1], called here directly (same floats).
    scipy.stats is the fallback should that ufunc move.
    """
    try:
        from scipy.special._ufuncs import _nct_sf as sf
    except ImportError:  # pragma: no cover - depends on the scipy release
        from scipy.stats import nct

        return float(nct.sf(x, df, nc))
    value = float(sf(x, df, nc))
    return min(max(value, 0.0), 1.0) if math.isfinite(value) else value


def topics_needed(
    sd_diff: float,
    difference: float,
    *,
    alpha: float = 0.05,
    power: float = 0.8,
    alternative: str = "two-sided",
) -> int | None:
    """The fewest topics with which the paired t-test detects ``difference`` at ``alpha``
    with the given power, when the per-topic differences have standard deviation ``sd_diff``.

    None when more than :data:`MAX_TOPICS` would be needed.

    Examples
    --------
    >>> topics_needed(0.2, 0.1)  # a standardized effect of 0.5
    34
    """
    _check(alpha, power, alternative)
    if sd_diff < 0 or difference <= 0:
        raise InputError("the standard deviation must be >= 0 and the difference > 0")
    if sd_diff == 0:
        return 2
    effect = difference / sd_diff
    from scipy.special import ndtri

    z = float(ndtri(1 - alpha / 2 if alternative == "two-sided" else 1 - alpha))
    guess = max(2, int(((z + float(ndtri(power))) / effect) ** 2))
    if guess > MAX_TOPICS:
        return None
    n = guess
    while n > 2 and paired_t_power(effect, n - 1, alpha=alpha, alternative=alternative) >= power:
        n -= 1
    while paired_t_power(effect, n, alpha=alpha, alternative=alternative) < power:
        n += 1
        if n > MAX_TOPICS:
            return None
    return n


def min_detectable_difference(
    sd_diff: float,
    n: int,
    *,
    alpha: float = 0.05,
    power: float = 0.8,
    alternative: str = "two-sided",
) -> float | None:
    """The smallest difference that ``n`` topics detect with the given power (paired t-test).

    None for fewer than two topics.

    Examples
    --------
    >>> round(min_detectable_difference(0.2, 34), 4)
    0.099
    """
    _check(alpha, power, alternative)
    if n < 2:
        return None
    if sd_diff == 0:
        return 0.0

    def gap(effect: float) -> float:
        return paired_t_power(effect, n, alpha=alpha, alternative=alternative) - power

    high = 1.0
    while gap(high) < 0:
        high *= 2
    return _root(gap, 0.0, high) * sd_diff


def anova_power(
    systems: int, n: int, effect: float, *, alpha: float = 0.05, design: str = "two-way"
) -> float:
    """Power of the ANOVA's F test of ``systems`` systems on ``n`` topics when the best
    and worst system means differ by ``effect`` error standard deviations.

    ``F`` follows the noncentral F distribution with ``(k - 1, df_E)`` degrees of freedom
    and noncentrality ``lambda = n effect^2 / 2`` (``effect = minD / sigma``), the least
    favourable configuration for a range ``minD`` (two systems apart, the others halfway),
    as in Sakai's (2016) ANOVA-based design. ``design="one-way"`` is Sakai's design as he
    defines it, ``df_E = k(n - 1)``; ``"two-way"`` takes the topics out of the error, as
    the tests do: ``df_E = (k - 1)(n - 1)``.

    Examples
    --------
    >>> round(anova_power(2, 34, 0.5 * 2**0.5), 4) == round(paired_t_power(0.5, 34), 4)
    True
    """
    from scipy.special import fdtri, ncfdtr  # not scipy.stats: a sixth of a second to import

    if design not in ANOVA_DESIGNS:
        raise InputError(f"unknown ANOVA design {design!r}; one of {', '.join(ANOVA_DESIGNS)}")
    if n < 2 or systems < 2:
        return 0.0
    df1 = systems - 1
    df2 = df1 * (n - 1) if design == "two-way" else systems * (n - 1)
    crit = float(fdtri(df1, df2, 1.0 - alpha))
    return min(1.0, max(0.0, 1.0 - float(ncfdtr(df1, df2, n * effect * effect / 2.0, crit))))


def anova_topics_needed(
    systems: int,
    variance: float,
    difference: float,
    *,
    alpha: float = 0.05,
    power: float = 0.8,
    design: str = "two-way",
) -> int | None:
    """The fewest topics with which the ANOVA of ``systems`` systems detects a range
    ``difference`` of system means at ``alpha`` with the given power, the error variance
    being ``variance`` (the ANOVA-based topic-set size; ``design`` as in
    :func:`anova_power`: the two-way residual variance, or for ``one-way`` the
    within-system variance, as Sakai 2016).

    None when more than :data:`MAX_TOPICS` would be needed.

    Examples
    --------
    >>> anova_topics_needed(2, 0.02, 0.1)  # as the paired t-test with sd_diff 0.2
    34
    """
    _check(alpha, power, "two-sided")
    if systems < 2:
        raise InputError(f"the ANOVA design needs at least two systems, got {systems}")
    if variance < 0 or difference <= 0:
        raise InputError("the variance must be >= 0 and the difference > 0")
    if variance == 0:
        return 2
    effect = difference / math.sqrt(variance)

    def enough(n: int) -> bool:
        return anova_power(systems, n, effect, alpha=alpha, design=design) >= power

    low, high = 1, 2  # enough(high) once found; power grows with n
    while not enough(high):
        low, high = high, high * 2
        if low > MAX_TOPICS:
            return None
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if enough(mid) else (mid, high)
    return high if high <= MAX_TOPICS else None


def _root(f: Callable[[float], float], low: float, high: float, tol: float = 1e-12) -> float:
    """The root of an increasing ``f`` with ``f(low) < 0 <= f(high)``, to ``tol`` (relative,
    and absolute near 0), by regula falsi with the Illinois step, bisecting when it stalls.

    It takes about as many evaluations of the power as Brent's method and spares the
    supplement importing scipy.optimize (a sixth of a second) for it.
    """
    f_low, f_high = f(low), f(high)
    side = 0
    while high - low > tol * max(1.0, abs(high)):
        x = (low * f_high - high * f_low) / (f_high - f_low)
        if not low < x < high:
            x = (low + high) / 2
        f_x = f(x)
        if f_x == 0:
            return x
        if f_x < 0:
            low, f_low = x, f_x
            if side == -1:
                f_high /= 2
            side = -1
        else:
            high, f_high = x, f_x
            if side == 1:
                f_low /= 2
            side = 1
    return (low + high) / 2
