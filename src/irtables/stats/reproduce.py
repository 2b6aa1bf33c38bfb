"""Reproducibility and replicability measures as repro_eval 0.5.0 computes them.

The framework is Breuer et al., "How to Measure the Reproducibility of System-oriented
IR Experiments" (SIGIR 2020); the reference implementation is repro_eval 0.5.0
(irgroup/repro_eval, commit 63b5d8c). Every number here equals repro_eval's on the
data of ``tests/data/repro`` to 1e-9. Definitions, with repro_eval's choices:

Document order (reproducibility only), per topic, then the mean over topics, at each
cutoff ``k`` after both runs are cut to their top ``k`` documents:

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
written in score order, which every TREC run is.

Effectiveness (reproducibility), per measure, over the topics of the original run:
RMSE of the per-topic differences, and nRMSE, RMSE divided by the largest RMSE the
original values allow (``max(x, 1 - x)`` per topic).

Overall effects of an advanced run over a baseline (both kinds): the Effect Ratio
``ER = mean(rep_adv - rep_base) / mean(orig_adv - orig_base)`` and the Delta Relative
Improvement ``DeltaRI = RI_orig - RI_rep`` with ``RI = (mean_adv - mean_base) /
mean_base``, means over each side's own topics. A reproduction succeeds as ER
approaches 1 and DeltaRI 0.

A two-sided t-test of original against reproduced values per system and measure:
paired (scipy ``ttest_rel``) for reproducibility, unpaired Student (``ttest_ind``,
equal variances, as repro_eval) for replicability. When every measure's p-value of a
system is undefined (NaN) and the values are identical, p = 1.0, as repro_eval does.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

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
Kind = Literal["reproducibility", "replicability"]
KINDS: tuple[Kind, ...] = ("reproducibility", "replicability")


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
    ([1.0, 0.6667], [0.9837, 0.9808])
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


@dataclass(frozen=True)
class TopicValues:
    """Per-topic values of one run: ``values[measure][i]`` is topic ``topics[i]``'s."""

    topics: tuple[str, ...]
    values: Mapping[str, FloatArray]


@dataclass(frozen=True)
class ReproductionRow:
    """One row of a reproduction table (a CSV row; ``None`` is an empty cell).

    Rows with a ``cutoff`` and no ``measure`` hold KTU and RBO; rows with a ``measure``
    hold the rest. ER and DeltaRI are in the rows of the advanced system.
    """

    reproduction: str
    kind: Kind
    system: str
    measure: str
    cutoff: int | None = None
    ktu: float | None = None
    rbo: float | None = None
    rmse: float | None = None
    nrmse: float | None = None
    er: float | None = None
    delta_ri: float | None = None
    pvalue: float | None = None
    original_mean: float | None = None
    reproduced_mean: float | None = None


#: The CSV columns of a reproduction table, in order (the fields of ReproductionRow).
COLUMNS: tuple[str, ...] = tuple(ReproductionRow.__dataclass_fields__)


def rmse(original: FloatArray, reproduced: FloatArray) -> float:
    """Root mean square error of the per-topic differences (topics aligned)."""
    return math.sqrt(float(np.mean(np.square(original - reproduced))))


def nrmse(original: FloatArray, reproduced: FloatArray) -> float:
    """RMSE over the largest RMSE the original values allow, ``max(x, 1 - x)`` per topic."""
    worst = math.sqrt(float(np.mean(np.square(np.maximum(original, 1.0 - original)))))
    return rmse(original, reproduced) / worst if worst else math.nan


def effect_ratio(
    orig_base: FloatArray, orig_adv: FloatArray, rep_base: FloatArray, rep_adv: FloatArray
) -> float:
    """ER: the reproduced mean per-topic improvement over the original one."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(
            np.float64(np.mean(rep_adv - rep_base)) / np.float64(np.mean(orig_adv - orig_base))
        )


def delta_ri(
    orig_base: FloatArray, orig_adv: FloatArray, rep_base: FloatArray, rep_adv: FloatArray
) -> float:
    """DeltaRI: the original relative improvement of the means minus the reproduced one."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ri_orig = (np.mean(orig_adv) - np.mean(orig_base)) / np.mean(orig_base)
        ri_rep = (np.mean(rep_adv) - np.mean(rep_base)) / np.mean(rep_base)
    return float(ri_orig - ri_rep)


