"""Rendering a :class:`~irtables.tables.model.TableModel` in each output format.

One module per format (:mod:`~irtables.render.latex`, :mod:`~irtables.render.markdown`,
:mod:`~irtables.render.csv_table`, :mod:`~irtables.render.html_page`, ...), each named
by its record in :data:`FORMATS` (:mod:`irtables.base.formats`, the one list of format
names) and providing :class:`FormatModule`. ``render()`` is the chokepoint for escaping:
every user string in the model (system and dataset names, captions, descriptions) is
escaped by the format's module before a template sees it.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, cast

from irtables.base.display import TABLE, register
from irtables.base.formats import FORMATS, Format
from irtables.errors import UnknownNameError, unknown_name_message
from irtables.render.templates import render_named

if TYPE_CHECKING:  # the table code is imported where a table is rendered: ``import irtables``
    # binds this module's ``render`` and must stay light
    from irtables.render.latex import LatexOptions
    from irtables.tables.model import TableModel


class FormatModule(Protocol):
    """What the module of a :class:`~irtables.base.formats.Format` provides."""

    def render_table(
        self, model: TableModel, dirs: Sequence[str | Path], options: LatexOptions | None, /
    ) -> str:
        """The table in this format, from the model, the user's template folders and the
        LaTeX options (which other formats ignore)."""
        ...

    def escape(self, text: str, /) -> str:
        """A user string as this format shows it verbatim."""
        ...

    def typeset(self, text: str, /) -> str:
        """A cell's number text as this format shows it (e.g. a typographic minus)."""
        ...


def format_module(fmt: str) -> FormatModule:
    """The module that renders format ``fmt`` (imported now)."""
    if fmt not in FORMATS:
        raise UnknownNameError(unknown_name_message("format", fmt, FORMATS))
    return cast(FormatModule, importlib.import_module(FORMATS[fmt].module))


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
    return format_module(fmt).render_table(model, template_dirs, latex)


def html_table(model: TableModel, *, template_dirs: Sequence[str | Path] = ()) -> str:
    """The table as an HTML fragment (``<table>`` with its caption), every string escaped
    (:func:`irtables.render.html_page.html_table`)."""
    from irtables.render.html_page import html_table as fragment

    return fragment(model, template_dirs=template_dirs)


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

__all__ = [
    "FORMATS",
    "Format",
    "FormatModule",
    "format_module",
    "html_table",
    "render",
    "render_named",
    "table_html",
    "table_markdown",
]
