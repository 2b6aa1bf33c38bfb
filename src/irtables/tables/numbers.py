"""Number formatting and best / second-best detection on the displayed values."""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import Decimal

MISSING = "–"  # en dash: shown for a value that is not there


def format_number(
    value: float | None, decimals: int = 3, *, leading_zero: bool = True, sign: bool = False
) -> str:
    """Format a mean as it appears in a table.

    Rounds half to even at ``decimals`` (Python's ``format``), optionally drops the
    leading zero of values in (-1, 1) and shows ``–`` when missing. The minus sign is
    ASCII: the formats that typeset numbers write a typographic one when they render
    (:func:`irtables.render.numbers.typeset`).

    Examples
    --------
    >>> format_number(0.51249)
    '0.512'
    >>> format_number(0.5, 2, leading_zero=False)
    '.50'
    >>> format_number(-0.03, 3, sign=True)
    '-0.030'
    >>> format_number(None)
    '–'
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return MISSING
    text = f"{value:+.{decimals}f}" if sign else f"{value:.{decimals}f}"
    if float(text) == 0.0:  # no "-0.000"
        text = f"{'+' if sign else ''}{0.0:.{decimals}f}"
    if not leading_zero:
        text = text.replace("0.", ".", 1) if text.lstrip("+-").startswith("0.") else text
    return text


def format_pvalue(value: float | None, floor: float = 0.0) -> str:
    """A p-value as journals print it: below ``floor``, ``< floor``; else with as many
    decimals as ``floor`` has (three for 0.001). ``floor`` 0: four decimals, or
    scientific notation below 0.0001. The significance reports and ``\\irtp`` show
    p-values with it.

    Examples
    --------
    >>> format_pvalue(0.01234), format_pvalue(3.2e-07)
    ('0.0123', '3.2e-07')
    >>> format_pvalue(0.01234, 0.001), format_pvalue(3.2e-07, 0.001), format_pvalue(0.0004, 0.0001)
    ('0.012', '< 0.001', '0.0004')
    """
    if value is None or math.isnan(value):
        return ""
    if floor > 0:
        if value < floor:
            return f"< {floor:g}"
        return f"{value:.{max(2, math.ceil(-math.log10(floor) - 1e-9))}f}"
    return f"{value:.4f}" if value >= 1e-4 else f"{value:.1e}"


def displayed_value(text: str) -> float | None:
    """The number a formatted cell shows, or None for a missing value.

    Examples
    --------
    >>> displayed_value("-.500")
    -0.5
    """
    if text == MISSING:
        return None
    return float(text.replace("+", ""))


def displayed_difference(text: str, reference: str) -> float | None:
    """``text - reference`` on the numbers as displayed, exact in decimal (None if missing).

    Examples
    --------
    >>> displayed_difference("0.710", "0.676"), displayed_difference("-.100", ".250")
    (0.034, -0.35)
    >>> displayed_difference("–", "0.5") is None
    True
    """
    if MISSING in (text, reference):
        return None

    def exact(t: str) -> Decimal:
        return Decimal(t.replace("+", ""))

    return float(exact(text) - exact(reference))


def rank_flags(
    texts: Sequence[str], *, higher_is_better: bool = True
) -> tuple[list[bool], list[bool]]:
    """Best and second-best flags, decided on the displayed (rounded) values.

    Bold says "best among several", so a value is best only when the column shows at
    least two distinct values: a single value, or values that all tie, mark nothing.
    Every cell that ties with the best value is best. Second best is the next distinct
    value, marked only when it is not also the worst (three distinct values or more):
    the second best of two is simply the other one. Missing values are never flagged.

    Examples
    --------
    >>> rank_flags(["0.512", "0.512", "0.498", "0.300"])
    ([True, True, False, False], [False, False, True, False])
    >>> rank_flags(["0.512", "0.498", "–"])  # two values: no second best
    ([True, False, False], [False, False, False])
    >>> rank_flags(["0.512", "0.512"])  # nothing to tell apart
    ([False, False], [False, False])
    """
    shown = [displayed_value(t) for t in texts]
    distinct = sorted({v for v in shown if v is not None}, reverse=higher_is_better)
    best = distinct[0] if len(distinct) >= 2 else None
    second = distinct[1] if len(distinct) >= 3 else None
    return (
        [v is not None and v == best for v in shown],
        [v is not None and v == second for v in shown],
    )
