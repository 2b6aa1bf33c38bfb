"""Input files irtables cannot or must not read are one line with exit status 2 naming
the file: unreadable configs and results, a symlink outside in a git commit, truncated
gzip, control characters in a file name; an empty run is a warning (issue 9)."""

from __future__ import annotations

import gzip
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import (
    RUNS,
    assert_error_line,
    assert_one_line_error,
    git,
    invoke,
    tidy_study,
    without_file_privileges,
)


def _tables_without_privileges(results: Path) -> subprocess.CompletedProcess[str]:
    """``irtables tables`` in a child process that file permissions apply to (root too)."""
    return subprocess.run(
        [*without_file_privileges(), sys.executable, "-m", "irtables", "tables", str(results)],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_unreadable_config_and_result_file_are_one_line(tmp_path: Path) -> None:
    results = tidy_study(tmp_path, ["dl"])
    config = results / "irtables.toml"
    config.write_text("[output]\n")
    config.chmod(0)
    done = _tables_without_privileges(results)
    assert_error_line(done.returncode, done.stderr, "cannot read")
    config.chmod(0o644)
    (results / "all.csv").chmod(0)
    done = _tables_without_privileges(results)
    assert_error_line(done.returncode, done.stderr, "all.csv")


def test_unreadable_inputs_are_one_line_even_as_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    results = tidy_study(tmp_path, ["dl"])
    (results / "irtables.toml").write_text("[output]\n")
    real_open = Path.open

    def denied(self: Path, *args: object, **kwargs: object) -> object:
        if self.name in ("irtables.toml", "all.csv"):
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "open", denied)
    assert_one_line_error(invoke("tables", str(results)), "irtables.toml", "Permission denied")


def test_diff_over_a_commit_with_a_symlink_outside_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if shutil.which("git") is None:
        pytest.skip("git not installed")
    repo = tidy_study(tmp_path, ["dl"]).parent
    (repo / "r" / "link.tsv").symlink_to("/etc/passwd")
    for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "x"]):
        git(repo, *cmd)
    monkeypatch.chdir(repo)
    result = invoke("diff", "HEAD:r", "r")
    assert_one_line_error(result, "HEAD:r", "link.tsv")


@pytest.mark.parametrize("which", ["qrels", "run"])
def test_truncated_gzip_in_evaluate_names_the_file(tmp_path: Path, which: str) -> None:
    source = RUNS / ("tiny.qrels" if which == "qrels" else "tiny.run")
    broken = tmp_path / f"{which}.gz"
    broken.write_bytes(gzip.compress(source.read_bytes() * 50)[:60])
    qrels = broken if which == "qrels" else RUNS / "tiny.qrels"
    run = broken if which == "run" else RUNS / "tiny.run"
    result = invoke("evaluate", str(qrels), str(run), "-m", "map")
    assert_one_line_error(result, f"{which}.gz", "truncated gzip")
    assert "Aborted" not in result.output


def test_empty_run_is_warned_about_by_name(tmp_path: Path) -> None:
    empty = tmp_path / "empty.run"
    empty.write_text("")
    result = invoke("evaluate", str(RUNS / "tiny.qrels"), str(empty), "-m", "map")
    assert result.exit_code == 0
    assert "Warning: " in result.output and "empty.run: run empty is empty" in result.output


@pytest.mark.parametrize("name", ["bm\t25.run", "bm\n25.run", "bm\x1b25.run"])
def test_control_characters_in_a_run_name_are_refused(tmp_path: Path, name: str) -> None:
    run = tmp_path / name
    shutil.copy(RUNS / "tiny.run", run)
    result = invoke("evaluate", str(RUNS / "tiny.qrels"), str(run), "-m", "map")
    assert_one_line_error(result, "control character")


@pytest.mark.parametrize("name", ["deep.json", "deep.jsonl", "deep.txt"])
def test_deeply_nested_json_names_the_file(tmp_path: Path, name: str) -> None:
    """The format sniffer parsed the first line as JSON and let the RecursionError out,
    so the error named no file ("an input is nested too deeply")."""
    deep = tmp_path / name
    deep.write_text("[" * 200_000 + "]" * 200_000 + "\n")
    result = invoke("lint", str(deep))
    assert_one_line_error(result, name, "nested too deeply")
