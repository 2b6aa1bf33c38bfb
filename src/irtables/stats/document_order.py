"""Document order of two runs, as repro_eval 0.5.0 compares it: KTU and RBO per topic
at each cutoff, then their means over topics (Breuer et al., SIGIR 2020).

Both runs are cut to their top ``k`` documents at each cutoff ``k``:

- KTU: Kendall's tau-b between two sequences: at each rank ``i``, the position of the
  original run's document ``i`` and of the reproduced run's document ``i`` in the sorted
  union of both rankings' documents. (The paper ranks the union's documents in both
  runs; repro_eval computes this, and so does irtables, so that its numbers are the
  ones a reader can check.) It needs rankings of equal length: repro_eval fails
  otherwise (scipy's ``kendalltau``), irtables raises an error naming the topic. With
  fewer than two documents the tau is undefined (NaN), and so is the mean.
- RBO: rank-biased overlap as Clarke et al. compute it (repro_eval's ``_rbo``):
  ``sum_{d<depth} p^d |A_{:d+1} & B_{:d+1}| / (d+1)`` over ``sum_{d<depth} p^d``,
  with repro_eval's defaults ``p = 0.95`` and ``depth = 1000``.

Ties are broken as trec_eval breaks them (score descending, document id descending;
:mod:`irtables.evaluator.order`). repro_eval keeps the file's order and reverses the
document ids of each run of equal consecutive scores: the same order for a run
written in score order, which every TREC run is. Everything is vectorised over topics
and documents (no Python loop over either).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from irtables.base.arrow import to_numpy
from irtables.base.repro_defaults import DEFAULT_CUTOFFS, RBO_DEPTH, RBO_P
from irtables.errors import InputError
from irtables.evaluator.order import RankedDocuments

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class OrderAgreement:
    """KTU and RBO of one original and one reproduced run, per cutoff and topic.

    ``ktu`` and ``rbo`` have one row per cutoff and one column per topic of ``topics``.
    """

    cutoffs: tuple[int, ...]
    topics: tuple[str, ...]
    ktu: FloatArray
    rbo: FloatArray

    def mean_ktu(self) -> FloatArray:
        """The mean KTU over topics, per cutoff (NaN when a topic's is undefined)."""
        return _mean(self.ktu)

    def mean_rbo(self) -> FloatArray:
        """The mean RBO over topics, per cutoff."""
        return _mean(self.rbo)


def _mean(a: FloatArray) -> FloatArray:
    if a.shape[1] == 0:
        return np.full(a.shape[0], np.nan)
    out: FloatArray = a.mean(axis=1)
    return out


def order_agreement(
    original: RankedDocuments,
    reproduced: RankedDocuments,
    *,
    cutoffs: Sequence[int] = DEFAULT_CUTOFFS,
    p: float = RBO_P,
    depth: int = RBO_DEPTH,
) -> OrderAgreement:
    """KTU and RBO between the document orderings of two runs at each cutoff.

    The runs must rank documents for the same topics (repro_eval fails when the
    reproduced run has a topic the original lacks and skips the reverse; irtables
    names the topics either way).

    Examples
    --------
    >>> import pandas as pd
    >>> from irtables.evaluator.order import ranked_documents
    >>> from irtables.model.runs import run_from_frame
    >>> def run(docs):
    ...     return ranked_documents(run_from_frame(pd.DataFrame({"query": "1",
    ...         "docid": list(docs), "score": range(len(docs), 0, -1)}), name="r"))
    >>> a = order_agreement(run("abcd"), run("abdc"), cutoffs=[2, 4])
    >>> a.mean_ktu().round(4).tolist(), a.mean_rbo().round(4).tolist()
    ([1.0, 0.6667], [0.2653, 0.4031])
    """
    if not 0 < p < 1:
        raise InputError(f"RBO's p must be between 0 and 1 (exclusive), not {p}")
    if depth < 1 or any(k < 1 for k in cutoffs):
        raise InputError("RBO's depth and every cutoff must be at least 1")
    topics = _same_topics(original, reproduced)
    value_set = pa.array(topics, type=pa.string())
    oq = to_numpy(pc.index_in(original.query, value_set=value_set)).astype(np.int64)
    rq = to_numpy(pc.index_in(reproduced.query, value_set=value_set)).astype(np.int64)
    od, rd = _document_codes(original.docid, reproduced.docid)
    n = len(topics)
    ktu = np.empty((len(cutoffs), n))
    rbo = np.empty((len(cutoffs), n))
    suffix, normalizer = _rbo_weights(p, depth)
    for c, k in enumerate(cutoffs):
        o = original.rank < k
        r = reproduced.rank < k
        ktu[c] = _ktu(oq[o], od[o], rq[r], rd[r], n, k, original, reproduced, topics)
        overlap = _rbo_scores(
            oq[o], od[o], original.rank[o], rq[r], rd[r], reproduced.rank[r], n, suffix
        )
        rbo[c] = overlap / normalizer
    return OrderAgreement(tuple(int(k) for k in cutoffs), topics, ktu, rbo)


def _same_topics(original: RankedDocuments, reproduced: RankedDocuments) -> tuple[str, ...]:
    o = set(pc.unique(original.query).to_pylist())
    r = set(pc.unique(reproduced.query).to_pylist())
    for extra, has, lacks in ((r - o, reproduced, original), (o - r, original, reproduced)):
        if extra:
            shown = ", ".join(sorted(extra)[:5]) + (" ..." if len(extra) > 5 else "")
            raise InputError(
                f"topics {shown} of run {has.name!r} are not in run {lacks.name!r}; "
                "expected both runs to rank documents for the same topics",
                path=has.source if has.source != "<frame>" else None,
            )
    return tuple(sorted(o))


def _document_codes(a: pa.Array, b: pa.Array) -> tuple[IntArray, IntArray]:
    """Codes of the documents of both runs, ordered as their ids sort (byte-wise)."""
    union = pc.unique(pa.concat_arrays([a, b]))
    union = union.take(pc.sort_indices(union))
    return (
        to_numpy(pc.index_in(a, value_set=union)).astype(np.int64),
        to_numpy(pc.index_in(b, value_set=union)).astype(np.int64),
    )


def _ktu(
    oq: IntArray,
    od: IntArray,
    rq: IntArray,
    rd: IntArray,
    n: int,
    k: int,
    original: RankedDocuments,
    reproduced: RankedDocuments,
    topics: tuple[str, ...],
) -> FloatArray:
    lengths_o = np.bincount(oq, minlength=n)
    lengths_r = np.bincount(rq, minlength=n)
    unequal = np.flatnonzero(lengths_o != lengths_r)
    if len(unequal):
        t = int(unequal[0])
        raise InputError(
            f"KTU at cutoff {k} compares rankings of equal length, but topic {topics[t]!r} "
            f"has {lengths_o[t]} documents in run {original.name!r} and {lengths_r[t]} in "
            f"run {reproduced.name!r} (repro_eval fails on this too); expected runs of "
            "equal length per topic, or lower cutoffs"
        )
    # rows of both are grouped by topic in rank order: row i of one pairs with row i of the other
    discordant = _discordant_pairs(oq, od, rd, n)
    m = lengths_o.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        tau = 1.0 - 4.0 * discordant / (m * (m - 1.0))
    tau[m < 2] = np.nan
    out: FloatArray = np.round(tau, 14)
    return out


def _discordant_pairs(seg: IntArray, x: IntArray, y: IntArray, n: int) -> FloatArray:
    """Pairs of rows of one segment ordered one way by ``x`` and the other by ``y``.

    ``x`` and ``y`` have no ties within a segment. The rows are put in ``x`` order and the
    inversions of ``y`` counted bottom-up as merge sort does, every segment and block of
    a level at once: each block's two halves, already sorted by ``y`` at the level below,
    are merged by a stable sort (linear on two sorted runs), and each row of a right half
    counts the rows of its left half with a larger ``y``. log2 of the longest segment
    levels, no loop over rows.
    """
    out = np.zeros(n)
    if len(seg) < 2:
        return out
    order = np.lexsort((x, seg))
    seg, y = seg[order], y[order]
    counts = np.bincount(seg, minlength=n)
    starts = np.cumsum(counts) - counts
    pos = np.arange(len(seg), dtype=np.int64) - starts[seg]
    base = int(y.max()) + 1
    longest = int(counts.max())
    width = 1
    while width < longest:
        size = 2 * width
        block = seg * ((longest + size - 1) // size) + pos // size
        merged = np.argsort(block * base + y, kind="stable")
        seg, pos, y, block = seg[merged], pos[merged], y[merged], block[merged]
        left = (pos % size) < width
        seen = np.cumsum(left)  # left-half rows up to here
        first = np.flatnonzero(np.concatenate(([True], block[1:] != block[:-1])))
        which = np.repeat(np.arange(len(first)), np.diff(np.append(first, len(block))))
        before: IntArray = (seen - left)[first]
        in_left = seen[np.append(first[1:], len(block)) - 1] - before
        right = ~left
        larger = in_left[which[right]] - (seen[right] - before[which[right]])
        out += np.bincount(seg[right], weights=larger, minlength=n)
        width = size
    return out


def _rbo_weights(p: float, depth: int) -> tuple[FloatArray, float]:
    """``suffix[m] = sum_{m <= d < depth} p^d / (d + 1)`` and ``sum_{d < depth} p^d``."""
    d = np.arange(depth, dtype=np.float64)
    w = np.power(p, d)
    suffix: FloatArray = np.cumsum((w / (d + 1.0))[::-1])[::-1]
    return suffix, float(w.sum())


def _rbo_scores(
    oq: IntArray,
    od: IntArray,
    orank: IntArray,
    rq: IntArray,
    rd: IntArray,
    rrank: IntArray,
    n: int,
    suffix: FloatArray,
) -> FloatArray:
    """A document in both rankings adds to the overlap from the deeper of its two ranks on."""
    base = int(max(od.max(initial=0), rd.max(initial=0))) + 1
    _, io, ir = np.intersect1d(
        oq * base + od, rq * base + rd, assume_unique=True, return_indices=True
    )
    m = np.maximum(orank[io], rrank[ir])
    inside = m < len(suffix)
    out = np.bincount(oq[io][inside], weights=suffix[m[inside]], minlength=n)
    return out.astype(np.float64)
