"""Values in qrels, runs and results that Python would accept but are wrong are errors
naming the file and line: relevance grades, scores and metric values such as nan,
inf, 0.2_5 or full-width digits, and control characters in names (issue 9)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import RUNS, assert_one_line_error, invoke, tidy_study


@pytest.mark.parametrize("grade", ["99999999999999999999999", "1_0", "1e30", "0x10", "２"])
def test_bad_qrels_grade_names_file_and_line(tmp_path: Path, grade: str) -> None:
    qrels = tmp_path / "qrels.txt"
    qrels.write_text(f"1 0 d1 1\n1 0 d2 {grade}\n", encoding="utf-8")
    result = invoke("evaluate", str(qrels), str(RUNS / "tiny.run"), "-m", "map")
    assert_one_line_error(result, "qrels.txt:2", "integer relevance grade")


@pytest.mark.parametrize("grade", ["1e30", "1.5", "nan"])
def test_bad_grade_in_a_tidy_qrels_file(tmp_path: Path, grade: str) -> None:
    qrels = tmp_path / "qrels.tsv"
    qrels.write_text(f"query\tdocid\trelevance\n1\td1\t1\n1\td2\t{grade}\n", encoding="utf-8")
    result = invoke("evaluate", str(qrels), str(RUNS / "tiny.run"), "-m", "map")
    assert_one_line_error(result, "qrels.tsv:3", "integer relevance grade")


@pytest.mark.parametrize("value", ["0.2_5", "０.５", "nan", "inf", "1e999", "0x1p-2"])
def test_numbers_python_would_accept_are_errors(tmp_path: Path, value: str) -> None:
    results = tmp_path / "r" / "dl"
    results.mkdir(parents=True)
    (results / "bm25.tsv").write_text(f"query\tmetric\tvalue\n1\tAP\t0.5\n2\tAP\t{value}\n")
    result = invoke("tables", str(results.parent))
    assert_one_line_error(result, "bm25.tsv:3")


@pytest.mark.parametrize("score", ["nan", "NaN", "inf", "-inf", "0.2_5", "１"])
def test_bad_run_scores_are_errors_naming_the_line(tmp_path: Path, score: str) -> None:
    run = tmp_path / "bm25.run"
    run.write_text(f"1 Q0 d1 1 2.0 t\n1 Q0 d2 2 {score} t\n", encoding="utf-8")
    result = invoke("evaluate", str(RUNS / "tiny.qrels"), str(run), "-m", "map")
    assert_one_line_error(result, "bm25.run:2", "score")


def test_control_characters_in_names_from_data_are_refused(tmp_path: Path) -> None:
    results = tidy_study(tmp_path, ["dl\tx"])
    assert_one_line_error(invoke("tables", str(results)), "all.csv:2", "dataset 'dl\\tx'")
