"""The five paired tests. Each takes two aligned arrays (system, baseline) and options.

All tests work on the differences ``d = system - baseline``; ``alternative="greater"``
means the system is better. Degenerate input never yields NaN:

* no queries: :class:`~irtables.errors.InputError`;
* all differences zero: statistic 0.0, p = 1.0, method ``"all differences zero"``;
* one query (t-test, bootstrap): statistic 0.0, p = 1.0, method ``"undefined: n<2"``;
* a constant nonzero difference, exactly or up to floating-point rounding (t-test,
  bootstrap, whose statistic divides by the spread): statistic 0.0, p = 1.0, method
  ``"undefined: constant difference (zero variance)"`` or ``"... (variance is rounding
  error)"``, so that no marker is shown. The sign, Wilcoxon and randomization tests
  are defined on constant differences (they look at signs and ranks) and keep their
  p-values.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from irtables.base.procedures import TESTS as TEST_RECORDS
from irtables.base.procedures import names_of_tests
from irtables.errors import InputError, UnknownNameError, unknown_name_message
from irtables.stats.effect import (
    NOISE,
    cohens_dz,
    is_constant,
    percentile_interval,
    snapped,
    t_interval,
)
from irtables.stats.resampling import (
    EXACT_THRESHOLD,
    Progress,
    bootstrap_moments,
    extreme_counts,
    sign_flip_pvalues,
)
from irtables.stats.result import PairedTestResult

FloatArray = npt.NDArray[np.float64]
Alternative = Literal["two-sided", "greater", "less"]
ALTERNATIVES: tuple[str, ...] = ("two-sided", "greater", "less")
ZERO_METHODS: tuple[str, ...] = ("wilcox", "pratt", "zsplit")
ALL_ZERO = "all differences zero"
UNDEFINED = "undefined: n<2"
CONSTANT = "undefined: constant difference (zero variance)"
ROUNDING = "undefined: constant difference (variance is rounding error)"
#: Wilcoxon uses the exact null distribution with fewer nonzero differences than this
#: (when there are no ties and no zeros), else the normal approximation: R's
#: ``wilcox.test`` rule (``n < 50``), so that a paper's p-value is the one R gives.
WILCOXON_EXACT_BELOW = 50


def _t_sf(t: float, df: int) -> float:
    """Upper tail of Student's t (scipy.special is much lighter to import than scipy.stats)."""
    from scipy.special import stdtr

    return float(stdtr(df, -t))


def _scipy_stats() -> Any:
    """scipy.stats, imported on first use (it takes a second to import)."""
    from scipy import stats

    return stats


def differences(a: npt.ArrayLike, b: npt.ArrayLike) -> FloatArray:
    """Check two aligned samples and return ``a - b`` as float64.

    Examples
    --------
    >>> differences([0.5, 0.25], [0.25, 0.25])
    array([0.25, 0.  ])
    """
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if x.ndim != 1 or x.shape != y.shape:
        raise InputError(f"paired samples must be 1-D and equally long, got {x.shape}, {y.shape}")
    if x.size == 0:
        raise InputError("no paired queries to test (n = 0)")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise InputError("paired samples contain NaN or infinite values")
    return x - y


def check_alternative(alternative: str) -> None:
    """Raise :class:`UnknownNameError` unless ``alternative`` is known."""
    if alternative not in ALTERNATIVES:
        raise UnknownNameError(unknown_name_message("alternative", alternative, ALTERNATIVES))


def _result(
    test: str, a: FloatArray, b: FloatArray, d: FloatArray, alternative: str, **fields: object
) -> PairedTestResult:
    base: dict[str, object] = {
        "test": test,
        "n": int(d.size),
        "mean_diff": float(np.mean(d)),
        "system_mean": float(np.mean(a)),
        "baseline_mean": float(np.mean(b)),
        "alternative": alternative,
        "ci": t_interval(d, alternative=alternative),
        "effect_size": cohens_dz(d),
    }
    base.update(fields)
    return PairedTestResult(**base)  # type: ignore[arg-type]


