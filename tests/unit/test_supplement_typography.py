"""The supplement's own typography: the significance longtable (markers in a column of
their own, math in the header, p-values as journals print them), the caption skip above
booktabs rules, and ragged-right descriptions."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from irtables.config import load_config, parse_config
from irtables.errors import ConfigError
from irtables.loaders import load_results
from irtables.render import render
from irtables.stats import compare
from irtables.supplement.build import build_supplement
from irtables.supplement.report import SIG_HEADER, SIG_HEADER_TEX, pvalue, significance_rows
from irtables.tables import build_all
from tests.conftest import REPO

EXAMPLE = REPO / "results"


@pytest.fixture(scope="module")
def rows() -> list[list[str]]:
    results = load_results(EXAMPLE)
    comparisons = compare(
        results, baseline="org_manual_bm25", datasets=["cast2021"], correction="holm"
    )
    return significance_rows(comparisons, str, str, floor=0.001)


def test_markers_have_a_column_of_their_own(rows: list[list[str]]) -> None:
    sig = SIG_HEADER.index("p adj") + 1
    assert all(len(r) == len(SIG_HEADER) == len(SIG_HEADER_TEX) for r in rows)
    assert {r[sig] for r in rows} <= {"", "+", "−"} and {"+", ""} <= {r[sig] for r in rows}
    for r in rows:  # p-values hold no marker: a "-" after them read as a minus sign
        for p in (r[sig - 2], r[sig - 1]):
            assert re.fullmatch(r"< 0\.001|[01]\.\d{3}", p), p


def test_pvalues_as_journals_print_them() -> None:
    assert [pvalue(p, 0.001) for p in (0.2, 0.0123, 0.001, 0.00099, 1e-12)] == [
        "0.200", "0.012", "0.001", "< 0.001", "< 0.001",
    ]  # fmt: skip
    assert [pvalue(p, 0.05) for p in (0.2, 0.01)] == ["0.20", "< 0.05"]
    assert pvalue(3.2e-7) == "3.2e-07"  # floor 0: every p-value as it is


def test_pvalue_floor_is_configurable() -> None:
    assert load_config(EXAMPLE / "irtables.toml").output.pvalue_floor == 0.001
    assert parse_config({"output": {"pvalue_floor": 0}}).output.pvalue_floor == 0.0
    with pytest.raises(ConfigError, match=r"output\.pvalue_floor"):
        parse_config({"output": {"pvalue_floor": "small"}})


def test_supplement_tex_sets_math_in_the_header_and_the_caption_skip() -> None:
    config = load_config(EXAMPLE / "irtables.toml")
    built = build_supplement(load_results(EXAMPLE), config)
    tex = next(o.data.decode() for o in built.outputs if o.path == "supplement.tex")
    header = "Dataset & Metric & System & Baseline & $\\Delta$ & 95\\% CI & $p$ & "
    assert header + "$p_{\\mathrm{adj}}$ &  & $d_z$ \\\\" in tex
    assert "d\\_z" not in tex
    # a row per table and comparison: Table 1's rows with its own family, then Table S1's
    assert "Table & " + header in tex
    assert "\nTable 1 & TREC CAsT 2021 & NDCG@10 & ANCE & BM25 & " in tex
    assert "\nTable S1 & TREC CAsT 2021 & NDCG@10 & ANCE & BM25 & " in tex
    assert "\\usepackage[tableposition=top]{caption}" in tex  # skip below a top caption
    assert re.search(r"& \\textless\{\} 0\.001 & \+ & 0\.\d\d \\\\", tex)
    off = replace(config, output=replace(config.output, pvalue_floor=0.0))
    tex0 = next(
        o.data.decode()
        for o in build_supplement(load_results(EXAMPLE), off).outputs
        if o.path == "supplement.tex"
    )
    assert "\\textless{} 0.001" not in tex0 and re.search(r"& \d\.\de-\d\d & \+ &", tex0)


def test_descriptions_are_ragged_right() -> None:
    config = load_config(EXAMPLE / "irtables.toml")
    ablation = next(
        t for t in build_all(load_results(EXAMPLE), config).tables if t.layout == "ablation"
    )
    latex = render(ablation, "latex")
    described = [line for line in latex.splitlines() if "re-ranked by BERT" in line]
    # ragged right inside the cell's box; the row still ends with the kernel's \\tabularnewline
    ragged = "\\raggedright\\let\\\\\\tabularnewline "
    assert described and all(ragged + "ANCE" in d or ragged + "ConvDR" in d for d in described)
