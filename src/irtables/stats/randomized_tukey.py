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
    undefined_result,
)
from irtables.stats.anova import two_way_anova
from irtables.stats.paired import as_generator
from irtables.stats.permutations import TABLE_SYSTEMS, draw_codes, position_table, swap_digits
from irtables.stats.resampling import EXACT_THRESHOLD, TOLERANCE
from irtables.stats.result import ConfidenceInterval

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
Progress = Callable[[int, int], None]
#: Enumerate every arrangement when there are at most this many (as many as the
#: sign-flip randomization test enumerates: 2**EXACT_THRESHOLD, 2**20).
EXACT_LIMIT = 1 << EXACT_THRESHOLD
_CHUNK_ROWS = 1 << 13  # exact enumeration: about 8 * _CHUNK_ROWS // n arrangements per pass
_PASS_CELLS = 1 << 21  # random trials: (trial, topic, system) cells per numpy pass


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
    Sakai's ``ES_E = diff / sqrt(V_E)`` from the two-way ANOVA. The permutations are
    drawn as :mod:`irtables.stats.permutations` describes.

    Examples
    --------
    >>> r = randomized_tukey_hsd([[0.2, 0.4], [0.3, 0.6], [0.1, 0.3]], ["bm25", "dense"])
    >>> r.method, r.pair("dense", "bm25").pvalue
    ('randomized Tukey HSD, exact (8 arrangements)', 0.25)
    """
    found = randomized_tukey_many(
        [values],
        systems,
        n_resamples=n_resamples,
        rng=rng,
        level=level,
        exact_limit=exact_limit,
        progress=progress,
    )
    return found[0]


def randomized_tukey_many(
    matrices: Sequence[npt.ArrayLike],
    systems: Sequence[str] | None = None,
    *,
    n_resamples: int = 10_000,
    rng: np.random.Generator | int = 0,
    level: float = 0.95,
    exact_limit: int = EXACT_LIMIT,
    progress: Progress | None = None,
) -> list[AllPairsResult]:
    """:func:`randomized_tukey_hsd` of several matrices of one shape (the metrics of one
    query set) with the same permutations, drawn and looked up once for all of them.

    The draws depend only on the seed and the shape, so with an int ``rng`` each result
    is the one :func:`randomized_tukey_hsd` gives that matrix alone with that seed. A
    generator is drawn from once, for all the matrices.
    """
    names = tuple(systems) if systems is not None else None
    xs = [check_matrix(v, names) for v in matrices]
    if n_resamples < 1:
        raise InputError(f"n_resamples must be positive, got {n_resamples}")
    if not xs:
        return []
    if len({x.shape for x in xs}) > 1:
        raise InputError(f"matrices of different shapes: {sorted({x.shape for x in xs})}")
    n, k = xs[0].shape
    names = names if names is not None else default_names(k)
    if n < 2:  # no residual variance to judge by, as Tukey HSD: p = 1, no marker
        return [undefined_result("randomized-tukey", names, x.mean(axis=0), n) for x in xs]
    total = _arrangements(k, n, exact_limit)
    if total is not None:
        method = f"randomized Tukey HSD, exact ({total} arrangements)"
        sums = [_exact_sums(x, total, progress) for x in xs]
    else:
        gen, seed = as_generator(rng)
        method = f"randomized Tukey HSD ({n_resamples} permutations within topics, {seed})"
        sums = _random_sums(np.stack(xs), n_resamples, gen, progress)
    return [
        _result(x, names, ranges, diffs, total, method, level)
        for x, (ranges, diffs) in zip(xs, sums, strict=True)
    ]


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
    xs: FloatArray, trials: int, rng: np.random.Generator, progress: Progress | None
) -> list[tuple[FloatArray, FloatArray]]:
    """Per matrix of ``xs`` (matrices x topics x systems): the range and the pairs'
    differences of the column sums of ``trials`` independent within-row permutations,
    the same for every matrix (one code per (trial, topic) row)."""
    m, n, k = xs.shape
    idx = pair_indices(k)
    ranges = np.empty((m, trials))
    diffs = np.empty((m, trials, len(idx)))
    cells = np.ascontiguousarray(xs.reshape(m, n * k).T)
    for start, count in _trial_chunks(trials, n, k):
        codes = draw_codes(rng, count * n, k)
        if k <= TABLE_SYSTEMS:
            sums = _table_sums(xs, cells, codes[:, 0], count)
        else:
            digits = swap_digits(codes, k)
            sums = np.stack([_shuffled_sums(x, digits, count) for x in xs])
        for i in range(m):
            ranges[i, start : start + count], diffs[i, start : start + count] = _summarise(
                sums[i], idx
            )
        if progress is not None:
            progress(start + count, trials)
    return [(ranges[i], diffs[i]) for i in range(m)]


def _trial_chunks(trials: int, n: int, k: int) -> Iterator[tuple[int, int]]:
    """(first trial, trials) of each numpy pass: about :data:`_PASS_CELLS` cells each.
    The codes are drawn in trial order whatever the pass, so its size changes nothing."""
    per = max(1, _PASS_CELLS // (n * k))
    for start in range(0, trials, per):
        yield start, min(per, trials - start)


def _table_sums(xs: FloatArray, cells: FloatArray, codes: IntArray, trials: int) -> FloatArray:
    """``(matrices, trials, k)`` column sums: each topic's values added, in topic order,
    at the positions the table gives for its code. One ``bincount`` per trial for one
    matrix; for several, one sparse product per trial with ``cells`` (the matrices side
    by side, a row per (topic, system) cell): the positions read once for all of them,
    the same additions in the same order."""
    m, n, k = xs.shape
    table = position_table(k)
    rows = table.view(np.complex128).reshape(-1).take(codes).view(np.uint8)
    rows = rows.reshape(trials, n, table.shape[1])
    sums = np.empty((m, trials, k))
    if m == 1:
        positions = np.empty((n, k), dtype=np.intp)
        values = xs.reshape(n * k)
        for t in range(trials):
            np.copyto(positions, rows[t, :, :k], casting="unsafe")
            sums[0, t] = np.bincount(positions.reshape(-1), weights=values, minlength=k)
        return sums
    from scipy import sparse  # only here: a module of its own to import

    # one column per cell, its one entry in the row of the cell's position; the matrix
    # is made once and reads the positions of each trial from ``index`` (scipy keeps the
    # arrays it is given when their types fit; if it copied them, it is made per trial)
    index = np.zeros((n, k), dtype=np.int32)
    starts, ones = np.arange(n * k + 1, dtype=np.int32), np.ones(n * k)
    moved = sparse.csc_array((ones, index.reshape(-1), starts), shape=(k, n * k))
    kept = np.shares_memory(moved.indices, index)
    for t in range(trials):
        np.copyto(index, rows[t, :, :k], casting="unsafe")
        if not kept:
            moved = sparse.csc_array((ones, index.reshape(-1), starts), shape=(k, n * k))
        sums[:, t] = (moved @ cells).T
    return sums


def _shuffled_sums(x: FloatArray, draws: list[IntArray], trials: int) -> FloatArray:
    """``trials`` rows of column sums, each row of ``x`` shuffled independently per trial.

    Fisher-Yates on all (trial, topic) rows at once: for position ``i = k-1 .. 1`` take
    the draw ``r`` in ``0..i`` and swap positions ``i`` and ``r``; position ``i`` is then
    final, so only its column sum is kept. The rows are held position by position
    (``k`` contiguous columns of ``trials * n``), so that each step reads and writes
    whole columns.
    """
    n, k = x.shape
    rows = trials * n
    # (k, rows): column j holds position j of every row; C order so that flat is a view
    # (np.tile of one trial copies x.T in its Fortran order)
    columns = np.ascontiguousarray(np.tile(x.T, (1, trials)))
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