def _prepare(a: npt.ArrayLike, b: npt.ArrayLike, alternative: str) -> tuple[FloatArray, ...]:
    check_alternative(alternative)
    d = differences(a, b)
    return np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64), d


def t_test(
    a: npt.ArrayLike, b: npt.ArrayLike, *, alternative: Alternative = "two-sided"
) -> PairedTestResult:
    """Paired Student t-test of the mean difference (as ``scipy.stats.ttest_rel``).

    A constant nonzero difference (zero variance, or a variance that is floating-point
    rounding) leaves t undefined: statistic 0.0, p = 1.0 and a method that says so
    (:func:`constant_method`), never an infinite t and a marker.

    Examples
    --------
    >>> r = t_test([0.3, 0.5, 0.4], [0.2, 0.2, 0.2])
    >>> round(r.statistic, 4), round(r.pvalue, 4), r.method
    (3.4641, 0.0742, 'paired t-test')
    """
    x, y, d = _prepare(a, b, alternative)
    n = d.size
    mean = float(np.mean(d))
    if not d.any():
        return _result("t", x, y, d, alternative, method=ALL_ZERO, statistic=0.0, pvalue=1.0)
    if n < 2:
        return _result("t", x, y, d, alternative, method=UNDEFINED, statistic=0.0, pvalue=1.0)
    sd = float(np.std(d, ddof=1))
    if is_constant(d, sd):
        method = constant_method(sd)
        return _result("t", x, y, d, alternative, method=method, statistic=0.0, pvalue=1.0)
    stat = mean / (sd / math.sqrt(n))
    p = _tail(stat, alternative, lambda t: _t_sf(t, n - 1))
    return _result("t", x, y, d, alternative, method="paired t-test", statistic=stat, pvalue=p)


def constant_method(sd: float) -> str:
    """The method of a test left undefined by constant differences.

    Examples
    --------
    >>> constant_method(0.0)
    'undefined: constant difference (zero variance)'
    >>> constant_method(1e-17)
    'undefined: constant difference (variance is rounding error)'
    """
    return CONSTANT if sd == 0 else ROUNDING


def _tail(stat: float, alternative: str, sf: Callable[[float], float]) -> float:
    """p-value from an upper-tail function of a symmetric null distribution."""
    if alternative == "greater":
        return 1.0 - sf(-stat) if stat < 0 else sf(stat)
    if alternative == "less":
        return _tail(-stat, "greater", sf)
    return min(1.0, 2.0 * sf(abs(stat)))


def _wilcoxon_method(d: FloatArray, method: str) -> str:
    if method not in ("auto", "exact", "approx"):
        raise UnknownNameError(unknown_name_message("method", method, ("auto", "exact", "approx")))
    nonzero = d[d != 0]
    ties = np.unique(np.abs(nonzero)).size < nonzero.size
    zeros = nonzero.size < d.size
    if method == "auto":
        small = nonzero.size < WILCOXON_EXACT_BELOW
        method = "exact" if small and not ties and not zeros else "approx"
    return method


