"""The HTML format: a self-contained, accessible page holding the table, and the
fragment a notebook or the supplement's ``index.html`` embeds."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from irtables.render.escape import escape_html
from irtables.render.numbers import typeset

if TYPE_CHECKING:
    from irtables.tables.model import TableModel

#: How a user string is escaped in this format (``typeset``, imported above, is how a
#: cell's number is typeset).
escape = escape_html


def render_table(model: TableModel, dirs: Sequence[str | Path], _: object) -> str:
    """The table in a self-contained HTML page with its style sheet."""
    from markupsafe import Markup

    from irtables.base.header import header_line
    from irtables.render.templates import render_named

    body = html_table(model, template_dirs=dirs)
    title = Markup(escape(f"{model.title}: {model.caption}"))
    generated = Markup(header_line("<!--") + " -->")
    context = {"generated": generated, "title": title, "body": Markup(body)}
    return render_named("html", "page.html.j2", context, dirs)


def html_table(model: TableModel, *, template_dirs: Sequence[str | Path] = ()) -> str:
    """The table as an HTML fragment (``<table>`` with its caption), every string escaped.

    This is what a notebook displays and what the supplement's ``index.html`` embeds;
    ``render(model, "html")`` wraps it in a self-contained page with its style sheet.
    """
    from markupsafe import Markup

    from irtables.render.columns import column_spans
    from irtables.render.templates import render_layout
    from irtables.render.view import escaped_view
    from irtables.tables.numbers import MISSING

    def esc(text: str) -> str:
        return Markup(escape(text))

    view = escaped_view(model, esc, typeset)
    ncols = column_spans(model, view).total
    context = {"table": view, "ncols": ncols, "missing": MISSING}
    return render_layout("html", model, context, template_dirs)
