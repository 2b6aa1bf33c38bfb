"""Randomised Tukey HSD (Carterette 2012): a permutation test of all pairs at once.

Under the null hypothesis that the systems do not differ, the scores of one topic are
exchangeable between systems. Each trial permutes the systems' scores within every
topic, independently, and records the largest difference between two system means
(the range). A pair's p-value is the share of trials whose range is at least the
pair's observed difference, so one distribution serves every pair and the family-wise
error is controlled (Carterette 2012; Sakai 2018, ch. 4). With ``B`` random trials
``p = (b + 1)/(B + 1)``; when all ``(k!)^n`` arrangements are few, they are enumerated
and ``p = b / (k!)^n`` exactly.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence

import numpy as np
import numpy.typing as npt

from irtables.errors import InputError
from irtables.stats.allpairs import (
    AllPairsResult,
    PairDifference,
    check_matrix,
    default_names,
    pair_indices,
)
from irtables.stats.anova import two_way_anova
from irtables.stats.paired import as_generator
from irtables.stats.resampling import EXACT_THRESHOLD, TOLERANCE
from irtables.stats.result import ConfidenceInterval
from irtables.stats.tukey import undefined_result

FloatArray = npt.NDArray[np.float64]
Progress = Callable[[int, int], None]
#: Enumerate every arrangement when there are at most this many (as many as the
#: sign-flip randomization test enumerates: 2**EXACT_THRESHOLD, 2**20).
EXACT_LIMIT = 1 << EXACT_THRESHOLD
_CHUNK_ROWS = 1 << 13  # (trial, topic) rows permuted per numpy pass, up to 4,096 topics
_PASS_ROWS = 1 << 16  # beyond: rows per pass (the draws stay one trial at a time)


def randomized_tukey_hsd(
    values: npt.ArrayLike,
    systems: Sequence[str] | None = None,
    *,
    n_resamples: int = 10_000,
    rng: np.random.Generator | int = 0,
    level: float = 0.95,
    exact_limit: int = EXACT_LIMIT,
    progress: Progress | None = None,
) -> AllPairsResult:
    """Randomised Tukey HSD of every pair of columns of a (topics x systems) matrix.

    ``pvalue`` of a pair: trials whose range of system means is at least the pair's
    absolute difference (family-wise); ``pvalue_raw``: trials whose difference for that
    same pair is at least as large (the pair alone). A trial counts as "at least" when
    it is within ``1e-10`` (relative) below, so equal values are not lost to rounding.
    The interval is ``diff ± the level-quantile of the range``. ``effect_size`` is
    Sakai's ``ES_E = diff / sqrt(V_E)`` from the two-way ANOVA.

    Examples
    --------
    >>> r = randomized_tukey_hsd([[0.2, 0.4], [0.3, 0.6], [0.1, 0.3]], ["bm25", "dense"])
    >>> r.method, r.pair("dense", "bm25").pvalue
    ('randomized Tukey HSD, exact (8 arrangements)', 0.25)
    """
    x = check_matrix(values, tuple(systems) if systems is not None else None)
    if n_resamples < 1:
        raise InputError(f"n_resamples must be positive, got {n_resamples}")
    n, k = x.shape
    names = tuple(systems) if systems is not None else default_names(k)
    if n < 2:  # no residual variance to judge by, as Tukey HSD: p = 1, no marker
        return undefined_result("randomized-tukey", names, x.mean(axis=0), n)
    total = _arrangements(k, n, exact_limit)
    if total is not None:
        ranges, pair_diffs = _exact_sums(x, total, progress)
        method = f"randomized Tukey HSD, exact ({total} arrangements)"
    else:
        gen, seed = as_generator(rng)
        ranges, pair_diffs = _random_sums(x, n_resamples, gen, progress)
        method = f"randomized Tukey HSD ({n_resamples} permutations within topics, {seed})"
    return _result(x, names, ranges, pair_diffs, total, method, level)


def _arrangements(k: int, n: int, limit: int) -> int | None:
    """``(k!)^n`` when it is at most ``limit``, else None."""
    per_topic = math.factorial(k)
    if n * math.log2(per_topic) > math.log2(max(limit, 1)) + 1e-9:
        return None
    total = per_topic**n
    return total if total <= limit else None


def _result(
    x: FloatArray,
    names: tuple[str, ...],
    ranges: FloatArray,
    pair_diffs: FloatArray,
    total: int | None,
    method: str,
    level: float,
) -> AllPairsResult:
    n, k = x.shape
    sums = x.sum(axis=0)
    idx = pair_indices(k)
    observed = np.array([sums[j] - sums[i] for j, i in idx])
    tol = TOLERANCE * float(np.abs(x).sum()) / k
    adjusted = (ranges[:, None] >= np.abs(observed)[None, :] - tol).sum(axis=0)
    raw = (pair_diffs >= np.abs(observed)[None, :] - tol).sum(axis=0)
    trials = ranges.size
    if total is not None:
        p_adj, p_raw = adjusted / trials, raw / trials
    else:
        p_adj, p_raw = (adjusted + 1) / (trials + 1), (raw + 1) / (trials + 1)
    anova = two_way_anova(x)
    ve = anova.residual_variance
    half = float(np.quantile(ranges, level)) / n
    pairs = []
    for p, ((j, i), d) in enumerate(zip(idx, observed / n, strict=True)):
        diff = float(d)
        pairs.append(
            PairDifference(
                system=names[j],
                baseline=names[i],
                mean_diff=diff,
                statistic=diff,
                pvalue=float(p_adj[p]),
                pvalue_raw=float(p_raw[p]),
                ci=ConfidenceInterval(diff - half, diff + half, level, "randomized Tukey HSD"),
                effect_size=None if anova.no_variance else diff / math.sqrt(ve),
            )
        )
    return AllPairsResult(
        test="randomized-tukey",
        method=method,
        systems=names,
        means=tuple(float(m) for m in sums / n),
        n=n,
        residual_variance=ve,
        residual_df=anova.residual.df,
        pairs=tuple(pairs),
    )


def _summarise(sums: FloatArray, idx: list[tuple[int, int]]) -> tuple[FloatArray, FloatArray]:
    """Range of each trial's column sums, and each pair's absolute difference."""
    ranges = sums.max(axis=1) - sums.min(axis=1)
    j, i = np.array([p[0] for p in idx]), np.array([p[1] for p in idx])
    return ranges, np.abs(sums[:, j] - sums[:, i])


def _random_sums(
    x: FloatArray, trials: int, rng: np.random.Generator, progress: Progress | None
) -> tuple[FloatArray, FloatArray]:
    """Column sums of ``trials`` independent within-row shuffles (Fisher-Yates in numpy)."""
    n, k = x.shape
    idx = pair_indices(k)
    ranges = np.empty(trials)
    diffs = np.empty((trials, len(idx)))
    for start, count in _trial_chunks(trials, n):
        sums = _shuffled_sums(x, _draws(k, n, count, rng), count)
        ranges[start : start + count], diffs[start : start + count] = _summarise(sums, idx)
        if progress is not None:
            progress(start + count, trials)
    return ranges, diffs


def _trial_chunks(trials: int, n: int) -> Iterator[tuple[int, int]]:
    """(first trial, trials) of each numpy pass: about :data:`_PASS_ROWS` rows each."""
    per = max(1, _CHUNK_ROWS // n) if n <= _CHUNK_ROWS // 2 else max(1, _PASS_ROWS // n)
    for start in range(0, trials, per):
        yield start, min(per, trials - start)


def _draws(k: int, n: int, trials: int, rng: np.random.Generator) -> list[npt.NDArray[np.uint8]]:
    """The Fisher-Yates draws of ``trials`` trials: for ``i = k-1 .. 1`` (list position
    ``k-1-i``), ``trials * n`` values uniform in ``0..i``, trial by trial.

    Drawn in the order of the random stream the test has always used, so that a seed
    gives the same p-values: up to ``_CHUNK_ROWS // 2`` topics, one call per ``i`` for
    every row of the pass (``_CHUNK_ROWS // n`` trials); beyond, one trial at a time
    (``i`` by ``i``), however many trials a pass then shuffles at once.
    """
    if n <= _CHUNK_ROWS // 2:
        return [
            rng.integers(0, i + 1, size=trials * n, dtype=np.uint8) for i in range(k - 1, 0, -1)
        ]
    out = [np.empty(trials * n, dtype=np.uint8) for _ in range(k - 1)]
    for t in range(trials):
        for i in range(k - 1, 0, -1):
            out[k - 1 - i][t * n : (t + 1) * n] = rng.integers(0, i + 1, size=n, dtype=np.uint8)
    return out


def _shuffled_sums(x: FloatArray, draws: list[npt.NDArray[np.uint8]], trials: int) -> FloatArray:
    """``trials`` rows of column sums, each row of ``x`` shuffled independently per trial.

    Fisher-Yates on all (trial, topic) rows at once: for position ``i = k-1 .. 1`` take
    the draw ``r`` in ``0..i`` and swap positions ``i`` and ``r``; position ``i`` is then
    final, so only its column sum is kept. The rows are held position by position
    (``k`` contiguous columns of ``trials * n``), so that each step reads and writes
    whole columns.
    """
    n, k = x.shape
    rows = trials * n
    columns = np.tile(x.T, (1, trials))  # (k, rows): column j holds position j of every row
    flat = columns.reshape(-1)
    offset = np.arange(rows, dtype=np.intp)
    where = np.empty(rows, dtype=np.intp)
    sums = np.empty((trials, k))
    for i in range(k - 1, 0, -1):
        np.multiply(draws[k - 1 - i], rows, out=where, dtype=np.intp)
        where += offset
        chosen = flat.take(where)
        if i > 1:  # after the last draw, position 0 holds what is left: no need to move it
            flat[where] = columns[i]
        sums[:, i] = chosen.reshape(trials, n).sum(axis=1)
    # position 0: every row sums to the same total whatever the permutation
    sums[:, 0] = x.sum() - sums[:, 1:].sum(axis=1)
    return sums


def _exact_sums(
    x: FloatArray, total: int, progress: Progress | None
) -> tuple[FloatArray, FloatArray]:
    """Column sums of every combination of one arrangement per topic (``(k!)^n`` of them)."""
    n, k = x.shape
    perms = np.array(list(itertools.permutations(range(k))), dtype=np.intp)
    per = perms.shape[0]
    arranged = x[:, perms]  # (n, k!, k): every arrangement of every topic
    idx = pair_indices(k)
    ranges = np.empty(total)
    diffs = np.empty((total, len(idx)))
    step = max(1, _CHUNK_ROWS * 8 // max(n, 1))
    for start in range(0, total, step):
        codes = np.arange(start, min(start + step, total), dtype=np.int64)
        sums = np.zeros((codes.size, k))
        for t in range(n):
            codes, digit = np.divmod(codes, per)
            sums += arranged[t][digit]
        stop = start + sums.shape[0]
        ranges[start:stop], diffs[start:stop] = _summarise(sums, idx)
        if progress is not None:
            progress(stop, total)
    return ranges, diffs
