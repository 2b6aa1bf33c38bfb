"""Per-query measures, computed for every query of a :class:`Ranking` at once.

Each function takes a :class:`Judged` view (a ranking plus a relevance threshold) and
returns one float64 value per query, in the order of ``ranking.queries``. The
definitions follow trec_eval 9.0.8 (file names refer to its sources); ERR, RBP and the
exponential-gain nDCG follow the papers cited in their docstrings.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from irtables.base import portable_math
from irtables.evaluator.trec import JudgementIndex, Ranking
from irtables.evaluator.versions import DEFAULT_TREC_EVAL, TrecEvalVersion, recall_cutoffs

FloatArray = npt.NDArray[np.float64]
_T = TypeVar("_T", np.int64, np.float64)
IntArray = npt.NDArray[np.int64]

# trec_eval's 11 standard recall levels (the C literals of m_iprec_at_recall.c)
RECALL_LEVELS: tuple[float, ...] = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


@dataclass(frozen=True, eq=False)
class Judged:
    """A ranking seen with relevance threshold ``level`` (trec_eval ``-l``).

    Row arrays (``rel``, ``cumrel``) are over the ranking's judged rows only. ``version``
    is the trec_eval whose interpolated-precision cutoffs apply.
    """

    ranking: Ranking
    index: JudgementIndex
    level: int
    version: TrecEvalVersion = DEFAULT_TREC_EVAL

    @cached_property
    def rel(self) -> npt.NDArray[np.bool_]:
        """Whether each judged row is relevant (grade >= level; unjudged never is)."""
        return self.ranking.judgement >= max(self.level, 0)

    @cached_property
    def cumrel(self) -> IntArray:
        """Relevant rows up to and including each row, within its query."""
        return self.cumulative(self.rel.astype(np.int64)) + self.rel

    @cached_property
    def num_rel(self) -> IntArray:
        """Relevant documents in the qrels, per query of the ranking."""
        return self._count_judged(self.index.grade >= max(self.level, 0))

    @cached_property
    def num_nonrel(self) -> IntArray:
        """Judged non-relevant documents in the qrels (0 <= grade < level)."""
        g = self.index.grade
        return self._count_judged((g >= 0) & (g < self.level))

    @cached_property
    def num_rel_ret(self) -> IntArray:
        """Relevant documents retrieved, per query."""
        return self.count_at(self.ranking.lengths)

    @cached_property
    def precision_envelope(self) -> FloatArray:
        """At each relevant row retrieved (in ranking order), the best precision at it or
        at a relevant row below it in its query: interpolated precision."""
        r = self.ranking
        rows = np.flatnonzero(self.rel)
        precision = self.cumrel[rows] / r.rank[rows]
        return _running_max_from_end(precision, r.segment[rows])

    @cached_property
    def discount(self) -> FloatArray:
        """nDCG's discount of each judged row, ``1 / log2(rank + 1)`` (computed once for
        every cutoff)."""
        return portable_math.rank_discounts(self.ranking.rank)

    @cached_property
    def _first(self) -> IntArray:
        """Index of the first judged row of each row's query."""
        seg = self.ranking.segment
        first: IntArray = np.searchsorted(seg, seg, side="left").astype(np.int64)
        return first

    def cumulative(self, values: npt.NDArray[_T]) -> npt.NDArray[_T]:
        """Sum of ``values`` over the rows ranked above each row, within its query."""
        before = np.cumsum(values) - values
        out: npt.NDArray[_T] = before - before[self._first]
        return out

    def count_at(self, k: int | IntArray) -> IntArray:
        """Relevant documents in the top ``k`` of each query (``k`` per query or one)."""
        r = self.ranking
        limit = k if np.ndim(k) == 0 else np.asarray(k)[r.segment]
        mask = self.rel & (r.rank <= limit)
        return np.bincount(r.segment[mask], minlength=r.n_queries).astype(np.int64)

    def per_query(self, weights: FloatArray) -> FloatArray:
        """Sum row weights per query."""
        r = self.ranking
        return np.bincount(r.segment, weights=weights, minlength=r.n_queries).astype(np.float64)

    def _count_judged(self, mask: npt.NDArray[np.bool_]) -> IntArray:
        counts = np.bincount(self.index.row_query[mask], minlength=self.index.n_queries)
        return counts[self.ranking.queries].astype(np.int64)


