"""The Typst format: user strings come out of the compiler exactly as written, the
flags of a cell become Typst's strong/underline/super, and a bad label is one error.

Compiled with the ``typst`` package in-process; the PDF's text read back by pdftotext.
"""

from __future__ import annotations

import subprocess
from dataclasses import replace
from pathlib import Path

import pytest
import typst

from irtables.errors import ConfigError
from irtables.render import render
from irtables.render.typst import escape
from irtables.tables.model import Cell, Column, ColumnGroup, Row, RowGroup, TableModel

from ..conftest import require_tool

HOSTILE = [
    "a#b $x$ *y* _z_",
    "@ref <lbl> back\\slash `tick`",
    "[br] ~t \"dq\" 'sq'",
    "a//c /*c*/ k1=-1 x--y ...",
    "= heading",
    "+ item",
    "- item",
    "12. item",
    "/ term: x",
    "#let x = 1",
    "\\u{41} #(1+1) ]) }",
]


def _model(names: list[str], *, caption: str = "Hostile: #1 *c* $m$.") -> TableModel:
    rows = tuple(
        Row(f"s{i}", name, (Cell(0.5, "0.500", best=i == 0, markers="†"), Cell(None, "–")), name)
        for i, name in enumerate(names)
    )
    return TableModel(
        "ablation",
        "t",
        "Table 1",
        ("System",),
        (Column("AP", "M@P_1"), Column("P_10", "P#10")),
        (RowGroup("[g] *grp*", rows),),
        caption,
        "tab:hostile",
        description_header="Note_$",
        column_groups=(ColumnGroup("Data #set", 2),),
    )


def _pdf_text(source: str, tmp_path: Path) -> str:
    require_tool("pdftotext")
    path = tmp_path / "t.typ"
    path.write_text(source, encoding="utf-8")
    pdf = tmp_path / "t.pdf"
    typst.compile(str(path), output=str(pdf))
    done = subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True)
    return " ".join(done.stdout.split())


def test_hostile_names_come_out_of_the_pdf_exactly(tmp_path: Path) -> None:
    text = _pdf_text(render(_model(HOSTILE), "typst"), tmp_path)
    for name in HOSTILE:
        assert f"{name} 0.500" in text  # the row label, then its first value
        assert f"– {name}" in text  # the description after the last value
    for literal in ("Hostile: #1 *c* $m$.", "[g] *grp*", "M@P_1", "P#10", "Note_$", "Data #set"):
        assert literal in text


@pytest.mark.parametrize("name", ["x\ty", "x\ny", "a\u2028b"])
def test_line_breaks_become_spaces(name: str) -> None:
    assert escape(name) == f"{name[0]} {name[-1]}"


def test_control_characters_are_shown_not_interpreted(tmp_path: Path) -> None:
    text = _pdf_text("#[" + escape("a\x1bb") + "]", tmp_path)
    assert text == "a\\x1bb"


def test_best_second_and_markers_are_strong_underline_and_superscript() -> None:
    cells = (
        Cell(0.5, "0.500", best=True, markers="†"),
        Cell(0.4, "0.400", second=True),
        Cell(-0.1, "-0.100", markers="‡"),
    )
    model = TableModel(
        "main",
        "t",
        "Table 1",
        ("System",),
        tuple(Column(k, k) for k in ("a", "b", "c")),
        (RowGroup(None, (Row("s", "S", cells),)),),
        "C.",
        "tab:t",
    )
    out = render(model, "typst")
    # the number typeset with a minus sign (U+2212); the pad of an unmarked cell hidden
    assert "[#strong[0.500]#super[†]], [#underline[0.400]], [−0.100#super[‡]]," in out
    assert ')#label("tab:t")' in out
    assert out.count("table.hline(") == 3  # top, under the header, bottom


def test_a_label_typst_cannot_hold_is_one_error() -> None:
    model = _model(["a"], caption="C.")
    bad = replace(model, label='tab:x")#evil(')
    with pytest.raises(ConfigError, match="label"):
        render(bad, "typst")


def test_the_tables_command_writes_typst(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from irtables.cli import main

    results = Path(__file__).resolve().parents[2] / "results"
    out = tmp_path / "out"
    done = CliRunner().invoke(main, ["tables", str(results), "-f", "typst", "-o", str(out)])
    assert done.exit_code == 0, done.output
    written = sorted(p.name for p in out.glob("*.typ"))
    assert written == ["ablation.typ", "table1.typ", "tableS1-cacm.typ", "tableS1-cast2021.typ"]
    assert not list(out.glob("*.tex"))
