"""Escaping of user strings for LaTeX, Markdown and HTML: the one place it happens."""

from __future__ import annotations

import html
import re

from irtables.base.controls import CONTROLS

_CONTROLS = f"[{CONTROLS}]"
_LINE_BREAKS = "\t\n\r\f\v\u2028\u2029"  # shown as a space
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

_MD_RE = re.compile(r"([\\`*_{}\[\]<>|#~])")


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
    if found in _LINE_BREAKS:
        return " "
    return rf"\textbackslash{{}}x{ord(found):02x}"


def escape_markdown(text: str) -> str:
    r"""Escape a string for a GitHub Markdown table cell (line breaks become spaces,
    other control characters are shown as ``\x1b``).

    Examples
    --------
    >>> escape_markdown("a|b *c*")
    'a\\|b \\*c\\*'
    """
    plain = re.sub(_CONTROLS, _visible_control, text)
    return _MD_RE.sub(r"\\\1", plain)


def _visible_control(match: re.Match[str]) -> str:
    found = match.group(0)
    return " " if found in _LINE_BREAKS else f"\\x{ord(found):02x}"


def escape_html(text: str) -> str:
    """Escape a string for HTML text and attribute values.

    Examples
    --------
    >>> escape_html('<b>"BM25" & co</b>')
    '&lt;b&gt;&quot;BM25&quot; &amp; co&lt;/b&gt;'
    """
    return html.escape(text, quote=True)