def _running_max_from_end(values: FloatArray, segment: IntArray) -> FloatArray:
    """For each row, the largest value at or after it within its segment (segments are
    contiguous and ascending): a running maximum over the reversed rows on exact integer
    ranks, shifted so that each segment starts above everything before it.

    Examples
    --------
    >>> _running_max_from_end(np.array([0.5, 1.0, 0.2, 0.3, 0.1]), np.array([0, 0, 0, 1, 1]))
    array([1. , 1. , 0.2, 0.3, 0.1])
    """
    n = len(values)
    if n == 0:
        return values
    order = np.argsort(values, kind="stable")
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n)
    shift = (int(segment[-1]) - segment.astype(np.int64)) * n  # grows along the reversal
    best = np.maximum.accumulate((rank + shift)[::-1])[::-1] - shift
    out: FloatArray = values[order[best]]
    return out


def _ratio(num: npt.ArrayLike, den: npt.ArrayLike) -> FloatArray:
    n = np.asarray(num, dtype=np.float64)
    d = np.asarray(den, dtype=np.float64)
    return np.divide(n, d, out=np.zeros(np.broadcast(n, d).shape), where=d > 0)


def _within(j: Judged, k: int | None) -> npt.NDArray[np.bool_]:
    rank = j.ranking.rank
    return np.ones(len(rank), dtype=bool) if k is None else rank <= k


def precision(j: Judged, k: int) -> FloatArray:
    """P@k: relevant in the top k divided by k, always k (m_P.c)."""
    return j.count_at(k) / float(k)


def recall(j: Judged, k: int) -> FloatArray:
    """R@k: relevant in the top k over relevant in the qrels; 0 if none (m_recall.c)."""
    return _ratio(j.count_at(k), j.num_rel)


def success(j: Judged, k: int) -> FloatArray:
    """Success@k: 1 if a relevant document is in the top k (m_success.c)."""
    return (j.count_at(k) > 0).astype(np.float64)


def average_precision(j: Judged, k: int | None = None) -> FloatArray:
    """AP (AP@k): sum of precision at each relevant rank (<= k), over all relevant (m_map.c)."""
    keep = j.rel & _within(j, k)
    weights = np.where(keep, j.cumrel / j.ranking.rank, 0.0)
    return _ratio(j.per_query(weights), j.num_rel)


def reciprocal_rank(j: Judged, k: int | None = None) -> FloatArray:
    """RR (RR@k): 1 / rank of the first relevant document (within k), else 0."""
    r = j.ranking
    out = np.zeros(r.n_queries)
    weights = np.where(j.rel & _within(j, k), 1.0 / r.rank, 0.0)
    np.maximum.at(out, r.segment, weights)
    return out


def r_precision(j: Judged) -> FloatArray:
    """R-Prec: relevant in the top R over R, R = relevant in the qrels (m_Rprec.c)."""
    return _ratio(j.count_at(j.num_rel), j.num_rel)


def bpref(j: Judged) -> FloatArray:
    """bpref (m_bpref.c; Buckley & Voorhees, SIGIR 2004).

    Each judged relevant document retrieved adds ``1 - min(n, R) / min(N, R)``, n the
    judged non-relevant documents ranked above it, N those in the qrels, R the relevant.
    """
    r = j.ranking
    nonrel = (r.judgement >= 0) & (r.judgement < j.level)
    before = j.cumulative(nonrel.astype(np.int64))
    big_r = j.num_rel[r.segment]
    big_n = j.num_nonrel[r.segment]
    penalty = _ratio(np.minimum(before, big_r), np.minimum(big_n, big_r))
    weights = np.where(j.rel, np.where(before > 0, 1.0 - penalty, 1.0), 0.0)
    return _ratio(j.per_query(weights), j.num_rel)


def gains(j: Judged, exponential: bool, level: int | None = None) -> FloatArray:
    """Gain of each row: the grade (trec_eval), or ``2**grade - 1``; unjudged gain 0.

    ``level`` drops the judgements below it first (ranx's ``-l``): they gain 0.
    """
    grade = np.maximum(j.ranking.judgement, 0).astype(np.float64)
    if level is not None:
        grade = np.where(j.ranking.judgement >= level, grade, 0.0)
    return portable_math.powers_of_two(grade) - 1.0 if exponential else grade


