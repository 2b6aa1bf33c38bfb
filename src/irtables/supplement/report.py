"""Text forms of the per-query analysis and the significance rows: CSV, Markdown, template rows.

Pure: numbers are formatted here (templates do layout only); strings are returned.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from irtables.base.header import header_line
from irtables.base.texttable import markdown_table
from irtables.measures import parse_measure
from irtables.stats import Comparisons
from irtables.supplement.analysis import PerQuery, QueryChange
from irtables.tables.numbers import format_pvalue as pvalue

Names = Callable[[str], str]
WTL_HEADER = ("Dataset", "Metric", "System", "Baseline", "n", "Wins", "Ties", "Losses")
CHANGE_HEADER = ("Dataset", "Metric", "System", "Kind", "Query", "Baseline", "System value", "Δ")
SIG_HEADER = ("Dataset", "Metric", "System", "Baseline", "Δ", "95% CI", "p", "p adj", "", "d_z")
#: The same header as LaTeX: the statistics' symbols in math (the marker column unnamed).
SIG_HEADER_TEX = (
    "Dataset", "Metric", "System", "Baseline", r"$\Delta$", r"95\% CI", "$p$",
    r"$p_{\mathrm{adj}}$", "", "$d_z$",
)  # fmt: skip


def number(value: float | None, digits: int = 3) -> str:
    """A fixed-point number with an ASCII minus; empty for None or NaN.

    Examples
    --------
    >>> number(-0.12345), number(None), number(0.5, 2)
    ('-0.123', '', '0.50')
    """
    if value is None or math.isnan(value):
        return ""
    text = f"{value:.{digits}f}"
    return "0." + "0" * digits if text == "-0." + "0" * digits else text


def wtl_rows(analyses: Sequence[PerQuery], dataset: Names, system: Names) -> list[list[str]]:
    """Wins / ties / losses, one row per (dataset, metric, system)."""
    return [
        [
            dataset(p.dataset),
            parse_measure(p.metric).label,
            system(p.system),
            system(p.baseline),
            str(p.n),
            str(p.wins),
            str(p.ties),
            str(p.losses),
        ]
        for p in analyses
    ]


def change_rows(
    analyses: Sequence[PerQuery], top: int, dataset: Names, system: Names
) -> list[list[str]]:
    """The ``top`` largest gains and losses of each analysis (the failure cases)."""
    rows: list[list[str]] = []
    for p in analyses:
        for kind, changes in (("gain", p.top_gains(top)), ("loss", p.top_losses(top))):
            rows.extend(_change_row(p, kind, c, dataset, system) for c in changes)
    return rows


def _change_row(p: PerQuery, kind: str, c: QueryChange, dataset: Names, system: Names) -> list[str]:
    label = parse_measure(p.metric).label
    return [
        dataset(p.dataset),
        label,
        system(p.system),
        kind,
        c.query,
        number(c.baseline, 4),
        number(c.system, 4),
        number(c.diff, 4),
    ]


def significance_rows(
    c: Comparisons,
    dataset: Names,
    system: Names,
    *,
    floor: float = 0.0,
    tables: Sequence[str] | None = None,
) -> list[list[str]]:
    """Every comparison with the difference, its interval, raw and adjusted p (as
    :func:`pvalue` with ``floor`` prints them), the marker (``+`` better, ``−`` worse)
    in a column of its own, and d_z; with ``tables``, the title of the table each row
    backs first (:meth:`~irtables.tables.build.TableSet.per_table`)."""
    rows = []
    for i, r in enumerate(c.results):
        ci = f"[{number(r.ci.low)}, {number(r.ci.high)}]" if r.ci is not None else ""
        sig = {"better": "+", "worse": "−"}.get(r.outcome(c.alpha), "")
        rows.append(
            [
                dataset(r.dataset),
                parse_measure(r.metric).label,
                system(r.system),
                system(r.baseline),
                number(r.mean_diff),
                ci,
                pvalue(r.pvalue, floor),
                pvalue(r.p, floor),
                sig,
                number(r.effect_size, 2),
            ]
        )
        if tables is not None:
            rows[-1].insert(0, tables[i])
    return rows


def to_markdown(title: str, header: Sequence[str], rows: Sequence[Sequence[str]], note: str) -> str:
    """A Markdown page: the generated-by comment, a heading, a pipe table and a note."""
    return f"{header_line('<!--')} -->\n\n" + md_section(title, header, rows, note)


def md_section(
    title: str, header: Sequence[str], rows: Sequence[Sequence[str]], note: str, *, level: int = 1
) -> str:
    """A heading of ``level``, a note and a pipe table (a page's body or a part of one).

    Examples
    --------
    >>> print(md_section("Per dataset", ("a",), [["1"]], "Values.", level=2), end="")
    ## Per dataset
    <BLANKLINE>
    Values.
    <BLANKLINE>
    | a   |
    |-----|
    | 1   |
    """
    body = markdown_table(rows, header) if rows else "_(nothing to show)_"
    return f"{'#' * level} {title}\n\n{note}\n\n{body}\n"
