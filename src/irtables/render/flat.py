"""One header row for the formats that have only one (Markdown, CSV).

Column groups join their column's header (``TREC DL 2019: NDCG@10``). A cell spanning
several columns (MAP in a K breakdown, which has no cutoff) is not put under the first
of them, where it would read as MAP@1: it goes to a column of its own, ``no cutoff``,
and the columns it spans stay empty.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from irtables.tables.model import Cell, TableModel

NO_CUTOFF = "no cutoff"
T = TypeVar("T")


def has_spans(model: TableModel) -> bool:
    """Whether any cell spans several columns (remembered for the last model asked
    about: a table is rendered row by row)."""
    last = _LAST_SPANS
    if last[0] is model:
        return last[1]
    found = any(c.span > 1 for g in model.groups for r in g.rows for c in r.cells)
    globals()["_LAST_SPANS"] = (model, found)
    return found


_LAST_SPANS: tuple[TableModel | None, bool] = (None, False)


def flat_headers(model: TableModel, labels: Sequence[str], groups: Sequence[str]) -> list[str]:
    """Value-column headers: ``group: label`` under a column group, plus ``no cutoff``.

    ``labels`` and ``groups`` are the (escaped) column and column-group labels.
    """
    out = list(labels)
    j = 0
    for head, text in zip(model.column_groups, groups, strict=True):
        for i in range(j, j + head.span):
            out[i] = f"{text}: {out[i]}"
        j += head.span
    if has_spans(model):
        out.append(NO_CUTOFF)
    return out


def flat_cells(model: TableModel, cells: Sequence[Cell], shown: Sequence[T], empty: T) -> list[T]:
    """A row's values under :func:`flat_headers`: spanning cells in the last column.

    ``shown`` is what each cell displays in the format (same order as ``cells``).
    """
    width = len(model.columns)
    out: list[T] = [empty] * width
    spanning: T = empty
    j = 0
    for cell, text in zip(cells, shown, strict=True):
        if cell.span > 1:
            spanning = text
        elif j < width:
            out[j] = text
        j += cell.span
    if has_spans(model):
        out.append(spanning)
    return out
