"""Every value of a result set in one dense array, laid out once for every consumer.

A :class:`Layout` has one row per (dataset, system, query) present in the results,
ordered by those codes, and one column per metric (stored metric-major, so that a
metric's values over all rows are contiguous). Lint reads it as its grid of
(dataset, system, query) x measure; the statistics take their queries x systems
matrices from it (a system's queries of one dataset are a contiguous run of rows).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from irtables.model.factor import combine_codes

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class Layout:
    """Values of (dataset, system, query) rows x metric columns, NaN where absent.

    ``values[m, r]`` is metric ``m`` of row ``r``; row ``r`` is query ``row_query[r]``
    of block ``row_block[r]`` (``dataset * n_systems + system``, in codes); the rows of
    block ``b`` are ``block_start[b]:block_start[b + 1]``, in query-code order.
    ``present`` marks the cells that hold a row of the results when some values are NaN
    (None when every NaN cell is absent).
    """

    values: FloatArray
    row_block: IntArray
    row_query: IntArray
    block_start: IntArray
    n_systems: int
    query_rank: npt.NDArray[np.intp]
    present: npt.NDArray[np.bool_] | None = None
    _gathers: dict[tuple[int, tuple[int, ...]], tuple[IntArray, npt.NDArray[np.intp]]] = field(
        default_factory=dict, repr=False
    )
    _gaps: dict[int, npt.NDArray[np.bool_]] = field(default_factory=dict, repr=False)

    @classmethod
    def build(
        cls,
        codes: Sequence[npt.NDArray[np.integer[Any]]],
        sizes: Sequence[int],
        values: FloatArray,
        query_rank: npt.NDArray[np.intp],
    ) -> Layout:
        """Lay out rows given the codes and radices of dataset, system, query and metric
        (a unique key), their values and each query code's rank in string order."""
        dataset, system, query, metric = codes
        n_d, n_s, n_q, n_m = sizes
        key, space = combine_codes([dataset, system, query], [n_d, n_s, n_q])
        if space <= 8 * len(key) + 1_000_000:  # a bitmap over the key space: linear time
            seen = np.zeros(space, dtype=np.bool_)
            seen[key] = True
            rank = np.cumsum(seen, dtype=np.intp)
            rank -= 1
            row_of = rank[key]
            rows = np.flatnonzero(seen)
        else:
            rows, row_of = np.unique(key, return_inverse=True)
        del key
        grid = np.full((n_m, len(rows)), np.nan)
        grid[metric, row_of] = values
        present = None
        if np.isnan(values).any():  # a NaN value is a row all the same
            present = np.zeros(grid.shape, dtype=np.bool_)
            present[metric, row_of] = True
        del row_of
        row_block, row_query = np.divmod(rows.astype(np.int64), n_q)
        block_start = np.searchsorted(row_block, np.arange(n_d * n_s + 1)).astype(np.int64)
        return cls(grid, row_block, row_query, block_start, n_s, query_rank, present)

    def matrix(
        self, dataset: int, metric: int, systems: Sequence[int]
    ) -> tuple[IntArray, FloatArray]:
        """The query codes (in string order) and the systems x queries matrix of one
        dataset and metric (codes; a system code -1 has no values), NaN where a system
        lacks a query; one C-contiguous row per system. Only queries that some of the
        systems have for the metric are columns."""
        q_codes, index = self._gather(dataset, tuple(systems))
        out = self.values[metric].take(index)
        missing = index < 0
        if missing.any():
            out[missing] = np.nan
        gaps = np.isnan(out)
        if gaps.any():
            held = ~gaps
            if self.present is not None:
                held |= self.present[metric].take(index) & ~missing
            keep = held.any(axis=0)
            if not keep.all():
                return q_codes[keep], np.ascontiguousarray(out[:, keep])
        return q_codes, out

    def complete_rows(
        self, dataset: int, metric: int, systems: Sequence[int]
    ) -> tuple[IntArray, npt.NDArray[np.intp]] | None:
        """The query codes (string order) and the row of each (system, query) of one
        dataset and metric when every system has a value for every one of the queries
        (:meth:`matrix` is then ``values[metric].take(rows)``), else None."""
        q_codes, index = self._gather(dataset, tuple(systems))
        if self.present is not None or not len(index) or (index < 0).any():
            return None
        if self._has_gaps(dataset)[metric]:
            return None
        return q_codes, index

    def query_count(self, dataset: int) -> int:
        """The number of distinct queries that some system of ``dataset`` has a row for."""
        last = len(self.block_start) - 1
        lo = int(self.block_start[min(dataset * self.n_systems, last)])
        hi = int(self.block_start[min((dataset + 1) * self.n_systems, last)])
        return int(np.unique(self.row_query[lo:hi]).size)

    def _has_gaps(self, dataset: int) -> npt.NDArray[np.bool_]:
        """Per metric, whether any row of ``dataset`` lacks it (computed once)."""
        if dataset not in self._gaps:
            last = len(self.block_start) - 1
            lo = int(self.block_start[min(dataset * self.n_systems, last)])
            hi = int(self.block_start[min((dataset + 1) * self.n_systems, last)])
            self._gaps[dataset] = np.asarray(np.isnan(self.values[:, lo:hi]).any(axis=1))
        return self._gaps[dataset]

    def _gather(
        self, dataset: int, systems: tuple[int, ...]
    ) -> tuple[IntArray, npt.NDArray[np.intp]]:
        """Query codes in string order and the row of each (system, query), -1 if none;
        computed once per (dataset, systems)."""
        cached = self._gathers.get((dataset, systems))
        if cached is not None:
            return cached
        spans = [
            (int(self.block_start[b]), int(self.block_start[b + 1]))
            if s >= 0 and (b := dataset * self.n_systems + s) + 1 < len(self.block_start)
            else (0, 0)
            for s in systems
        ]
        held = [(lo, hi) for lo, hi in spans if hi > lo]
        first = self.row_query[held[0][0] : held[0][1]] if held else np.zeros(0, np.int64)
        if all(np.array_equal(self.row_query[lo:hi], first) for lo, hi in held[1:]):
            queries = first  # every system has the same queries: one order for all
            order = np.argsort(self.query_rank[queries], kind="stable")
            index = np.full((len(systems), len(queries)), -1, dtype=np.intp)
            for j, (lo, hi) in enumerate(spans):
                if hi > lo:
                    index[j] = order + lo
            result = (queries[order], index)
        else:
            result = self._union_gather(spans)
        self._gathers[(dataset, systems)] = result
        return result

    def _union_gather(
        self, spans: Sequence[tuple[int, int]]
    ) -> tuple[IntArray, npt.NDArray[np.intp]]:
        """As :meth:`_gather` for systems with different queries: their union."""
        n_q = len(self.query_rank)
        seen = np.zeros(n_q, dtype=np.bool_)
        for lo, hi in spans:
            seen[self.row_query[lo:hi]] = True
        queries = np.flatnonzero(seen)
        queries = queries[np.argsort(self.query_rank[queries], kind="stable")]
        position = np.zeros(n_q, dtype=np.intp)
        position[queries] = np.arange(len(queries))
        index = np.full((len(spans), len(queries)), -1, dtype=np.intp)
        for j, (lo, hi) in enumerate(spans):
            index[j, position[self.row_query[lo:hi]]] = np.arange(lo, hi)
        return queries.astype(np.int64), index
