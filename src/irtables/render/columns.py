"""The columns of a typeset table (LaTeX, HTML, Typst): a value column whose cells carry a
Δ (ablation) or a ± (spread over seeds) becomes two columns, the numbers in the first and
the Δ or ± parts in the second, under one header; spans of cells and column groups; the
invisible marker padding that lines numbers up."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from irtables.tables.model import Cell, TableModel


@dataclass(frozen=True)
class LatexColumns:
    """How the value columns of a model map onto LaTeX columns."""

    split: tuple[bool, ...]  # value column j has a Δ / ± sub-column
    start: tuple[int, ...]  # first LaTeX column (0-based, after the stub) of value column j
    total: int  # LaTeX columns in all, stub and description included

    def span(self, first: int, count: int) -> int:
        """LaTeX columns covered by value columns ``first`` .. ``first + count - 1``."""
        return sum(2 if s else 1 for s in self.split[first : first + count])


def placed_cells(cells: tuple[Cell, ...]) -> Iterator[tuple[int, Cell]]:
    """Each cell with the index of the first value column it covers."""
    j = 0
    for cell in cells:
        yield j, cell
        j += cell.span


def marker_pads(model: TableModel) -> dict[tuple[int, int, int], str]:
    """The invisible rest of its column's longest marker, for each cell of a marked
    column: keyed by (group, row, cell) index. LaTeX sets it as ``\\phantom`` and HTML
    hides it, so numbers line up whether marked or not. A cell spanning columns has none.
    """
    width = len(model.columns)
    longest = [""] * width
    for group in model.groups:
        for row in group.rows:
            for j, cell in enumerate(row.cells[:width]):
                if len(cell.markers) > len(longest[j]):
                    longest[j] = cell.markers
    pads = {}
    for g, group in enumerate(model.groups):
        for r, row in enumerate(group.rows):
            for j, cell in enumerate(row.cells[:width]):
                if cell.span == 1 and len(longest[j]) > len(cell.markers):
                    pads[g, r, j] = longest[j][len(cell.markers) :]
    return pads


def latex_columns(model: TableModel) -> LatexColumns:
    """Which value columns need a Δ / ± sub-column, and where each starts."""
    split = [False] * len(model.columns)
    for group in model.groups:
        for row in group.rows:
            for j, cell in placed_cells(row.cells):
                if cell.span == 1 and j < len(split) and (cell.delta or cell.spread):
                    split[j] = True
    starts, pos = [], len(model.stub)
    for s in split:
        starts.append(pos)
        pos += 2 if s else 1
    total = pos + (1 if model.description_header else 0)
    return LatexColumns(tuple(split), tuple(starts), total)


def column_spans(model: TableModel, view: dict[str, Any]) -> LatexColumns:
    """Add the columns each cell and column group covers to an escaped view.

    LaTeX and HTML alike give a Δ / ± its own column: a cell or group spans ``colspan``
    of them, a split value column (``split``) two.
    """
    cols = latex_columns(model)
    for c, split in zip(view["columns"], cols.split, strict=True):
        c["split"] = split
    for group in view["groups"]:
        for row in group["rows"]:
            j = 0
            for cell in row["cells"]:
                cell["colspan"] = cols.span(j, cell["span"])
                cell["split"] = cell["span"] == 1 and j < len(cols.split) and cols.split[j]
                j += cell["span"]
    first = len(model.stub) + 1  # 1-based LaTeX column of the first value column
    groups, j = [], 0
    for head, g in zip(model.column_groups, view["column_groups"], strict=True):
        count = cols.span(j, head.span)
        begin = first + cols.span(0, j)
        groups.append({**g, "colspan": count, "first": begin, "last": begin + count - 1})
        j += head.span
    view["column_groups"] = groups
    return cols