def ndcg(
    j: Judged, k: int | None = None, *, exponential: bool = False, level: int | None = None
) -> FloatArray:
    """nDCG (nDCG@k), discount ``1/log2(rank + 1)``, ideal ranking from the qrels.

    Linear gain (the grade) is trec_eval's ``ndcg``/``ndcg_cut`` (m_ndcg.c,
    m_ndcg_cut.c). ``exponential=True`` uses ``2**grade - 1`` (Burges et al., ICML 2005,
    "Learning to rank using gradient descent", eq. for NDCG; ``nDCG_exp``).
    The relevance threshold of the view does not apply: gain is the raw grade. A
    ``level`` (ranx's ``ndcg@10-l2``) drops the judgements below it from both the
    ranking and the ideal one, as ranx does; the others keep their grade.
    """
    dcg = j.per_query(np.where(_within(j, k), gains(j, exponential, level) * j.discount, 0.0))
    return _ratio(dcg, ideal_dcg(j, k, exponential, level))


def ideal_dcg(j: Judged, k: int | None, exponential: bool, level: int | None = None) -> FloatArray:
    """DCG of the qrels' best ordering of each query, cut at ``k``; grades below ``level``
    (when given) are dropped."""
    index = j.index
    q, g, pos = index.ideal_order
    if level is not None and level > 1:
        kept = g >= level  # the order is by grade: the kept grades lead each query
        q, g, pos = q[kept], g[kept], pos[kept]
    gain = portable_math.powers_of_two(g) - 1.0 if exponential else g
    if k is not None:
        gain = np.where(pos <= k, gain, 0.0)
    total = np.bincount(
        q, weights=gain / portable_math.log2_of_next(pos), minlength=index.n_queries
    )
    return total[j.ranking.queries].astype(np.float64)


def interpolated_precision(j: Judged, levels: tuple[float, ...]) -> list[FloatArray]:
    """Interpolated precision at recall levels (m_iprec_at_recall.c).

    A level p becomes the relevant-document count ``c = floor(p * R + 0.9)`` (9.0.8) or
    ``c = round(p * R)`` (10; see :func:`~irtables.evaluator.versions.recall_cutoffs`);
    the value is the best precision at or after the rank of the c-th relevant document
    retrieved (c = 0: the first), 0 if fewer were retrieved.
    """
    best = j.precision_envelope
    found = j.num_rel_ret
    first = np.cumsum(found) - found
    out = []
    for p in levels:
        c = recall_cutoffs(p, j.num_rel, j.version)
        c_eff = np.maximum(c, 1)
        ok = (c <= found) & (found > 0)
        pick = np.where(ok, first + c_eff - 1, 0)
        values = np.where(ok, best[pick] if len(best) else 0.0, 0.0)
        out.append(values.astype(np.float64))
    return out


def eleven_point(j: Judged) -> FloatArray:
    """11-point interpolated average precision (m_11pt_avg.c), cutoffs of ``j.version``."""
    out: FloatArray = np.mean(interpolated_precision(j, RECALL_LEVELS), axis=0)
    return out


def err(j: Judged, k: int, max_grade: int) -> FloatArray:
    """ERR@k (Chapelle, Metzler, Zhang & Grinspan, CIKM 2009, eq. 4 with R = (2^g-1)/2^gmax).

    ``ERR = sum_r (1/r) R_r prod_{i<r} (1 - R_i)``; ``max_grade`` is the highest grade of
    the qrels; unjudged and negative grades count as 0.
    """
    r = j.ranking
    grade = np.maximum(r.judgement, 0).astype(np.float64)
    stop = (portable_math.powers_of_two(grade) - 1.0) / (2.0 ** max(max_grade, 1))
    levels, level_of_row = np.unique(stop, return_inverse=True)
    log_go = portable_math.log1p(-levels)[level_of_row]
    within = r.rank <= k
    reach = np.zeros(len(stop), dtype=np.float64)
    reach[within] = portable_math.exp(j.cumulative(log_go)[within])
    return j.per_query(np.where(within, stop * reach / r.rank, 0.0))


def rbp(j: Judged, p: float) -> FloatArray:
    """RBP(p) = (1 - p) sum_r rel_r p^(r-1), binary relevance (Moffat & Zobel, TOIS 2008)."""
    weights = np.where(j.rel, portable_math.integer_powers(p, j.ranking.rank - 1), 0.0)
    return (1.0 - p) * j.per_query(weights)


def judged(j: Judged, k: int) -> FloatArray:
    """Judged@k: documents of the top k that have a (non-negative) judgement, over k."""
    flag = (j.ranking.judgement >= 0) & (j.ranking.rank <= k)
    return j.per_query(flag.astype(np.float64)) / float(k)
