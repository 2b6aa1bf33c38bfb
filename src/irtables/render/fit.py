"""Will a LaTeX table fit a column? An estimate of its width from its content.

Two-column papers (ACM ``acmart`` sigconf, IEEEtran) have columns about 241 pt wide
and a text width about 506 pt. A table whose estimated width fits a column is a
``table``; a wider one is a ``table*`` spanning both columns. The rendered LaTeX also
measures the tabular when it is typeset and scales it down to the line width if it is
still too wide (``\\resizebox``, from graphicx), so no table ever runs into the margin.

The estimate uses the character widths of Computer Modern (``cmr10``, in em) at the
size of ``\\small`` in a 10 pt ``article`` (9 pt), an upper bound for acmart's 9 pt
classes (``\\small`` is 8 pt there).
"""

from __future__ import annotations

from collections.abc import Sequence

#: Width of one column of a two-column paper, in points (acmart sigconf: 241.14 pt).
COLUMN_WIDTH_PT = 241.0
FONT_PT = 9.0  # \small in a 10 pt article
TABCOLSEP_PT = 6.0
SUBCOLUMN_SEP_PT = 2.0  # @{\hspace{2pt}} between a number and its Δ or ± part
SUPERSCRIPT = 0.7  # \textsuperscript scales the font

_WIDTHS = {  # em widths of cmr10 glyphs; anything else counts as a lowercase letter
    **dict.fromkeys("0123456789", 0.5),
    **dict.fromkeys("abcdeghknopqsuvxyz", 0.5),
    **dict.fromkeys("fjt", 0.35),
    **dict.fromkeys("ilr", 0.3),
    "m": 0.83,
    "w": 0.72,
    **dict.fromkeys("ABCDEFGHKNOPQRSTUVXYZ", 0.73),
    **dict.fromkeys("IJL", 0.5),
    "M": 0.92,
    "W": 1.03,
    **dict.fromkeys(" .,:;'!|", 0.28),
    **dict.fromkeys("()[]-/", 0.39),
    **dict.fromkeys("+=−±×<>≥≤@%&#~", 0.78),
    **dict.fromkeys("–", 0.5),
    **dict.fromkeys("—", 1.0),
    **dict.fromkeys("†‡", 0.44),
}
_BOLD = 1.15  # cmbx is about 15 % wider than cmr
#: Measured against pdflatex (article and acmart sigconf): the sum of glyph widths runs
#: 3-5 % short of the typeset width (kerning aside, digits in bold, superscripts); this
#: makes the estimate an upper bound on the example's tables.
CALIBRATION = 1.06


def text_width(text: str, *, bold: bool = False, scale: float = 1.0) -> float:
    """Estimated width in points of ``text`` (plain, unescaped) in the table's font.

    Examples
    --------
    >>> round(text_width("0.512"), 2)
    21.75
    """
    em = sum(_WIDTHS.get(ch, 0.5) for ch in text)
    return em * FONT_PT * scale * CALIBRATION * (_BOLD if bold else 1.0)


def tabular_width(
    columns: Sequence[float],
    spans: Sequence[tuple[int, int, float]] = (),
    *,
    subcolumns: int = 0,
) -> float:
    """Width of a tabular: each column's widest cell plus its padding.

    ``columns`` holds the widest single-column content of every LaTeX column;
    ``spans`` the content of cells spanning columns ``[start, stop)`` (a spanned header
    widens the columns under it when it is wider than they are). ``subcolumns`` is the
    number of number/Δ pairs joined by a narrow separator instead of two paddings.

    Examples
    --------
    >>> tabular_width([10.0, 20.0])
    54.0
    >>> tabular_width([10.0, 20.0], [(0, 2, 60.0)])
    72.0
    """
    widths = [w + 2 * TABCOLSEP_PT for w in columns]
    for start, stop, content in spans:
        have = sum(widths[start:stop])
        need = content + 2 * TABCOLSEP_PT
        if need > have and stop > start:
            extra = (need - have) / (stop - start)
            for i in range(start, stop):
                widths[i] += extra
    return sum(widths) - subcolumns * (2 * TABCOLSEP_PT - SUBCOLUMN_SEP_PT)


def needs_both_columns(width_pt: float) -> bool:
    """Whether a table of this width must span both columns (``table*``).

    Examples
    --------
    >>> needs_both_columns(200.0), needs_both_columns(300.0)
    (False, True)
    """
    return width_pt > COLUMN_WIDTH_PT
