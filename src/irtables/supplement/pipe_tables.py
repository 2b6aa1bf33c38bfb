"""Plain pipe tables of irtables' Markdown pages as HTML, without a Markdown parser.

The significance and failure pages are mostly long tables of plain cells; parsing every
cell as inline Markdown costs most of ``index.html``. :func:`split_tables` finds the tables
whose cells are plain text (letters, digits, spaces, ordinary punctuation, backslash
escapes) and :func:`table_html` writes them as markdown-it-py's ``table`` rule does; every
other part of a page, and every table that is not that simple, goes to markdown-it-py.
"""

from __future__ import annotations

import re

#: A backslash escape of ASCII punctuation (CommonMark: the character itself).
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
#: Characters with a meaning in inline Markdown or HTML: a cell holding one is not plain.
_SPECIAL = re.compile(r"[\\`*_\[\]<>&!~\"'\t]")
_DELIMITER = re.compile(r"\s*(:?)-+(:?)\s*")
_ALIGN = {(":", ""): "left", ("", ":"): "right", (":", ":"): "center"}


def split_tables(lines: list[str]) -> list[tuple[bool, list[str]]]:
    """The page's lines as (is a plain table, lines) blocks, in order.

    A plain table stands between blank lines (or the page's ends); every one of its lines
    starts and ends with ``|``; the second is the delimiter row; every row has as many
    cells as it; no cell holds anything but plain text (see the module docstring). A page
    with an indented line, a fence or a link definition is one block of Markdown (a table
    could be inside one).
    """
    if any(line[:1] in (" ", "\t") or line.startswith(("```", "~~~", "[")) for line in lines):
        return [(False, lines)]
    blocks: list[tuple[bool, list[str]]] = []
    text: list[str] = []
    start = 0
    while start < len(lines):
        end = start
        while end < len(lines) and lines[end].strip():
            end += 1
        chunk = lines[start:end]
        if chunk and _plain_table(chunk):
            if text:
                blocks.append((False, text))
                text = []
            blocks.append((True, chunk))
            text = []
        else:
            text.extend(chunk)
        if end < len(lines):
            text.append(lines[end])  # the blank line
        start = end + 1
    if text:
        blocks.append((False, text))
    return blocks


def _cells(line: str) -> list[str] | None:
    if len(line) < 2 or not (line.startswith("|") and line.endswith("|")) or "\\|" in line:
        return None
    return [cell.strip() for cell in line[1:-1].split("|")]


def _plain_table(chunk: list[str]) -> bool:
    rows = [_cells(line) for line in chunk]
    if len(rows) < 2 or any(row is None for row in rows):
        return False
    delimiter = rows[1]
    assert delimiter is not None
    if not all(_DELIMITER.fullmatch(cell) for cell in delimiter):
        return False
    width = len(delimiter)
    for i, row in enumerate(rows):
        assert row is not None
        if len(row) != width:
            return False
        if i != 1 and any(_SPECIAL.search(_ESCAPE.sub("", cell)) for cell in row):
            return False
    return True


def table_html(chunk: list[str]) -> str:
    """A plain table (one of :func:`split_tables`' blocks) as markdown-it-py renders it."""
    rows = [_cells(line) or [] for line in chunk]
    aligns = []
    for cell in rows[1]:
        match = _DELIMITER.fullmatch(cell)
        assert match is not None
        align = _ALIGN.get((match.group(1), match.group(2)))
        aligns.append(f' style="text-align:{align}"' if align else "")
    out = ["<table>", "<thead>", _row(rows[0], "th", aligns), "</thead>"]
    if len(rows) > 2:
        out += ["<tbody>", *(_row(row, "td", aligns) for row in rows[2:]), "</tbody>"]
    out.append("</table>")
    return "\n".join(out) + "\n"


def _row(cells: list[str], tag: str, aligns: list[str]) -> str:
    body = "\n".join(
        f"<{tag}{align}>{_text(cell)}</{tag}>" for cell, align in zip(cells, aligns, strict=True)
    )
    return f"<tr>\n{body}\n</tr>"


def _text(cell: str) -> str:
    text = _ESCAPE.sub(r"\1", cell)
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )
