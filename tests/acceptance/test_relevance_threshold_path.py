"""A relevance threshold other than 1 is never lost: evaluate -l 2 → TSV → tables → captions
and methods all say "≥ 2", from the command line and from the API (CAsT 2021, graded 0–4)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from irtables import build_table, evaluate, render
from irtables.cli import main
from tests.conftest import require_fixtures

MEASURES = ["ndcg_cut_10", "RR@10", "map", "P@10", "R@100"]
RUNS = ("org_manual_bm25", "org_manual_ance")


def _inputs() -> tuple[Path, list[Path]]:
    data = require_fixtures() / "trec_cast2021_baselines" / "data"
    return data / "trec-cast-qrels-docs.2021.qrel.gz", [data / "runs" / f"{r}.run.gz" for r in RUNS]


def test_cli_evaluate_l2_to_tables_and_methods(tmp_path: Path) -> None:
    qrels, runs = _inputs()
    runner = CliRunner()
    tsv = tmp_path / "results" / "cast" / "all.tsv"
    tsv.parent.mkdir(parents=True)
    args = ["evaluate", str(qrels), *map(str, runs), "-l", "2", "-q", "-o", str(tsv)]
    done = runner.invoke(main, args + [a for m in MEASURES for a in ("-m", m)])
    assert done.exit_code == 0, done.output
    metrics = set(pd.read_csv(tsv, sep="\t")["metric"])
    assert metrics == {"nDCG@10", "RR(rel=2)@10", "AP(rel=2)", "P(rel=2)@10", "R(rel=2)@100"}

    done = runner.invoke(main, ["tables", str(tmp_path / "results"), "-f", "markdown"])
    assert done.exit_code == 0, done.output
    table1 = (tmp_path / "results" / "tables" / "table1.md").read_text(encoding="utf-8")
    assert "Binary measures count grade ≥ 2 as relevant." in table1
    assert "|MRR@10|" in table1.replace(" ", "")

    done = runner.invoke(
        main, ["supplement", str(tmp_path / "results"), "-o", str(tmp_path / "sup"), "--no-pdf"]
    )
    assert done.exit_code == 0, done.output
    methods = " ".join((tmp_path / "sup" / "methods.md").read_text(encoding="utf-8").split())
    assert "relevance grade is at least 2;" in methods
    assert "at least 1" not in methods
    tex = " ".join((tmp_path / "sup" / "methods.tex").read_text(encoding="utf-8").split())
    assert "at least 2;" in tex


def test_api_evaluate_relevance_2_to_caption(tmp_path: Path) -> None:
    qrels, runs = _inputs()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = evaluate(qrels, runs, MEASURES, relevance=2, dataset="cast")
    table = build_table(results, "main")
    assert "Binary measures count grade ≥ 2 as relevant." in table.full_caption
    assert "grade ≥ 2" in render(table, "markdown")


@pytest.mark.parametrize("relevance", [1, 2])
def test_names_carry_only_a_threshold_other_than_1(relevance: int) -> None:
    qrels = pd.DataFrame({"query": ["1", "1"], "docid": ["a", "b"], "rel": [1, 2]})
    run = pd.DataFrame({"query": ["1", "1"], "docid": ["a", "b"], "score": [2.0, 1.0]})
    names = set(evaluate(qrels, run, ["AP", "nDCG@2", "NumRel"], relevance=relevance).metrics())
    expected = (
        {"AP", "nDCG@2", "NumRel"}
        if relevance == 1
        else {
            "AP(rel=2)",
            "nDCG@2",
            "NumRel(rel=2)",
        }
    )
    assert names == expected
