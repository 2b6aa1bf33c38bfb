"""The two-way ANOVA tables (:func:`~irtables.stats.anova.anova_tables`) as text: terminal,
Markdown, CSV and LaTeX. Pure: returns strings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from irtables.base.formats import ANOVA_FORMATS
from irtables.base.texttable import csv_text, markdown_table, text_table
from irtables.errors import UnknownNameError, unknown_name_message
from irtables.render.escape import escape_latex, escape_markdown
from irtables.stats.anova import AnovaOf, AnovaRow

if TYPE_CHECKING:
    from irtables.model.names import DisplayNames

HEADERS = ("source", "SS", "df", "MS", "F", "p")


def _cells(row: AnovaRow) -> list[str]:
    f = "" if row.f is None else f"{row.f:.2f}"
    p = "" if row.pvalue is None else (f"{row.pvalue:.4f}" if row.pvalue >= 1e-4 else "< 0.0001")
    return [row.source, f"{row.ss:.4f}", str(row.df), f"{row.ms:.5f}", f, p]


def _title(a: AnovaOf, names: DisplayNames | None = None) -> str:
    """``TREC DL 2019, MAP: 3 systems x 43 topics``: display names with ``names``."""
    dataset = names.dataset(a.dataset) if names is not None else a.dataset
    metric = names.metric(a.metric) if names is not None else a.metric
    return f"{dataset}, {metric}: {len(a.systems)} systems x {a.n} topics"


def format_anova(
    tables: Sequence[AnovaOf], fmt: str = "terminal", *, names: DisplayNames | None = None
) -> str:
    """The ANOVA tables, one per dataset and metric (CSV: one file, full precision, ids).
    With ``names`` (the study's display names), headings name datasets and metrics as the
    tables do.

    Examples
    --------
    >>> from irtables.stats.anova import two_way_anova
    >>> a = AnovaOf("d", "AP", ("x", "y"), 3, two_way_anova([[0.2, 0.4], [0.3, 0.6], [0.1, 0.3]]))
    >>> format_anova([a], "csv").splitlines()[1]
    'd,AP,systems,0.08166666666666669,1,0.08166666666666669,49.00000000000001,0.019803941180393133'
    """
    if fmt not in ANOVA_FORMATS:  # an unknown name is not the terminal's format
        raise UnknownNameError(unknown_name_message("ANOVA format", fmt, ANOVA_FORMATS))
    if fmt == "csv":
        return csv_text(
            ["dataset", "metric", "source", "ss", "df", "ms", "f", "pvalue"],
            (
                [a.dataset, a.metric, r.source, repr(r.ss), r.df, repr(r.ms)]
                + ["" if v is None else repr(v) for v in (r.f, r.pvalue)]
                for a in tables
                for r in a.rows
            ),
        )
    if fmt == "latex":
        return "\n".join(_latex(a, names) for a in tables)
    if fmt == "markdown":
        return "\n".join(
            f"**{escape_markdown(_title(a, names))}**\n\n"
            + markdown_table([_cells(r) for r in a.rows], HEADERS)
            + "\n"
            for a in tables
        )
    return "\n".join(
        f"{_title(a, names)}\n{text_table([_cells(r) for r in a.rows], HEADERS, style='simple')}\n"
        for a in tables
    )


def _latex(a: AnovaOf, names: DisplayNames | None = None) -> str:
    rows = [" & ".join(escape_latex(c) for c in _cells(r)) + r" \\" for r in a.rows]
    body = "\n".join(rows)
    return (
        "\\begin{table}[tbp]\n\\centering\n"
        f"\\caption{{Two-way ANOVA without replication: {escape_latex(_title(a, names))}.}}\n"
        "\\begin{tabular}{lrrrrr}\n\\toprule\n"
        "Source & SS & df & MS & $F$ & $p$ \\\\\n\\midrule\n"
        f"{body}\n\\bottomrule\n\\end{{tabular}}\n\\end{{table}}\n"
    )
