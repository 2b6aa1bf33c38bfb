"""A cell's numbers as the typeset formats show them (LaTeX, Markdown, HTML, and the
terminal and figures): a typographic minus sign, an ablation's Δ in parentheses.

The table model holds its numbers in plain ASCII (``-0.034``), as CSV and the data
frame carry them; these functions are applied when a cell is rendered, to the numbers
of the cells only (never to a label such as ``BM25-RM3``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from irtables.tables.model import Cell

MINUS = "−"  # U+2212, the typographic minus sign
_SIGN = re.compile(r"-(?=\.?[0-9])")  # the minus sign of a number: -0.034, -.034


def typeset(text: str) -> str:
    """A cell's number text with the typographic minus sign (U+2212) for ``-``.

    Examples
    --------
    >>> typeset("-0.034"), typeset("[-.010, .030]"), typeset("–")
    ('−0.034', '[−.010, .030]', '–')
    """
    return _SIGN.sub(MINUS, text)


def delta_note(cell: Cell, typeset_number: Callable[[str], str] | None = None) -> str:
    """An ablation cell's difference from its full model as shown after the value,
    ``(−0.034)``; empty for a cell without one. ``typeset_number`` typesets the number
    (default :func:`typeset`).

    Examples
    --------
    >>> delta_note(Cell(0.45, "0.450", delta="-0.034")), delta_note(Cell(0.5, "0.500"))
    ('(−0.034)', '')
    """
    return f"({(typeset_number or typeset)(cell.delta)})" if cell.delta else ""