def wilcoxon(
    a: npt.ArrayLike,
    b: npt.ArrayLike,
    *,
    alternative: Alternative = "two-sided",
    zero_method: Literal["wilcox", "pratt", "zsplit"] = "wilcox",
    correction: bool = True,
    method: Literal["auto", "exact", "approx"] = "auto",
) -> PairedTestResult:
    """Wilcoxon signed-rank test, with the method chosen here and passed to scipy.

    ``method="auto"`` takes the exact distribution when there are fewer than
    :data:`WILCOXON_EXACT_BELOW` (50, as R) differences, no ties and no zeros, else the normal
    approximation (with continuity correction unless ``correction=False``). The
    differences are ranked as :func:`~irtables.stats.effect.snapped` gives them: equal up
    to floating-point rounding is a tie, rounding error a zero. Zero
    differences follow ``zero_method``: ``wilcox`` drops them, ``pratt`` ranks then
    drops them, ``zsplit`` splits their ranks between the signs. The statistic is
    scipy's (min(W+, W-) two-sided, W+ one-sided).

    Examples
    --------
    >>> r = wilcoxon([0.3, 0.5, 0.4, 0.9], [0.2, 0.2, 0.2, 0.2])
    >>> r.statistic, r.pvalue, r.method
    (0.0, 0.125, 'exact')
    """
    x, y, d = _prepare(a, b, alternative)
    if zero_method not in ZERO_METHODS:
        raise UnknownNameError(unknown_name_message("zero_method", zero_method, ZERO_METHODS))
    ranked = snapped(d)  # differences equal up to rounding tie; rounding error is zero
    if not ranked.any():
        return _result("wilcoxon", x, y, d, alternative, method=ALL_ZERO, statistic=0.0, pvalue=1.0)
    chosen = _wilcoxon_method(ranked, method)
    res = _scipy_stats().wilcoxon(
        ranked,
        zero_method=zero_method,
        correction=correction,
        alternative=alternative,
        method=chosen,
    )
    label = "exact" if chosen == "exact" else "normal approximation"
    if chosen == "approx":
        label += ", continuity correction" if correction else ", no continuity correction"
    if chosen == "approx" or (ranked == 0).any():
        label += f", zero_method={zero_method}"
    stat, p = float(res.statistic), float(res.pvalue)
    return _result("wilcoxon", x, y, d, alternative, method=label, statistic=stat, pvalue=p)


def sign_test(
    a: npt.ArrayLike, b: npt.ArrayLike, *, alternative: Alternative = "two-sided"
) -> PairedTestResult:
    """Sign test: exact binomial test of wins against losses, ties dropped.

    The statistic is the number of wins (queries where the system is better).

    Examples
    --------
    >>> r = sign_test([0.3, 0.5, 0.4, 0.2], [0.2, 0.2, 0.2, 0.2])
    >>> r.statistic, r.pvalue, r.method
    (3.0, 0.25, 'exact binomial, 1 ties dropped')
    """
    x, y, d = _prepare(a, b, alternative)
    wins, losses = int((d > 0).sum()), int((d < 0).sum())
    if wins + losses == 0:
        return _result("sign", x, y, d, alternative, method=ALL_ZERO, statistic=0.0, pvalue=1.0)
    p = float(_scipy_stats().binomtest(wins, wins + losses, 0.5, alternative=alternative).pvalue)
    method = f"exact binomial, {d.size - wins - losses} ties dropped"
    return _result("sign", x, y, d, alternative, method=method, statistic=float(wins), pvalue=p)


def as_generator(rng: np.random.Generator | int) -> tuple[np.random.Generator, str]:
    """The generator to draw from, and how a method string names it (its seed)."""
    if isinstance(rng, np.random.Generator):
        return rng, "caller's generator"
    return np.random.default_rng(rng), f"seed {rng}"


def randomization_many(
    a: FloatArray,
    b: FloatArray,
    *,
    alternative: Alternative = "two-sided",
    n_resamples: int = 10_000,
    rng: np.random.Generator | int = 0,
    exact_threshold: int = EXACT_THRESHOLD,
    progress: Progress | None = None,
) -> list[PairedTestResult]:
    """Sign-flip randomization tests for the columns of two (queries x k) matrices.

    All columns share the same sign patterns (one matrix product), see
    :func:`~irtables.stats.resampling.sign_flip_pvalues`.
    """
    check_alternative(alternative)
    if n_resamples < 1:
        raise InputError(f"n_resamples must be positive, got {n_resamples}")
    gen, seed = as_generator(rng)
    d = a - b
    pvals, exact = sign_flip_pvalues(
        d,
        alternative=alternative,
        n_resamples=n_resamples,
        rng=gen,
        exact_threshold=exact_threshold,
        progress=progress,
    )
    if exact:
        method = f"randomization, exact ({1 << d.shape[0]} sign patterns)"
    else:
        method = f"randomization ({n_resamples} sign flips, {seed})"
    out = []
    for j in range(d.shape[1]):
        col = d[:, j]
        label = method if col.any() else ALL_ZERO
        p = float(pvals[j]) if col.any() else 1.0
        stat = float(np.mean(col))
        out.append(
            _result(
                "randomization",
                a[:, j],
                b[:, j],
                col,
                alternative,
                method=label,
                statistic=stat,
                pvalue=p,
            )
        )
    return out


