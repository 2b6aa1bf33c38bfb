"""Text forms of :class:`~irtables.stats.Comparisons`: terminal, Markdown and CSV.

Pure: returns strings; the CLI writes them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from irtables.base.formats import REPORT_FORMATS
from irtables.base.header import header_line
from irtables.base.markdown import escape_markdown
from irtables.base.texttable import csv_text, markdown_table, text_table
from irtables.errors import UnknownNameError, unknown_name_message
from irtables.stats.rows import COLUMNS, ComparisonSet, comparison_row

if TYPE_CHECKING:
    from irtables.model.names import DisplayNames

_SHOWN = (
    ("dataset", "dataset"), ("metric", "metric"), ("system", "system"),
    ("baseline", "baseline"), ("system_mean", "mean"), ("baseline_mean", "base mean"),
    ("mean_diff", "diff"), ("n", "n"), ("pvalue", "p"), ("pvalue_adjusted", "p adj"),
    ("outcome", "sig"), ("effect_size", "d_z"), ("effect_size_e", "ES_E"), ("method", "method"),
)  # fmt: skip


def _shown(comparisons: ComparisonSet) -> tuple[tuple[str, str], ...]:
    """The columns shown: Sakai's ES_E only when a procedure on the ANOVA computed it."""
    if any(r.effect_size_e is not None for r in comparisons.results):
        return _SHOWN
    return tuple(c for c in _SHOWN if c[0] != "effect_size_e")


_SIGN = {"better": "+", "worse": "-", "none": ""}
#: The CSV's columns of display names, after the fields: (column, id column it names).
NAME_COLUMNS = (
    ("dataset_name", "dataset"),
    ("metric_label", "metric"),
    ("system_name", "system"),
    ("baseline_name", "baseline"),
)


def _number(value: object, digits: int) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _pvalue(value: object) -> str:
    if not isinstance(value, float):
        return ""
    return f"{value:.4f}" if value >= 1e-4 else f"{value:.1e}"


def _columns(comparisons: ComparisonSet) -> dict[str, list[object]]:
    """Each field of every comparison, a column at a time, typed as a frame types them:
    a column of numbers with a gap is a column of floats (the gap NaN), a column of
    nothing but gaps holds None."""
    rows = [comparison_row(r, comparisons.alpha) for r in comparisons.results]
    return {c: _typed([row[c] for row in rows]) for c in COLUMNS}


def _named(columns: dict[str, list[object]], shown: DisplayNames) -> dict[str, list[object]]:
    """The id columns' display names (:data:`NAME_COLUMNS`)."""
    show = {
        "dataset": shown.dataset,
        "metric": shown.metric,
        "system": shown.system,
        "baseline": shown.system,
    }
    return {
        name: [show[col](str(v)) if v is not None else None for v in columns[col]]
        for name, col in NAME_COLUMNS
    }


def _typed(values: list[object]) -> list[object]:
    kinds = set(map(type, values))
    if kinds == {float} or kinds == {str} or kinds == {int}:
        return values  # the usual columns: nothing to convert
    present = [v for v in values if v is not None]
    numeric = bool(present) and all(_is_number(v) for v in present)
    floats = any(isinstance(v, float | np.floating) for v in present)
    if numeric and (floats or len(present) < len(values)):
        return [math.nan if v is None else float(v) for v in values]  # type: ignore[arg-type]
    return values


def _is_number(value: object) -> bool:
    return isinstance(value, int | float | np.integer | np.floating) and not isinstance(
        value, bool | np.bool_
    )


