"""Results from Python objects: tidy and PyTerrier frames, pytrec_eval and ranx dicts."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
import pytrec_eval

from irtables import load_results
from irtables.errors import InputError
from irtables.loaders import load_file
from irtables.measures import parse_measure

DATA = Path(__file__).resolve().parents[1] / "data" / "runs"
MEASURES = {"map", "ndcg_cut_10", "P_5", "recip_rank"}
RANX_NAMES = {"map": "map", "ndcg_cut_10": "ndcg@10", "P_5": "precision@5", "recip_rank": "mrr"}


def _trec(path: Path) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for line in path.read_text().splitlines():
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        if path.suffix == ".qrels":
            out.setdefault(fields[0], {})[fields[2]] = int(fields[3])
        else:
            out.setdefault(fields[0], {})[fields[2]] = float(fields[4])
    return out


@pytest.fixture(scope="module")
def per_query() -> dict[str, dict[str, float]]:
    """pytrec_eval's own per-query dict for the tiny run (the independent reference)."""
    qrels = _trec(DATA / "tiny.qrels")
    run = _trec(DATA / "tiny.run")
    found: dict[str, dict[str, float]] = pytrec_eval.RelevanceEvaluator(qrels, MEASURES).evaluate(
        run
    )
    return found


def _values(rs: object) -> dict[tuple[str, str], float]:
    frame = rs.frame  # type: ignore[attr-defined]
    return {
        (q, m): v for q, m, v in zip(frame["query"], frame["metric"], frame["value"], strict=True)
    }


def _expected(per_query: dict[str, dict[str, float]]) -> dict[tuple[str, str], float]:
    return {
        (q, parse_measure(m).name): v
        for q, metrics in per_query.items()
        for m, v in metrics.items()
    }


def test_pytrec_eval_dict(per_query: dict[str, dict[str, float]]) -> None:
    rs = load_results(per_query, dataset="tiny", system="bm25")
    assert rs.datasets() == ("tiny",) and rs.systems() == ("bm25",)
    assert _values(rs) == _expected(per_query)


def test_ranx_dict_metric_first(per_query: dict[str, dict[str, float]]) -> None:
    ranx: dict[str, dict[str, float]] = {}
    for q, metrics in per_query.items():
        for m, v in metrics.items():
            ranx.setdefault(RANX_NAMES[m], {})[q] = v
    rs = load_results(ranx, dataset="tiny", system="bm25")
    assert _values(rs) == _expected(per_query)


def test_ranx_json_file_as_run_scores_dumps_it(tmp_path: Path) -> None:
    # ranx's documented run.scores example, dumped with json.dump
    scores = {
        "ndcg@5": {"q_1": 0.9430, "q_2": 0.6292},
        "map@5": {"q_1": 0.8333, "q_2": 0.4500},
        "mrr": {"q_1": 1.0000, "q_2": 0.5000},
    }
    path = tmp_path / "bm25.json"
    path.write_text(json.dumps(scores))
    frame = load_file(path).frame
    got = {
        (q, m): v for q, m, v in zip(frame["query"], frame["metric"], frame["value"], strict=True)
    }
    assert got[("q_2", "AP@5")] == 0.45
    assert got[("q_1", "nDCG@5")] == 0.943
    assert got[("q_2", "RR")] == 0.5
    assert len(got) == 6


def test_ranx_level_suffix_keeps_the_level() -> None:
    assert parse_measure("map-l2").name == "AP(rel=2)"
    assert parse_measure("ndcg@10-l2").name == "nDCG(rel=2)@10"
    assert parse_measure("ndcg@10-l2").label == "NDCG(rel≥2)@10"  # not trec_eval's nDCG
    assert parse_measure("precision@3-l2").label == "P@3"


def test_ranx_compare_metric_names_of_the_fixture() -> None:
    from tests.conftest import require_fixtures

    report = (
        require_fixtures() / "perquery_dumps" / "ranx_compare" / "cast2021_compare_student.json"
    )
    doc = json.loads(report.read_text())
    names = [parse_measure(m).name for m in doc["metrics"]]
    assert names == ["nDCG@3", "nDCG@10", "AP(rel=2)", "RR(rel=2)", "P(rel=2)@3", "R(rel=2)@500"]


def test_tidy_and_pyterrier_frames(per_query: dict[str, dict[str, float]]) -> None:
    rows = [(q, m, v) for q, metrics in per_query.items() for m, v in metrics.items()]
    tidy = pd.DataFrame(rows, columns=["qid", "measure", "value"])
    rs = load_results(tidy, dataset="tiny", system="bm25")
    assert _values(rs) == _expected(per_query)
    pyterrier = pd.DataFrame(
        [("BM25", q, m, v) for q, m, v in rows], columns=["name", "qid", "measure", "value"]
    )
    rs = load_results(pyterrier, dataset="tiny")
    assert rs.systems() == ("BM25",)
    assert _values(rs) == _expected(per_query)


def test_missing_dataset_or_bad_values_are_clear_errors() -> None:
    frame = pd.DataFrame({"qid": ["1"], "measure": ["map"], "value": [0.5]})
    with pytest.raises(InputError, match="pass dataset="):
        load_results(frame, system="bm25")
    with pytest.raises(InputError, match=r"expected a value in \[0, 1\]"):
        load_results({"1": {"map": 1.5}}, dataset="d", system="s")
    with pytest.raises(InputError, match="unknown measure"):
        load_results({"1": {"mapp": 0.5}}, dataset="d", system="s")
