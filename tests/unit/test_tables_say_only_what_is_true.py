"""Tables and captions say only what is true: no marker from a degenerate test, no bold
where there is nothing to compare, legends only where their baseline is, Δ that agrees
with the numbers beside it, and CSV columns for markers and Δ."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest

from irtables.config import parse_config
from irtables.model import ResultSet
from irtables.render import render
from irtables.tables import build_all
from tests.conftest import results_from_rows


def _results(values: dict[tuple[str, str], list[float]], metric: str = "AP") -> ResultSet:
    rows = [
        (dataset, system, f"q{i}", metric, v)
        for (dataset, system), vals in values.items()
        for i, v in enumerate(vals)
    ]
    return results_from_rows(rows)


@pytest.mark.parametrize(
    "system",
    [[0.6, 0.7], [0.3 + 0.1, 0.1 + 0.1, 0.5 + 0.1]],  # equal gains; equal up to rounding
    ids=["two-equal-differences", "rounding-noise"],
)
def test_constant_differences_give_no_marker(system: list[float]) -> None:
    base = [0.5, 0.6] if len(system) == 2 else [0.3, 0.1, 0.5]
    rs = _results({("d", "base"): base, ("d", "sys"): system})
    built = build_all(rs, parse_config({"compare": {"baseline": "base"}}))
    cells = {r.key: r.cells[0] for r in built.tables[0].groups[0].rows}
    assert cells["sys"].markers == ""
    assert built.comparisons is not None
    (result,) = built.comparisons.results
    assert result.pvalue == 1.0 and result.effect_size is None
    assert result.method.startswith("undefined: constant difference")


def _two_datasets() -> ResultSet:
    return _results(
        {
            ("cast", "bm25"): [0.2, 0.4, 0.3, 0.5],
            ("cast", "ance"): [0.5, 0.6, 0.7, 0.9],
            ("cast", "convdr"): [0.3, 0.2, 0.4, 0.4],
            ("cacm", "anserini"): [0.3, 0.4, 0.5, 0.6],  # one system, no baseline
        },
        metric="P@10",
    )


def test_one_system_is_never_bold_and_gets_no_legend() -> None:
    config = parse_config({"compare": {"baseline": "bm25"}, "output": {"second_best": True}})
    built = build_all(_two_datasets(), config)
    table1 = built.tables[0]
    cacm = next(g for g in table1.groups if g.label == "cacm")
    assert not any(c.best or c.second for r in cacm.rows for c in r.cells)
    s1 = {t.name: t for t in built.tables}
    assert "significantly" not in s1["tableS1-cacm"].full_caption
    assert "bold" not in s1["tableS1-cacm"].full_caption
    assert "significantly better and worse than bm25" in s1["tableS1-cast"].full_caption
    assert "significantly better and worse than bm25" in table1.full_caption


def test_two_rows_have_no_second_best_and_captions_say_so() -> None:
    rs = _results({("d", "a"): [0.2, 0.4], ("d", "b"): [0.5, 0.6]})
    built = build_all(rs, parse_config({"output": {"second_best": True}}))
    table = built.tables[0]
    assert [c.second for r in table.groups[0].rows for c in r.cells] == [False, False]
    assert table.full_caption.endswith("in bold.")  # no "second best underlined"
    three = _results({("d", "a"): [0.2], ("d", "b"): [0.5], ("d", "c"): [0.3]})
    caption = build_all(three, parse_config({"output": {"second_best": True}})).tables[0]
    assert "second best underlined" in caption.full_caption


def _ablation(delta: bool = True) -> tuple[ResultSet, dict[str, object]]:
    # the full model's mean 0.6756 shows as 0.676, the ablated 0.7104 as 0.710: the
    # unrounded Δ 0.0348 would print +0.035 beside numbers that differ by 0.034.
    rs = _results(
        {
            ("d", "full"): [0.676, 0.6752],
            ("d", "ablated"): [0.7104, 0.7104],
            ("d", "other"): [0.2, 0.25],
        }
    )
    cfg = {
        "tables": {
            "ablation": {
                "dataset": "d",
                "metrics": ["AP"],
                "delta": delta,
                "groups": [
                    {
                        "name": "A",
                        "full": "full",
                        "rows": [{"system": "full"}, {"system": "ablated"}],
                    },
                    {"name": "B", "full": "other", "rows": [{"system": "other"}]},
                ],
            }
        }
    }
    return rs, cfg


def test_delta_is_the_difference_of_the_displayed_values() -> None:
    rs, cfg = _ablation()
    built = build_all(rs, parse_config(cfg))
    ablation = next(t for t in built.tables if t.layout == "ablation")
    full, ablated = ablation.groups[0].rows
    shown = Decimal(ablated.cells[0].text) - Decimal(full.cells[0].text)
    assert ablated.cells[0].delta == f"{shown:+.3f}"
    unrounded = (ablated.cells[0].value or 0) - (full.cells[0].value or 0)
    assert f"{unrounded:+.3f}" == "+0.035" and ablated.cells[0].delta == "+0.034"
    assert "computed from the values shown" in ablation.full_caption
    # two-row groups: one value per group has nothing to compare with in its column
    other = ablation.groups[1].rows[0].cells[0]
    assert not other.best and not other.second


def test_csv_keeps_delta_and_markers_in_their_own_columns() -> None:
    rs, cfg = _ablation()
    config = parse_config({**cfg, "compare": {"baseline": "full"}})
    built = build_all(rs, config)
    ablation = next(t for t in built.tables if t.layout == "ablation")
    rows = list(csv.reader(io.StringIO(render(ablation, "csv"))))
    header = rows[0]
    assert header[:5] == ["Group", "Method", "MAP", "MAP markers", "MAP Δ"]
    by_method = {r[1]: dict(zip(header, r, strict=True)) for r in rows[1:]}
    assert by_method["ablated"]["MAP"] == "0.710"
    assert by_method["ablated"]["MAP markers"] == "†"  # +0.0344 and +0.0352: t = 87
    assert by_method["ablated"]["MAP Δ"] == "+0.034"
    assert by_method["full"]["MAP Δ"] == ""
    table1 = built.tables[0]
    t1 = list(csv.reader(io.StringIO(render(table1, "csv"))))
    assert "(" not in "".join(",".join(r) for r in t1)  # no Δ, no notes glued to numbers


def test_counts_are_labelled_as_means_per_query() -> None:
    rs = _results({("d", "a"): [10.0, 20.0], ("d", "b"): [12.0, 30.0]}, metric="NumRel")
    cfg = parse_config({"tables": {"main": {"metrics": ["NumRel"]}}})
    table = build_all(rs, cfg).tables[0]
    assert "#Rel: means per query, not sums." in table.full_caption
    assert [r.cells[0].text for r in table.groups[0].rows] == ["15.000", "21.000"]
