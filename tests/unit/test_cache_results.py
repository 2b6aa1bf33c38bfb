"""The tests' results in the cache (``.irtables-cache/tests``): checked when read, a
damaged entry is run again with a warning and never used; ``irtables cache`` counts,
verifies and removes them."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import irtables.cache.results
from irtables.cache import CACHE_DIR_NAME
from irtables.cache.results import ResultStore, clear_results, read_result_entry, result_entries
from irtables.cli import main
from irtables.errors import DataWarning
from irtables.stats.memo import encode_results, recipe_of
from irtables.stats.result import PairedTestResult
from irtables.study.load import open_study
from irtables.study.request import study_request
from irtables.tables import build_all
from irtables.tables.memo import StoredTests
from tests.unit.test_cache import _study

pytestmark = pytest.mark.filterwarnings("ignore:.*judged queries are not in the run")
RECORD = PairedTestResult(
    test="t", method="m", n=3, mean_diff=0.1, statistic=1.0, pvalue=0.5, dataset="d", metric="AP"
)
DESCRIPTION = {"dataset": "d", "metric": "AP", "compared": [["", ""]]}
RECIPE = recipe_of(DESCRIPTION)


def _store(tmp_path: Path) -> ResultStore:
    store = ResultStore.of_study(tmp_path)
    assert store is not None
    store.put(RECIPE, DESCRIPTION, encode_results([RECORD]))
    return store


def _rewrite(path: Path, **changes: object) -> None:
    data = json.loads(path.read_text())
    data.update(changes)
    path.write_text(json.dumps(data))


def test_an_entry_reads_back_as_it_was_stored(tmp_path: Path) -> None:
    store = _store(tmp_path)
    entry = store.get(RECIPE)
    assert entry is not None and entry.description == DESCRIPTION
    assert entry.results == encode_results([RECORD])
    assert result_entries(tmp_path) == [store.path(RECIPE)]
    assert (tmp_path / CACHE_DIR_NAME / ".gitignore").is_file()
    memo = StoredTests(store)
    assert memo.get(RECIPE) == [RECORD] and memo.reused == [("d", "AP")]


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda p: p.write_bytes(p.read_bytes()[:-10]), "not JSON"),
        (lambda p: p.write_text(p.read_text().replace("0.5", "NaN")), "not JSON"),
        (lambda p: _rewrite(p, results=[]), "checksum"),
        (lambda p: _rewrite(p, description={**DESCRIPTION, "metric": "P@10"}), "description"),
        (lambda p: _rewrite(p, recipe="0" * 64), "name"),
        (lambda p: _rewrite(p, format=99), "format"),
        (lambda p: _rewrite(p, kind="other"), "not an entry"),
    ],
    ids=["truncated", "nan", "checksum", "description", "recipe", "format", "kind"],
)
def test_a_damaged_entry_is_not_used(tmp_path: Path, damage: object, reason: str) -> None:
    store = _store(tmp_path)
    damage(store.path(RECIPE))  # type: ignore[operator]
    with pytest.warns(DataWarning, match=reason):
        assert store.get(RECIPE) is None
    with pytest.warns(DataWarning, match="the tests run again"):
        assert StoredTests(store).get(RECIPE) is None


def test_an_entry_moved_to_another_name_is_not_used(tmp_path: Path) -> None:
    store = _store(tmp_path)
    other = "1" * 64
    store.path(RECIPE).rename(store.path(other))
    with pytest.warns(DataWarning, match="its recipe is not its name"):
        assert store.get(other) is None


def test_links_and_large_files_are_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = _store(tmp_path)
    path = store.path(RECIPE)
    outside = tmp_path / "outside.json"
    path.rename(outside)
    path.symlink_to(outside)
    with pytest.warns(DataWarning, match="not a regular file"):
        assert store.get(RECIPE) is None
    assert result_entries(tmp_path) == []
    path.unlink()
    outside.rename(path)
    monkeypatch.setattr(irtables.cache.results, "MAX_ENTRY_BYTES", 64)
    with pytest.warns(DataWarning, match="larger than"):
        assert store.get(RECIPE) is None


def test_a_tests_folder_that_links_elsewhere_is_not_used(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "study" / CACHE_DIR_NAME).mkdir(parents=True)
    (tmp_path / "study" / CACHE_DIR_NAME / "tests").symlink_to(elsewhere)
    with pytest.warns(DataWarning, match="tests run without the cache"):
        assert ResultStore.of_study(tmp_path / "study") is None
    assert result_entries(tmp_path / "study") == []
    assert clear_results(tmp_path / "study") == 0


def test_results_that_are_not_records_are_not_used(tmp_path: Path) -> None:
    store = _store(tmp_path)
    store.put(RECIPE, DESCRIPTION, [{"pvalue": 0.5}])  # a well-formed entry, no record
    assert read_result_entry(store.path(RECIPE)).results == [{"pvalue": 0.5}]
    with pytest.warns(DataWarning, match="not the results it describes"):
        assert StoredTests(store).get(RECIPE) is None
    other = {**DESCRIPTION, "metric": "P@10"}  # records of another metric than described
    store.put(recipe_of(other), other, encode_results([RECORD]))
    with pytest.warns(DataWarning, match="another dataset or metric"):
        assert StoredTests(store).get(recipe_of(other)) is None


def test_clear_removes_entries_and_partial_writes_only(tmp_path: Path) -> None:
    from irtables.base.paths import new_file

    store = _store(tmp_path)
    fd, partial = new_file(store.folder, f".{RECIPE}.json.", ".part")
    os.close(fd)
    mine = store.folder / "notes.txt"
    mine.write_text("keep me")
    assert clear_results(tmp_path) == 1
    assert not partial.exists() and mine.read_text() == "keep me"
    mine.unlink()
    _store(tmp_path)
    assert clear_results(tmp_path) == 1 and not store.folder.exists()


def _tested_study(tmp_path: Path) -> tuple[Path, StoredTests]:
    """A study whose tables were built with the tests kept in its cache."""
    root = _study(tmp_path)
    toml = root / "irtables.toml"
    toml.write_text(toml.read_text() + '\n[compare]\nbaseline = "r0"\n')
    study = open_study(study_request(root))
    memo = StoredTests(ResultStore.of_study(root))
    build_all(study.results, study.config, memo=memo)
    assert memo.ran and memo.reused == []
    return root, memo


def test_cli_info_verify_and_clear_count_the_tests(tmp_path: Path) -> None:
    root, memo = _tested_study(tmp_path)
    units = len(set(memo.ran))
    assert len(result_entries(root)) == units
    info = CliRunner().invoke(main, ["cache", "info", str(root)])
    assert info.exit_code == 0, info.output
    assert f"; {units} test results" in info.stdout
    verify = CliRunner().invoke(main, ["cache", "verify", str(root)])
    assert verify.exit_code == 0, verify.output
    assert f"checked {units} of {units} test results: 0 differ" in verify.stdout
    # a forged entry (consistent, checksum and all) with another p-value
    store = ResultStore.of_study(root)
    assert store is not None
    path = result_entries(root)[0]
    entry = read_result_entry(path)
    forged = [{**r, "pvalue": 0.001} for r in entry.results]
    store.put(entry.recipe, entry.description, forged)
    unrelated = {**DESCRIPTION, "dataset": "gone"}
    store.put(recipe_of(unrelated), unrelated, encode_results([RECORD]))
    verify = CliRunner().invoke(main, ["cache", "verify", str(root)])
    assert verify.exit_code == 1
    assert f"differs: {path}" in verify.stdout
    assert f"checked {units} of {units + 1} test results: 1 differ" in verify.stdout
    assert "1 test results were not checked" in verify.stdout
    cleared = CliRunner().invoke(main, ["cache", "clear", str(root)])
    assert cleared.exit_code == 0, cleared.output
    assert f"and {units + 1} test results" in cleared.stdout
    assert not (root / CACHE_DIR_NAME).exists()


def test_a_damaged_entry_runs_again_and_is_rewritten(tmp_path: Path) -> None:
    root, memo = _tested_study(tmp_path)
    path = result_entries(root)[0]
    good = path.read_bytes()
    path.write_bytes(good[:-1])
    study = open_study(study_request(root))
    again = StoredTests(ResultStore.of_study(root))
    with pytest.warns(DataWarning, match="cache entry not used"):
        build_all(study.results, study.config, memo=again)
    # the t-test runs the metrics of a query set together: they run again together
    assert set(again.ran) == set(memo.ran) and again.reused == []
    assert path.read_bytes() == good


def test_supplement_no_cache_neither_reads_nor_writes_the_tests(tmp_path: Path) -> None:
    root = _study(tmp_path)
    toml = root / "irtables.toml"
    toml.write_text(toml.read_text() + '\n[compare]\nbaseline = "r0"\n')
    args = ["supplement", str(root), "--no-pdf", "-j", "1"]
    result = CliRunner().invoke(main, [*args, "--no-cache"])
    assert result.exit_code == 0, result.output
    assert not (root / CACHE_DIR_NAME).exists()
    result = CliRunner().invoke(main, [*args, "--rebuild"])
    assert result.exit_code == 0, result.output
    assert result_entries(root)
