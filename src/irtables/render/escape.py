"""Escaping of user strings for LaTeX, Markdown and HTML: the one place it happens
(Markdown's lives in :mod:`irtables.base.markdown`, below the statistics' reports).
"""

from __future__ import annotations

import html
import re

from irtables.base.controls import CONTROLS, LINE_BREAKS
from irtables.base.markdown import escape_markdown

_CONTROLS = f"[{CONTROLS}]"
_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    # after a row's \\ LaTeX would take "[2pt]" as a skip and "*" as \\*; in \item[...]
    # a "]" would end the label
    "[": "{[}",
    "]": "{]}",
    "*": "{*}",
    "`": r"\textasciigrave{}",  # ?` and !` are ligatures for inverted marks
    # typographic characters that pdflatex cannot take as they are
    "–": "--",
    "—": "---",
    "−": "$-$",
    "±": r"$\pm$",
    "≥": r"$\geq$",
    "≤": r"$\leq$",
    "×": r"$\times$",
    "Δ": r"$\Delta$",
    "α": r"$\alpha$",
    "σ": r"$\sigma$",
    "τ": r"$\tau$",
    "²": r"\textsuperscript{2}",
    "√": r"$\surd$",
    "†": r"\dag{}",
    "‡": r"\ddag{}",
    "∗": "{*}",
    "·": r"$\cdot$",
    "…": r"\ldots{}",
}
_LATEX_RE = re.compile("|".join(re.escape(k) for k in _LATEX_SPECIAL) + "|-(?=-)|" + _CONTROLS)


def escape_latex(text: str) -> str:
    r"""Escape a string for LaTeX text mode: every character comes out as itself.

    Specials are escaped; ``[``, ``]`` and ``*`` are braced (a row starting with
    ``[2pt]`` would otherwise lose it); ``--`` is kept from becoming a dash; line breaks
    and tabs become spaces and other control characters are shown as ````.

    Examples
    --------
    >>> escape_latex("BM25_k1 & 50% {x}")
    'BM25\\_k1 \\& 50\\% \\{x\\}'
    >>> escape_latex("a − b"), escape_latex("[2pt] x--y")
    ('a $-$ b', '{[}2pt{]} x-{}-y')
    """
    return _LATEX_RE.sub(_latex_replacement, text)


def _latex_replacement(match: re.Match[str]) -> str:
    found = match.group(0)
    if found in _LATEX_SPECIAL:
        return _LATEX_SPECIAL[found]
    if found == "-":
        return "-{}"
    if found in LINE_BREAKS:
        return " "
    return rf"\textbackslash{{}}x{ord(found):02x}"


def escape_html(text: str) -> str:
    """Escape a string for HTML text and attribute values.

    Examples
    --------
    >>> escape_html('<b>"BM25" & co</b>')
    '&lt;b&gt;&quot;BM25&quot; &amp; co&lt;/b&gt;'
    """
    return html.escape(text, quote=True)


__all__ = ["escape_html", "escape_latex", "escape_markdown"]
