"""Prose written once, laid out as LaTeX or Markdown: the methods text's markup.

A text is a tuple of parts: a ``str`` is authored markup, a :class:`Name` a user-given
string (a dataset or system name), escaped for the output format. The markup:

- ``$...$`` inline math and ``$$...$$`` display math (LaTeX ``\\[ ... \\]``; Markdown
  keeps it inline, ``$...$``), the same TeX in both;
- ```code``` (LaTeX ``\\texttt``);
- ``[@key1,key2]`` cites bibliography keys (LaTeX ``~\\cite{...}``; Markdown
  ``[Author, year; ...]``);
- ``~`` a non-breaking space (Markdown: a space).

Everything else is plain text: LaTeX's special characters are escaped, Markdown's are left
as written (authored prose). Paragraphs are wrapped at :data:`WIDTH` columns, never inside
math.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from irtables.render.escape import escape_latex, escape_markdown

Format = Literal["latex", "markdown"]
WIDTH = 92


@dataclass(frozen=True)
class Name:
    """A user-given string inside prose: escaped for the output format."""

    text: str


Part = str | Name
Text = tuple[Part, ...]


@dataclass(frozen=True)
class Item:
    """One entry of a description list: a label (user-facing, escaped) and its text."""

    label: str
    text: Text


@dataclass(frozen=True)
class Block:
    """A paragraph (``items`` empty) or a description list (``text`` empty)."""

    text: Text = ()
    items: tuple[Item, ...] = ()


@dataclass(frozen=True)
class Section:
    """A titled section of blocks."""

    title: str
    blocks: tuple[Block, ...]


_TOKEN = re.compile(
    r"\$\$(?P<display>.+?)\$\$|\$(?P<math>[^$]+)\$|`(?P<code>[^`]+)`|\[@(?P<cite>[^\]]*)\]"
)
_LATEX_PLAIN = str.maketrans({"_": r"\_", "%": r"\%", "&": r"\&", "#": r"\#"})
_KEEP = "\x00"  # stands for a space that must not break a line (inside math)


def render_text(text: Text, fmt: Format, short: Mapping[str, str]) -> str:
    """One text as a single line of ``fmt``; ``short`` maps citation keys to author-year.

    Examples
    --------
    >>> t = ("Gain[@jarvelin2002] of `ndcg_cut` on ", Name("A_B"), ": $x_i$.")
    >>> render_text(t, "latex", {})
    'Gain~\\\\cite{jarvelin2002} of \\\\texttt{ndcg\\\\_cut} on A\\\\_B: $x_i$.'
    >>> render_text(t, "markdown", {"jarvelin2002": "J & K, 2002"})
    'Gain [J & K, 2002] of `ndcg_cut` on A\\\\_B: $x_i$.'
    """
    out = []
    for part in text:
        if isinstance(part, Name):
            out.append(escape_latex(part.text) if fmt == "latex" else escape_markdown(part.text))
        else:
            out.append(_markup(part, fmt, short))
    return "".join(out)


def _markup(text: str, fmt: Format, short: Mapping[str, str]) -> str:
    out, at = [], 0
    for m in _TOKEN.finditer(text):
        out.append(_plain(text[at : m.start()], fmt))
        at = m.end()
        if m.group("display") is not None:
            body = m.group("display").replace(" ", _KEEP)
            out.append(f"\\[{_KEEP}{body}{_KEEP}\\]" if fmt == "latex" else f"${body}$")
        elif m.group("math") is not None:
            out.append("$" + m.group("math").replace(" ", _KEEP) + "$")
        elif m.group("code") is not None:
            code = m.group("code")
            out.append(f"\\texttt{{{escape_latex(code)}}}" if fmt == "latex" else f"`{code}`")
        else:
            keys = [k.strip() for k in m.group("cite").split(",") if k.strip()]
            if keys and fmt == "latex":
                out.append(f"~\\cite{{{','.join(keys)}}}")
            elif keys:
                out.append(" [" + "; ".join(short.get(k, k) for k in keys) + "]")
    out.append(_plain(text[at:], fmt))
    return "".join(out)


def _plain(text: str, fmt: Format) -> str:
    if fmt == "latex":
        return text.translate(_LATEX_PLAIN)
    return text.replace("~", " ")


def wrap(line: str, *, first: str = "", rest: str = "") -> str:
    """Wrap one rendered line at :data:`WIDTH`, never inside math or a citation."""
    lines = textwrap.wrap(
        line,
        WIDTH,
        initial_indent=first,
        subsequent_indent=rest,
        break_long_words=False,
        break_on_hyphens=False,
    )
    return "\n".join(lines).replace(_KEEP, " ")


def render_blocks(blocks: Sequence[Block], fmt: Format, short: Mapping[str, str]) -> str:
    """The blocks of a section, separated by blank lines."""
    out = []
    for block in blocks:
        if block.items:
            out.append(_items(block.items, fmt, short))
        if block.text:
            out.append(wrap(render_text(block.text, fmt, short)))
    return "\n\n".join(out)


def _items(items: Sequence[Item], fmt: Format, short: Mapping[str, str]) -> str:
    if fmt == "latex":
        body = [
            wrap(f"\\item[{escape_latex(i.label)}] " + render_text(i.text, fmt, short))
            for i in items
        ]
        return "\\begin{description}\n" + "\n".join(body) + "\n\\end{description}"
    return "\n".join(
        wrap(
            f"**{escape_markdown(i.label)}**: " + render_text(i.text, fmt, short),
            first="- ",
            rest="  ",
        )
        for i in items
    )