def randomization(
    a: npt.ArrayLike,
    b: npt.ArrayLike,
    *,
    alternative: Alternative = "two-sided",
    n_resamples: int = 10_000,
    rng: np.random.Generator | int = 0,
    exact_threshold: int = EXACT_THRESHOLD,
) -> PairedTestResult:
    """Randomization (sign-flip permutation) test of the mean difference.

    Enumerates all ``2**n`` sign patterns when ``n <= exact_threshold`` (default 20),
    else draws ``n_resamples`` patterns from ``rng``; then ``p = (b + 1) / (B + 1)``,
    never 0. The statistic is the mean difference; a pattern counts as extreme when
    ``|mean*| >= |mean|`` up to a relative tolerance of 1e-10 of ``mean(|d|)``.

    Examples
    --------
    >>> r = randomization([0.3, 0.5, 0.4], [0.2, 0.2, 0.2])
    >>> r.pvalue, r.method
    (0.25, 'randomization, exact (8 sign patterns)')
    """
    x, y, _ = _prepare(a, b, alternative)
    return randomization_many(
        x[:, None],
        y[:, None],
        alternative=alternative,
        n_resamples=n_resamples,
        rng=rng,
        exact_threshold=exact_threshold,
    )[0]


def studentized(
    means: FloatArray, sds: FloatArray, centre: FloatArray, magnitude: FloatArray
) -> FloatArray:
    """``(mean* - centre) / (sd* / sqrt(n))`` of bootstrap replicates, ``n`` implied by
    the caller (pass ``sds`` already divided by ``sqrt(n)``).

    A replicate whose standard error is rounding error (:func:`~irtables.stats.effect.
    is_noise` for the scores' ``magnitude``: every query drawn has the same difference)
    has t* = 0 when its mean equals ``centre`` and ±inf otherwise, never NaN.

    Examples
    --------
    >>> import numpy as np
    >>> studentized(np.array([[0.75], [0.5], [0.25]]), np.array([[0.25], [0.0], [0.0]]),
    ...             np.array([0.5]), np.array([1.0]))
    array([[  1.],
           [  0.],
           [-inf]])
    """
    diff = means - centre
    floor = NOISE * np.maximum(1.0, magnitude)  # as is_noise
    noise = sds <= floor
    safe = np.where(noise, 1.0, sds)
    edge = np.where(np.abs(diff) <= floor, 0.0, np.copysign(np.inf, diff))
    return np.where(noise, edge, diff / safe)


