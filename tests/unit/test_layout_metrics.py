"""Every layout on a study of qrels + runs evaluates what it shows: each layout's record
says which measures its tables show (``Layout.metrics``), and a table asking for a measure
that no other table shows is built from the evaluated runs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from irtables.config.tables import LAYOUTS
from tests.conftest import invoke, runs_study

ABLATION = """[tables.ablation]
dataset = "toy"
full = "a"
metrics = ["R@7"]
[[tables.ablation.rows]]
system = "a"
[[tables.ablation.rows]]
system = "b"
"""
SENSITIVITY = """[tables.x]
layout = "sensitivity"
dataset = "toy"
parameters = ["k1"]
system = "bm25"
metrics = ["P@6"]
figure = false
"""
REPRODUCTION = """[[datasets]]
id = "toy-rpd"
qrels = "tiny.qrels"
runs = "runs/*.run"
[tables.x]
layout = "reproduction"
original = "toy"
reproductions = ["toy-rpd"]
pairs = [["a", "b"]]
metrics = ["R@6"]
"""
#: layout -> (the section, the file it writes, what the file shows of the measures that
#: only this table asks for)
SECTIONS = {
    "main": ('[tables.main]\nmetrics = ["bpref"]\n', "table1.md", ["bpref |"]),
    "k_breakdown": (
        '[tables.k_breakdown]\nmetrics = ["Success"]\nk = [2, 4]\n',
        "tableS1-toy.md",
        ["| Success ", "K=2 |", "K=4 |"],  # a row per family, a column per K
    ),
    "ablation": (ABLATION, "ablation.md", ["R@7 |"]),
    "dataset_columns": (
        '[tables.x]\nlayout = "dataset_columns"\nmetrics = ["R@6", "Success@3"]\n',
        "x.md",
        ["R@6", "Success@3"],
    ),
    "grid": ('[tables.x]\nlayout = "grid"\nmetric = "Success@7"\n', "x.md", ["Success@7"]),
    "sensitivity": (SENSITIVITY, "x.md", ["P@6"]),
    "reproduction": (REPRODUCTION, "x.md", ["R@6"]),
}


def test_every_layout_is_tried() -> None:
    assert set(SECTIONS) == set(LAYOUTS)


@pytest.mark.parametrize("layout", sorted(SECTIONS))
def test_a_layout_on_runs_evaluates_the_measures_it_shows(layout: str, tmp_path: Path) -> None:
    section, written, shown = SECTIONS[layout]
    study = runs_study(tmp_path, section)
    if layout == "sensitivity":  # swept systems: bm25_k1=0.9 and bm25_k1=1.2
        for value in ("0.9", "1.2"):
            shutil.copy(study / "runs" / "a.run", study / "runs" / f"bm25_k1={value}.run")
    result = invoke("tables", str(study), "-o", str(tmp_path / "out"), "-f", "markdown")
    assert result.exit_code == 0, result.output
    text = (tmp_path / "out" / written).read_text(encoding="utf-8")
    for piece in shown:
        assert piece in text, (piece, text)
    assert "0." in text  # values, not only headings
