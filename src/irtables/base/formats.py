"""The output formats of a table: one :class:`Format` record each, in :data:`FORMATS`.

This is the one list of format names: the configuration's ``[output] formats`` check, the
command line's ``--format`` choices, the files the supplement writes and the reference
pages read it. Each record names the module of :mod:`irtables.render` that renders the
format (imported when a table is rendered, so this list loads nothing); the module
provides ``render_table``, ``escape`` and ``typeset`` (:class:`irtables.render.FormatModule`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

#: Jinja delimiters that leave LaTeX's braces alone: ``((* *))``, ``((( )))``, ``((= =))``.
LATEX_DELIMITERS: Mapping[str, str] = {
    "block_start_string": "((*",
    "block_end_string": "*))",
    "variable_start_string": "(((",
    "variable_end_string": ")))",
    "comment_start_string": "((=",
    "comment_end_string": "=))",
}


@dataclass(frozen=True)
class Format:
    """One output format of a table.

    ``name`` is what ``-f`` and ``[output] formats`` accept, ``title`` how a page names
    it (``LaTeX``); ``suffix`` the file
    extension; ``module`` the :mod:`irtables.render` module that renders it (its
    ``render_table``, its ``escape`` of user strings and its ``typeset`` of a cell's
    numbers); ``template_folder`` the folder of its Jinja templates (None: no template)
    and ``filter`` the name of its escape filter in every template; ``delimiters`` the
    Jinja delimiters of its templates (empty: Jinja's own). ``default``: written when
    ``[output] formats`` is not set; ``supplement``: the supplement holds every table in
    it.
    """

    name: str
    title: str
    suffix: str
    description: str
    module: str
    template_folder: str | None = None
    filter: str | None = None
    delimiters: Mapping[str, str] = field(default_factory=dict)
    default: bool = False
    supplement: bool = False


#: Every output format, by name, in the order the command line and the docs list them.
FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format(
            "latex",
            "LaTeX",
            "tex",
            "LaTeX table (booktabs), compiles with pdflatex",
            "irtables.render.latex",
            template_folder="latex",
            filter="tex",
            delimiters=LATEX_DELIMITERS,
            default=True,
            supplement=True,
        ),
        Format(
            "markdown",
            "Markdown",
            "md",
            "GitHub pipe table, best values in bold",
            "irtables.render.markdown",
            template_folder="markdown",
            filter="md",
            default=True,
            supplement=True,
        ),
        Format(
            "csv",
            "CSV",
            "csv",
            "the displayed numbers, one row per table row",
            "irtables.render.csv_table",
            default=True,
            supplement=True,
        ),
        Format(
            "html",
            "HTML",
            "html",
            "a self-contained, accessible HTML page holding the table",
            "irtables.render.html_page",
            template_folder="html",
            filter="html",
        ),
        Format(
            "typst",
            "Typst",
            "typ",
            "Typst figure (booktabs-like rules), compiles with typst",
            "irtables.render.typst",
            template_folder="typst",
            filter="typ",
        ),
    )
}

#: The formats written when ``[output] formats`` is not set.
DEFAULT_FORMATS: tuple[str, ...] = tuple(f.name for f in FORMATS.values() if f.default)
#: The formats the supplement writes every table in.
SUPPLEMENT_FORMATS: tuple[str, ...] = tuple(f.name for f in FORMATS.values() if f.supplement)

#: The text formats of the reports (significance tests, ANOVA tables): aligned columns
#: for the terminal, a Markdown page, CSV.
REPORT_FORMATS: tuple[str, ...] = ("terminal", "markdown", "csv")
#: The ANOVA tables are also written as LaTeX tables.
ANOVA_FORMATS: tuple[str, ...] = (*REPORT_FORMATS, "latex")
#: What ``irtables compare -o`` writes: a report format other than the terminal's.
REPORT_FILE_FORMATS: tuple[str, ...] = tuple(f for f in ANOVA_FORMATS if f != "terminal")
