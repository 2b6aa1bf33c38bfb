"""trec_eval's view of a run: judged queries only, ordered by score, cut at a depth.

This module turns a :class:`Run` and :class:`Qrels` into a :class:`Ranking`, the flat
arrays every measure is computed from (trec_eval 9.0.8, ``form_res_rels.c``):

- rows of queries absent from the qrels are dropped (they count nowhere, not even in
  ``num_ret``);
- each query is ordered by score descending, ties by document id descending (byte-wise),
  whatever the rank column or file order says; scores are compared as the chosen trec_eval
  version holds them (9.0.8: single precision, so scores equal as float32 tie; 10: double);
- ``depth`` (trec_eval ``-M``) keeps the top rows of each query after ordering;
- a document retrieved twice for one query is an error, as in trec_eval;
- each judged row gets its judgement: the grade, or ``UNJUDGED`` (-2) if the qrels give
  it a negative grade.

Only the judged rows are kept (with their rank): every measure depends on the other rows
only through their number, ``Ranking.lengths``. The work over all rows is linear and on
integer codes: a run already in score order (the usual case) is never sorted, document
ids are compared as strings only within ties that hold a judged document, and the join
with the qrels hashes the run's document ids once against the (small) judged set.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from irtables.base.arrow import from_numpy, string_hashes, to_numpy
from irtables.errors import InputError
from irtables.evaluator.versions import DEFAULT_TREC_EVAL, TrecEvalVersion, ranking_scores
from irtables.model.runs import Qrels, Run

UNJUDGED = -2
IntArray = npt.NDArray[np.int64]
ScoreArray = npt.NDArray[np.float32] | npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class JudgementIndex:
    """Qrels arranged for lookups: query order, per-query grades and join tables.

    ``row_query``, ``grade`` and ``docid`` describe each qrels row. ``hashed`` is the
    join table of string document ids (see :meth:`join_table`), built with the index:
    it is also the check that no document is judged twice for a query. The distinct
    judged ids and the sorted (query, document) keys (``doc_values``, ``keys``,
    ``key_grades``), which only the lookups of runs with few judged documents need, are
    made on first use, as is what every run measured against the qrels reads the same
    (:attr:`ideal_order`, :attr:`relevant_total`, :attr:`top_grade`).
    """

    queries: tuple[str, ...]  # byte-wise sorted
    row_query: IntArray  # query index of each qrels row
    grade: IntArray  # grade of each qrels row
    docid: pa.Array  # judged document id of each qrels row
    hashed: JoinTable | None = field(default=None, repr=False)

    @property
    def n_queries(self) -> int:
        """Number of judged queries."""
        return len(self.queries)

    @functools.cached_property
    def _exact(self) -> tuple[pa.Array, IntArray, IntArray]:
        doc_values, keys, order = _exact_keys(self.docid, self.row_query)
        return doc_values, keys, self.grade[order]

    @property
    def doc_values(self) -> pa.Array:
        """The distinct judged document ids."""
        return self._exact[0]

    @property
    def keys(self) -> IntArray:
        """Sorted ``query_index * n_docs + doc_index`` of every judgement."""
        return self._exact[1]

    @property
    def key_grades(self) -> IntArray:
        """The grade of each of :attr:`keys`."""
        return self._exact[2]

    def join_table(self, hashed: bool) -> JoinTable | None:
        """The judgements as (query, document code) packed into one sorted 64-bit number
        (:func:`_join_keys`), and the qrels row of each: built once per qrels, it finds
        each run's judged rows by binary search (the hash table of a set lookup would be
        built again for every run).

        Document codes are as :func:`_doc_codes` gives them for a run: string hashes
        (``hashed``), or the ids' integer values. None when the codes cannot join: ids
        that are not integers, or two judged documents of a query with one code (``07``
        and ``7``, or a hash collision); the caller then looks the strings up.
        """
        return self.hashed if hashed else self._integer_join_table

    @functools.cached_property
    def _integer_join_table(self) -> JoinTable | None:
        ints = _integer_codes(self.docid)
        return None if ints is None else _join_table(self.row_query, ints, self.n_queries)

    @functools.cached_property
    def ideal_order(self) -> tuple[IntArray, npt.NDArray[np.float64], IntArray]:
        """The positive grades in the best order of each query: (query, grade, 1-based
        position), by query."""
        positive = np.flatnonzero(self.grade > 0)
        q = self.row_query[positive]
        g = self.grade[positive].astype(np.float64)
        order = np.lexsort((-g, q))
        q, g = q[order], g[order]
        counts = np.bincount(q, minlength=self.n_queries)
        starts = np.cumsum(counts) - counts
        pos = np.arange(len(q)) - np.repeat(starts, counts) + 1
        return q, g, pos

    @functools.cached_property
    def relevant_total(self) -> int:
        """Judgements of grade >= 1 (trec_eval's ``num_rel`` ``all`` line under ``-c``)."""
        return int(np.count_nonzero(self.grade >= 1))

    @functools.cached_property
    def top_grade(self) -> int:
        """The highest grade (0 without judgements)."""
        return int(self.grade.max()) if len(self.grade) else 0


#: Most bits of a join key that choose its bucket (a table of 2**20 bucket starts).
_BUCKET_BITS = 20


@dataclass(frozen=True, eq=False)
class JoinTable:
    """Sorted join keys (:func:`_join_keys`) of the judgements and the qrels row of
    each, with where each bucket of keys starts: the keys that share their top
    ``bits`` bits, about one per bucket, so that a key is looked for among a few."""

    keys: npt.NDArray[np.uint64]
    rows: IntArray
    starts: IntArray  # 2**bits + 1 positions in ``keys``
    bits: int

    @classmethod
    def build(cls, keys: npt.NDArray[np.uint64], rows: IntArray) -> JoinTable:
        """The table of ``keys`` (sorted) and their ``rows``."""
        bits = min(max(len(keys).bit_length(), 1), _BUCKET_BITS)
        counts = np.bincount((keys >> np.uint64(64 - bits)).astype(np.intp), minlength=1 << bits)
        starts = np.zeros(len(counts) + 1, dtype=np.int64)
        np.cumsum(counts, out=starts[1:])
        return cls(keys, rows, starts, bits)

    def find(self, wanted: npt.NDArray[np.uint64]) -> IntArray:
        """Where each of ``wanted`` would go in :attr:`keys` (``np.searchsorted``'s
        left side), found by a binary search within its bucket, all keys at once: a
        few steps instead of a search of the whole table per key."""
        bucket = (wanted >> np.uint64(64 - self.bits)).astype(np.intp)
        lo, hi = self.starts[bucket], self.starts[bucket + 1]
        width = int((hi - lo).max()) if len(wanted) else 0
        last = len(self.keys) - 1
        for _ in range(width.bit_length()):
            mid = (lo + hi) >> 1
            right = (mid < hi) & (self.keys[np.minimum(mid, last)] < wanted)
            lo = np.where(right, mid + 1, lo)
            hi = np.where(right, hi, mid)
        return lo


def _join_table(
    row_query: IntArray, doc_codes: npt.NDArray[np.integer], n_queries: int
) -> JoinTable | None:
    """The join table of the qrels rows; None if two rows share a key."""
    mixed = _join_keys(row_query, doc_codes, n_queries)
    order = np.argsort(mixed)
    mixed = mixed[order]
    if len(mixed) > 1 and bool((mixed[1:] == mixed[:-1]).any()):
        return None
    return JoinTable.build(mixed, order.astype(np.int64))


_SPREAD = np.uint64(0x9E3779B97F4A7C15)  # odd: a bijection of the low bits of a code


def _join_keys(
    query: IntArray, doc: npt.NDArray[np.integer], n_queries: int
) -> npt.NDArray[np.uint64]:
    """One 64-bit number per (query, document code): the query (``< n_queries``) in the
    high bits, below it the low bits of the code times an odd constant. Equal pairs give
    equal numbers, ordered by query; the product spreads a query's keys evenly over its
    range (integer ids too), so that the buckets of :class:`JoinTable` hold few keys
    each. Distinct integer codes (below 2**40) stay distinct up to 2**23 queries; hashes
    lose high bits (candidates are confirmed on the strings anyway)."""
    shift = np.uint64(64 - max(int(n_queries - 1).bit_length(), 1))
    with np.errstate(over="ignore"):
        keys: npt.NDArray[np.uint64] = doc.astype(np.uint64) * _SPREAD
    keys &= (np.uint64(1) << shift) - np.uint64(1)
    keys |= query.astype(np.uint64) << shift
    return keys


def _exact_keys(docid: pa.Array, row_query: IntArray) -> tuple[pa.Array, IntArray, IntArray]:
    """The distinct ids, the sorted keys ``query * n_docs + doc`` and the row of each."""
    encoded = pc.dictionary_encode(docid)  # one hash pass: distinct ids and codes
    doc_values = encoded.dictionary
    doc_index = to_numpy(encoded.indices).astype(np.int64)
    keys = row_query * max(len(doc_values), 1) + doc_index
    order = np.argsort(keys, kind="stable")
    return doc_values, keys[order], order


def index_qrels(qrels: Qrels) -> JudgementIndex:
    """Index qrels for :func:`rank_run`; a document judged twice for a query is an error.

    Examples
    --------
    >>> import pandas as pd
    >>> from irtables.model.runs import qrels_from_frame
    >>> idx = index_qrels(qrels_from_frame(pd.DataFrame(
    ...     {"query": ["2", "1"], "docid": ["a", "a"], "rel": [1, 0]})))
    >>> idx.queries, idx.row_query.tolist()
    (('1', '2'), [1, 0])
    """
    queries = qrels.queries
    row_query = _positions(qrels.qid, queries)
    table = _join_table(row_query, string_hashes(qrels.docid), len(queries))
    index = JudgementIndex(
        queries=queries, row_query=row_query, grade=qrels.grade, docid=qrels.docid, hashed=table
    )
    if table is None:  # a (query, id hash) twice: a document judged twice, or two ids' hash
        doc_values, keys, order = _exact_keys(qrels.docid, row_query)
        index.__dict__["_exact"] = (doc_values, keys, qrels.grade[order])
        dup = np.flatnonzero(keys[1:] == keys[:-1])
        if len(dup):
            row = int(order[dup[0] + 1])
            line = int(qrels.rows[row]) if qrels.rows is not None else row + 1
            raise InputError(
                f"document {qrels.docid[row]} is judged twice for query {qrels.qid[row]} "
                "(trec_eval refuses duplicate judgements)",
                path=qrels.source,
                line=line if qrels.source != "<frame>" else None,
            )
    return index


@dataclass(frozen=True, eq=False)
class Ranking:
    """The judged rows of a run in trec_eval order, as flat arrays.

    ``queries`` are indices into the qrels' query list (ascending) and ``lengths`` the
    number of documents retrieved for each (after the depth cut). The judged rows (the
    document has a judgement for the query) are listed by (query position, rank):
    ``segment`` is the position in ``queries``, ``rank`` the 1-based rank and
    ``judgement`` the grade, or ``UNJUDGED`` for a negative grade. Rows without a
    judgement are not listed: no measure needs more than their number.
    """

    queries: IntArray
    lengths: IntArray
    segment: IntArray
    rank: IntArray
    judgement: IntArray
    n_run_only: int  # queries of the run that the qrels do not judge

    @property
    def n_queries(self) -> int:
        """Number of queries (judged and retrieved)."""
        return len(self.queries)


def rank_run(
    index: JudgementIndex,
    run: Run,
    *,
    depth: int | None = None,
    version: TrecEvalVersion = DEFAULT_TREC_EVAL,
) -> Ranking:
    """Order a run as trec_eval ``version`` does and attach the judgements.

    Examples
    --------
    >>> import pandas as pd
    >>> from irtables.model.runs import qrels_from_frame, run_from_frame
    >>> idx = index_qrels(qrels_from_frame(pd.DataFrame(
    ...     {"query": ["1", "1"], "docid": ["a", "b"], "rel": [1, 0]})))
    >>> run = run_from_frame(pd.DataFrame({"query": ["1", "1", "1", "9"],
    ...     "docid": ["a", "b", "c", "a"], "score": [1.0, 1.0, 2.0, 5.0]}), name="r")
    >>> r = rank_run(idx, run)   # c (not judged) first, then the tie b > a
    >>> r.rank.tolist(), r.judgement.tolist(), r.lengths.tolist()
    ([2, 3], [0, 1], [3])
    """
    codes = run.query_codes
    lut = _positions(run.qid.dictionary, index.queries, missing=-1)
    used = np.bincount(codes, minlength=len(lut)) > 0
    n_run_only = int(np.count_nonzero(used & (lut < 0)))
    del used
    view = _SortedView.build(run, codes, ranking_scores(run.score, version))
    block_query = lut[view.block_code]
    doc_codes = None
    if 8 * len(index.grade) >= len(run) and len(run):  # deep judgements: join on codes
        doc_codes = _doc_codes(run.docid)
    rows, grades = _judged_rows(index, run, codes, lut, doc_codes)
    _check_duplicates(run, view, block_query, depth, doc_codes)
    del doc_codes
    rank = view.ranks(rows)
    block = view.block_of(rows)
    lengths = view.lengths
    if depth is not None:
        lengths = np.minimum(lengths, depth)
        inside = rank <= depth
        rank, block, grades = rank[inside], block[inside], grades[inside]
    kept = np.flatnonzero(block_query >= 0)
    kept = kept[np.argsort(block_query[kept], kind="stable")]
    position = np.full(len(block_query), -1, dtype=np.int64)
    position[kept] = np.arange(len(kept))
    segment = position[block]
    order = np.lexsort((rank, segment))
    return Ranking(
        queries=block_query[kept].astype(np.int64),
        lengths=lengths[kept].astype(np.int64),
        segment=segment[order],
        rank=rank[order],
        judgement=np.where(grades < 0, UNJUDGED, grades)[order].astype(np.int64),
        n_run_only=n_run_only,
    )


def _positions(ids: pa.Array, queries: tuple[str, ...], missing: int | None = None) -> IntArray:
    found = pc.index_in(ids, value_set=pa.array(queries, type=pa.string()))
    if missing is not None:
        found = pc.fill_null(found, missing)
    return to_numpy(found).astype(np.int64)


def take(values: pa.Array | pa.ChunkedArray, rows: IntArray) -> pa.Array:
    """``values[rows]``, chunk by chunk (Arrow's ``take`` would first join the chunks)."""
    if isinstance(values, pa.Array):
        return values.take(from_numpy(rows.astype(np.int64, copy=False)))
    if values.num_chunks == 0 or not len(rows):
        return pa.array([], type=values.type)
    bounds = np.cumsum([0] + [len(c) for c in values.chunks])
    chunk = np.searchsorted(bounds, rows, side="right") - 1
    by_chunk = np.argsort(chunk, kind="stable")
    sorted_rows = rows[by_chunk]
    cuts = np.searchsorted(chunk[by_chunk], np.arange(values.num_chunks + 1))
    parts = []
    for c in range(values.num_chunks):
        lo, hi = int(cuts[c]), int(cuts[c + 1])
        if lo < hi:
            picked = from_numpy((sorted_rows[lo:hi] - bounds[c]).astype(np.int64, copy=False))
            parts.append(values.chunk(c).take(picked))
    inverse = np.empty(len(rows), dtype=np.int64)
    inverse[by_chunk] = np.arange(len(rows))
    return pa.concat_arrays(parts).take(from_numpy(inverse))


def _judged_rows(
    index: JudgementIndex,
    run: Run,
    codes: npt.NDArray[np.int32],
    lut: IntArray,
    doc_codes: tuple[npt.NDArray[np.integer], bool] | None = None,
) -> tuple[IntArray, IntArray]:
    """Rows of the run whose document is judged for their (judged) query, and the grades.

    Few judged documents (MS MARCO): a bitmap of the rows whose id is judged, then their
    keys. Deep judgements: the run's document codes (``doc_codes``, also used by the
    duplicate check) are looked up in the qrels' join table, and every hit is confirmed
    on the strings; without a table, the ids are looked up in the judged ones.
    """
    if not len(index.grade) or not len(run):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    table = index.join_table(doc_codes[1]) if doc_codes is not None else None
    if doc_codes is not None and table is not None:
        return _joined_rows(index, run, codes, lut, doc_codes[0], table)
    if doc_codes is None:  # few judged documents (MS MARCO): a bitmap
        rows = np.flatnonzero(to_numpy(pc.is_in(run.docid, value_set=index.doc_values)))
        rows = rows[lut[codes[rows]] >= 0]
        found = pc.index_in(take(run.docid, rows), value_set=index.doc_values)
        doc = to_numpy(found).astype(np.int64)
    else:  # one hash pass finds the rows and their documents
        found_all = pc.fill_null(pc.index_in(run.docid, value_set=index.doc_values), -1)
        positions = to_numpy(found_all)
        rows = np.flatnonzero(positions >= 0)
        doc = positions[rows].astype(np.int64)
        del found_all, positions
        keep = lut[codes[rows]] >= 0
        rows, doc = rows[keep], doc[keep]
    query = lut[codes[rows]]
    keys = query * max(len(index.doc_values), 1) + doc
    pos = np.minimum(np.searchsorted(index.keys, keys), len(index.keys) - 1)
    hit = index.keys[pos] == keys
    return rows[hit], index.key_grades[pos[hit]].astype(np.int64)


def _joined_rows(
    index: JudgementIndex,
    run: Run,
    codes: npt.NDArray[np.int32],
    lut: IntArray,
    doc: npt.NDArray[np.integer],
    table: JoinTable,
) -> tuple[IntArray, IntArray]:
    """Judged rows by looking (query, document code) up in the qrels' join table (in
    file order: no sort); each candidate is kept only if its query and its document id
    (the strings) are equal."""
    query = lut[codes]
    rows = np.flatnonzero(query >= 0)
    run_keys = _join_keys(query[rows], doc[rows], index.n_queries)
    pos = np.minimum(table.find(run_keys), len(table.keys) - 1)
    hit = table.keys[pos] == run_keys
    rows, at = rows[hit], table.rows[pos[hit]]  # ``at``: the qrels row of each candidate
    same_query = index.row_query[at] == query[rows]
    judged_ids = take(index.docid, at)
    same_doc = to_numpy(pc.equal(take(run.docid, rows), judged_ids))
    keep = same_query & same_doc
    return rows[keep], index.grade[at[keep]].astype(np.int64)


@dataclass(frozen=True, eq=False)
class _SortedView:
    """The run grouped by query, scores descending within each query (ties unresolved).

    ``order`` maps sorted positions to rows (``None``: the file already is in that
    order, the usual case, and nothing is sorted). Each query is one block
    ``starts[b] : starts[b] + lengths[b]``; ``links`` are the positions ``i`` where
    rows ``i`` and ``i + 1`` of a block have the same score.
    """

    run: Run
    order: IntArray | None
    inverse: IntArray | None
    starts: IntArray
    lengths: IntArray
    block_code: IntArray
    links: IntArray

    @classmethod
    def build(cls, run: Run, codes: npt.NDArray[np.int32], score: ScoreArray) -> _SortedView:
        order = None if _in_trec_order(codes, score) else _lexsort(codes, score)
        q = codes if order is None else codes[order]
        s = score if order is None else score[order]
        if len(q):
            change = np.flatnonzero(q[1:] != q[:-1]) + 1
            starts = np.concatenate(([0], change)).astype(np.int64)
            links = np.flatnonzero((s[1:] == s[:-1]) & (q[1:] == q[:-1]))
        else:
            starts = links = np.zeros(0, dtype=np.int64)
        lengths = np.diff(np.append(starts, len(q))).astype(np.int64)
        block_code = q[starts].astype(np.int64)
        inverse = None
        if order is not None:
            inverse = np.empty(len(order), dtype=np.int64)
            inverse[order] = np.arange(len(order), dtype=np.int64)
        return cls(run, order, inverse, starts, lengths, block_code, links.astype(np.int64))

    def position(self, rows: IntArray) -> IntArray:
        """Sorted position of rows."""
        return rows if self.inverse is None else self.inverse[rows]

    def row(self, positions: IntArray) -> IntArray:
        """Rows at sorted positions."""
        return positions if self.order is None else self.order[positions]

    def block_of(self, rows: IntArray) -> IntArray:
        """Block (query) of each row."""
        return np.searchsorted(self.starts, self.position(rows), side="right") - 1

    def ranks(self, rows: IntArray) -> IntArray:
        """trec_eval rank (1-based) of each row: ties by document id descending."""
        pos = self.position(rows)
        block = np.searchsorted(self.starts, pos, side="right") - 1
        rank = pos - self.starts[block] + 1 if len(pos) else np.zeros(0, dtype=np.int64)
        if not len(self.links) or not len(pos):
            return rank
        links = self.links
        new = np.ones(len(links), dtype=bool)
        new[1:] = links[1:] != links[:-1] + 1
        first = links[new]  # a tie spans positions first[c] .. last[c] + 1
        last = links[np.append(new[1:], True)]
        cluster = np.searchsorted(first, pos, side="right") - 1
        tied = (cluster >= 0) & (pos <= last[np.maximum(cluster, 0)] + 1)
        if not tied.any():
            return rank
        wanted, which = np.unique(cluster[tied], return_inverse=True)
        sizes = last[wanted] - first[wanted] + 2
        offsets = np.cumsum(sizes) - sizes
        members = np.repeat(first[wanted] - offsets, sizes) + np.arange(int(sizes.sum()))
        table = pa.table(
            {
                "c": from_numpy(np.repeat(np.arange(len(wanted)), sizes)),
                "d": take(self.run.docid, self.row(members)),
            }
        )
        by_doc = to_numpy(
            pc.sort_indices(table, sort_keys=[("c", "ascending"), ("d", "descending")])
        )
        within = np.empty(len(members), dtype=np.int64)
        within[by_doc] = np.arange(len(members)) - np.repeat(offsets, sizes)
        me = offsets[which] + pos[tied] - first[wanted][which]
        rank[tied] = first[wanted][which] - self.starts[block[tied]] + within[me] + 1
        return rank


def _in_trec_order(codes: npt.NDArray[np.int32], score: ScoreArray) -> bool:
    """Whether each query is one block of rows with non-increasing scores."""
    if len(codes) < 2:
        return True
    same = codes[1:] == codes[:-1]
    if bool((same & (score[1:] > score[:-1])).any()):
        return False
    block_code = np.sort(codes[np.concatenate(([0], np.flatnonzero(~same) + 1))])
    return not bool((block_code[1:] == block_code[:-1]).any())  # (np.unique imports numpy.ma)


def _lexsort(codes: npt.NDArray[np.int32], score: ScoreArray) -> IntArray:
    order: IntArray = np.lexsort((-score, codes)).astype(np.int64)
    return order


def _check_duplicates(
    run: Run,
    view: _SortedView,
    block_query: IntArray,
    depth: int | None,
    doc_codes: tuple[npt.NDArray[np.integer], bool] | None = None,
) -> None:
    """trec_eval refuses a document retrieved twice for one query (within the depth).

    Documents get integer codes (their value when every id is an integer, which may
    collide, e.g. ``07`` and ``7``; otherwise a hash of the string), and each query's
    codes are sorted in a padded matrix; equal codes are re-checked on the strings.
    """
    judged_blocks = np.flatnonzero(block_query >= 0)
    if len(run) < 2 or not len(judged_blocks):
        return
    codes = (doc_codes or _doc_codes(run.docid))[0]
    if view.order is not None:
        codes = codes[view.order]
    lengths, starts = view.lengths[judged_blocks], view.starts[judged_blocks]
    width = int(lengths.max())
    total = int(lengths.sum())
    candidates: list[tuple[int, int]]
    if len(judged_blocks) == len(view.starts) and bool((lengths == width).all()):
        matrix = codes.reshape(len(lengths), width)  # a fresh array: sorted in place
        candidates = _matrix_repeats(matrix, judged_blocks, None)
    elif len(judged_blocks) * width > 2 * total + 1024:  # very uneven: one global sort
        seg = np.repeat(np.arange(len(starts)), lengths)
        pos = np.repeat(starts - np.cumsum(lengths) + lengths, lengths) + np.arange(total)
        candidates = [(int(judged_blocks[b]), c) for b, c in _repeated(seg, codes[pos])]
    else:
        sentinel = np.iinfo(codes.dtype).max
        matrix = np.full((len(starts), width), sentinel, dtype=codes.dtype)
        seg = np.repeat(np.arange(len(starts)), lengths)
        col = np.arange(total) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        matrix[seg, col] = codes[np.repeat(starts, lengths) + col]
        candidates = _matrix_repeats(matrix, judged_blocks, sentinel)
    del codes
    if candidates:
        _confirm_duplicates(run, view, candidates, depth)


def _matrix_repeats(
    matrix: npt.NDArray[np.integer], blocks: IntArray, sentinel: int | None
) -> list[tuple[int, int]]:
    matrix.sort(axis=1)
    hit = matrix[:, 1:] == matrix[:, :-1]
    if sentinel is not None:
        hit &= matrix[:, 1:] != sentinel
    rows, cols = np.nonzero(hit)
    if not len(rows):
        return []
    # each (block, code) once, however often it repeats: 300,000 copies are one candidate
    pairs = np.unique(np.stack([blocks[rows], matrix[rows, cols].astype(np.int64)]), axis=1)
    return [(int(b), int(c)) for b, c in pairs.T.tolist()]


def _confirm_duplicates(
    run: Run,
    view: _SortedView,
    candidates: list[tuple[int, int]],
    depth: int | None,
) -> None:
    """Confirm candidate repeats on the strings: each block (query) is visited once, for
    all its candidate codes, so the work is linear in the run whatever the repeats."""
    codes, _ = _doc_codes(run.docid)
    by_block: dict[int, list[int]] = {}
    for block, code in candidates:
        by_block.setdefault(block, []).append(code)
    found: list[tuple[int, str]] = []
    for block, block_codes in by_block.items():
        lo = int(view.starts[block])
        rows = view.row(np.arange(lo, lo + int(view.lengths[block])))
        rows = np.sort(rows[np.isin(codes[rows], np.asarray(block_codes))])
        if depth is not None:
            rows = rows[view.ranks(rows) <= depth]
        names = take(run.docid, rows).to_pylist()
        seen: set[str] = set()
        for row, name in zip(rows.tolist(), names, strict=True):
            if name in seen:
                found.append((row, name))
                break
            seen.add(name)
    if found:
        row, name = min(found)
        raise InputError(
            f"document {name} is retrieved twice for query {run.qid[row].as_py()} "
            "(trec_eval refuses duplicate documents; keep one line per document)",
            path=run.source,
            line=run.line_of(row),
        )


def _doc_codes(docid: pa.Array | pa.ChunkedArray) -> tuple[npt.NDArray[np.integer], bool]:
    """Integer codes of document ids, and whether they are string hashes.

    Integer ids are their own codes (int32 when they fit; ``07`` and ``7`` share one);
    other ids get a 62-bit hash of the string (8 bytes per row: dictionary-encoding them
    would hold every id a second time, and a hash table). Equal codes are candidates,
    confirmed on the strings by the callers.
    """
    ints = _integer_codes(docid)
    return (string_hashes(docid), True) if ints is None else (ints, False)


def _integer_codes(docid: pa.Array | pa.ChunkedArray) -> npt.NDArray[np.integer] | None:
    """The ids as integers (int32 when they fit), or None if one is not in [0, 2**40]."""
    chunks = docid.chunks if isinstance(docid, pa.ChunkedArray) else [docid]
    first = next((c for c in chunks if len(c)), None)
    if first is not None and not first[0].as_py().isdigit():  # "LA052189-0089": no cast
        return None
    out: npt.NDArray[np.integer] = np.empty(len(docid), dtype=np.int32)
    at = 0
    try:
        for chunk in chunks:
            values = to_numpy(pc.cast(chunk, pa.int64())).astype(np.int64, copy=False)
            if len(values) and (values.min() < 0 or values.max() > 2**40):
                return None
            if out.dtype == np.int32 and len(values) and values.max() >= 2**31 - 1:
                out = out.astype(np.int64)
            out[at : at + len(values)] = values
            at += len(values)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    return out


def _repeated(segment: IntArray, codes: npt.NDArray[np.integer]) -> list[tuple[int, int]]:
    """The (segment, code) pairs that occur more than once."""
    order = np.lexsort((codes, segment))
    seg, code = segment[order], codes[order]
    same = np.flatnonzero((seg[1:] == seg[:-1]) & (code[1:] == code[:-1]))
    return sorted({(int(seg[i]), int(code[i])) for i in same.tolist()})
