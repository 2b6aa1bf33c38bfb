"""How a table shows itself in a notebook (Jupyter's ``_repr_html_`` and
``_repr_markdown_``).

The functions are registered with :mod:`irtables.base.display` when :mod:`irtables.render`
is imported, which ``import irtables`` does; :class:`~irtables.tables.model.TableModel`
finds them there without importing this layer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from irtables.base.display import TABLE, register

if TYPE_CHECKING:
    from irtables.tables.model import TableModel


def table_html(model: TableModel) -> str:
    """The table as a notebook shows it: the HTML fragment with its caption.

    The fragment carries what it needs inside someone else's page: the alignment padding
    is hidden by an inline style, and the label columns are left-aligned inline, so no
    style sheet is needed.
    """
    from irtables.render import html_table

    return html_table(model)


def table_markdown(model: TableModel) -> str:
    """The Markdown table, without its generated-by comment line."""
    from irtables.render import render

    return render(model, "markdown").split("\n", 1)[1]


register(TABLE, "text/html", table_html)
register(TABLE, "text/markdown", table_markdown)
