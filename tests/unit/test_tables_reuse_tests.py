"""`irtables tables` tests again only the datasets whose values changed: the results of
each (dataset, metric) unit are kept in the study's cache by recipe, as the supplement's
are (tests/unit/test_rerun_changed.py counts the supplement's work)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from irtables.study.load import load_study
from irtables.study.pipeline import write_tables
from irtables.tables.memo import StoredTests

EXAMPLE = Path(__file__).resolve().parents[2] / "results"


@pytest.fixture
def study(tmp_path: Path) -> Path:
    root = tmp_path / "study"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("tables", ".irtables*"))
    shutil.copytree(root / "cast2021", root / "other")  # a second dataset with tests
    return root


def _tables(root: Path, *, read: bool = True) -> tuple[StoredTests, dict[str, bytes]]:
    study = load_study(root)
    memo = StoredTests.of_study(study.base, cache=True, rebuild=not read)
    out = root / "tables"
    write_tables(study.results, study.config, out, base=study.base, memo=memo)
    files = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    return memo, files


def _change_one_value(path: Path) -> None:
    lines = path.read_text().splitlines()
    query, metric, _ = lines[1].split("\t")
    lines[1] = f"{query}\t{metric}\t0.75"
    path.write_text("\n".join(lines) + "\n")


def test_a_changed_file_of_one_dataset_tests_that_dataset_only(study: Path) -> None:
    first, _ = _tables(study)
    datasets = {d for d, _ in first.ran}
    assert first.reused == [] and len(datasets) == 2
    again, _ = _tables(study)
    assert again.ran == [] and sorted(again.reused) == sorted(first.ran)
    changed = "other"
    _change_one_value(next(p for p in sorted((study / changed).iterdir()) if p.suffix == ".tsv"))
    rerun, incremental = _tables(study)
    assert rerun.ran and {d for d, _ in rerun.ran} == {changed}
    assert {d for d, _ in rerun.reused} == datasets - {changed}
    forced, clean = _tables(study, read=False)  # every test run again: the same bytes
    assert forced.reused == [] and sorted(forced.ran) == sorted(first.ran)
    assert incremental == clean
