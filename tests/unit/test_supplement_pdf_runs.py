"""How many pdflatex runs ``supplement.pdf`` takes: two from nothing, one when the same
sources were compiled before (their auxiliary files kept), with the same bytes."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from irtables.supplement import pdf
from tests.conftest import require_pdflatex

#: A table of contents and a reference: the first run writes what the second reads.
DOCUMENT = rb"""\documentclass{article}
\usepackage[hidelinks]{hyperref}
\ifdefined\pdftrailerid\pdftrailerid{}\fi
\begin{document}
\tableofcontents
\section{First}\label{first}
See Section~\ref{second}.
\section{Second}\label{second}
Back to Section~\ref{first}.
\end{document}
"""


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[int]:
    """pdflatex runs of the real documents (probes aside), counted; a cache folder of the
    test's own."""
    require_pdflatex()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    counted: list[int] = []
    real: Callable[[Path, str, dict[str, str]], str] = pdf._run

    def run(root: Path, main: str, env: dict[str, str]) -> str:
        counted.append(1)
        return real(root, main, env)

    monkeypatch.setattr(pdf, "_run", run)
    return counted


def _compile(runs: list[int], document: bytes = DOCUMENT) -> tuple[bytes, int]:
    runs.clear()
    data = pdf.compile_pdf([("supplement.tex", document)])
    return data, len(runs)


def test_the_same_sources_again_take_one_run_and_give_the_same_bytes(runs: list[int]) -> None:
    first, first_runs = _compile(runs)
    again, again_runs = _compile(runs)
    assert (first_runs, again_runs) == (2, 1)
    assert again == first
    other, other_runs = _compile(runs, DOCUMENT.replace(b"First", b"Premier"))
    assert other_runs == 2 and other != first  # other sources: from nothing


def test_a_kept_state_that_does_not_reproduce_is_compiled_from_nothing(runs: list[int]) -> None:
    first, _ = _compile(runs)
    folder = pdf.state_folder()
    assert folder is not None
    (kept,) = folder.glob("*.json")
    state = json.loads(kept.read_text(encoding="utf-8"))
    state["wrote"] = {}  # as if another TeX installation had written other files
    kept.write_text(json.dumps(state), encoding="utf-8")
    again, again_runs = _compile(runs)
    assert again_runs == 1 + 2 and again == first
    kept.write_text("not json", encoding="utf-8")
    assert _compile(runs) == (first, 2)


def test_without_a_cache_folder_every_compilation_starts_from_nothing(
    runs: list[int], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocked = tmp_path / "a file"
    blocked.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    first, _ = _compile(runs)
    assert _compile(runs) == (first, 2)
