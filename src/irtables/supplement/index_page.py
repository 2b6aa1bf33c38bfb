"""``index.html``: the supplement as one web page, readable offline and on GitHub Pages.

Every section of the supplement, in the order of :data:`~irtables.supplement.sections.SECTIONS`:
the methods text, every table (as accessible HTML), the significance tests, the per-query
analysis, the meta-analysis and the topic-set size (from their Markdown files) and the
figures (PNG, with a link to the PDF). Every link is relative; nothing is loaded from elsewhere.
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
        "meta": _section(texts, "meta_analysis.md"),
        "tss": _section(texts, "topic_set_size.md"),
        "figures": figures,
        "notes": notes,
        "methods": _section(texts, "methods.md"),
        "sections": built.context["sections"],
        "table_formats": built.context["table_formats"],
    }
    page = render_page("html", "supplement_index.html.j2", context, template_dirs)
    return Output("index.html", page.encode("utf-8"))


def _section(texts: Mapping[str, str], path: str) -> Markup | None:
    text = texts.get(path)
    return None if text is None else Markup(markdown_html(text))


def markdown_html(text: str) -> str:
    """One of irtables' Markdown pages as HTML, set in a section of ``index.html``: the
    generated-by line dropped, its headings moved down so the highest is an ``<h3>``
    under the section's ``<h2>``.

    Raw HTML in the Markdown is not passed through (it is escaped), so user strings stay text.

    Examples
    --------
    >>> print(markdown_html("<!-- generated -->\\n# Title\\n\\n| a |\\n|---|\\n| <b> |\\n"), end="")
    <h3>Title</h3>
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
    levels = [len(line) - len(line.lstrip("#")) for line in lines if line.startswith("#")]
    down = "#" * max(0, 3 - min(levels, default=3))
    lines = [down + line if line.startswith("#") else line for line in lines]
    parser = MarkdownIt("commonmark", {"html": False}).enable("table")
    return "".join(
        table_html(block) if plain else str(parser.render("\n".join(block) + "\n"))
        for plain, block in split_tables(lines)
    )
