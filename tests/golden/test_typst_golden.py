"""Every Typst golden compiles with the ``typst`` package (in-process, no TeX), and the
PDF's text holds what the Markdown golden of the same table shows: every label and
number of the body, markers and Δ notes, in reading order."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
import typst

from ..conftest import require_tool

GOLDEN = Path(__file__).parent
TYPST_GOLDENS = sorted(str(p.relative_to(GOLDEN)) for p in GOLDEN.rglob("*.typ"))


def _pdf_text(source: Path, workdir: Path) -> str:
    require_tool("pdftotext")
    pdf = workdir / "table.pdf"
    typst.compile(str(source), output=str(pdf))
    done = subprocess.run(
        ["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True, check=True
    )
    return done.stdout


def _words(text: str) -> list[str]:
    """Words, a significance marker being a word of its own (the PDF sets it as a
    superscript)."""
    return re.findall(r"[^\s†‡]+|[†‡]", text)


def _markdown_rows(markdown: str) -> list[list[str]]:
    """The words of each body row of a Markdown golden's pipe table, without its
    emphasis (bold, underline, group headings) or Markdown escapes."""
    rows = [line for line in markdown.splitlines() if line.startswith("|")][2:]
    out = []
    for row in rows:
        words: list[str] = []
        for cell in row.strip("|").split("|"):
            text = re.sub(r"\*\*|</?ins>|^\s*\*|\*\s*$", "", cell.strip())
            words += _words(re.sub(r"\\(.)", r"\1", text))
        out.append(words)
    return out


def _contains(words: list[str], part: list[str], start: int) -> int:
    """Where ``part`` first occurs in ``words`` as a contiguous run from ``start`` on
    (-1: nowhere)."""
    for i in range(start, len(words) - len(part) + 1):
        if words[i : i + len(part)] == part:
            return i
    return -1


def test_there_is_a_typst_golden_per_markdown_golden() -> None:
    markdown = {
        p[: -len(".md")] for p in (str(q.relative_to(GOLDEN)) for q in GOLDEN.rglob("*.md"))
    }
    tables = {
        m for m in markdown if (GOLDEN / f"{m}.csv").exists() and (GOLDEN / f"{m}.tex").exists()
    }
    assert {p[: -len(".typ")] for p in TYPST_GOLDENS} == tables


@pytest.mark.parametrize("name", TYPST_GOLDENS)
def test_typst_golden_compiles_and_shows_the_markdown_cells(name: str, tmp_path: Path) -> None:
    words = _words(_pdf_text(GOLDEN / name, tmp_path))
    markdown = (GOLDEN / name).with_suffix(".md").read_text(encoding="utf-8")
    rows = _markdown_rows(markdown)
    assert rows, f"no table found in the Markdown golden of {name}"
    position = 0
    for row in rows:  # each row's words together, the rows in order
        found = _contains(words, row, position)
        assert found >= 0, f"{name}: row {' '.join(row)!r} not in the PDF after word {position}"
        position = found + len(row)
