"""Outputs written inside the results folder are never read back as results (with one
warning), an edited one is skipped with a warning, evaluate's own output is read back
and rewritten after a run changed (issue 9, through the command line)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import RUNS, invoke, tidy_study, without_left_out


@pytest.mark.parametrize(
    "args",
    [
        ["tables", "{r}", "-o", "{r}"],
        ["tables", "{r}/..", "-o", "{r}"],
        ["supplement", "{r}", "-o", "{r}/sup", "--no-pdf"],
        ["compare", "{r}", "-o", "{r}/sig.csv"],
        ["diff", "{r}", "{r}", "--format", "json", "-o", "{r}/diff.json"],
    ],
    ids=["tables into results", "tables into a dataset", "supplement", "compare", "diff"],
)
def test_outputs_inside_the_results_are_not_read_back(tmp_path: Path, args: list[str]) -> None:
    results = tidy_study(tmp_path, ["dl"])
    filled = [a.replace("{r}", str(results)) for a in args]
    for i in range(3):
        # tables and supplement read nothing on a rerun with nothing changed: --rebuild
        rebuild = ["--rebuild"] if i and filled[0] in ("tables", "supplement") else []
        result = invoke(*filled, *rebuild)
        assert result.exit_code == 0, result.output
    warned = [line for line in without_left_out(result.output).splitlines() if "Warning" in line]
    # skipping what irtables wrote is said, in one note (issue 24 §2)
    assert len(warned) == 1, result.output
    assert all(w.startswith("Warning: not read as results: ") for w in warned), warned


def test_edited_output_in_the_results_is_skipped_with_a_warning(tmp_path: Path) -> None:
    results = tidy_study(tmp_path, ["dl"])
    assert invoke("tables", str(results), "-o", str(results)).exit_code == 0
    (results / "table1.csv").write_text("query,metric,value\nq1,AP,0.9\n")
    result = invoke("tables", str(results), "-o", str(tmp_path / "elsewhere"))
    assert result.exit_code == 0, result.output
    assert "table1.csv: not read as results" in result.output


def test_evaluate_output_is_read_back_and_rewritten_after_a_run_changed(tmp_path: Path) -> None:
    run = tmp_path / "bm25.run"
    shutil.copy(RUNS / "tiny.run", run)
    out = tmp_path / "results" / "toy" / "all.tsv"
    args = ["evaluate", str(RUNS / "tiny.qrels"), str(run), "-m", "map", "-q", "-o", str(out)]
    assert invoke(*args).exit_code == 0
    run.write_text(run.read_text().replace("d3 3 0.9", "d3 3 0.1"))  # the run changed
    again = invoke(*args)
    assert again.exit_code == 0 and "written" in again.output
    tables = invoke("tables", str(tmp_path / "results"), "-o", str(tmp_path / "t"))
    assert tables.exit_code == 0, tables.output
    assert "bm25" in (tmp_path / "t" / "table1.md").read_text()
