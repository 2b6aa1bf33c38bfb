"""Plain-text tables of strings: Markdown pipe tables, aligned columns and CSV.

The one writer of the reports' tables (significance, ANOVA, diff, the supplement's
analyses) and of the Markdown tables: :func:`text_table` lays a grid out,
:func:`markdown_table` escapes the cells of a report for Markdown first, and
:func:`csv_text` writes a header row and rows as CSV.

The reports irtables writes (significance, per-query analysis, diffs) and its Markdown
tables are grids of strings it has already formatted. ``tabulate`` lays them out, but
spends most of its time working out the type of every cell, which for strings it does
not need (a significance report of 1,800 comparisons: 0.1 s of the ``tables`` command).
:func:`text_table` gives the same text as ``tabulate(rows, headers, tablefmt=style,
colalign=align, disable_numparse=True)`` for cells of printable ASCII on one line, which
is what irtables writes, and asks tabulate itself for anything else (line breaks,
terminal codes, characters whose display width tabulate may measure otherwise).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Collection, Iterable, Sequence
from typing import Literal

from irtables.base.markdown import escape_markdown
from irtables.base.spreadsheet import spreadsheet_text

Style = Literal["pipe", "github", "simple"]
Align = Literal["left", "right"]

_PLAIN = re.compile(r"[ -~]*")  # printable ASCII, no tab or line break
MIN_PADDING = 2  # tabulate's: a column is at least its header's width + 2


def text_table(
    rows: Sequence[Sequence[str]],
    headers: Sequence[str],
    *,
    style: Style,
    align: Sequence[Align] | None = None,
) -> str:
    """``rows`` under ``headers`` as a pipe table, a GitHub table or aligned columns.

    ``align`` (default: all left) sets each column's alignment; cells are stripped of
    surrounding spaces, as tabulate does.

    Examples
    --------
    >>> print(text_table([["a", "0.5"], ["bcd", "10.25"]], ["x", "value"], style="pipe",
    ...                  align=["left", "right"]))
    | x   |   value |
    |:----|--------:|
    | a   |     0.5 |
    | bcd |   10.25 |
    >>> print(text_table([["a", "1"]], ["name", "n"], style="simple"))
    name    n
    ------  ---
    a       1
    """
    aligns: list[str] = list(align) if align is not None else ["left"] * len(headers)
    if not _fast_path(rows, headers, aligns):
        return _tabulate(rows, headers, style, aligns)
    cells = [[c.strip() for c in row] for row in rows]
    widths = [len(h) + MIN_PADDING for h in headers]
    for row in cells:
        widths = [max(w, len(c)) for w, c in zip(widths, row, strict=True)]

    fields = [
        "{:" + (">" if a == "right" else "<") + str(w) + "}"  # a format field per column
        for w, a in zip(widths, aligns, strict=True)
    ]
    template = "  ".join(fields) if style == "simple" else "| " + " | ".join(fields) + " |"

    def line(values: Sequence[str]) -> str:
        text = template.format(*values)
        return text.rstrip() if style == "simple" else text

    if style == "simple":
        rule = "  ".join("-" * w for w in widths)
    elif style == "github":
        rule = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    else:
        rule = "|" + "|".join(_pipe_rule(w + 2, a) for w, a in zip(widths, aligns, strict=True))
        rule += "|"
    return "\n".join([line(headers), rule, *(line(row) for row in cells)])


def markdown_table(
    rows: Sequence[Sequence[str]],
    headers: Sequence[str],
    *,
    raw_columns: Collection[int] = (),
) -> str:
    """A GitHub Markdown table of a report's text cells, each escaped for Markdown (names
    from the data stay text) but those of ``raw_columns``, which hold Markdown already.
    ``headers`` are written as given.

    Examples
    --------
    >>> print(markdown_table([["BM25_x", "**0.5**"]], ["run", "MAP"], raw_columns={1}))
    | run     | MAP     |
    |---------|---------|
    | BM25\\_x | **0.5** |
    """
    shown = [
        [c if j in raw_columns else escape_markdown(c) for j, c in enumerate(row)] for row in rows
    ]
    return text_table(shown, headers, style="github")


def csv_text(header: Sequence[object], rows: Iterable[Sequence[object]]) -> str:
    """CSV: a header row, then the rows, ``\\n`` line ends and no comment line, so that
    ``pandas.read_csv`` reads it as it is. A text cell that a spreadsheet would run as a
    formula (``=``, ``+``, ``-``, ``@`` first, not a number) is written as text
    (:func:`~irtables.base.spreadsheet.spreadsheet_text`); numbers stay numbers.

    Examples
    --------
    >>> csv_text(["a", "b"], [["x, y", 1]])
    'a,b\\n"x, y",1\\n'
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow([_cell(h) for h in header])
    writer.writerows([_cell(c) for c in row] for row in rows)
    return buffer.getvalue()


def _cell(value: object) -> object:
    return spreadsheet_text(value) if isinstance(value, str) else value


def _pipe_rule(width: int, align: str) -> str:
    return "-" * (width - 1) + ":" if align == "right" else ":" + "-" * (width - 1)


def _fast_path(rows: Sequence[Sequence[str]], headers: Sequence[str], aligns: list[str]) -> bool:
    """Whether every cell is a one-line printable ASCII string in a rectangular grid."""
    n = len(headers)
    if not rows or not n or len(aligns) != n or any(a not in ("left", "right") for a in aligns):
        return False
    texts = [*headers, *(c for row in rows for c in row)]
    if any(len(row) != n for row in rows) or not all(isinstance(t, str) for t in texts):
        return False
    return _PLAIN.fullmatch("".join(texts)) is not None


def _tabulate(
    rows: Sequence[Sequence[str]], headers: Sequence[str], style: Style, aligns: list[str]
) -> str:
    from tabulate import tabulate

    return tabulate(
        rows,
        headers=list(headers),
        tablefmt=style,
        colalign=aligns,
        showindex=False,
        disable_numparse=True,
    )
