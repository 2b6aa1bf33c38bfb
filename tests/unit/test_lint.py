"""irtables lint: every invariant with a violating and a passing case, seed 000, clean fixtures."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from irtables.cli import main
from irtables.errors import DataWarning
from irtables.lint import CHECKS, lint
from irtables.loaders.discover import load_study
from irtables.model import ResultSet
from irtables.study.pipeline import warn_lint

from ..conftest import require_fixtures

REPO = Path(__file__).resolve().parents[2]
SEED000 = REPO / "tests" / "data" / "lint" / "seed000"


def _rs(values: dict[str, float], *, query: str = "1", system: str = "s") -> ResultSet:
    return ResultSet.from_frame(
        pd.DataFrame(
            {
                "dataset": "d",
                "system": system,
                "query": query,
                "metric": list(values),
                "value": list(values.values()),
            }
        )
    )


# (check, violating values, passing values); eps = 0.005 (2 decimals at least)
CASES = [
    ("bounds", {"P@10": 1.2}, {"P@10": 1.0}),
    ("bounds", {"nDCG@10": -0.1}, {"nDCG@10": 0.0}),
    ("count", {"NumRel": 2.5}, {"NumRel": 3.0}),
    ("count", {"NumRet": -1.0}, {"NumRet": 0.0}),
    ("monotonic", {"R@5": 0.6, "R@10": 0.5}, {"R@5": 0.5, "R@10": 0.6}),
    ("monotonic", {"Success@1": 1.0, "Success@5": 0.0}, {"Success@1": 0.0, "Success@5": 1.0}),
    ("monotonic", {"RR@5": 0.5, "RR": 0.25}, {"RR@5": 0.5, "RR": 0.5}),
    ("monotonic", {"P@5": 0.6, "P@10": 0.2}, {"P@5": 0.6, "P@10": 0.3}),
    ("relret", {"P@10": 0.35}, {"P@10": 0.3}),
    ("relret", {"P@10": 0.0, "R@10": 0.5}, {"P@10": 0.1, "R@10": 0.5}),
    (
        "num_rel",
        {"P@10": 0.5, "R@10": 0.5, "NumRel": 8.0},
        {"P@10": 0.5, "R@10": 0.625, "NumRel": 8.0},
    ),
    ("num_rel", {"P@10": 0.5, "NumRel": 4.0}, {"P@10": 0.4, "NumRel": 4.0}),
    ("num_rel", {"P@1": 1.0, "R@1": 0.5, "P@5": 0.6, "R@5": 1.0}, {"P@1": 1.0, "R@1": 0.5}),
    ("top1", {"P@1": 1.0, "RR@1": 0.0}, {"P@1": 1.0, "RR@1": 1.0}),
    ("ap", {"AP": 1.0, "P@5": 0.6, "R@5": 0.75}, {"AP": 1.0, "P@5": 0.6, "R@5": 1.0}),
    ("ap", {"AP": 1.0, "RR": 0.5}, {"AP": 0.8, "RR": 0.5}),
    ("success", {"Success@10": 1.0, "RR@10": 0.05}, {"Success@10": 1.0, "RR@10": 0.1}),
    ("success", {"Success@10": 0.0, "P@10": 0.1}, {"Success@10": 1.0, "P@10": 0.1}),
    ("success", {"Success@10": 0.5}, {"Success@10": 0.0}),
    ("success", {"RR@10": 0.05}, {"RR@10": 0.125}),
]


@pytest.mark.parametrize(("check", "bad", "good"), CASES, ids=[c[0] for c in CASES])
def test_each_invariant(check: str, bad: dict[str, float], good: dict[str, float]) -> None:
    report = lint(_rs(bad))
    assert report.total >= 1
    assert {v.check for v in report.violations} == {check}, report.format()
    assert lint(_rs(good)).ok, lint(_rs(good)).format()


def test_relevance_thresholds_are_not_mixed() -> None:
    # P(rel=2)@10 = 0.5 and R@10 (rel 1) imply nothing about each other
    assert lint(_rs({"P(rel=2)@10": 0.5, "R@10": 0.1, "NumRel": 50.0})).ok
    assert not lint(_rs({"P(rel=2)@10": 0.5, "R(rel=2)@10": 0.1, "NumRel(rel=2)": 4.0})).ok


def test_every_check_is_exercised() -> None:
    assert {c[0] for c in CASES} | {"mean"} == set(CHECKS)


def test_rounding_tolerance_from_printed_precision() -> None:
    # trec_eval prints 4 decimals: 1/3 -> 0.3333, 2/3 -> 0.6667; consistent with 3 relevant
    assert lint(_rs({"P@3": 0.3333, "R@3": 0.3333, "P@10": 0.2, "R@10": 0.6667})).ok
    # the same numbers at full precision would be violations with a tiny tolerance
    assert not lint(_rs({"P@3": 0.3333, "R@3": 0.3333}), tolerance=1e-9).ok


def test_violation_names_file_system_query_and_numbers() -> None:
    report = lint(load_study(SEED000))
    v = report.violations[0]
    assert v.file is not None and v.file.endswith("table_s1.tsv")
    assert (v.dataset, v.query) == ("msmarco", "1")
    assert v.metrics[0] == "P@1000" and v.values[0] == pytest.approx(0.16)


def test_seed000_table_s1_is_impossible() -> None:
    # Seed 000's Table S1: P@100 = 0.16 (16 relevant retrieved) with R@100 = 1.0, while
    # P@1 = 1 and R@1 = 0.125 mean 8 relevant documents: one violation per model.
    report = lint(load_study(SEED000))
    assert report.counts["num_rel"] == 3
    assert {v.system for v in report.violations} == {"Non-MAW", "MAW+Super", "MAW+GRPO"}
    first = next(v for v in report.violations if v.system == "Non-MAW")
    assert "160 relevant retrieved" in first.message and "imply 8" in first.message


def test_mean_row_against_per_query_values(tmp_path: Path) -> None:
    folder = tmp_path / "d"
    folder.mkdir()
    good = "P_10\t1\t0.5000\nP_10\t2\t0.3000\nP_10\tall\t0.4000\n"
    (folder / "a.txt").write_text(good)
    (folder / "b.txt").write_text(good.replace("0.4000", "0.4500"))
    report = lint(load_study(tmp_path))
    assert [(v.check, v.system, v.query) for v in report.violations] == [("mean", "b", None)]


def test_means_are_checked_for_bounds_and_monotonicity(tmp_path: Path) -> None:
    folder = tmp_path / "d"
    folder.mkdir()
    text = "recall_5\t1\t0.5000\nrecall_10\t1\t0.6000\nrecall_5\tall\t0.5000\n"
    (folder / "a.txt").write_text(text + "recall_10\tall\t0.4000\n")
    checks = {v.check for v in lint(load_study(tmp_path)).violations}
    assert checks == {"monotonic", "mean"}


def test_real_dumps_and_example_lint_clean() -> None:
    fixtures = require_fixtures() / "perquery_dumps"
    for path in (fixtures / "trec_eval_q", fixtures / "ir_measures_q", REPO / "results"):
        report = lint(load_study(path))
        assert report.ok, report.format()


def test_limit_keeps_counts() -> None:
    report = lint(load_study(SEED000), limit=1)
    assert (len(report.violations), report.total) == (1, 3)
    assert "2 more not shown" in report.format()


def test_tables_warn_once() -> None:
    with pytest.warns(DataWarning, match=r"lint: 3 violations \(num_rel: 3\)"):
        warn_lint(load_study(SEED000).results)


def test_cli_exit_statuses(tmp_path: Path) -> None:
    runner = CliRunner()
    clean = runner.invoke(main, ["lint", str(REPO / "results")])
    assert clean.exit_code == 0 and "no violations" in clean.output
    bad = runner.invoke(main, ["lint", str(SEED000)])
    assert bad.exit_code == 1
    assert "[num_rel]" in bad.output and "3 violations" in bad.output
    missing = runner.invoke(main, ["lint", str(tmp_path)])
    assert missing.exit_code == 2 and "Error:" in missing.output
