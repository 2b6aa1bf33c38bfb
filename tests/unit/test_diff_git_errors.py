"""``irtables diff REV:path``: an error in a file of the revision names it as
``REV:path`` (issue 34's adversarial sweep); it named the temporary copy
(``/tmp/irtables-diff-wu2csyul/r/bad.tsv:1``), gone when the command ends."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import assert_one_line_error, git, invoke, tidy_study


def test_an_error_in_a_revision_names_the_file_in_git(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    results = tidy_study(tmp_path, ["dl"])
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-qm", "good")
    (results / "bad.tsv").write_bytes(b"garbage\x00\n")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-qm", "bad")
    monkeypatch.chdir(tmp_path)
    for args in (["HEAD~1:r", "HEAD:r"], ["HEAD:r", "HEAD~1:r"]):
        result = invoke("diff", *args)
        assert_one_line_error(result, "Error: HEAD:r/bad.tsv:1: expected text, found a NUL")
        assert "irtables-diff-" not in result.output
