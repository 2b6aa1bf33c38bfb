"""The cache of runs evaluated for a study: only changed runs are evaluated again, and a
damaged entry is never used."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from irtables.cache import CACHE_DIR_NAME, clear
from irtables.cli import main
from irtables.errors import DataWarning
from irtables.study.load import load_study

pytestmark = pytest.mark.filterwarnings("ignore:.*judged queries are not in the run")
N_RUNS = 4


def _study(root: Path) -> Path:
    rng = np.random.default_rng(3)
    qrels = [f"{q} 0 d{d} {int(rng.integers(0, 3))}" for q in range(1, 9) for d in range(20)]
    (root / "qrels.txt").write_text("\n".join(qrels) + "\n")
    (root / "runs").mkdir()
    for r in range(N_RUNS):
        _write_run(root / "runs" / f"r{r}.run", seed=r)
    (root / "irtables.toml").write_text(
        '[[datasets]]\nid = "toy"\nqrels = "qrels.txt"\nruns = "runs/*.run"\n'
        'measures = ["map", "P@5", "nDCG@10", "RR", "num_rel"]\n'
    )
    return root


def _write_run(path: Path, seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    lines = []
    for q in range(1, 9):
        docs = rng.permutation(30)[:15]
        lines += [f"{q} Q0 d{d} {i + 1} {15 - i} r{seed}" for i, d in enumerate(docs)]
    path.write_text("\n".join(lines) + "\n")


def _evaluate(root: Path, **options: object) -> tuple[object, int]:
    """The results of the study and how many runs were evaluated (not from the cache)."""
    evaluated = [0]

    def progress(stage: str, done: int, total: int) -> None:
        if stage == "evaluate":
            evaluated[0] = total

    study = load_study(root, progress=progress, **options)  # type: ignore[arg-type]
    return study.results, evaluated[0]


def _entries(root: Path) -> list[Path]:
    return sorted((root / CACHE_DIR_NAME).glob("*.parquet"))


def test_only_the_changed_run_is_evaluated_again(tmp_path: Path) -> None:
    root = _study(tmp_path)
    first, n_first = _evaluate(root)
    assert n_first == N_RUNS and len(_entries(root)) == N_RUNS
    again, n_again = _evaluate(root)
    assert n_again == 0
    assert again.frame.equals(first.frame)  # type: ignore[attr-defined]
    _write_run(root / "runs" / "r2.run", seed=42)
    changed, n_changed = _evaluate(root)
    assert n_changed == 1
    fresh, _ = _evaluate(root, cache=False)
    assert changed.frame.equals(fresh.frame)  # type: ignore[attr-defined]
    assert not changed.frame.equals(first.frame)  # type: ignore[attr-defined]


def test_datasets_evaluated_beside_cached_ones(tmp_path: Path) -> None:
    """Three datasets, one whose qrels changed: only its runs are evaluated, and every
    dataset's results are those of an evaluation without the cache."""
    root = _study(tmp_path)
    qrels = (root / "qrels.txt").read_text().splitlines()
    config = root / "irtables.toml"
    for name, lines in (("b", qrels[::2]), ("c", qrels[1::2])):
        (root / f"qrels_{name}.txt").write_text("\n".join(lines) + "\n")
        config.write_text(
            config.read_text() + f'[[datasets]]\nid = "{name}"\nqrels = "qrels_{name}.txt"\n'
            'runs = "runs/*.run"\nmeasures = ["map", "P@5", "nDCG@10"]\n'
        )
    assert _evaluate(root)[1] == 3 * N_RUNS
    (root / "qrels_b.txt").write_text("\n".join(qrels[::3]) + "\n")
    changed, evaluated = _evaluate(root)
    assert evaluated == N_RUNS
    fresh, _ = _evaluate(root, cache=False)
    assert changed.frame.equals(fresh.frame)  # type: ignore[attr-defined]
    assert set(fresh.frame["dataset"]) == {"toy", "b", "c"}  # type: ignore[attr-defined]


def test_options_and_qrels_are_part_of_the_key(tmp_path: Path) -> None:
    root = _study(tmp_path)
    _evaluate(root)
    config = root / "irtables.toml"
    config.write_text(config.read_text() + "relevance = 2\n")
    assert _evaluate(root)[1] == N_RUNS
    with (root / "qrels.txt").open("a") as handle:
        handle.write("1 0 extra 1\n")
    assert _evaluate(root)[1] == N_RUNS


def test_no_cache_neither_reads_nor_writes(tmp_path: Path) -> None:
    root = _study(tmp_path)
    assert _evaluate(root, cache=False)[1] == N_RUNS
    assert not (root / CACHE_DIR_NAME).exists()
    _evaluate(root)
    assert _evaluate(root, cache=False)[1] == N_RUNS


