"""Error messages stay one line and safe for the terminal: escape sequences from data
are shown escaped, unexpected errors are one line too (issue 9)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import assert_one_line_error, invoke, tidy_study


def test_terminal_escapes_from_data_are_shown_escaped(tmp_path: Path) -> None:
    results = tmp_path / "r"
    results.mkdir()
    (results / "x.tsv").write_text("query\tmetric\tvalue\n1\tAP\t\x1b[2J\x1b]0;pwned\x07\n")
    result = invoke("tables", str(results))
    assert_one_line_error(result, "x.tsv:2", "\\x1b[2J")
    assert "\x1b" not in result.output and "\x07" not in result.output


def test_unexpected_errors_are_one_line_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import irtables.study.pipeline as pipeline

    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("line one\nline two \x1b[31m")

    monkeypatch.setattr(pipeline, "write_tables", broken)
    result = invoke("tables", str(tidy_study(tmp_path, ["dl"])))
    assert_one_line_error(result, "internal error (ValueError: line one line two \\x1b[31m)")