def ttest_pvalue(original: FloatArray, reproduced: FloatArray, *, paired: bool) -> float:
    """Two-sided p-value of scipy's paired or (Student) unpaired t-test, as repro_eval."""
    import warnings

    from scipy.stats import ttest_ind, ttest_rel

    with warnings.catch_warnings(), np.errstate(divide="ignore", invalid="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        test = ttest_rel if paired else ttest_ind
        return float(test(original, reproduced).pvalue)


def reproduction_rows(
    name: str,
    kind: Kind,
    original: Mapping[str, TopicValues],
    reproduced: Mapping[str, TopicValues],
    *,
    pairs: Sequence[tuple[str, str]],
    metrics: Sequence[str],
    systems: Sequence[str] = (),
    order: Mapping[str, OrderAgreement] | None = None,
) -> list[ReproductionRow]:
    """The rows of one reproduction: per system (``systems``, then those of ``pairs``,
    baselines first, each once), KTU and RBO per cutoff (reproducibility, from
    ``order``) then one row per measure of ``metrics``.

    ``original`` and ``reproduced`` map system ids to their per-topic values. In a
    reproducibility study a system's topics must be the same on both sides (the tests
    are paired); within a side, a baseline and its advanced system must share topics.
    """
    if kind not in KINDS:
        raise InputError(f"unknown reproduction kind {kind!r}; expected one of {', '.join(KINDS)}")
    systems = list(dict.fromkeys([*systems, *(b for b, _ in pairs), *(a for _, a in pairs)]))
    for system in systems:
        for side, label in ((original, "original"), (reproduced, f"reproduction {name!r}")):
            if system not in side:
                raise InputError(
                    f"system {system!r} is not in the {label}; expected every system of the "
                    f"pairs in the original and each reproduction ({', '.join(sorted(side))})"
                )
            missing = [m for m in metrics if m not in side[system].values]
            if missing:
                raise InputError(
                    f"measure {missing[0]!r} of system {system!r} is not in the {label}"
                )
        if kind == "reproducibility":
            _check_paired(name, system, original[system], reproduced[system])
    for base, adv in pairs:
        for side, label in ((original, "original"), (reproduced, f"reproduction {name!r}")):
            if side[base].topics != side[adv].topics:
                raise InputError(
                    f"baseline {base!r} and advanced system {adv!r} of the {label} have "
                    "different topics; expected the same topics for both"
                )
    advanced_of = {a: b for b, a in pairs}
    paired = kind == "reproducibility"
    rows: list[ReproductionRow] = []
    for system in systems:
        o, r = original[system], reproduced[system]
        if paired and order is not None and system in order:
            agreement = order[system]
            for k, ktu, rbo in zip(
                agreement.cutoffs, agreement.mean_ktu(), agreement.mean_rbo(), strict=True
            ):
                rows.append(
                    ReproductionRow(name, kind, system, "", k, ktu=float(ktu), rbo=float(rbo))
                )
        pvalues = {m: ttest_pvalue(o.values[m], r.values[m], paired=paired) for m in metrics}
        if all(math.isnan(p) for p in pvalues.values()) and _identical(o, r, metrics):
            pvalues = dict.fromkeys(pvalues, 1.0)
        for m in metrics:
            ov, rv = o.values[m], r.values[m]
            er = dri = None
            if system in advanced_of:
                base = advanced_of[system]
                args = (original[base].values[m], ov, reproduced[base].values[m], rv)
                er, dri = effect_ratio(*args), delta_ri(*args)
            rows.append(
                ReproductionRow(
                    name,
                    kind,
                    system,
                    m,
                    rmse=rmse(ov, rv) if paired else None,
                    nrmse=nrmse(ov, rv) if paired else None,
                    er=er,
                    delta_ri=dri,
                    pvalue=pvalues[m],
                    original_mean=float(np.mean(ov)),
                    reproduced_mean=float(np.mean(rv)),
                )
            )
    return rows


def _check_paired(name: str, system: str, o: TopicValues, r: TopicValues) -> None:
    if o.topics == r.topics:
        return
    only_o = sorted(set(o.topics) - set(r.topics))
    only_r = sorted(set(r.topics) - set(o.topics))
    where = f"topics {', '.join(only_o[:5])} only in the original" if only_o else ""
    if only_r:
        where += ("; " if where else "") + f"topics {', '.join(only_r[:5])} only in {name!r}"
    raise InputError(
        f"system {system!r}: {where or 'topics in another order'}; a reproducibility study "
        "compares the same topics (paired), expected the same evaluated topics on both sides"
    )


def _identical(o: TopicValues, r: TopicValues, metrics: Sequence[str]) -> bool:
    return o.topics == r.topics and all(np.array_equal(o.values[m], r.values[m]) for m in metrics)


def topic_values(frame: object, dataset: str) -> dict[str, TopicValues]:
    """Per-topic values of every system of ``dataset`` in a ResultSet's frame, topics sorted."""
    import pandas as pd

    assert isinstance(frame, pd.DataFrame)
    sub = frame[frame["dataset"] == dataset]
    out: dict[str, TopicValues] = {}
    for system, part in sub.groupby("system", observed=True, sort=False):
        wide = part.pivot_table(index="query", columns="metric", values="value", observed=True)
        wide = wide.sort_index()
        wide.index = wide.index.astype(str)
        out[str(system)] = TopicValues(
            tuple(wide.index),
            {str(m): wide[m].to_numpy(dtype=np.float64) for m in wide.columns},
        )
    return out