@pytest.mark.parametrize("damage", ["truncated", "garbage", "values edited", "other key"])
def test_a_damaged_entry_is_evaluated_again(tmp_path: Path, damage: str) -> None:
    root = _study(tmp_path)
    first, _ = _evaluate(root)
    entry = _entries(root)[1]
    if damage == "truncated":
        entry.write_bytes(entry.read_bytes()[:-40])
    elif damage == "garbage":
        entry.write_bytes(os.urandom(entry.stat().st_size))
    elif damage == "values edited":  # a valid Parquet file whose numbers were changed
        table = pq.read_table(entry)
        edited = table.set_column(2, "m0", pa.array(np.full(table.num_rows, 0.99)))
        pq.write_table(edited.replace_schema_metadata(table.schema.metadata), entry)
    else:  # a valid entry copied over another key's file
        entry.write_bytes(_entries(root)[0].read_bytes())
    with pytest.warns(DataWarning, match=r"cache entry not used .*evaluated again"):
        again, evaluated = _evaluate(root)
    assert evaluated == 1
    assert again.frame.equals(first.frame)  # type: ignore[attr-defined]
    assert _evaluate(root)[1] == 0  # rewritten


def test_cache_folder_is_never_read_as_results(tmp_path: Path) -> None:
    root = _study(tmp_path)
    result = CliRunner().invoke(main, ["tables", str(root), "-f", "csv"])
    assert result.exit_code == 0, result.output
    assert _entries(root)
    assert (root / CACHE_DIR_NAME / ".gitignore").read_text().endswith("*\n")
    again = CliRunner().invoke(main, ["tables", str(root), "-f", "csv"])
    assert again.exit_code == 0, again.output
    assert "unchanged" in again.stdout


def test_clear_removes_only_what_irtables_wrote(tmp_path: Path) -> None:
    root = _study(tmp_path)
    _evaluate(root)
    mine = root / CACHE_DIR_NAME / "notes.txt"
    mine.write_text("keep me")
    result = CliRunner().invoke(main, ["cache", "clear", str(root)])
    assert result.exit_code == 0, result.output
    assert f"removed {N_RUNS} entries" in result.stdout
    assert mine.read_text() == "keep me"
    assert not _entries(root)
    mine.unlink()
    _evaluate(root)
    assert clear(root) == N_RUNS
    assert not (root / CACHE_DIR_NAME).exists()


@pytest.mark.parametrize("umask", [0o022, 0o077])
def test_entries_get_the_mode_the_umask_gives(tmp_path: Path, umask: int) -> None:
    """A shared project's cache is readable by whoever may read the study, as the
    tables are (a temporary file's 0600 made every teammate evaluate again)."""
    root = _study(tmp_path)
    previous = os.umask(umask)
    try:
        _evaluate(root)
    finally:
        os.umask(previous)
    assert {p.stat().st_mode & 0o777 for p in _entries(root)} == {0o666 & ~umask}


def test_clear_removes_a_partial_write(tmp_path: Path) -> None:
    from irtables.base.paths import new_file

    root = _study(tmp_path)
    _evaluate(root)
    entry = _entries(root)[0]
    fd, partial = new_file(entry.parent, f".{entry.name}.", ".part")  # as a killed write
    os.close(fd)
    assert clear(root) == N_RUNS
    assert not partial.exists()


def test_a_cache_folder_that_links_elsewhere_is_not_used(tmp_path: Path) -> None:
    (tmp_path / "study").mkdir()
    root = _study(tmp_path / "study")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (root / CACHE_DIR_NAME).symlink_to(elsewhere)
    with pytest.warns(DataWarning, match="without the cache"):
        assert _evaluate(root)[1] == N_RUNS
    assert not list(elsewhere.iterdir())
    assert clear(root) == 0


def test_cli_no_cache_and_info(tmp_path: Path) -> None:
    root = _study(tmp_path)
    result = CliRunner().invoke(main, ["tables", str(root), "-f", "csv", "--no-cache", "-j", "1"])
    assert result.exit_code == 0, result.output
    assert not (root / CACHE_DIR_NAME).exists()
    # the tables are current: --rebuild evaluates again, through the cache this time
    CliRunner().invoke(main, ["tables", str(root), "-f", "csv", "--rebuild"])
    info = CliRunner().invoke(main, ["cache", "info", str(root)])
    assert f"{N_RUNS} entries" in info.stdout


def test_info_counts_what_clear_removes(tmp_path: Path) -> None:
    """``cache info`` counts the entries ``clear`` removes: no other Parquet file, and
    nothing in a cache folder that links elsewhere."""
    (tmp_path / "study").mkdir()
    root = _study(tmp_path / "study")
    _evaluate(root)
    (root / CACHE_DIR_NAME / "mine.parquet").write_bytes(b"")
    info = CliRunner().invoke(main, ["cache", "info", str(root)])
    assert f": {N_RUNS} entries" in info.stdout
    elsewhere = tmp_path / "elsewhere"
    (root / CACHE_DIR_NAME).rename(elsewhere)
    (root / CACHE_DIR_NAME).symlink_to(elsewhere)
    info = CliRunner().invoke(main, ["cache", "info", str(root)])
    assert ": 0 entries" in info.stdout
    assert clear(root) == 0
