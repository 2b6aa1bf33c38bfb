"""Rendering a :class:`~irtables.tables.model.TableModel` as LaTeX, Markdown or CSV.

``render()`` is the chokepoint for escaping: every user string in the model (system and
dataset names, captions, descriptions) is escaped here before a template sees it.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from irtables.base.display import TABLE, register
from irtables.base.header import header_line
from irtables.errors import ConfigError, TemplateError, UnknownNameError, unknown_name_message

if TYPE_CHECKING:  # the table code is imported where a table is rendered: ``import irtables``
    # binds this module's ``render`` and must stay light
    from irtables.render.latex import LatexOptions
    from irtables.tables.model import Cell, Row, RowGroup, TableModel

#: Template folder and file extension of each templated format.
TEMPLATE_FOLDERS = {
    "latex": ("latex", "tex"),
    "markdown": ("markdown", "md"),
    "html": ("html", "html"),
}


@dataclass(frozen=True)
class Format:
    """An output format: its file extension and how a table is rendered in it (from the
    model, the user's template folders and the LaTeX options, which other formats ignore)."""

    name: str
    extension: str
    description: str
    render: Callable[[TableModel, Sequence[str | Path], LatexOptions | None], str]


def render(
    model: TableModel,
    fmt: str = "latex",
    *,
    template_dirs: Sequence[str | Path] = (),
    latex: LatexOptions | None = None,
) -> str:
    """Render a table model in one of :data:`FORMATS`.

    ``latex`` places a LaTeX table (``table*``, resizing:
    :class:`~irtables.render.latex.LatexOptions`; other formats ignore it). Without it a
    table is a ``table`` or ``table*`` as its width needs; ``irtables tables`` passes the
    configured choice, :func:`~irtables.render.latex.latex_options`.

    Examples
    --------
    >>> from irtables.tables.model import Cell, Column, Row, RowGroup, TableModel
    >>> model = TableModel("main", "t", "Table 1", ("System",), (Column("AP", "MAP"),),
    ...     (RowGroup(None, (Row("a", "BM25_x", (Cell(0.5, "0.500", best=True),)),)),),
    ...     "Caption.", "tab:t")
    >>> print(render(model, "csv"), end="")
    System,MAP,best,System id
    BM25_x,0.500,MAP,a
    """
    if fmt not in FORMATS:
        raise UnknownNameError(unknown_name_message("format", fmt, FORMATS))
    return FORMATS[fmt].render(model, template_dirs, latex)


def render_named(
    fmt: str, name: str, context: Mapping[str, object], dirs: Sequence[str | Path] = ()
) -> str:
    """Render the template ``<folder>/<name>`` of a templated format with ``context``.

    User template folders (``dirs``) override the built-in templates by name; a missing
    or failing template is a :class:`~irtables.errors.TemplateError`.
    """
    import jinja2  # imported where used: the command line's choices come from FORMATS

    from irtables.render.env import make_environment

    env = make_environment(fmt, dirs)
    path = f"{TEMPLATE_FOLDERS[fmt][0]}/{name}"
    try:
        return str(env.get_template(path).render(**context))
    except jinja2.TemplateNotFound as e:
        raise TemplateError(
            f"template not found: {e.name} (looked in {', '.join(map(str, dirs)) or 'built-ins'})"
        ) from None
    except jinja2.TemplateError as e:
        raise TemplateError(f"template {path}: {e}") from None


def _render_table(
    fmt: str, model: TableModel, context: dict[str, Any], dirs: Sequence[str | Path]
) -> str:
    return render_named(fmt, f"{model.layout}.{TEMPLATE_FOLDERS[fmt][1]}.j2", context, dirs)


def _render_latex(
    model: TableModel, dirs: Sequence[str | Path], options: LatexOptions | None
) -> str:
    from irtables.base.labels import label_problem
    from irtables.render.escape import escape_latex
    from irtables.render.latex import LatexOptions, latex_context

    problem = label_problem(model.label)
    if problem is not None:  # \label{} takes it as it is: a "}" would end it
        raise ConfigError(f"{model.name}: label {problem}")
    view = _escaped(model, escape_latex)
    ncols = latex_context(model, view, options or LatexOptions())
    context = {"generated": header_line("%"), "table": view, "ncols": ncols}
    return _render_table("latex", model, context, dirs)


def _render_markdown(model: TableModel, dirs: Sequence[str | Path], _: object) -> str:
    from irtables.render.escape import escape_markdown
    from irtables.render.flat import flat_cells, flat_headers, has_spans

    view = _escaped(model, escape_markdown)
    spans = has_spans(model)
    values = flat_headers(
        model,
        [c["label"] for c in view["columns"]],
        [g["label"] for g in view["column_groups"]],
        spans,
    )
    headers = [*view["stub"], *values]
    if view["description_header"]:
        headers.append(view["description_header"])
    body = []
    for group, raw in zip(view["groups"], model.groups, strict=True):
        if len(model.stub) == 1 and group["label"]:
            body.append([f"*{group['label']}*"] + [""] * (len(headers) - 1))
        for i, (row, raw_row) in enumerate(zip(group["rows"], raw.rows, strict=True)):
            stub = _stub(model, group["label"], row["label"], i)
            shown = [_md_cell(c) for c in row["cells"]]
            line = [*stub, *flat_cells(model, raw_row.cells, shown, "", spans)]
            if view["description_header"]:
                line.append(row["description"] or "")
            body.append(line)
    from irtables.base.texttable import Align, text_table

    left: list[Align] = ["left"]
    right: list[Align] = ["right"]
    align = left * len(model.stub) + right * len(values)
    if view["description_header"]:
        align.append("left")

    grid = text_table(body, headers, style="pipe", align=align)
    context = {"generated": header_line("<!--") + " -->", "table": view, "grid": grid}
    return _render_table("markdown", model, context, dirs)


def _render_html(model: TableModel, dirs: Sequence[str | Path], _: object) -> str:
    from markupsafe import Markup

    from irtables.render.escape import escape_html

    body = html_table(model, template_dirs=dirs)
    title = Markup(escape_html(f"{model.title}: {model.caption}"))
    generated = Markup(header_line("<!--") + " -->")
    context = {"generated": generated, "title": title, "body": Markup(body)}
    return render_named("html", "page.html.j2", context, dirs)


def html_table(model: TableModel, *, template_dirs: Sequence[str | Path] = ()) -> str:
    """The table as an HTML fragment (``<table>`` with its caption), every string escaped.

    This is what a notebook displays and what the supplement's ``index.html`` embeds;
    ``render(model, "html")`` wraps it in a self-contained page with its style sheet.
    """
    from markupsafe import Markup

    from irtables.render.escape import escape_html
    from irtables.render.latex import column_spans
    from irtables.tables.numbers import MISSING

    def esc(text: str) -> str:
        return Markup(escape_html(text))

    view = _escaped(model, esc)
    ncols = column_spans(model, view).total
    context = {"table": view, "ncols": ncols, "missing": MISSING}
    return _render_table("html", model, context, template_dirs)


def _render_csv(model: TableModel, dirs: Sequence[str | Path], _: object) -> str:
    """The displayed numbers; markers and an ablation's Δ in columns of their own, and
    which columns each row has bold (``best``) and underlined (``second_best``), then the
    ids of the labels (``Dataset id``, ``System id``). Numbers are the model's, in plain
    ASCII (``-0.034``), for a program to read."""
    from irtables.render.flat import flat_cells, flat_headers, has_spans
    from irtables.tables.numbers import MISSING

    del dirs  # CSV has no template
    buffer = io.StringIO()  # no comment line: pandas.read_csv reads the table as it is
    writer = csv.writer(buffer, lineterminator="\n")
    grouped = len(model.stub) == 1 and any(g.label for g in model.groups)
    spans = has_spans(model)
    labels = flat_headers(
        model, [c.label for c in model.columns], [g.label for g in model.column_groups], spans
    )
    rows: list[tuple[RowGroup, Row, list[str], list[str], list[str]]] = []
    for group in model.groups:
        for row in group.rows:
            shown = ["" if c.text == MISSING else c.text for c in row.cells]
            marks = [c.markers for c in row.cells]
            deltas = [c.delta for c in row.cells]
            rows.append(
                (
                    group,
                    row,
                    flat_cells(model, row.cells, shown, "", spans),
                    flat_cells(model, row.cells, marks, "", spans),
                    flat_cells(model, row.cells, deltas, "", spans),
                )
            )
    flags = _flag_columns(model, labels, spans)
    marked = [any(r[3][j] for r in rows) for j in range(len(labels))]
    delta = [any(r[4][j] for r in rows) for j in range(len(labels))]
    header = [*(["Group"] if grouped else []), *model.stub]
    for j, label in enumerate(labels):
        header += [label, *([f"{label} markers"] if marked[j] else [])]
        header += [f"{label} Δ"] if delta[j] else []
    header += [name for name, rows_flags in flags.items() if any(rows_flags)]
    if model.description_header:
        header.append(model.description_header)
    # the ids of the group's and the row's labels (a dataset's, a system's), after them all
    group_ids = (grouped or len(model.stub) > 1) and any(g.key for g in model.groups)
    header += [f"{'Group' if grouped else model.stub[0]} id"] if group_ids else []
    header.append(f"{model.stub[-1]} id")  # the row's id: a system's, or a parameter's
    writer.writerow(header)
    for i, (group, row, shown, marks, deltas) in enumerate(rows):
        stub = [group.label or "", row.label][-len(model.stub) - int(grouped) :]
        values: list[str] = []
        for j, text in enumerate(shown):
            values += [text, *([marks[j]] if marked[j] else []), *([deltas[j]] if delta[j] else [])]
        values += [row_flags[i] for row_flags in flags.values() if any(row_flags)]
        line = [*stub, *values]
        if model.description_header:
            line.append(row.description or "")
        line += [group.key or ""] if group_ids else []
        line.append(row.key)
        writer.writerow(line)
    return buffer.getvalue()


def _flag_columns(model: TableModel, labels: list[str], spans: bool) -> dict[str, list[str]]:
    """Per row, the columns (as headed in the CSV) whose value is bold (``best``) and
    underlined (``second_best``), joined by ``; ``."""
    from irtables.render.flat import flat_cells

    flags: dict[str, list[str]] = {"best": [], "second_best": []}
    for group in model.groups:
        for row in group.rows:
            best = flat_cells(model, row.cells, [c.best for c in row.cells], False, spans)
            second = flat_cells(model, row.cells, [c.second for c in row.cells], False, spans)
            flags["best"].append("; ".join(h for h, b in zip(labels, best, strict=True) if b))
            flags["second_best"].append(
                "; ".join(h for h, b in zip(labels, second, strict=True) if b)
            )
    return flags


def _stub(model: TableModel, group: str | None, row: str, index: int) -> list[str]:
    if len(model.stub) == 1:
        return [row]
    return [(group or "") if index == 0 else "", row]


def _md_cell(cell: dict[str, Any]) -> str:
    text = str(cell["text"])
    if cell["best"]:
        text = f"**{text}**"
    elif cell["second"]:
        text = f"<ins>{text}</ins>"
    spread = f" {cell['spread']}" if cell["spread"] else ""
    return f"{text}{spread}{cell['markers']}" + (f" {cell['note']}" if cell["note"] else "")


def _escaped(model: TableModel, esc: Callable[[str], str]) -> dict[str, Any]:
    """The model as plain data, every string escaped for the target format; numbers
    typeset (a typographic minus) and an ablation's Δ as the ``note`` after the value."""

    from irtables.render.latex import marker_pads
    from irtables.render.numbers import delta_note, typeset

    pads = marker_pads(model)

    def cell(c: Cell, pad: str) -> dict[str, Any]:
        return {
            "text": esc(typeset(c.text)),
            "best": c.best,
            "second": c.second,
            "markers": esc(c.markers),
            "pad": esc(pad),
            "note": esc(delta_note(c)),
            "spread": esc(typeset(c.spread)),
            "span": c.span,
        }

    return {
        "name": model.name,
        "title": esc(model.title),
        "layout": model.layout,
        "stub": [esc(s) for s in model.stub],
        "columns": [{"key": c.key, "label": esc(c.label)} for c in model.columns],
        "groups": [
            {
                "label": esc(g.label) if g.label else None,
                "rows": [
                    {
                        "label": esc(r.label),
                        "description": esc(r.description) if r.description else None,
                        "cells": [cell(c, pads.get((i, k, n), "")) for n, c in enumerate(r.cells)],
                    }
                    for k, r in enumerate(g.rows)
                ],
            }
            for i, g in enumerate(model.groups)
        ],
        "column_groups": [{"label": esc(g.label), "span": g.span} for g in model.column_groups],
        "caption": esc(model.caption_text),
        "footnote": esc(model.footnote) if model.footnote else None,
        "label": model.label,
        "description_header": esc(model.description_header) if model.description_header else None,
    }


FORMATS: dict[str, Format] = {
    "latex": Format(
        "latex", "tex", "LaTeX table (booktabs), compiles with pdflatex", _render_latex
    ),
    "markdown": Format(
        "markdown", "md", "GitHub pipe table, best values in bold", _render_markdown
    ),
    "csv": Format("csv", "csv", "the displayed numbers, one row per table row", _render_csv),
    "html": Format(
        "html", "html", "a self-contained, accessible HTML page holding the table", _render_html
    ),
}


def table_html(model: TableModel) -> str:
    """The table as a notebook shows it (Jupyter's ``_repr_html_``): the HTML fragment
    with its caption. The fragment carries what it needs inside someone else's page: the
    alignment padding is hidden by an inline style, and the label columns are left-aligned
    inline, so no style sheet is needed."""
    return html_table(model)


def table_markdown(model: TableModel) -> str:
    """The Markdown table as a notebook shows it (``_repr_markdown_``), without its
    generated-by comment line."""
    return render(model, "markdown").split("\n", 1)[1]


# A table model finds these in irtables.base.display without importing this layer.
register(TABLE, "text/html", table_html)
register(TABLE, "text/markdown", table_markdown)
