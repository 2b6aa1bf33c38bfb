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
#: Width and height of the text of a two-column page (acmart sigconf: 506.3 pt, 626 pt).
TEXT_WIDTH_PT = 506.0
TEXT_HEIGHT_PT = 626.0
#: The table's type (``\small``: 8 pt in acmart) scaled below this is too small to read.
TABLE_TYPE_PT = 8.0
READABLE_PT = 6.0
#: Measured in acmart sigconf (pdflatex): a table row in ``\small`` with booktabs, a
#: caption line (and the caption's skips), a ``\footnotesize`` line, the rules, and the
#: width of an average caption character; rounded up, so the height is an upper bound.
ROW_PT = 10.6
CAPTION_LINE_PT = 11.0
CAPTION_SKIP_PT = 14.0
FOOTNOTE_LINE_PT = 9.5
RULES_PT = 10.0
CAPTION_CHAR_PT = 4.9
FOOTNOTE_CHAR_PT = 4.3
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


def scaled_type(width_pt: float, wide: bool) -> float:
    """The size in points of the table's type once LaTeX scales a tabular of this width
    down to the line (the column, or the text width of a ``table*``).

    Examples
    --------
    >>> scaled_type(200.0, False), round(scaled_type(1012.0, True), 1)
    (8.0, 4.0)
    """
    line = TEXT_WIDTH_PT if wide else COLUMN_WIDTH_PT
    return TABLE_TYPE_PT * min(1.0, line / width_pt) if width_pt > 0 else TABLE_TYPE_PT


def float_height(rows: int, caption: str, footnote: str, wide: bool) -> float:
    """Estimated height in points of a table float: caption, ``rows`` rows of the tabular
    (header rows included) and the notes below it (an upper bound, see :data:`ROW_PT`).

    Examples
    --------
    >>> round(float_height(10, "A caption.", "", False))
    141
    """
    line = TEXT_WIDTH_PT if wide else COLUMN_WIDTH_PT

    def lines(text: str, char_pt: float) -> int:
        return -(-int(len(text) * char_pt) // int(line)) if text else 0

    caption_pt = CAPTION_SKIP_PT + CAPTION_LINE_PT * lines("Table 10: " + caption, CAPTION_CHAR_PT)
    notes_pt = FOOTNOTE_LINE_PT * lines(footnote, FOOTNOTE_CHAR_PT) + (4.0 if footnote else 0.0)
    return caption_pt + rows * ROW_PT + RULES_PT + notes_pt


#: Text width of the supplement's page (10 pt article, letter paper, 2 cm margins).
PAGE_TEXT_WIDTH_PT = 500.0
#: LaTeX's type sizes in a 10 pt article, largest first: the size in points times the
#: width of its font's glyphs relative to the 9 pt font's (Computer Modern's smaller
#: optical sizes are wider: a digit is 0.514 em in cmr9, 0.531 in cmr8, 0.569 in cmr7
#: and 0.681 in cmr5, from their TFM files).
TYPE_SIZES = (
    ("small", 9.0),
    ("footnotesize", 8.0 * 0.531 / 0.514),
    ("scriptsize", 7.0 * 0.569 / 0.514),
    ("tiny", 5.0 * 0.681 / 0.514),
)


def type_size(
    rows: Sequence[Sequence[str]],
    *,
    largest: str = "small",
    tabcolsep_pt: float = TABCOLSEP_PT,
    line_pt: float = PAGE_TEXT_WIDTH_PT,
) -> str:
    """The largest LaTeX type size, at most ``largest``, in which a table of these rows
    (plain text, header included) is estimated to fit a line of ``line_pt`` points; the
    smallest size when none does.

    Examples
    --------
    >>> type_size([["a", "0.512"]])
    'small'
    >>> type_size([["x" * 36] * 3])
    'scriptsize'
    """
    names = [name for name, _ in TYPE_SIZES]
    if largest not in names:
        raise ValueError(f"unknown type size {largest!r}; one of {', '.join(names)}")
    count = max((len(r) for r in rows), default=0)
    widest = [
        max((text_width(r[i]) for r in rows if i < len(r)), default=0.0) for i in range(count)
    ]
    for name, size in TYPE_SIZES[names.index(largest) :]:
        scale = size / FONT_PT
        if sum(w * scale + 2 * tabcolsep_pt for w in widest) <= line_pt:
            return name
    return TYPE_SIZES[-1][0]
