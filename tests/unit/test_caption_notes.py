"""``caption_notes``: where a table's notes go (caption, below the table, nowhere), the
notes a caption drops kept in the supplement's methods, and the warnings about a LaTeX
table that will not read well on a page (scaled type, taller than a page)."""

from __future__ import annotations

import tomllib
import warnings
from dataclasses import replace
from pathlib import Path

import pytest

from irtables.config import load_config, parse_config
from irtables.errors import ConfigError, LayoutWarning
from irtables.loaders import load_results
from irtables.render import render
from irtables.render.latex import LatexOptions
from irtables.tables import build_all
from irtables.tables.model import Cell, Column, Row, RowGroup, TableModel
from tests.conftest import REPO

EXAMPLE = REPO / "results"
DESCRIPTIVE = "Means over the queries of each dataset (TREC CAsT 2021: 158; CACM: 52)."
BOLD = "Best value per column within each group in bold; second best underlined."


def _raw_config() -> dict[str, object]:
    return tomllib.loads((EXAMPLE / "irtables.toml").read_text(encoding="utf-8"))


def _table1(output: dict[str, object] | None = None, main: dict[str, object] | None = None):
    raw = _raw_config()
    raw["output"] = {**raw["output"], **(output or {})}  # type: ignore[dict-item]
    raw["tables"]["main"] = {**raw["tables"]["main"], **(main or {})}  # type: ignore[index]
    config = replace(parse_config(raw), path=str(EXAMPLE / "irtables.toml"))
    tables = build_all(load_results(EXAMPLE), config).tables
    return next(t for t in tables if t.name == "table1"), tables


def test_full_is_the_default_and_keeps_every_note() -> None:
    table, _ = _table1()
    assert table.caption_notes == "full"
    assert DESCRIPTIVE in table.caption_text and BOLD in table.caption_text
    assert "† and ‡: significantly better" in table.caption_text
    assert table.dropped_notes == () and table.footnote == ""


def test_short_keeps_what_explains_the_marks() -> None:
    table, _ = _table1(output={"caption_notes": "short"})
    assert DESCRIPTIVE not in table.caption_text and "trec_eval" not in table.caption_text
    assert BOLD in table.caption_text and "† and ‡: significantly better" in table.caption_text
    assert DESCRIPTIVE in table.dropped_notes
    assert "NDCG uses the relevance grade as gain (trec_eval)." in table.dropped_notes
    latex = render(table, "latex")
    caption = next(line for line in latex.splitlines() if line.startswith("\\caption{"))
    assert "Means over" not in caption and "\\dag{} and \\ddag{}" in caption


def test_a_table_setting_wins_over_output() -> None:
    table, tables = _table1(output={"caption_notes": "none"}, main={"caption_notes": "footnote"})
    assert table.caption_notes == "footnote"
    assert {t.caption_notes for t in tables if t.name != "table1"} == {"none"}


def test_footnote_sets_the_notes_below_the_table_in_every_format() -> None:
    table, _ = _table1(main={"caption_notes": "footnote"})
    assert table.caption_text == table.caption and table.dropped_notes == ()
    latex = render(table, "latex")
    assert latex.index("\\end{tabular}") < latex.index("\\footnotesize") < latex.index("Means ov")
    markdown = render(table, "markdown")
    grid_end = markdown.rindex("|")
    assert markdown.index("Means over the queries") > grid_end
    html = render(table, "html")
    assert html.index("</table>") < html.index('<p class="irtables-notes"') < html.index("Means")


def test_an_unknown_choice_is_an_error_naming_the_key() -> None:
    with pytest.raises(ConfigError, match=r"output\.caption_notes.*full, short, footnote, none"):
        parse_config({"output": {"caption_notes": "brief"}})
    with pytest.raises(ConfigError, match=r"tables\.main\.caption_notes"):
        parse_config({"tables": {"main": {"caption_notes": 3}}})


def test_dropped_notes_are_in_the_supplement_methods(tmp_path: Path) -> None:
    from irtables.supplement.build import build_supplement

    raw = _raw_config()
    raw["output"] = {**raw["output"], "caption_notes": "none"}  # type: ignore[dict-item]
    config = replace(parse_config(raw), path=str(EXAMPLE / "irtables.toml"))
    built = build_supplement(load_results(EXAMPLE), config)
    pages = {o.path: o.data.decode("utf-8") for o in built.outputs if o.path.startswith("meth")}
    methods_md, methods_tex = pages["methods.md"], pages["methods.tex"]
    section = methods_md.split("## Table notes", 1)[1].split("## References", 1)[0]
    assert "- **Table 1**: Means over the queries of each dataset" in section
    assert "significantly better and worse than BM25" in section
    assert "\\subsection*{Table notes}" in methods_tex
    assert "\\item[Table 1] Means over the queries of each dataset" in methods_tex
    # and the default (full) adds no such section
    plain = build_supplement(load_results(EXAMPLE), load_config(EXAMPLE / "irtables.toml"))
    assert "Table notes" not in {o.path: o.data for o in plain.outputs}["methods.md"].decode()


def _grid(systems: int) -> TableModel:
    columns = tuple(Column(f"s{i}", f"System-{i:02d}") for i in range(systems))
    rows = tuple(Row(d, d, tuple(Cell(0.5, "0.500") for _ in columns)) for d in ("alpha", "beta"))
    return TableModel(
        "grid", "beir", "Table 3", ("Dataset",), columns, (RowGroup(None, rows),),
        "NDCG@10 per dataset.", "tab:beir",
    )  # fmt: skip


def test_a_grid_scaled_below_a_readable_size_warns() -> None:
    with pytest.warns(LayoutWarning) as caught:
        render(_grid(17), "latex")
    (message,) = [str(w.message) for w in caught]
    assert message.startswith("Table 3 (beir): LaTeX will scale it to ")
    percent = int(message.split("scale it to ")[1].split("%")[0])
    assert 30 <= percent < 75, message  # 17 columns of ~50 pt in a 506 pt table*
    assert "pt type" in message and "fewer systems or columns, or split it" in message
    with pytest.warns(LayoutWarning, match="set wide = true"):
        render(_grid(5), "latex", latex=LatexOptions(wide=False))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        render(_grid(5), "latex")  # fits a table*: no warning
