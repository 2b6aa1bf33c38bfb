"""The LaTeX view of a table model: sub-columns for Δ and ±, spans, header groups, fit.

A value column whose cells carry a Δ (ablation) or a ± (spread over seeds) becomes two
LaTeX columns, ``r@{\\hspace{2pt}}r``: the numbers line up on the decimal point in the
first and the Δ or ± parts line up with each other in the second, under one header.
Nothing here is formatting: the cells' text comes from the table model (typeset by
:mod:`irtables.render.numbers`).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from irtables.errors import LayoutWarning, user_stacklevel
from irtables.render.fit import (
    READABLE_PT,
    SUPERSCRIPT,
    TABLE_TYPE_PT,
    TEXT_HEIGHT_PT,
    float_height,
    needs_both_columns,
    scaled_type,
    tabular_width,
    text_width,
)
from irtables.render.numbers import delta_note, typeset
from irtables.tables.model import Cell, TableModel

if TYPE_CHECKING:
    from irtables.config import Config

DESCRIPTION_WIDTH = "3.6cm"
DESCRIPTION_PT = 102.4  # 3.6 cm
NOTE_SCALE = 0.78  # \scriptsize in \small


@dataclass(frozen=True)
class LatexOptions:
    """Where a table goes on a LaTeX page, chosen when it is rendered (the table model
    knows nothing of LaTeX).

    ``wide``: ``table*`` spanning both columns (True) or ``table`` (False); None decides
    from the content (:func:`~irtables.render.fit.needs_both_columns`). ``resize``: always
    scale the tabular to ``\\linewidth`` (else only a tabular wider than the line is).
    """

    wide: bool | None = None
    resize: bool = False


def latex_options(config: Config, table: TableModel) -> LatexOptions:
    """The LaTeX options ``irtables tables`` renders ``table`` with: the ``wide`` of the
    ``[tables.<name>]`` section that made it, else ``output.wide``; ``output.resize``.

    Examples
    --------
    >>> from dataclasses import replace
    >>> from irtables.config import parse_config
    >>> t = TableModel("grid", "g", "Table 2", ("Dataset",), (), (), "", "tab:g")
    >>> config = parse_config({"output": {"resize": True},
    ...     "tables": {"g": {"layout": "grid", "metric": "MAP", "wide": True}}})
    >>> latex_options(config, t), latex_options(config, replace(t, name="table1"))
    (LatexOptions(wide=True, resize=True), LatexOptions(wide=None, resize=True))
    """
    own = config.spec_of(table.name)
    wide = config.output.wide if own is None or own.wide is None else own.wide
    return LatexOptions(wide=wide, resize=config.output.resize)


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


def latex_context(model: TableModel, view: dict[str, Any], options: LatexOptions) -> int:
    """Add the LaTeX layout to an escaped view (spans, column specs, ``table*`` and
    resizing as ``options`` choose or, for ``wide=None``, from the width); the number of
    LaTeX columns."""
    cols = column_spans(model, view)
    view["value_colspec"] = "".join(r"r@{\hspace{2pt}}r" if s else "r" for s in cols.split)
    view["description_colspec"] = f"p{{{DESCRIPTION_WIDTH}}}"
    width = estimate_width(model, cols)
    wide = needs_both_columns(width) if options.wide is None else options.wide
    view["wide"], view["resize"] = wide, options.resize
    warn_layout(model, width, wide=wide)
    return cols.total


def warn_layout(model: TableModel, width: float, *, wide: bool) -> None:
    """Warn (:class:`~irtables.errors.LayoutWarning`) when the table will not read well in
    a two-column paper: scaled below a readable size, or taller than a page.

    ``width`` is the estimated natural width of the tabular (:func:`estimate_width`);
    ``wide`` whether it is a ``table*``. Each message names the table, says how far off
    it is and what to do.
    """
    where = f"{model.title} ({model.name})"
    size = scaled_type(width, wide)
    if size < READABLE_PT:
        line = "text width (table*)" if wide else "column"
        fix = "set wide = true, " if not wide else ""
        warnings.warn(
            f"{where}: LaTeX will scale it to {size / TABLE_TYPE_PT:.0%} to fit the {line}, "
            f"about {size:.1f} pt type; {fix}show fewer systems or columns, or split it",
            LayoutWarning,
            stacklevel=user_stacklevel(),
        )
    rows = (
        1
        + bool(model.column_groups)
        + sum(len(g.rows) + bool(g.label and len(model.stub) == 1) for g in model.groups)
    )
    height = float_height(rows, model.caption_text, model.footnote, wide)
    if height > TEXT_HEIGHT_PT:
        short = model.caption_notes in (None, "full") and model.notes
        fix = 'set caption_notes = "short" or "footnote", ' if short else ""
        warnings.warn(
            f"{where}: about {height:.0f} pt tall with its caption, more than a page "
            f"({TEXT_HEIGHT_PT:.0f} pt in acmart sigconf), so LaTeX may move it to the end "
            f"or lose it; {fix}show fewer rows (systems, metrics) or split it",
            LayoutWarning,
            stacklevel=user_stacklevel(),
        )


def estimate_width(model: TableModel, cols: LatexColumns) -> float:
    """Estimated natural width of the table's tabular, in points (:mod:`.fit`)."""
    n_stub = len(model.stub)
    widths = [0.0] * cols.total
    spans: list[tuple[int, int, float]] = []
    for i, stub_head in enumerate(model.stub):
        widths[i] = text_width(stub_head)
    for j, c in enumerate(model.columns):
        start = cols.start[j]
        spans.append((start, start + (2 if cols.split[j] else 1), text_width(c.label)))
    j = 0
    for head in model.column_groups:
        start = cols.start[j]
        spans.append((start, start + cols.span(j, head.span), text_width(head.label)))
        j += head.span
    pads = marker_pads(model)
    for g, group in enumerate(model.groups):
        if group.label and n_stub == 1:
            spans.append((0, cols.total, text_width(group.label) * 1.05))
        elif group.label:
            widths[0] = max(widths[0], text_width(group.label))
        for r, row in enumerate(group.rows):
            widths[n_stub - 1] = max(widths[n_stub - 1], text_width(row.label))
            for i, (j, cell) in enumerate(placed_cells(row.cells)):
                _measure_cell(cell, pads.get((g, r, i), ""), j, cols, widths, spans)
    if model.description_header:
        widths[-1] = DESCRIPTION_PT
    return tabular_width(widths, spans, subcolumns=sum(cols.split))


def _measure_cell(
    cell: Cell,
    pad: str,
    j: int,
    cols: LatexColumns,
    widths: list[float],
    spans: list[tuple[int, int, float]],
) -> None:
    if j >= len(cols.start):
        return
    text = typeset(cell.text)
    main = text_width(text, bold=cell.best) + text_width(cell.markers + pad, scale=SUPERSCRIPT)
    extra = text_width(typeset(cell.spread)) + text_width(delta_note(cell), scale=NOTE_SCALE)
    start = cols.start[j]
    if cell.span > 1:
        spans.append((start, start + cols.span(j, cell.span), main + extra + 3.0))
        return
    widths[start] = max(widths[start], main)
    if cols.split[j]:
        widths[start + 1] = max(widths[start + 1], extra)