def _csv_text(value: object) -> str:
    """A field as ``DataFrame.to_csv`` writes it: floats in their shortest form, gaps
    (None, NaN) empty."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _display_rows(
    comparisons: ComparisonSet, digits: int, names: DisplayNames | None = None
) -> list[list[object]]:
    columns = _columns(comparisons)
    if names is not None:
        named = _named(columns, names)
        for name, col in NAME_COLUMNS:
            columns[col] = named[name]
    shown: list[list[object]] = []
    for col, label in _shown(comparisons):
        values = columns[col]
        if label in ("mean", "base mean", "diff", "d_z", "ES_E"):
            shown.append([_number(v, digits) for v in values])
        elif label in ("p", "p adj"):
            shown.append([_pvalue(v) for v in values])
        elif label == "sig":
            shown.append([_SIGN.get(str(v), math.nan) for v in values])
        else:
            shown.append(values)
    return [list(row) for row in zip(*shown, strict=True)]


#: Columns of words (left-aligned when shown); the others hold numbers and marks.
_TEXT = {"dataset", "metric", "system", "baseline", "method"}


def comparisons_html(
    comparisons: ComparisonSet, digits: int = 4, *, names: DisplayNames | None = None
) -> str:
    """The terminal / Markdown table as an HTML table with the legend as its caption;
    with ``names``, datasets, systems and metrics as the tables show them.

    Every string is escaped; alignment is inline (words left, numbers right), and no
    cell wraps (a row is one line; a wide table scrolls), so the table reads the same in
    a notebook with no style sheet.

    Examples
    --------
    >>> from irtables.stats import Comparisons
    >>> empty = Comparisons((), test="t", correction="holm", family="metric", alpha=0.05)
    >>> comparisons_html(empty).splitlines()[0]
    '<table class="irtables-comparisons">'
    """
    import html

    def cell(tag: str, label: str, text: str) -> str:
        align = "left" if label in _TEXT else "right"
        style = f"text-align: {align}; white-space: nowrap"
        return f'<{tag} style="{style}">{html.escape(text)}</{tag}>'

    labels = [label for _, label in _shown(comparisons)]
    head = "".join(cell("th", label, label) for label in labels)
    body = [
        "<tr>"
        + "".join(
            cell("td", label, "" if v is None else f"{v}")
            for label, v in zip(labels, row, strict=True)
        )
        + "</tr>"
        for row in _display_rows(comparisons, digits, names)
    ]
    legend = html.escape(_legend(comparisons))
    return "\n".join(
        [
            '<table class="irtables-comparisons">',
            f'<caption style="text-align: left">{legend}</caption>',
            f"<thead><tr>{head}</tr></thead>",
            "<tbody>",
            *body,
            "</tbody>",
            "</table>",
        ]
    )


def format_comparisons(
    comparisons: ComparisonSet,
    fmt: str = "terminal",
    digits: int = 4,
    *,
    names: DisplayNames | None = None,
    tables: Sequence[str] | None = None,
) -> str:
    """Render comparisons as a terminal table, a Markdown table or CSV (every field).

    ``tables`` names the table each comparison backs the markers of (one title a row, a
    first column ``table``): a comparison that two tables show, corrected in each
    table's own family, is then a row of each.

    With ``names`` (the study's display names), the terminal and Markdown tables show
    datasets, systems and metrics as the tables do (metrics by their label, ``MAP``) and
    the CSV adds them in columns of their own after the fields (:data:`NAME_COLUMNS`),
    beside the ids. The tables round means to ``digits`` and mark significant results
    with ``+`` (better) or ``-`` (worse) after correction; CSV keeps full precision, one
    row per comparison, with no comment line (``pandas.read_csv`` reads it).

    Examples
    --------
    >>> from irtables.stats import Comparisons
    >>> empty = Comparisons((), test="t", correction="holm", family="metric", alpha=0.05)
    >>> format_comparisons(empty, "csv").splitlines()[0][:30]
    'dataset,metric,system,baseline'
    """
    if fmt not in REPORT_FORMATS:
        raise UnknownNameError(unknown_name_message("format", fmt, REPORT_FORMATS))
    if fmt == "csv":
        header = [*COLUMNS, *(name for name, _ in NAME_COLUMNS if names is not None)]
        columns = _columns(comparisons)
        if names is not None:
            columns.update(_named(columns, names))
        if tables is not None:
            header.insert(0, "table")
            columns["table"] = list(tables)
        return csv_text(
            header, ([_csv_text(columns[c][i]) for c in header] for i in range(len(comparisons)))
        )
    rows = [
        ["" if v is None else f"{v}" for v in row]
        for row in _display_rows(comparisons, digits, names)
    ]
    headers = [label for _, label in _shown(comparisons)]
    if tables is not None:
        rows = [[title, *row] for title, row in zip(tables, rows, strict=True)]
        headers.insert(0, "table")
    legend = _legend(comparisons)
    if fmt == "markdown":  # names from the data stay text
        table = markdown_table(rows, [escape_markdown(h) for h in headers])
        return f"{header_line('<!--')} -->\n\n{table}\n\n{escape_markdown(legend)}\n"
    return f"{text_table(rows, headers, style='simple')}\n{legend}\n"


def _legend(c: ComparisonSet) -> str:
    """What the report's columns mean; a one-sided test explains only the sign it can give.

    Examples
    --------
    >>> from irtables.stats import Comparisons
    >>> _legend(Comparisons((), "t", "holm", "metric", 0.05, alternative="greater"))[-74:]
    '+: significantly higher than the baseline at alpha = 0.05 (one-sided test)'
    """
    head = f"test: {c.test} ({c.alternative}); correction: {c.correction} per {c.family}; "
    side = {"greater": "+: significantly higher", "less": "-: significantly lower"}
    if c.alternative in side:
        tail = f"than the baseline at alpha = {c.alpha} (one-sided test)"
        return f"{head}{side[c.alternative]} {tail}"
    return f"{head}+/-: significantly better/worse than the baseline at alpha = {c.alpha}"
