"""A run none of whose queries is judged (issue 34's adversarial sweep): it has no value,
so its system is in no table. The warning said its judged queries were "left out of the
mean", as for a run lacking a few, and the system vanished from the tables under it."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from tests.conftest import invoke, runs_study

SAID = "none of the 3 judged queries is in the run: it has no values and is left out"


def test_a_run_of_unjudged_queries_is_said_to_be_in_no_table(tmp_path: Path) -> None:
    study = runs_study(tmp_path)
    (study / "runs" / "other.run").write_text("zzz Q0 d1 1 1.0 t\n")
    out = tmp_path / "o"
    result = invoke("tables", str(study), "-o", str(out), "--no-cache")
    assert result.exit_code == 0, result.output
    assert f"Warning: other: 1 run queries are not in the qrels and are ignored; {SAID}" in (
        result.output
    )
    assert sorted(pd.read_csv(out / "table1.csv")["System"]) == ["a", "b"]


def test_a_run_missing_some_queries_keeps_its_note(tmp_path: Path) -> None:
    study = runs_study(tmp_path)
    lines = (study / "runs" / "a.run").read_text().splitlines()
    (study / "runs" / "a.run").write_text(next(x for x in lines if x[:1] == "1") + "\n")
    run = str(study / "runs" / "a.run")
    result = invoke("evaluate", str(study / "tiny.qrels"), run, "-m", "map")
    assert result.exit_code == 0, result.output
    assert "judged queries are not in the run: left out of the mean" in result.output
    assert "none of the" not in result.output