def bootstrap_many(
    a: FloatArray,
    b: FloatArray,
    *,
    alternative: Alternative = "two-sided",
    n_resamples: int = 10_000,
    rng: np.random.Generator | int = 0,
    level: float = 0.95,
    progress: Progress | None = None,
) -> list[PairedTestResult]:
    """Studentized paired bootstrap tests for the columns of two (queries x k) matrices.

    See :func:`bootstrap`; all columns share the same resampled queries.
    """
    check_alternative(alternative)
    if n_resamples < 1:
        raise InputError(f"n_resamples must be positive, got {n_resamples}")
    gen, seed = as_generator(rng)
    d = a - b
    n = d.shape[0]
    means, sds = bootstrap_moments(d, n_resamples=n_resamples, rng=gen, progress=progress)
    observed = d.mean(axis=0)
    magnitude = np.abs(d).max(axis=0)
    root = math.sqrt(n)
    sd = d.std(axis=0, ddof=1) if n > 1 else np.zeros(d.shape[1])
    t_obs = studentized(observed[None, :], sd[None, :] / root, np.zeros_like(observed), magnitude)
    t_star = studentized(means, sds / root, observed, magnitude)
    scale = np.where(np.isfinite(t_obs[0]), np.abs(t_obs[0]), 0.0)
    counts = extreme_counts(t_star, t_obs[0], scale, alternative)
    method = f"studentized paired bootstrap ({n_resamples} resamples, {seed})"
    out = []
    for j in range(d.shape[1]):
        col = d[:, j]
        p, label = (counts[j] + 1) / (n_resamples + 1), method
        if not col.any():
            p, label = 1.0, ALL_ZERO
        elif col.size < 2:
            p, label = 1.0, UNDEFINED
        elif is_constant(col):
            p, label = 1.0, constant_method(float(np.std(col, ddof=1)))
        ci = percentile_interval(means[:, j], level, alternative)
        out.append(
            _result(
                "bootstrap",
                a[:, j],
                b[:, j],
                col,
                alternative,
                method=label,
                statistic=float(t_obs[0, j]),
                pvalue=float(p),
                ci_bootstrap=ci,
            )
        )
    return out


def bootstrap(
    a: npt.ArrayLike,
    b: npt.ArrayLike,
    *,
    alternative: Alternative = "two-sided",
    n_resamples: int = 10_000,
    rng: np.random.Generator | int = 0,
    level: float = 0.95,
) -> PairedTestResult:
    """Studentized paired bootstrap test of the mean difference (Sakai 2006), with a
    percentile interval.

    Queries are resampled with replacement (pairs kept together). The statistic is the
    paired t, ``t = mean(d) / (sd(d) / sqrt(n))``; each replicate gives
    ``t* = (mean(d*) - mean(d)) / (sd(d*) / sqrt(n))``, the bootstrap estimate of t's
    null distribution, and ``p = (b + 1) / (B + 1)`` where ``b`` counts replicates with
    ``|t*| >= |t|`` (``t* >= t`` for ``greater``, ``t* <= t`` for ``less``). Dividing by
    each replicate's own standard error keeps the level: the shift method on the plain
    mean rejected 9% of true null hypotheses at alpha = 0.05 with 10 topics.
    ``ci_bootstrap`` is the percentile interval of the mean difference.

    Examples
    --------
    >>> r = bootstrap([0.3, 0.5, 0.4, 0.6], [0.2, 0.2, 0.2, 0.2], n_resamples=999)
    >>> r.test, r.ci_bootstrap.method, 0 < r.pvalue <= 1
    ('bootstrap', 'bootstrap percentile', True)
    """
    x, y, _ = _prepare(a, b, alternative)
    return bootstrap_many(
        x[:, None],
        y[:, None],
        alternative=alternative,
        n_resamples=n_resamples,
        rng=rng,
        level=level,
    )[0]


PairedTest = Callable[..., PairedTestResult]

#: The built-in paired tests by name, from their records
#: (:data:`irtables.base.procedures.TESTS`, the registry :func:`get_test` reads).
TESTS: dict[str, PairedTest] = {
    r.id: globals()[r.function.split(":")[1]]
    for r in TEST_RECORDS.values()
    if r.kind == "paired" and r.function.startswith(f"{__name__}:")
}


def get_test(name: str) -> PairedTest:
    """The paired test ``name`` of the registry; an unknown name suggests the closest."""
    paired = names_of_tests("paired")
    if name not in paired:
        raise UnknownNameError(unknown_name_message("test", name, paired))
    func: PairedTest = TEST_RECORDS[name].load()
    return func
