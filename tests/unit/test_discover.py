"""Discovery: DIR/<dataset>/<system>.<ext>, one tidy file, a single file; ignored names."""

from __future__ import annotations

import gzip
import os
import shutil
from pathlib import Path

import pandas as pd
import pytest

from irtables.errors import InputError
from irtables.loaders import load_results, load_study
from irtables.model import ResultSet
from tests.conftest import FIXTURES as SHARED_FIXTURES

DATA = Path(__file__).resolve().parents[1] / "data"
CLEAN = DATA / "clean"
FIXTURES = SHARED_FIXTURES / "perquery_dumps"
# Skipped only outside CI: under CI a missing fixtures folder makes these tests fail.
needs_fixtures = pytest.mark.skipif(
    not FIXTURES.is_dir() and not os.environ.get("CI"), reason="shared fixtures not present"
)


def _layout(root: Path) -> Path:
    """results/dl19/{bm25.eval, monot5.run.tsv.gz}, results/dl20/bm25.csv, plus ignored files."""
    (root / "dl19").mkdir(parents=True)
    (root / "dl20").mkdir()
    shutil.copy(CLEAN / "bm25.eval", root / "dl19" / "bm25.eval")
    packed = gzip.compress((CLEAN / "bm25_irm.tsv").read_bytes())
    (root / "dl19" / "monot5.run.tsv.gz").write_bytes(packed)
    shutil.copy(CLEAN / "bm25.csv", root / "dl20" / "bm25.csv")
    for ignored in ("irtables.toml", "README.md", "dl19/notes.md", "dl19/table.tex", ".hidden.tsv",
                    "_scratch.tsv", "dl19/_old.tsv", "dl19/.cache.tsv"):  # fmt: skip
        (root / ignored).write_text("not a result file\n")
    (root / "tables").mkdir()
    (root / "tables" / "main.tsv").write_text("not a result file\n")
    (root / "_drafts").mkdir()
    return root


def test_dataset_folders_and_system_stems(tmp_path: Path) -> None:
    rs = load_results(_layout(tmp_path / "results"))
    assert isinstance(rs, ResultSet)
    assert rs.datasets() == ("dl19", "dl20")
    assert rs.systems("dl19") == ("bm25", "monot5")
    assert rs.systems("dl20") == ("bm25",)
    assert set(rs.metrics()) == {"AP", "P@10", "NumRet"}
    means = rs.means()["mean"]
    assert means[("dl19", "monot5", "AP")] == pytest.approx(0.1875)
    assert all(isinstance(q, str) for q in rs.frame["query"].cat.categories)


def test_load_study_keeps_the_files_own_means(tmp_path: Path) -> None:
    study = load_study(_layout(tmp_path / "results"))
    assert [Path(f.path).name for f in study.files] == [
        "bm25.eval",
        "monot5.run.tsv.gz",
        "bm25.csv",
    ]
    assert [(f.dataset, f.system) for f in study.files] == [
        ("dl19", "bm25"),
        ("dl19", "monot5"),
        ("dl20", "bm25"),
    ]
    summary = study.summary
    assert list(summary.columns) == ["dataset", "system", "metric", "value", "path", "num_q"]
    ap = summary[summary["metric"] == "AP"]
    assert ap[["dataset", "system", "value"]].values.tolist() == [["dl19", "bm25", 0.1875]]


def test_order_is_deterministic(tmp_path: Path) -> None:
    root = _layout(tmp_path / "results")
    a = load_results(root).frame
    b = load_results(root).frame
    pd.testing.assert_frame_equal(a, b)


def test_one_tidy_file_with_system_and_dataset_columns(tmp_path: Path) -> None:
    root = tmp_path / "results"
    root.mkdir()
    (root / "all.tsv").write_text(
        "dataset\tsystem\tqid\tmeasure\tvalue\n"
        "dl19\tbm25\t1\tndcg_cut_10\t0.5\n"
        "dl19\tmonot5\t1\tnDCG@10\t0.75\n"
        "dl20\tbm25\t2\tndcg@10\t0.25\n"
    )
    rs = load_results(root)
    assert rs.datasets() == ("dl19", "dl20")
    assert rs.systems("dl19") == ("bm25", "monot5")
    assert rs.metrics() == ("nDCG@10",)


def test_single_file_dataset_from_argument_column_or_parent(tmp_path: Path) -> None:
    folder = tmp_path / "cast"
    folder.mkdir()
    target = folder / "bm25.run.txt"
    shutil.copy(CLEAN / "bm25.eval", target)
    assert load_results(target).datasets() == ("cast",)
    assert load_results(target, dataset="dl19").datasets() == ("dl19",)
    assert load_results(target).systems() == ("bm25",)


def test_pyterrier_system_comes_from_the_name_column(tmp_path: Path) -> None:
    rs = load_results(CLEAN / "pyterrier.csv", dataset="d")
    assert rs.systems() == ("BM25",)


def test_explicit_input_format_applies_to_every_file(tmp_path: Path) -> None:
    root = tmp_path / "r" / "d"
    root.mkdir(parents=True)
    shutil.copy(CLEAN / "bm25_irm.tsv", root / "a.tsv")
    shutil.copy(CLEAN / "bm25_irm.tsv", root / "b.tsv")
    rs = load_results(root.parent, input_format="ir_measures")
    assert rs.systems() == ("a", "b")


ERROR_CASES = ["nothing_loadable", "missing_path", "nested", "same_system"]


@pytest.mark.parametrize("case", ERROR_CASES, ids=ERROR_CASES)
def test_layout_errors_name_the_place(case: str, tmp_path: Path) -> None:
    root = tmp_path / "results"
    root.mkdir()
    if case == "nothing_loadable":
        (root / "README.md").write_text("x\n")
        expected, where = "no result files found", root
    elif case == "missing_path":
        root = root / "nope"
        expected, where = "no such file or directory", root
    elif case == "nested":
        (root / "dl19" / "bm25" / "deeper").mkdir(parents=True)  # dl19/bm25/ holds runs
        expected, where = "unexpected folder 'deeper'", root / "dl19" / "bm25"
    else:
        (root / "dl19").mkdir()
        shutil.copy(CLEAN / "bm25.eval", root / "dl19" / "bm25.eval")
        shutil.copy(CLEAN / "bm25.tsv", root / "dl19" / "bm25.tsv")
        expected, where = (
            "system bm25 of dataset dl19 is also read from",
            root / "dl19" / "bm25.tsv",
        )
    with pytest.raises(InputError) as info:
        load_results(root)
    assert expected in str(info.value)
    assert info.value.path == str(where)


def test_a_bad_file_in_a_folder_names_the_file_and_line(tmp_path: Path) -> None:
    root = tmp_path / "results" / "dl19"
    root.mkdir(parents=True)
    shutil.copy(DATA / "malformed" / "tidy_nan.tsv", root / "bm25.tsv")
    with pytest.raises(InputError, match=r"dl19/bm25\.tsv:3: expected a finite number"):
        load_results(root.parent)


@needs_fixtures
def test_fixture_folder_loads_every_run() -> None:
    study = load_study(FIXTURES / "trec_eval_q")
    rs = study.results
    assert rs.datasets() == ("cacm", "cast2021")
    assert len(rs.systems("cast2021")) == 5
    assert len(rs.frame) == 52 * 6 + 5 * 158 * 6
    # the dumps' own `all` rows agree with the per-query means at 4 decimals
    means = rs.means()["mean"]
    for row in study.summary.itertuples():
        assert means[(row.dataset, row.system, row.metric)] == pytest.approx(row.value, abs=5e-5)
