"""One format-neutral table model; each output format decides at render time what is its
own: LaTeX's table* and resizing, CSV's Δ column, the typographic minus of the typeset
formats (LaTeX, Markdown, HTML)."""

from __future__ import annotations

import csv
import io
from dataclasses import fields
from pathlib import Path

import pytest

from irtables.config import parse_config
from irtables.render import render
from irtables.render.latex import LatexOptions, latex_options
from irtables.study.pipeline import write_tables
from irtables.tables import build_table
from irtables.tables.model import Cell, Column, Row, RowGroup, TableModel
from tests.conftest import results_from_rows

MINUS = "\N{MINUS SIGN}"


def _model(cells: tuple[Cell, ...], label: str = "BM25") -> TableModel:
    columns = tuple(Column(f"m{j}", f"M{j}") for j in range(len(cells)))
    rows = (Row("a", label, cells),)
    return TableModel(
        "main", "t", "Table 1", ("System",), columns, (RowGroup(None, rows),), "Caption.", "tab:t"
    )


def _ablation_config() -> dict[str, object]:
    rows = [
        {"system": "full", "name": "Full"},
        {"system": "BM25-RM3", "name": "w/o PRF (BM25-RM3)"},
    ]
    return {
        "tables": {
            "ablation": {
                "dataset": "d",
                "metrics": ["MAP", "NDCG@10"],
                "delta": True,
                "groups": [{"name": "A", "full": "full", "rows": rows}],
            }
        }
    }


def _ablation() -> TableModel:
    # full: AP 0.500, nDCG@10 0.200; BM25-RM3: 0.400 (-0.100) and 0.300 (+0.100)
    values = {("full", "AP"): 0.5, ("full", "nDCG@10"): 0.2}
    values |= {("BM25-RM3", "AP"): 0.4, ("BM25-RM3", "nDCG@10"): 0.3}
    rows = [("d", s, q, m, v) for (s, m), v in values.items() for q in ("1", "2")]
    config = parse_config(_ablation_config())
    return build_table(results_from_rows(rows), "ablation", config=config)


def test_the_model_has_no_field_of_one_output_format() -> None:
    model_fields = {f.name for f in fields(TableModel)}
    cell_fields = {f.name for f in fields(Cell)}
    assert not model_fields & {"wide", "resize"}  # LaTeX's placement
    assert "note" not in cell_fields  # "(−0.034)": the Δ as the typeset formats lay it out
    assert "delta" in cell_fields  # the Δ as data, which every format lays out itself


@pytest.mark.parametrize(
    ("options", "begin"),
    [
        (LatexOptions(wide=True), "\\begin{table*}[tbp]"),
        (LatexOptions(wide=False), "\\begin{table}[tbp]"),
        (None, "\\begin{table}[tbp]"),  # one narrow column: a table, from the content
    ],
    ids=["wide", "narrow", "from-content"],
)
def test_latex_options_choose_table_or_table_star(options: LatexOptions | None, begin: str) -> None:
    tex = render(_model((Cell(0.5, "0.500"),)), "latex", latex=options)
    assert begin in tex and begin.replace("begin", "end").removesuffix("[tbp]") in tex
    assert "\\resizebox{\\linewidth}{!}{%" not in tex


def test_latex_resize_option_always_scales() -> None:
    tex = render(_model((Cell(0.5, "0.500"),)), "latex", latex=LatexOptions(resize=True))
    assert "\\resizebox{\\linewidth}{!}{%" in tex


def test_other_formats_ignore_the_latex_options() -> None:
    model = _model((Cell(0.5, "0.500"),))
    for fmt in ("markdown", "csv", "html"):
        assert render(model, fmt, latex=LatexOptions(wide=True, resize=True)) == render(model, fmt)


def test_ablation_delta_is_ascii_data_in_the_model_and_csv() -> None:
    model = _ablation()
    full, ablated = model.groups[0].rows
    assert [c.delta for c in ablated.cells] == ["-0.100", "+0.100"]
    assert [c.delta for c in full.cells] == ["", ""]
    rows = list(csv.reader(io.StringIO(render(model, "csv"))))
    header = rows[0]
    assert header[2:6] == ["MAP", "MAP Δ", "NDCG@10", "NDCG@10 Δ"]
    by_row = {r[1]: dict(zip(header, r, strict=True)) for r in rows[1:]}
    row = by_row["w/o PRF (BM25-RM3)"]
    assert (row["MAP"], row["MAP Δ"], row["NDCG@10 Δ"]) == ("0.400", "-0.100", "+0.100")
    assert by_row["Full"]["MAP Δ"] == ""
    assert MINUS not in render(model, "csv")
    frame = model.to_frame()
    assert "note" not in frame.columns
    assert frame.loc[frame["delta"] != "", "delta"].map(float).tolist() == [-0.1, 0.1]


def test_typeset_formats_show_the_delta_after_the_value_with_a_typographic_minus() -> None:
    model = _ablation()
    latex = render(model, "latex")
    assert "{\\scriptsize ($-$0.100)}" in latex and MINUS not in latex  # pdflatex: escaped
    assert f"0.400 ({MINUS}0.100)" in render(model, "markdown")
    assert f'<td class="extra">({MINUS}0.100)</td>' in render(model, "html")


def test_a_hyphen_in_a_label_stays_a_hyphen() -> None:
    model = _ablation()
    for fmt in ("latex", "markdown", "html", "csv"):
        text = render(model, fmt)
        assert "w/o PRF (BM25-RM3)" in text, fmt
        assert f"BM25{MINUS}RM3" not in text and "BM25$-$RM3" not in text, fmt


def test_negative_numbers_in_cells_are_typeset_per_format() -> None:
    cell = Cell(-0.5, "-0.500", spread="[-0.520, -0.480]")
    model = _model((cell,), label="run-1")
    latex, html = render(model, "latex"), render(model, "html")
    assert "run-1 & $-$0.500 & {[}$-$0.520, $-$0.480{]}" in latex
    markdown = render(model, "markdown")
    assert f"| run-1    | {MINUS}0.500 \\[{MINUS}0.520, {MINUS}0.480\\] |" in markdown
    assert f"{MINUS}0.500" in html and f"[{MINUS}0.520, {MINUS}0.480]" in html and "run-1" in html
    assert "run-1,-0.500" in render(model, "csv")  # CSV: the number as data (no spread)


def test_the_writer_sets_latex_options_from_the_configuration(tmp_path: Path) -> None:
    rows = [("d", s, "1", "AP", v) for s, v in (("a", 0.25), ("b", 0.5))]
    rows += [("d", s, "1", "P_10", v) for s, v in (("a", 0.1), ("b", 0.2))]
    config = parse_config(
        {
            "output": {"wide": True, "resize": True, "formats": ["latex"]},
            "tables": {
                "main": {"metrics": ["MAP"]},
                "per_k": {"layout": "k_breakdown", "metrics": ["P"], "k": [10], "wide": False},
            },
        }
    )
    write_tables(results_from_rows(rows), config, tmp_path)
    table1 = (tmp_path / "table1.tex").read_text(encoding="utf-8")
    assert "\\begin{table*}[" in table1 and "\\resizebox{\\linewidth}{!}{%" in table1
    per_k = (tmp_path / "per_k-d.tex").read_text(encoding="utf-8")  # its own wide = false
    assert "\\begin{table}[" in per_k and "\\resizebox{\\linewidth}{!}{%" in per_k
    model = build_table(results_from_rows(rows), "per_k", config=config, dataset="d")
    assert latex_options(config, model) == LatexOptions(wide=False, resize=True)
