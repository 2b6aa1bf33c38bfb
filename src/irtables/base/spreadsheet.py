"""A name written into a CSV file stays text when a spreadsheet opens the file.

A cell that starts with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage return) is a
formula to Excel, LibreOffice and Google Sheets: a system called ``=HYPERLINK(...)``
would run as one ("CSV injection", OWASP). Every cell that irtables writes from a name
(dataset, system and metric names and labels, query ids, table headings) goes through
:func:`spreadsheet_text` (every text cell of :func:`~irtables.base.texttable.csv_text`,
the one CSV writer), which prefixes such a cell with ``'`` as OWASP recommends;
numbers are never changed (``-0.034`` stays a number).
"""

from __future__ import annotations

import re

#: The first characters that make a spreadsheet cell a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|inf|infinity|nan)", re.I)


def spreadsheet_text(name: str) -> str:
    """``name`` as a CSV cell that a spreadsheet shows as text, not as a formula.

    Examples
    --------
    >>> spreadsheet_text("=1+2"), spreadsheet_text("@SUM(A1)"), spreadsheet_text("bm25")
    ("'=1+2", "'@SUM(A1)", 'bm25')
    >>> spreadsheet_text("-0.25"), spreadsheet_text("-inf"), spreadsheet_text("-rm3")
    ('-0.25', '-inf', "'-rm3")
    """
    if name.startswith(FORMULA_START) and _NUMBER.fullmatch(name) is None:
        return "'" + name
    return name
