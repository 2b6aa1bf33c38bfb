"""The Markdown format: a GitHub pipe table, best values in bold, second best underlined."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from irtables.base.markdown import escape_markdown
from irtables.render.numbers import typeset

if TYPE_CHECKING:
    from irtables.tables.model import TableModel

#: How a user string is escaped in this format (``typeset``, imported above, is how a
#: cell's number is typeset).
escape = escape_markdown


def render_table(model: TableModel, dirs: Sequence[str | Path], _: object) -> str:
    """The table as a Markdown page: its title and caption, the pipe table, the footnote."""
    from irtables.base.header import header_line
    from irtables.base.texttable import Align, text_table
    from irtables.render.flat import flat_cells, flat_headers, has_spans
    from irtables.render.templates import render_layout
    from irtables.render.view import escaped_view

    view = escaped_view(model, escape, typeset)
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
            stub = stub_cells(model, group["label"], row["label"], i)
            shown = [_md_cell(c) for c in row["cells"]]
            line = [*stub, *flat_cells(model, raw_row.cells, shown, "", spans)]
            if view["description_header"]:
                line.append(row["description"] or "")
            body.append(line)

    left: list[Align] = ["left"]
    right: list[Align] = ["right"]
    align = left * len(model.stub) + right * len(values)
    if view["description_header"]:
        align.append("left")

    grid = text_table(body, headers, style="pipe", align=align)
    context = {"generated": header_line("<!--") + " -->", "table": view, "grid": grid}
    return render_layout("markdown", model, context, dirs)


def stub_cells(model: TableModel, group: str | None, row: str, index: int) -> list[str]:
    """The label cells of row ``index`` of a group: its label, after the group's in the
    first row when the stub has two columns."""
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
