"""Writes that fail or are refused are one line with exit status 2 and leave the old
files as they were: a read-only folder, a full disk, a destination evaluate would
refuse, a supplement file the user edited (issue 9, through the command line)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.conftest import (
    RUNS,
    assert_one_line_error,
    files_under,
    invoke,
    run_with_file_limit,
    tidy_study,
    without_left_out,
)


def test_read_only_output_folder_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    results = tidy_study(tmp_path, ["dl"])
    out = tmp_path / "out"
    assert invoke("tables", str(results), "-o", str(out)).exit_code == 0
    before = {p: p.read_bytes() for p in out.iterdir()}
    import irtables.output.writers as writers

    real_open = os.open

    def read_only(path: str, flags: int, mode: int = 0o777) -> int:
        if flags & (os.O_WRONLY | os.O_RDWR):
            raise OSError(30, "Read-only file system", str(path))
        return real_open(path, flags, mode)

    monkeypatch.setattr(writers.os, "open", read_only)
    (results / "all.csv").write_text((results / "all.csv").read_text().replace("0.200", "0.250"))
    result = invoke("tables", str(results), "-o", str(out))
    monkeypatch.undo()
    assert_one_line_error(result, "cannot write", "Read-only file system")
    assert {p: p.read_bytes() for p in out.iterdir()} == before


def test_disk_full_is_one_line_and_old_files_stay(tmp_path: Path) -> None:
    results = tidy_study(tmp_path, ["dl"])
    out = tmp_path / "out"
    assert invoke("tables", str(results), "-o", str(out)).exit_code == 0
    before = {p: p.read_bytes() for p in out.iterdir()}
    (results / "all.csv").write_text((results / "all.csv").read_text().replace("0.200", "0.250"))
    limit = max(len(b) for b in before.values()) // 2
    done = run_with_file_limit(
        [sys.executable, "-m", "irtables", "tables", str(results), "-o", str(out)], limit
    )
    assert done.returncode == 2, done.stderr
    stderr = without_left_out(done.stderr)
    assert stderr.count("\n") == 1 and stderr.startswith("Error: cannot write")
    assert "File too large" in done.stderr
    assert {p: p.read_bytes() for p in out.iterdir()} == before


def test_evaluate_checks_its_destination_before_evaluating(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import irtables.evaluator.command as command

    def never(*args: object, **kwargs: object) -> str:
        raise AssertionError("evaluated although the destination would be refused")

    monkeypatch.setattr(command, "evaluate_files", never)
    out = tmp_path / "mine.tsv"
    out.write_text("my own notes\n")
    result = invoke("evaluate", str(RUNS / "tiny.qrels"), str(RUNS / "tiny.run"), "-m", "map",
                    "-o", str(out))  # fmt: skip
    assert_one_line_error(result, "refusing to overwrite", "mine.tsv")
    assert out.read_text() == "my own notes\n"


def test_a_refused_file_means_the_supplement_replaced_nothing(tmp_path: Path) -> None:
    results = tidy_study(tmp_path, ["dl", "cacm"])
    out = tmp_path / "sup"
    assert invoke("supplement", str(results), "-o", str(out), "--no-pdf").exit_code == 0
    before = {p: p.read_bytes() for p in files_under(out)}
    (out / "methods.md").write_text("my own notes\n")
    before[out / "methods.md"] = b"my own notes\n"
    data = results / "all.csv"
    data.write_text(data.read_text().replace("0.200", "0.150"))
    result = invoke("supplement", str(results), "-o", str(out), "--no-pdf")
    assert_one_line_error(result, "methods.md", "nothing was written")
    assert {p: p.read_bytes() for p in files_under(out)} == before
