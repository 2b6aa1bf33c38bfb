"""Escaping of user strings for LaTeX, Markdown and HTML: the one place it happens."""

from __future__ import annotations

import html
import re

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
    "†": r"\dag{}",
    "‡": r"\ddag{}",
    "∗": "*",
    "·": r"$\cdot$",
    "…": r"\ldots{}",
}
_LATEX_RE = re.compile("|".join(re.escape(k) for k in _LATEX_SPECIAL))

_MD_RE = re.compile(r"([\\`*_{}\[\]<>|#~])")


def escape_latex(text: str) -> str:
    r"""Escape a string for LaTeX text mode.

    Examples
    --------
    >>> escape_latex("BM25_k1 & 50% {x}")
    'BM25\\_k1 \\& 50\\% \\{x\\}'
    >>> escape_latex("a − b")
    'a $-$ b'
    """
    return _LATEX_RE.sub(lambda m: _LATEX_SPECIAL[m.group(0)], text)


def escape_markdown(text: str) -> str:
    r"""Escape a string for a GitHub Markdown table cell.

    Examples
    --------
    >>> escape_markdown("a|b *c*")
    'a\\|b \\*c\\*'
    """
    return _MD_RE.sub(r"\\\1", text.replace("\n", " "))


def escape_html(text: str) -> str:
    """Escape a string for HTML text and attribute values.

    Examples
    --------
    >>> escape_html('<b>"BM25" & co</b>')
    '&lt;b&gt;&quot;BM25&quot; &amp; co&lt;/b&gt;'
    """
    return html.escape(text, quote=True)
