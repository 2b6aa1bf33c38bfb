"""Vectorised resampling engines: sign-flip randomization and the paired bootstrap.

Both work on a matrix of differences ``D`` with one column per comparison (queries x
comparisons). Every column sees the same random draws, so one matrix product serves
all the systems compared on one query set; each column's p-value is still a valid
test of its own pair.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
Progress = Callable[[int, int], None]

#: Up to this many queries the randomization test enumerates all 2**n sign patterns.
EXACT_THRESHOLD = 20
#: Relative tolerance when comparing a resampled statistic with the observed one:
#: ``|S*| >= |S| - TOLERANCE * sum(|d|)`` counts as "at least as extreme", so that
#: patterns equal in exact arithmetic (ties, zero differences) are not lost to rounding.
TOLERANCE = 1e-10
_CHUNK_ELEMENTS = 1 << 22  # about 32 MB of float64 per chunk


def extreme_counts(
    sims: FloatArray, observed: FloatArray, scale: FloatArray, alternative: str
) -> npt.NDArray[np.int64]:
    """Count, per column, the simulated statistics at least as extreme as observed.

    Examples
    --------
    >>> import numpy as np
    >>> sims = np.array([[1.0], [-2.0], [0.5]])
    >>> extreme_counts(sims, np.array([1.0]), np.array([1.0]), "two-sided")
    array([2])
    """
    tol = TOLERANCE * scale
    if alternative == "two-sided":
        hit = np.abs(sims) >= np.abs(observed) - tol
    elif alternative == "greater":
        hit = sims >= observed - tol
    else:
        hit = sims <= observed + tol
    return np.asarray(hit.sum(axis=0), dtype=np.int64)


def _chunks(total: int, width: int) -> Iterator[tuple[int, int]]:
    rows = max(1, _CHUNK_ELEMENTS // max(width, 1))
    for start in range(0, total, rows):
        yield start, min(rows, total - start)


def _all_patterns(n: int, start: int, count: int) -> FloatArray:
    codes = np.arange(start, start + count, dtype=np.int64)[:, None]
    return ((codes >> np.arange(n, dtype=np.int64)) & 1).astype(np.float64)


def _random_bits(rng: np.random.Generator, rows: int, n: int) -> FloatArray:
    width = (n + 7) // 8
    raw = np.frombuffer(rng.bytes(rows * width), dtype=np.uint8).reshape(rows, width)
    return np.unpackbits(raw, axis=1, count=n).astype(np.float64)


def sign_flip_pvalues(
    d: FloatArray,
    *,
    alternative: str,
    n_resamples: int,
    rng: np.random.Generator,
    exact_threshold: int = EXACT_THRESHOLD,
    progress: Progress | None = None,
) -> tuple[FloatArray, bool]:
    """P-values of the sign-flip randomization test of the mean, one per column of ``d``.

    With ``n <= exact_threshold`` rows all ``2**n`` sign patterns are enumerated and
    ``p = count / 2**n`` (the observed pattern is among them); otherwise ``n_resamples``
    random patterns are drawn and ``p = (count + 1) / (n_resamples + 1)``. A pattern is
    drawn as bits ``b``: the flipped sum is ``2 b.d - sum(d)``, one matrix product per chunk.
    Returns the p-values and whether enumeration was exact.

    Examples
    --------
    >>> import numpy as np
    >>> d = np.array([[0.1], [0.2], [0.3]])
    >>> p, exact = sign_flip_pvalues(d, alternative="two-sided", n_resamples=100,
    ...                              rng=np.random.default_rng(0))
    >>> p, exact
    (array([0.25]), True)
    """
    n, k = d.shape
    total_sum = d.sum(axis=0)
    scale = np.abs(d).sum(axis=0)
    exact = n <= exact_threshold
    draws = 1 << n if exact else n_resamples
    counts = np.zeros(k, dtype=np.int64)
    for start, rows in _chunks(draws, n):
        bits = _all_patterns(n, start, rows) if exact else _random_bits(rng, rows, n)
        sims = 2.0 * (bits @ d) - total_sum
        counts += extreme_counts(sims, total_sum, scale, alternative)
        if progress is not None:
            progress(start + rows, draws)
    if exact:
        return counts / float(draws), True
    return (counts + 1) / float(draws + 1), False


def _weighted_sums(weights: FloatArray, columns: FloatArray) -> FloatArray:
    """``weights @ columns``, each sum added in numpy's pairwise order.

    A BLAS product adds in an order chosen by the kernel the processor selects, so its
    last bits differ between machines; the bootstrap's intervals are written at full
    precision, so they are summed here in an order that is the same everywhere.
    """
    out = np.empty((weights.shape[0], columns.shape[1]), dtype=np.float64)
    scaled = np.empty_like(weights)
    for j in range(columns.shape[1]):
        np.multiply(weights, columns[:, j], out=scaled)
        out[:, j] = scaled.sum(axis=1)
    return out


def _bootstrap_weights(rng: np.random.Generator, rows: int, n: int) -> FloatArray:
    idx = rng.integers(0, n, size=(rows, n))
    idx += (np.arange(rows) * n)[:, None]
    counts = np.bincount(idx.ravel(), minlength=rows * n).reshape(rows, n)
    return counts.astype(np.float64)


def bootstrap_means(
    d: FloatArray,
    *,
    n_resamples: int,
    rng: np.random.Generator,
    progress: Progress | None = None,
) -> FloatArray:
    """Bootstrap replicates of the mean of each column (resampling whole rows, paired).

    Returns an array of shape ``(n_resamples, k)``.

    Examples
    --------
    >>> import numpy as np
    >>> means = bootstrap_means(np.array([[1.0], [1.0]]), n_resamples=5,
    ...                         rng=np.random.default_rng(0))
    >>> means.shape, bool((means == 1.0).all())
    ((5, 1), True)
    """
    n, k = d.shape
    out = np.empty((n_resamples, k), dtype=np.float64)
    for start, rows in _chunks(n_resamples, n):
        out[start : start + rows] = _weighted_sums(_bootstrap_weights(rng, rows, n), d) / n
        if progress is not None:
            progress(start + rows, n_resamples)
    return out


def bootstrap_moments(
    d: FloatArray,
    *,
    n_resamples: int,
    rng: np.random.Generator,
    progress: Progress | None = None,
) -> tuple[FloatArray, FloatArray]:
    """Bootstrap replicates of the mean and standard deviation (ddof=1) of each column.

    The same draws as :func:`bootstrap_means` (same generator state, same means); each
    replicate's variance is computed about its own mean. Two arrays of shape
    ``(n_resamples, k)``.

    Examples
    --------
    >>> import numpy as np
    >>> means, sds = bootstrap_moments(np.array([[1.0], [1.0]]), n_resamples=3,
    ...                                rng=np.random.default_rng(0))
    >>> bool((means == 1.0).all()), bool((sds == 0.0).all())
    (True, True)
    """
    n, k = d.shape
    means = np.empty((n_resamples, k), dtype=np.float64)
    sds = np.empty((n_resamples, k), dtype=np.float64)
    centred = d - d.mean(axis=0)  # the spread about the sample mean: less cancellation
    squares = centred**2
    for start, rows in _chunks(n_resamples, n):
        w = _bootstrap_weights(rng, rows, n)
        shift = _weighted_sums(w, centred) / n
        means[start : start + rows] = _weighted_sums(w, d) / n
        var = (_weighted_sums(w, squares) / n - shift**2) * (n / (n - 1) if n > 1 else 0.0)
        sds[start : start + rows] = np.sqrt(np.maximum(var, 0.0))
        if progress is not None:
            progress(start + rows, n_resamples)
    return means, sds
