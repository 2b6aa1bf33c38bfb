"""The Typst format: a table model as a Typst ``figure`` holding a ``table``.

Booktabs-like rules (``table.hline``: a heavy rule above and below, a light one under
the header and between row groups, a short one under each column group), the best
value in bold and the second underlined, significance markers as superscripts padded
(``hide``) to the column's longest so the numbers line up, the caption above the table
and its label after the figure. A value column with a Δ or ± gets a sub-column, as in
LaTeX (:mod:`irtables.render.columns`). The file compiles on its own with ``typst`` and
can be ``#include``-d in a document.

Every user string is escaped for Typst markup (:func:`escape`): it comes out of the
compiler exactly as it was written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from irtables.base.controls import CONTROLS, LINE_BREAKS
from irtables.render.numbers import typeset

if TYPE_CHECKING:
    from irtables.tables.model import TableModel

_INSET = "(x: 0.4em, y: 0.3em)"
_INSET_NUMBER = "(left: 0.4em, right: 0.1em, y: 0.3em)"
_INSET_EXTRA = "(left: 0.1em, right: 0.4em, y: 0.3em)"

#: Typst's description column, as wide as LaTeX's ``p{3.6cm}``.
DESCRIPTION_WIDTH = "3.6cm"

# Markup anywhere: strong, emphasis, raw, math, code, labels and references, escapes,
# non-breaking space, smart quotes, comments (//, /*), dashes and the minus that "-1"
# would become. A "." before another would start an ellipsis.
_ANYWHERE = r"[\\#$*_@<>`\[\]~\"'/-]|\.(?=\.)"
_TYPST_RE = re.compile(rf"{_ANYWHERE}|[{CONTROLS}]")
# At the start of a cell: a heading (=), a numbered item (+, "12. ").
_NUMBERED = re.compile(r"^([0-9]+)\.(?=\s|$)")


def escape(text: str) -> str:
    r"""Escape a string for Typst markup: every character comes out as itself.

    Markup characters get a backslash; line breaks and tabs become spaces and other
    control characters are shown as ``\x1b``.

    Examples
    --------
    >>> print(escape("BM25_k1 #1 *x* $y$ @ref <l> [a] a//b -1 'q' ..."))
    BM25\_k1 \#1 \*x\* \$y\$ \@ref \<l\> \[a\] a\/\/b \-1 \'q\' \.\..
    >>> print(escape("= top"), escape("+ x"), escape("12. item"))
    \= top \+ x 12\. item
    """
    numbered = _NUMBERED.match(text)
    head = ""
    if numbered:  # "12. x" at the start of a cell would be a numbered list
        head, text = f"{numbered.group(1)}\\.", text[numbered.end() :]
    elif text[:1] in ("=", "+"):
        head, text = f"\\{text[0]}", text[1:]
    return head + _TYPST_RE.sub(_replacement, text)


def _replacement(match: re.Match[str]) -> str:
    found = match.group(0)
    if found in LINE_BREAKS:
        return " "
    if re.fullmatch(f"[{CONTROLS}]", found):
        return rf"\\x{ord(found):02x}"
    return f"\\{found}"


def render_table(model: TableModel, dirs: Sequence[str | Path], _: object) -> str:
    """The table as a Typst figure: caption, table and its rules, footnote, label."""
    from irtables.base.header import header_line
    from irtables.base.labels import label_problem
    from irtables.errors import ConfigError
    from irtables.render.columns import column_spans
    from irtables.render.templates import render_layout
    from irtables.render.view import escaped_view

    problem = label_problem(model.label)
    if problem is not None:
        raise ConfigError(f"{model.name}: label {problem}")
    view = escaped_view(model, escape, typeset)
    cols = column_spans(model, view)
    widths = ["auto"] * cols.total
    align = ["left"] * len(model.stub) + ["right"] * (cols.total - len(model.stub))
    if model.description_header:
        widths[-1], align[-1] = DESCRIPTION_WIDTH, "left"
    insets = [_INSET] * cols.total
    for j, split in enumerate(cols.split):
        if split:  # a number and its Δ or ± sub-column: close together, as LaTeX's 2pt
            insets[cols.start[j]], insets[cols.start[j] + 1] = _INSET_NUMBER, _INSET_EXTRA
    view["colspec"] = f"({', '.join(widths)})"
    view["align"] = f"({', '.join(align)})"
    view["inset"] = f"({', '.join(insets)})" if any(cols.split) else _INSET
    context: dict[str, Any] = {
        "generated": header_line("//"),
        "table": view,
        "ncols": cols.total,
    }
    return render_layout("typst", model, context, dirs)
