"""Outputs ``irtables tables`` made before and no longer makes (issue 34's adversarial
sweep): a dropped dataset's Table S1 stayed in the tables folder with its old numbers,
without a word, for the paper to ``\\input``. Those of the formats a run writes are moved
aside as the supplement's are; the other formats' files stay."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.conftest import invoke, tidy_study


def _tables(results: Path, out: Path, *args: str) -> str:
    result = invoke("tables", str(results), "-o", str(out), *args)
    assert result.exit_code == 0, result.output
    return result.output


def test_a_dropped_datasets_tables_are_moved_aside(tmp_path: Path) -> None:
    out = tmp_path / "o"
    _tables(tidy_study(tmp_path, ["dl", "robust"]), out)
    before = {p.name: p.read_bytes() for p in out.glob("tableS1-robust.*")}
    assert sorted(before) == ["tableS1-robust.csv", "tableS1-robust.md", "tableS1-robust.tex"]
    shutil.rmtree(tmp_path / "r")
    said = _tables(tidy_study(tmp_path, ["dl"]), out)
    assert not list(out.glob("tableS1-robust.*"))
    assert (out / "tableS1-dl.tex").is_file()
    for name, data in before.items():
        assert f"moved aside  {out / name}" in said
        assert (out / ".irtables-aside" / name).read_bytes() == data  # never deleted
    # The build's record holds what is there: the next run has nothing to do.
    assert "written" not in _tables(tmp_path / "r", out)


def test_files_of_formats_a_run_does_not_write_stay(tmp_path: Path) -> None:
    out = tmp_path / "o"
    results = tidy_study(tmp_path, ["dl"])
    _tables(results, out)
    _tables(results, out, "-f", "latex")
    assert (out / "table1.md").is_file()
    assert (out / "table1.csv").is_file()
    assert not (out / ".irtables-aside").exists()


def test_significance_files_no_longer_made_are_moved_aside(tmp_path: Path) -> None:
    out = tmp_path / "o"
    results = tidy_study(tmp_path, ["dl"])
    _tables(results, out, "--baseline", "bm25")
    assert (out / "significance.csv").is_file()
    _tables(results, out, "--baseline", "none")
    assert not (out / "significance.csv").exists()
    assert not (out / "significance.md").exists()
    assert (out / ".irtables-aside" / "significance.csv").is_file()
