"""Escaping of data for Markdown: names from the data land in Markdown as text.

Every Markdown output (tables, ``significance.md``, ``diff.md``, the supplement's pages)
escapes the strings it did not write itself here, so that a name never becomes markup:
no HTML, no link, autolink or image, no emphasis or math, and a ``|`` never ends a
table cell. GitHub renders these files, and ``index.html`` renders them with markdown-it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from irtables.base.controls import CONTROLS, LINE_BREAKS

# CommonMark's backslash escapes: HTML and autolinks (<, >), links and images ([, ]),
# emphasis (*, _, ~), code (`), entities (&), math on GitHub ($), table cells (|)
_SPECIAL = re.compile(r"([\\`*_{}\[\]<>|#~&$])")
# GitHub's extended autolinks start at "www." or "scheme://": a backslash breaks both
_AUTOLINK = re.compile(r"(?i)(?<=www)\.|:(?=//)")
_CONTROL = re.compile(f"[{CONTROLS}]")


def escape_markdown(text: str) -> str:
    r"""Escape a string for Markdown text and GitHub table cells.

    Line breaks become spaces and other control characters are shown as ``\x1b``.

    Examples
    --------
    >>> escape_markdown("a|b *c*")
    'a\\|b \\*c\\*'
    >>> print(escape_markdown("![t](https://x.org) <b> www.y.org"))
    !\[t\](https\://x.org) \<b\> www\.y.org
    """
    return _escaped(text)


@lru_cache(maxsize=1 << 16)
def _escaped(text: str) -> str:
    """:func:`escape_markdown`, once per string (a report escapes the same names and
    numbers thousands of times)."""
    plain = _CONTROL.sub(_visible_control, text)
    return _AUTOLINK.sub(r"\\\g<0>", _SPECIAL.sub(r"\\\1", plain))


def code_span(text: str) -> str:
    """``text`` as an inline code span: shown as it is, whatever it holds.

    The fence is one backtick longer than the longest run inside; control characters
    are shown as in :func:`escape_markdown`. Not for table cells (GitHub splits a row
    at a ``|`` before it reads code spans): use :func:`escape_markdown` there.

    Examples
    --------
    >>> print(code_span("a`b"), code_span("`x"), code_span("<b>"))
    ``a`b`` `` `x `` `<b>`
    """
    plain = re.sub(f"[{CONTROLS}]", _visible_control, text)
    runs = [len(r) for r in re.findall("`+", plain)]
    fence = "`" * (max(runs, default=0) + 1)
    pad = " " if plain.startswith("`") or plain.endswith("`") else ""
    return f"{fence}{pad}{plain}{pad}{fence}"


def _visible_control(match: re.Match[str]) -> str:
    found = match.group(0)
    return " " if found in LINE_BREAKS else f"\\x{ord(found):02x}"
