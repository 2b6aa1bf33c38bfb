"""A run's documents in trec_eval order, every row kept (judged or not).

:mod:`irtables.evaluator.trec` keeps only the judged rows of a run, which is all a
measure needs. Comparing the document orderings of two runs (Kendall's tau, rank-biased
overlap; :mod:`irtables.stats.reproduce`) needs every document at its rank, in the same
order trec_eval ranks them: by score descending, scores held as the trec_eval version
holds them (9.0.8: single precision), ties by document id descending (byte-wise).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from irtables.base.arrow import from_numpy, to_numpy
from irtables.errors import InputError
from irtables.evaluator.versions import DEFAULT_TREC_EVAL, TrecEvalVersion, ranking_scores
from irtables.model.runs import Run

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class RankedDocuments:
    """The rows of a run grouped by query and ranked within each.

    ``query`` and ``docid`` are the rows' ids in that order (Arrow strings); ``rank`` is
    the 0-based rank of each row within its query; ``row`` the row of the run it came from.
    """

    name: str
    source: str
    query: pa.Array
    docid: pa.Array
    rank: IntArray
    row: IntArray


def ranked_documents(
    run: Run, *, trec_eval: TrecEvalVersion = DEFAULT_TREC_EVAL
) -> RankedDocuments:
    """Rank every row of ``run`` as trec_eval ``trec_eval`` ranks it.

    A document retrieved twice for one query is an error naming the file and line of
    the second occurrence, as trec_eval refuses it.

    Examples
    --------
    >>> import pandas as pd
    >>> from irtables.model.runs import run_from_frame
    >>> run = run_from_frame(pd.DataFrame({"query": ["1", "1", "1"],
    ...     "docid": ["a", "c", "b"], "score": [2.0, 1.0, 1.0]}), name="r")
    >>> r = ranked_documents(run)
    >>> r.docid.to_pylist(), r.rank.tolist()
    (['a', 'c', 'b'], [0, 1, 2])
    """
    query = run.qid.dictionary.take(run.qid.indices)
    docid = run.docid.combine_chunks() if isinstance(run.docid, pa.ChunkedArray) else run.docid
    table = pa.table(
        {
            "q": query.cast(pa.string()),
            "s": from_numpy(ranking_scores(run.score, trec_eval).astype(np.float64)),
            "d": docid.cast(pa.string()),
        }
    )
    order = to_numpy(
        pc.sort_indices(
            table, sort_keys=[("q", "ascending"), ("s", "descending"), ("d", "descending")]
        )
    ).astype(np.int64)
    q = table.column("q").combine_chunks().take(pa.array(order))
    d = table.column("d").combine_chunks().take(pa.array(order))
    n = len(order)
    new = np.ones(n, dtype=bool)
    if n:
        new[1:] = to_numpy(pc.not_equal(q[1:], q[:-1])).astype(bool)
    starts = np.flatnonzero(new)
    rank = np.arange(n, dtype=np.int64) - np.repeat(starts, np.diff(np.append(starts, n)))
    _refuse_duplicates(run, q, d, order)
    return RankedDocuments(run.name, run.source, q, d, rank, order)


def _refuse_duplicates(run: Run, query: pa.Array, docid: pa.Array, order: IntArray) -> None:
    if len(order) < 2:
        return
    by = to_numpy(
        pc.sort_indices(
            pa.table({"q": query, "d": docid}),
            sort_keys=[("q", "ascending"), ("d", "ascending")],
        )
    ).astype(np.int64)
    q, d = query.take(pa.array(by)), docid.take(pa.array(by))
    same = to_numpy(pc.and_(pc.equal(q[1:], q[:-1]), pc.equal(d[1:], d[:-1]))).astype(bool)
    if not same.any():
        return
    pairs = np.flatnonzero(same)
    rows = np.maximum(order[by[pairs]], order[by[pairs + 1]])
    row = int(rows.min())
    query_id = run.qid.dictionary[run.qid.indices[row].as_py()].as_py()
    raise InputError(
        f"document {run.docid[row].as_py()!r} is retrieved twice for query {query_id!r}; "
        "expected each document at most once per query (trec_eval refuses it too)",
        path=run.source if run.source != "<frame>" else None,
        line=run.line_of(row),
    )
