"""Text forms of :class:`~irtables.stats.Comparisons`: terminal, Markdown and CSV.

Pure: returns strings; the CLI writes them.
"""

from __future__ import annotations

import csv
import io
import math
from typing import TYPE_CHECKING

import numpy as np

from irtables.base.header import header_line
from irtables.base.texttable import Style, text_table
from irtables.errors import UnknownNameError, unknown_name_message
from irtables.stats.rows import COLUMNS, ComparisonSet, comparison_row

if TYPE_CHECKING:
    import pandas as pd

REPORT_FORMATS: tuple[str, ...] = ("terminal", "markdown", "csv")
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


def _display_rows(comparisons: ComparisonSet, digits: int) -> list[list[object]]:
    columns = _columns(comparisons)
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


def _display_frame(comparisons: ComparisonSet, digits: int) -> pd.DataFrame:
    import pandas as pd

    labels = [label for _, label in _shown(comparisons)]
    return pd.DataFrame(_display_rows(comparisons, digits), columns=labels)


def comparisons_html(comparisons: ComparisonSet, digits: int = 4) -> str:
    """The terminal / Markdown table as an HTML table with the legend as its caption."""
    import html

    shown = _display_frame(comparisons, digits)
    table = shown.to_html(index=False, escape=True, border=0)
    head, rest = table.split("\n", 1)
    return f"{head}\n  <caption>{html.escape(_legend(comparisons))}</caption>\n{rest}"


def format_comparisons(comparisons: ComparisonSet, fmt: str = "terminal", digits: int = 4) -> str:
    """Render comparisons as a terminal table, a Markdown table or CSV (every field).

    The terminal and Markdown tables round means to ``digits`` and mark significant
    results with ``+`` (better) or ``-`` (worse) after correction; CSV keeps full
    precision, one row per comparison, with no comment line (``pandas.read_csv`` reads it).

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
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(COLUMNS)
        columns = _columns(comparisons)
        writer.writerows(
            [_csv_text(columns[c][i]) for c in COLUMNS] for i in range(len(comparisons))
        )
        return buffer.getvalue()
    rows = [
        ["" if v is None else f"{v}" for v in row] for row in _display_rows(comparisons, digits)
    ]
    headers = [label for _, label in _shown(comparisons)]
    style: Style = "github" if fmt == "markdown" else "simple"
    table = text_table(rows, headers, style=style)
    legend = _legend(comparisons)
    if fmt == "markdown":
        return f"{header_line('<!--')} -->\n\n{table}\n\n{legend}\n"
    return f"{table}\n{legend}\n"


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
