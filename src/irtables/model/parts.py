"""Result files kept apart: one :class:`Part` per file of one dataset and one system.

A study read from ``DIR/<dataset>/<system>.<ext>`` is a stack of files, each with one
dataset, one system and its own query and metric names. Kept as parts, everything the
tables need comes from the parts without stacking 14 million codes: the names in order
of first appearance, the mean of every (dataset, system, metric) (each part's sums, in
row order, so the same numbers as summing the stacked rows), and the dense layout (each
part's queries x metrics block, laid out in the worker thread that read the file).
The stacked codes and values are built only when a consumer asks for them.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from irtables.model.factor import (
    Factor,
    category_tables,
    first_appearances,
    smallest_code_type,
    stack_codes,
)
from irtables.workers.executor import available_cores

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class PartShape:
    """What the tables need of one part, computed once (in the thread that read it).

    ``sums`` and ``counts`` hold, per local metric code, the sum of its values (added in
    row order) and its number of rows; ``metric_order`` the local metric codes in order
    of first appearance. ``regular`` says that row ``i`` is query ``i // n_metrics`` and
    metric ``i % n_metrics`` (every (query, metric) once, in order); ``blocked`` that
    the part can be laid out as a metrics x queries block (no NaN value, which the
    layout could not tell from an absent row, and rows for every query name).
    """

    metric_order: tuple[int, ...]
    sums: FloatArray
    counts: IntArray
    regular: bool
    blocked: bool


def shape_of(query: Factor, metric: Factor, values: FloatArray) -> PartShape:
    """The :class:`PartShape` of a part's rows (query and metric codes >= 0, a unique key).

    Examples
    --------
    >>> q = Factor(("1", "2"), np.array([0, 0, 1, 1]))
    >>> m = Factor(("AP", "P@10"), np.array([0, 1, 0, 1]))
    >>> s = shape_of(q, m, np.array([0.5, 0.25, 0.75, 0.5]))
    >>> s.metric_order, s.sums.tolist(), s.regular, s.blocked
    ((0, 1), [1.25, 0.75], True, True)
    """
    n_q, n_m = len(query.categories), len(metric.categories)
    q, m = query.codes, metric.codes
    counts = np.bincount(m, minlength=n_m).astype(np.int64)
    sums = np.asarray(np.bincount(m, weights=values, minlength=n_m), dtype=np.float64)
    regular = len(values) == n_q * n_m and _is_regular(q, m, n_q, n_m)
    if regular:
        order = tuple(range(n_m))
    else:
        order = tuple(first_appearances(m, [(0, len(m))], int(np.count_nonzero(counts))))
    blocked = not np.isnan(sums).any() and (regular or bool(np.bincount(q, minlength=n_q).all()))
    return PartShape(order, sums, counts, regular, blocked)


def _is_regular(q: npt.NDArray[Any], m: npt.NDArray[Any], n_q: int, n_m: int) -> bool:
    """Whether row ``i`` is query ``i // n_m`` and metric ``i % n_m`` (every metric of
    the first query, then of the second ...)."""
    if n_q == 0 or n_m == 0:
        return False
    by_query = m.reshape(n_q, n_m)
    if not (by_query == np.arange(n_m, dtype=m.dtype)).all():
        return False
    return bool((q.reshape(n_q, n_m) == np.arange(n_q, dtype=q.dtype)[:, None]).all())


@dataclass(frozen=True, eq=False)
class Part:
    """The rows of one dataset and one system: their query and metric factors, values
    and :class:`PartShape`."""

    dataset: str
    system: str
    query: Factor
    metric: Factor
    values: FloatArray
    shape: PartShape

    def __len__(self) -> int:
        return len(self.values)


@dataclass(frozen=True, eq=False)
class PartsIndex:
    """The stacked categories of parts and each part's lookup tables into them.

    ``categories[c]`` are the names of key column ``c`` in order of first appearance
    (as stacking the parts' factors gives them); ``lut[c][i]`` maps part ``i``'s codes
    of ``c`` to stacked codes (for ``dataset`` and ``system``: a single code); ``starts``
    are the first rows of the parts in the stack (and its length).
    """

    categories: dict[str, tuple[str, ...]]
    lut: dict[str, list[IntArray]]
    starts: IntArray

    @classmethod
    def of(cls, parts: Sequence[Part]) -> PartsIndex:
        categories: dict[str, tuple[str, ...]] = {}
        lut: dict[str, list[IntArray]] = {}
        for column in ("dataset", "system"):
            categories[column], lut[column] = category_tables((getattr(p, column),) for p in parts)
        for column in ("query", "metric"):
            lists = (getattr(p, column).categories for p in parts)
            categories[column], lut[column] = category_tables(lists)
        sizes = np.array([len(p) for p in parts], dtype=np.int64)
        starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        return cls(categories, lut, starts)

    def stacked_codes(self, parts: Sequence[Part], column: str) -> Factor:
        """The stacked factor of one key column (codes of every row)."""
        cats = self.categories[column]
        if column in ("dataset", "system"):  # one code per part
            codes = np.array([t[0] for t in self.lut[column]], dtype=smallest_code_type(len(cats)))
            return Factor(cats, np.repeat(codes, np.diff(self.starts)))
        local = [getattr(p, column).codes for p in parts]
        return Factor(cats, stack_codes(self.lut[column], local, len(cats)))

    def part_of(self, rows: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.intp]:
        """The part holding each of some (stacked) rows."""
        return np.searchsorted(self.starts, rows, side="right") - 1


def layout_blocks(
    parts: Sequence[Part], index: PartsIndex
) -> tuple[FloatArray, IntArray, IntArray, IntArray] | None:
    """The layout of parts from their blocks: (grid, row block, row query, block starts),
    in the order of :class:`~irtables.model.layout.Layout`; None when a part cannot be
    laid out as a block (the layout is then built from the stacked codes)."""
    if not all(p.shape.blocked for p in parts):
        return None
    n_s = len(index.categories["system"])
    n_m = len(index.categories["metric"])
    block = [
        int(index.lut["dataset"][i][0]) * n_s + int(index.lut["system"][i][0])
        for i in range(len(parts))
    ]
    order = sorted(range(len(parts)), key=lambda i: block[i])
    widths = [len(index.lut["query"][i]) for i in order]
    n_rows = int(sum(widths))
    full = all(_identity(index.lut["metric"][i], n_m) for i in order)
    grid = np.empty((n_m, n_rows)) if full else np.full((n_m, n_rows), np.nan)
    row_block = np.empty(n_rows, dtype=np.int64)
    row_query = np.empty(n_rows, dtype=np.int64)
    work = []
    at = 0
    for i, width in zip(order, widths, strict=True):
        lut_q, lut_m = index.lut["query"][i], index.lut["metric"][i]
        # the rows of a block: its queries in stacked-code order
        pick = None if _increasing(lut_q) else np.argsort(lut_q, kind="stable")
        rows = slice(at, at + width)
        work.append((rows, parts[i], None if full else lut_m, pick))
        row_block[rows] = block[i]
        row_query[rows] = lut_q if pick is None else lut_q[pick]
        at += width
    # every part writes its own rows: on every core (numpy copies without the GIL, and
    # the new grid's pages are touched in parallel)
    with ThreadPoolExecutor(max_workers=min(available_cores(), len(work) or 1)) as pool:
        list(pool.map(lambda job: _place(grid, *job), work))
    n_blocks = len(index.categories["dataset"]) * n_s
    block_start = np.searchsorted(row_block, np.arange(n_blocks + 1)).astype(np.int64)
    return grid, row_block, row_query, block_start


def _place(
    grid: FloatArray,
    rows: slice,
    part: Part,
    lut_m: IntArray | None,
    pick: npt.NDArray[np.intp] | None,
) -> None:
    """Write a part's values into its rows of the grid (``lut_m``: its metrics' rows of
    the grid, None when they are all of them in order; ``pick``: its queries in the
    order of the rows, None when in code order)."""
    n_q, n_m = len(part.query.categories), len(part.metric.categories)
    if part.shape.regular:
        block = part.values.reshape(n_q, n_m).T  # a view: metrics x queries
        if pick is not None:
            block = block[:, pick]
        if lut_m is None:
            grid[:, rows] = block
        else:
            grid[lut_m, rows] = block
        return
    column = np.arange(n_q) if pick is None else np.argsort(pick)  # local query -> row
    target = grid[:, rows]  # a view
    target[...] = np.nan  # absent (query, metric) pairs
    metric_row = part.metric.codes if lut_m is None else lut_m[part.metric.codes]
    target[metric_row, column[part.query.codes]] = part.values


def _increasing(lut: IntArray) -> bool:
    return bool(len(lut) < 2 or (lut[1:] > lut[:-1]).all())


def _identity(lut: IntArray, n: int) -> bool:
    return len(lut) == n and bool((lut == np.arange(n)).all())
