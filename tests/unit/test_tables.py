"""Table models: means, best and second best on displayed values, layouts, policies."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner

from irtables.cli import main
from irtables.config import Config, Output, parse_config
from irtables.errors import DroppedMetricWarning, IrtablesError, QueryMismatchError
from irtables.model import ResultSet
from irtables.tables import build_table
from irtables.tables.model import TableModel
from irtables.tables.numbers import format_number, rank_flags
from tests.conftest import results_from_rows


def _cells(model: TableModel, group: int = 0) -> dict[str, list[tuple[str, bool, bool]]]:
    return {r.key: [(c.text, c.best, c.second) for c in r.cells] for r in model.groups[group].rows}


def test_means_and_bold(tiny_results: ResultSet) -> None:
    model = build_table(tiny_results, "main")
    assert [c.label for c in model.columns] == ["NDCG@10", "MAP"]
    cells = _cells(model)
    # AP: bm25 mean 0.4, dense 0.5; nDCG@10 both 0.5: nothing to tell apart, no bold.
    assert cells["bm25"] == [("0.500", False, False), ("0.400", False, False)]
    assert cells["dense"] == [("0.500", False, False), ("0.500", True, False)]


def test_best_is_decided_on_the_displayed_value() -> None:
    rows = [
        ("d", "a", "1", "AP", 0.51249),
        ("d", "b", "1", "AP", 0.51151),
        ("d", "c", "1", "AP", 0.4),
        ("d", "e", "1", "AP", 0.3),
    ]
    cfg = Config(output=Output(second_best=True))
    cells = _cells(build_table(results_from_rows(rows), "main", config=cfg))
    # 0.51249 and 0.51151 both show as 0.512: both best; 0.400 is then second.
    assert cells["a"][0] == ("0.512", True, False)
    assert cells["b"][0] == ("0.512", True, False)
    assert cells["c"][0] == ("0.400", False, True)
    assert cells["e"][0] == ("0.300", False, False)


def test_lower_is_better_is_configurable() -> None:
    rows = [("d", "a", "1", "AP", 0.2), ("d", "b", "1", "AP", 0.3)]
    cfg = Config(output=Output(lower_is_better=("MAP",)))
    cells = _cells(build_table(results_from_rows(rows), "main", config=cfg))
    assert cells["a"][0][1] is True and cells["b"][0][1] is False


def test_rank_flags_ignores_missing_and_single_value() -> None:
    assert rank_flags(["–", "0.100"]) == ([False, False], [False, False])
    assert rank_flags(["–", "–"]) == ([False, False], [False, False])


@pytest.mark.parametrize(
    ("texts", "best", "second"),
    [
        (["0.500"], [False], [False]),  # one system: nothing to compare
        (["0.500", "0.500", "0.500"], [False] * 3, [False] * 3),  # all tie
        (["0.500", "0.400"], [True, False], [False, False]),  # second of two is the worst
        (["0.500", "0.500", "0.400"], [True, True, False], [False, False, False]),
        (["0.5", "0.4", "0.4", "0.3"], [True, False, False, False], [False, True, True, False]),
    ],
    ids=["single", "all-tie", "two", "two-distinct", "three-distinct"],
)
def test_bold_needs_two_values_and_underline_three(
    texts: list[str], best: list[bool], second: list[bool]
) -> None:
    assert rank_flags(texts) == (best, second)


@pytest.mark.parametrize(
    "value, decimals, leading_zero, expected",
    [
        (0.1235, 3, True, "0.123"),
        (0.1236, 3, True, "0.124"),
        (1.0, 2, False, "1.00"),
        (0.25, 1, False, ".2"),
        (-0.0001, 3, True, "0.000"),
        (12.5, 1, True, "12.5"),
    ],
)
def test_format_number(value: float, decimals: int, leading_zero: bool, expected: str) -> None:
    assert format_number(value, decimals, leading_zero=leading_zero) == expected


def test_missing_metric_for_a_dataset_shows_a_dash() -> None:
    rows = [("d1", "a", "1", "AP", 0.5), ("d1", "a", "1", "P@10", 0.5), ("d2", "a", "1", "AP", 0.1)]
    model = build_table(results_from_rows(rows), "main")
    d2 = _cells(model, 1)["a"]
    assert [t for t, _, _ in d2] == ["0.100", "–"]


def test_query_mismatch_is_an_error_naming_the_queries() -> None:
    rows = [("d", "a", "1", "AP", 0.5), ("d", "a", "2", "AP", 0.5), ("d", "b", "1", "AP", 0.1)]
    with pytest.raises(QueryMismatchError, match="b lacks 1 of them: 2"):
        build_table(results_from_rows(rows), "main")


@pytest.mark.parametrize("policy, mean_a", [("intersect", 0.5), ("zero", 0.5)])
def test_query_mismatch_policies(policy: str, mean_a: float) -> None:
    rows = [("d", "a", "1", "AP", 0.5), ("d", "a", "2", "AP", 0.5), ("d", "b", "1", "AP", 0.4)]
    cfg = parse_config({"output": {"missing": policy}})
    with pytest.warns(UserWarning, match=policy):
        cells = _cells(build_table(results_from_rows(rows), "main", config=cfg))
    assert cells["a"][0][0] == format_number(mean_a)
    assert cells["b"][0][0] == ("0.400" if policy == "intersect" else "0.200")


def test_k_breakdown_rows_are_metric_by_system_and_map_spans() -> None:
    rows = []
    for system, base in (("a", 0.1), ("b", 0.2)):
        for k in (1, 10, 30):
            rows.append(("d", system, "1", f"P@{k}", base))
            rows.append(("d", system, "1", f"nDCG@{k}", base))
        rows.append(("d", system, "1", "AP", base))
    model = build_table(results_from_rows(rows), "k_breakdown", config=Config(), dataset="d")
    assert [c.label for c in model.columns] == ["K=1", "K=10"]  # only Ks present; 30 not asked
    assert [g.label for g in model.groups] == ["NDCG", "P", "MAP"]
    map_cell = model.groups[2].rows[1].cells
    assert len(map_cell) == 1 and map_cell[0].span == 2 and map_cell[0].best


def test_ablation_delta_and_groups() -> None:
    rows = [
        ("d", s, "1", m, v)
        for s, m, v in [
            ("full", "AP", 0.5),
            ("nobert", "AP", 0.4),
            ("full", "nDCG@10", 0.6),
            ("nobert", "nDCG@10", 0.7),
        ]
    ]
    group = {
        "name": "G",
        "full": "full",
        "rows": [
            {"system": "full", "name": "Full", "description": "all parts"},
            {"system": "nobert", "name": "w/o BERT", "description": "no re-ranking"},
        ],
    }
    ablation = {"dataset": "d", "groups": [group], "metrics": ["MAP", "NDCG@10"], "delta": True}
    config = parse_config({"tables": {"ablation": ablation}})
    model = build_table(results_from_rows(rows), "ablation", config=config)
    full, ablated = model.groups[0].rows
    assert (full.label, full.description, full.cells[0].delta) == ("Full", "all parts", "")
    assert [c.delta for c in ablated.cells] == ["-0.100", "+0.100"]  # ASCII: the model's
    assert [c.best for c in ablated.cells] == [False, True]


def test_ablation_unknown_system_is_an_error() -> None:
    rows = [("d", "full", "1", "AP", 0.5)]
    ablation = {"dataset": "d", "full": "full", "rows": [{"system": "full"}, {"system": "ghost"}]}
    config = parse_config({"tables": {"ablation": {**ablation, "metrics": ["MAP"]}}})
    with pytest.raises(
        IrtablesError, match=r"tables\.ablation\.groups\[0\]: system 'ghost' has no"
    ):
        build_table(results_from_rows(rows), "ablation", config=config)


def test_average_group_over_datasets() -> None:
    rows = [
        ("d1", "a", "1", "AP", 0.2),
        ("d2", "a", "1", "AP", 0.4),
        ("d1", "b", "1", "AP", 0.1),
        ("d2", "b", "1", "AP", 0.1),
    ]
    cfg = parse_config({"tables": {"main": {"metrics": ["MAP"], "average": True}}})
    model = build_table(results_from_rows(rows), "main", config=cfg)
    assert model.groups[-1].label == "Average"
    assert _cells(model, 2) == {"a": [("0.300", True, False)], "b": [("0.100", False, False)]}


def test_config_metric_absent_is_an_error_listing_available(tiny_results: ResultSet) -> None:
    cfg = parse_config({"tables": {"main": {"metrics": ["MAP", "R@100"]}}})
    with pytest.raises(
        IrtablesError, match=r"R@100 is not in the results \(available: MAP, NDCG@10\)"
    ):
        build_table(tiny_results, "main", config=cfg)


def test_relevance_threshold_variant_matches_plain_request() -> None:
    rows = [("d", "a", "1", "AP(rel=2)", 0.3)]
    model = build_table(results_from_rows(rows), "main")
    assert model.columns[0].label == "MAP"
    assert "grade ≥ 2" in model.full_caption


def test_default_table1_names_the_metrics_it_leaves_out(tiny_results: ResultSet) -> None:
    with pytest.warns(DroppedMetricWarning, match=r"leaves out MRR@10, P@10, R@100: no dataset"):
        model = build_table(tiny_results, "main")
    assert [c.label for c in model.columns] == ["NDCG@10", "MAP"]
    cfg = parse_config({"tables": {"main": {"metrics": ["NDCG@10", "MAP"]}}})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        build_table(tiny_results, "main", config=cfg)  # chosen columns: nothing left out


def test_cli_prints_the_left_out_metrics(tmp_path: Path, tiny_results: ResultSet) -> None:
    (tmp_path / "toy").mkdir()
    frame = tiny_results.frame.drop(columns="dataset")
    frame.to_csv(tmp_path / "toy" / "all.tsv", sep="\t", index=False)
    result = CliRunner().invoke(main, ["tables", str(tmp_path), "-f", "csv"])
    assert result.exit_code == 0, result.output
    assert "Warning: Table 1 leaves out MRR@10, P@10, R@100" in result.stderr
