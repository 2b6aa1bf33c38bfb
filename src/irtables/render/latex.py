"""The LaTeX format: a table model as a booktabs table; sub-columns for Δ and ±, spans,
header groups, fit.

A value column whose cells carry a Δ (ablation) or a ± (spread over seeds) becomes two
LaTeX columns, ``r@{\\hspace{2pt}}r`` (:mod:`irtables.render.columns`): the numbers line
up on the decimal point in the first and the Δ or ± parts line up with each other in the
second, under one header.
Nothing here is formatting: the cells' text comes from the table model (typeset by
:mod:`irtables.render.numbers`).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from irtables.errors import LayoutWarning, user_stacklevel
from irtables.render.columns import LatexColumns, column_spans, marker_pads, placed_cells
from irtables.render.escape import escape_latex
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
    from collections.abc import Sequence
    from pathlib import Path

    from irtables.config import Config

#: How a user string is escaped in this format (and ``typeset``, imported above, is how
#: a cell's number is typeset).
escape = escape_latex

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


def render_table(
    model: TableModel, dirs: Sequence[str | Path], options: LatexOptions | None
) -> str:
    """The table as a LaTeX ``table`` float (``options``: where it goes on the page)."""
    from irtables.base.header import header_line
    from irtables.base.labels import label_problem
    from irtables.errors import ConfigError
    from irtables.render.templates import render_layout
    from irtables.render.view import escaped_view

    problem = label_problem(model.label)
    if problem is not None:  # \label{} takes it as it is: a "}" would end it
        raise ConfigError(f"{model.name}: label {problem}")
    view = escaped_view(model, escape, typeset)
    ncols = latex_context(model, view, options or LatexOptions())
    context = {"generated": header_line("%"), "table": view, "ncols": ncols}
    return render_layout("latex", model, context, dirs)
