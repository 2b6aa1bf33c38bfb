"""Text forms of :class:`~irtables.stats.Comparisons`: terminal, Markdown and CSV.

Pure: returns strings; the CLI writes them.
"""

from __future__ import annotations

import math

import pandas as pd
from tabulate import tabulate

from irtables.base.header import header_line
from irtables.errors import UnknownNameError, unknown_name_message
from irtables.stats.comparisons import Comparisons

REPORT_FORMATS: tuple[str, ...] = ("terminal", "markdown", "csv")
_SHOWN = (
    ("dataset", "dataset"), ("metric", "metric"), ("system", "system"),
    ("baseline", "baseline"), ("system_mean", "mean"), ("baseline_mean", "base mean"),
    ("mean_diff", "diff"), ("n", "n"), ("pvalue", "p"), ("pvalue_adjusted", "p adj"),
    ("outcome", "sig"), ("effect_size", "d_z"), ("method", "method"),
)  # fmt: skip


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


def _display_frame(comparisons: Comparisons, digits: int) -> pd.DataFrame:
    frame = comparisons.to_frame()
    shown = pd.DataFrame({label: frame[col] for col, label in _SHOWN})
    for label in ("mean", "base mean", "diff", "d_z"):
        shown[label] = [_number(v, digits) for v in shown[label].astype(object)]
    for label in ("p", "p adj"):
        shown[label] = [_pvalue(v) for v in shown[label].astype(object)]
    shown["sig"] = shown["sig"].map({"better": "+", "worse": "-", "none": ""})
    return shown


def comparisons_html(comparisons: Comparisons, digits: int = 4) -> str:
    """The terminal / Markdown table as an HTML table with the legend as its caption."""
    import html

    shown = _display_frame(comparisons, digits)
    table = shown.to_html(index=False, escape=True, border=0)
    head, rest = table.split("\n", 1)
    return f"{head}\n  <caption>{html.escape(_legend(comparisons))}</caption>\n{rest}"


def format_comparisons(comparisons: Comparisons, fmt: str = "terminal", digits: int = 4) -> str:
    """Render comparisons as a terminal table, a Markdown table or CSV (every field).

    The terminal and Markdown tables round means to ``digits`` and mark significant
    results with ``+`` (better) or ``-`` (worse) after correction; CSV keeps full
    precision, one row per comparison, with no comment line (``pandas.read_csv`` reads it).

    Examples
    --------
    >>> empty = Comparisons((), test="t", correction="holm", family="metric", alpha=0.05)
    >>> format_comparisons(empty, "csv").splitlines()[0][:30]
    'dataset,metric,system,baseline'
    """
    if fmt not in REPORT_FORMATS:
        raise UnknownNameError(unknown_name_message("format", fmt, REPORT_FORMATS))
    if fmt == "csv":
        return str(comparisons.to_frame().to_csv(index=False, lineterminator="\n"))
    shown = _display_frame(comparisons, digits)
    table = tabulate(
        shown.to_numpy(dtype=object).tolist(),
        headers=list(shown.columns),
        tablefmt="github" if fmt == "markdown" else "simple",
        showindex=False,
        disable_numparse=True,
    )
    legend = _legend(comparisons)
    if fmt == "markdown":
        return f"{header_line('<!--')} -->\n\n{table}\n\n{legend}\n"
    return f"{table}\n{legend}\n"


def _legend(c: Comparisons) -> str:
    return (
        f"test: {c.test} ({c.alternative}); correction: {c.correction} per {c.family}; "
        f"+/-: significantly better/worse than the baseline at alpha = {c.alpha}"
    )
