"""The reports' tables have one writer (irtables.base.texttable): CSV and escaped
Markdown tables come out of it, checked here against pandas and markdown-it."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pandas as pd
from markdown_it import MarkdownIt

from irtables.base.texttable import csv_text, markdown_table

SRC = Path(__file__).resolve().parents[2] / "src" / "irtables"
HOSTILE = ["BM25_k1", "a|b", "*x*", "<b>", "[l](u)", "`c`", 'q "x", y', "1\\2"]


def test_csv_reads_back_with_pandas() -> None:
    rows = [[name, str(i)] for i, name in enumerate(HOSTILE)]
    frame = pd.read_csv(io.StringIO(csv_text(["name", "n"], rows)), dtype=str)
    assert frame["name"].tolist() == HOSTILE
    assert frame["n"].tolist() == [str(i) for i in range(len(HOSTILE))]


def test_markdown_cells_read_back_as_text_but_raw_columns() -> None:
    rows = [[name, "**0.5**"] for name in HOSTILE]
    text = markdown_table(rows, ["run", "MAP"], raw_columns={1})
    html = MarkdownIt("commonmark").enable("table").render(text)
    cells = re.findall(r"<td>(.*?)</td>", html)
    assert [_unescape(c) for c in cells[0::2]] == HOSTILE  # each name as text, no markup
    assert set(cells[1::2]) == {"<strong>0.5</strong>"}


def _unescape(html: str) -> str:
    return (
        html.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")
    )


def test_no_report_writes_its_own_csv() -> None:
    own = [
        str(p.relative_to(SRC))
        for p in SRC.rglob("*.py")
        if "csv.writer(" in p.read_text(encoding="utf-8") and p.name != "texttable.py"
    ]
    assert own == []


def test_an_unknown_anova_format_is_refused_not_printed_for_the_terminal() -> None:
    import pytest

    from irtables.errors import UnknownNameError
    from irtables.render.anova import format_anova

    known = r"did you mean .latex.\? \(known: csv, latex, markdown, terminal\)"
    with pytest.raises(UnknownNameError, match=known):
        format_anova([], "latx")


def test_compare_writes_the_report_formats_but_the_terminal() -> None:
    from irtables.cli import main

    option = next(p for p in main.commands["compare"].params if p.name == "fmt")  # type: ignore[attr-defined]
    assert list(option.type.choices) == ["markdown", "csv", "latex"]
