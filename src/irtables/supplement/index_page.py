"""``index.html``: the supplement as one web page, readable offline and on GitHub Pages.

Every table (as accessible HTML), the significance tests and the per-query analysis
(from their Markdown files), the figures (PNG, with a link to the PDF) and the methods
text. Every link is relative; nothing is loaded from elsewhere.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from markupsafe import Markup

from irtables.base.header import header_line
from irtables.render import html_table
from irtables.render.escape import escape_html
from irtables.supplement.build import Built
from irtables.supplement.outputs import Output
from irtables.supplement.pipe_tables import split_tables, table_html
from irtables.supplement.templates import render_page


def index_page(built: Built, *, pdf: bool, template_dirs: Sequence[str | Path] = ()) -> Output:
    """The ``index.html`` of a built supplement (``pdf``: whether the PDF was compiled)."""
    texts = {o.path: o.data.decode("utf-8") for o in built.outputs if o.path.endswith(".md")}
    figures = built.context.get("figures", ())
    notes = built.context.get("notes", ())
    context = {
        "generated": Markup(header_line("<!--") + " -->"),
        "pdf": pdf,
        "tables": [
            {
                "name": built.stems[m.name],  # the files' names, as the writer made them
                "title": Markup(escape_html(m.title)),
                "html": Markup(html_table(m, template_dirs=template_dirs)),
            }
            for m in built.tables
        ],
        "significance": _section(texts, "significance.md"),
        "per_query": _section(texts, "per_query.md"),
        "failures": _section(texts, "failures.md"),
        "figures": figures,
        "notes": notes,
        "methods": _section(texts, "methods.md"),
    }
    page = render_page("html", "supplement_index.html.j2", context, template_dirs)
    return Output("index.html", page.encode("utf-8"))


def _section(texts: Mapping[str, str], path: str) -> Markup | None:
    text = texts.get(path)
    return None if text is None else Markup(markdown_html(text))


def markdown_html(text: str) -> str:
    """One of irtables' Markdown pages as HTML: generated-by line dropped, headings one down.

    Raw HTML in the Markdown is not passed through (it is escaped), so user strings stay text.

    Examples
    --------
    >>> print(markdown_html("<!-- generated -->\\n# Title\\n\\n| a |\\n|---|\\n| <b> |\\n"), end="")
    <h2>Title</h2>
    <table>
    <thead>
    <tr>
    <th>a</th>
    </tr>
    </thead>
    <tbody>
    <tr>
    <td>&lt;b&gt;</td>
    </tr>
    </tbody>
    </table>
    """
    from markdown_it import MarkdownIt

    lines = text.splitlines()
    if lines and lines[0].startswith("<!--"):
        lines = lines[1:]
    lines = ["#" + line if line.startswith("#") else line for line in lines]
    parser = MarkdownIt("commonmark", {"html": False}).enable("table")
    return "".join(
        table_html(block) if plain else str(parser.render("\n".join(block) + "\n"))
        for plain, block in split_tables(lines)
    )
