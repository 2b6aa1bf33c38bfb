"""One header row for the formats that have only one (Markdown, CSV).

Column groups join their column's header (``TREC DL 2019: NDCG@10``). A cell spanning
several columns (MAP in a K breakdown, which has no cutoff) is not put under the first
of them, where it would read as MAP@1: it goes to a column of its own, ``no cutoff``,
and the columns it spans stay empty.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from irtables.tables.model import NO_CUTOFF, Cell, TableModel

T = TypeVar("T")


def has_spans(model: TableModel) -> bool:
    """Whether any cell spans several columns (then the flat views get a ``no cutoff``
    column)."""
    return any(c.span > 1 for g in model.groups for r in g.rows for c in r.cells)


def flat_headers(
    model: TableModel, labels: Sequence[str], groups: Sequence[str], spans: bool
) -> list[str]:
    """Value-column headers: ``group: label`` under a column group, plus ``no cutoff``.

    ``labels`` and ``groups`` are the (escaped) column and column-group labels; ``spans``
    is :func:`has_spans` of the model.
    """
    out = list(labels)
    j = 0
    for head, text in zip(model.column_groups, groups, strict=True):
        for i in range(j, j + head.span):
            out[i] = f"{text}: {out[i]}"
        j += head.span
    if spans:
        out.append(NO_CUTOFF)
    return out


def flat_cells(
    model: TableModel, cells: Sequence[Cell], shown: Sequence[T], empty: T, spans: bool
) -> list[T]:
    """A row's values under :func:`flat_headers`: spanning cells in the last column.

    ``shown`` is what each cell displays in the format (same order as ``cells``);
    ``spans`` is :func:`has_spans` of the model.
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
    if spans:
        out.append(spanning)
    return out
