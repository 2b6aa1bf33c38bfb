"""Compiling ``supplement.tex`` with pdflatex, reproducibly, in a temporary folder.

pdfTeX writes the date and a random document ID into a PDF: ``SOURCE_DATE_EPOCH=0`` with
``FORCE_SOURCE_DATE=1`` fixes the dates, ``\\pdftrailerid{}`` in the preamble drops the ID,
so the same sources give a byte-identical PDF.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from pathlib import Path

from irtables.errors import IrtablesError

MAX_RUNS = 4
_RERUN = ("Rerun to get", "Table widths have changed", "Label(s) may have changed")


class LatexError(IrtablesError):
    """pdflatex failed; the message holds the end of its log."""


def pdflatex_available() -> bool:
    """Whether ``pdflatex`` is on the PATH."""
    return shutil.which("pdflatex") is not None


def compile_pdf(files: Iterable[tuple[str, bytes]], main: str = "supplement.tex") -> bytes:
    """Write ``files`` (relative path, bytes) into a temporary folder and compile ``main``.

    pdflatex runs until cross-references settle (at most :data:`MAX_RUNS` times). Raises
    :class:`LatexError` with the end of the log when it fails.
    """
    env = {**os.environ, "SOURCE_DATE_EPOCH": "0", "FORCE_SOURCE_DATE": "1"}
    with tempfile.TemporaryDirectory(prefix="irtables-latex-") as tmp:
        root = Path(tmp)
        for rel, data in files:
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        for _ in range(MAX_RUNS):
            log = _run(root, main, env)
            if not any(flag in log for flag in _RERUN):
                break
        return (root / main).with_suffix(".pdf").read_bytes()


def _run(root: Path, main: str, env: dict[str, str]) -> str:
    cmd = ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", main]
    try:
        done = subprocess.run(
            cmd, cwd=root, env=env, capture_output=True, text=True, errors="replace", timeout=300
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        raise LatexError(f"pdflatex could not run: {e}") from None
    if done.returncode != 0:
        tail = "\n".join(done.stdout.splitlines()[-25:])
        raise LatexError(f"pdflatex failed on {main}:\n{tail}")
    return done.stdout
