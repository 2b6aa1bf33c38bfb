"""The worked examples of docs/guides/numbers.md run: the ``tex`` block compiles against
the example's numbers.tex and reads as the ``text`` block after it; the ``jinja`` block
renders the example's numbers.json as the ``text`` block after it."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import jinja2
import pytest

from tests.conftest import REPO, invoke, require_pdflatex

GUIDE = REPO / "docs" / "guides" / "numbers.md"
BLOCK = re.compile(r"^```(?P<lang>[\w-]*)\n(?P<body>.*?)^```", re.M | re.S)


def _block_and_output(lang: str) -> tuple[str, str]:
    """The one block of ``lang`` in the guide and the ``text`` block that follows it."""
    blocks = [(m.group("lang"), m.group("body")) for m in BLOCK.finditer(GUIDE.read_text())]
    at = [i for i, (kind, _) in enumerate(blocks) if kind == lang]
    assert len(at) == 1, lang
    assert blocks[at[0] + 1][0] == "text"
    return blocks[at[0]][1], blocks[at[0] + 1][1]


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("guide") / "tables"
    assert invoke("tables", str(REPO / "results"), "-o", str(out)).exit_code == 0
    return out


def test_the_latex_example_reads_as_the_guide_says(tables: Path, tmp_path: Path) -> None:
    require_pdflatex()
    source, expected = _block_and_output("tex")
    (tmp_path / "tables").mkdir()
    shutil.copy(tables / "numbers.tex", tmp_path / "tables" / "numbers.tex")
    (tmp_path / "paper.tex").write_text(source, encoding="utf-8")
    done = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=120,
    )
    assert done.returncode == 0, done.stdout[-2000:]
    text = subprocess.run(
        ["pdftotext", str(tmp_path / "paper.pdf"), "-"], capture_output=True, text=True
    ).stdout
    words = text.split()
    assert words[-1] == "1"  # the page number
    assert " ".join(words[:-1]) == " ".join(expected.split())


def test_the_jinja_example_renders_as_the_guide_says(tables: Path) -> None:
    template, expected = _block_and_output("jinja")
    numbers = json.loads((tables / "numbers.json").read_text(encoding="utf-8"))["numbers"]
    assert jinja2.Template(template).render(numbers=numbers).strip() == expected.strip()
