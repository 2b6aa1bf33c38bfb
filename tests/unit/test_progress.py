"""Progress bars: drawn on a terminal, silent when standard error is piped."""

from __future__ import annotations

import io
import sys

import pytest

from irtables.cli.common import study_progress


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("terminal", [True, False], ids=["terminal", "piped"])
def test_study_progress_counts_runs_and_tests(
    monkeypatch: pytest.MonkeyPatch, terminal: bool
) -> None:
    stream = _Terminal() if terminal else io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    evaluated, tested, finish = study_progress()
    for done in range(1, 5):
        evaluated("evaluate", done, 4)
    evaluated("read run01", 10, 100)  # bytes read: not shown here
    for done in range(1, 3):
        tested(done, 2)
    finish()
    text = stream.getvalue()
    if terminal:
        assert "runs evaluated" in text and "significance tests" in text
        assert "read run01" not in text
    else:
        assert text == ""
