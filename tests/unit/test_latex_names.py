"""A name pdflatex cannot typeset never reaches a LaTeX table silently (issue 34, also
seen): ``irtables tables`` refuses, before writing anything, with one line naming the
character and the string; what it does write compiles with pdflatex (checked here by
compiling each table in a document of its own)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.conftest import assert_one_line_error, invoke, require_pdflatex

pytestmark = pytest.mark.latex

HEAD = "query\tmetric\tvalue\n"
DOCUMENT = (
    "\\documentclass{article}\n\\usepackage{booktabs}\n\\usepackage{graphicx}\n"
    "\\begin{document}\n\\input{%s}\n\\end{document}\n"
)


def _study(root: Path, name: str, config: str = "") -> Path:
    (root / "dl").mkdir(parents=True)
    (root / "dl" / "bm25.tsv").write_text(HEAD + "1\tAP\t0.2\n2\tAP\t0.4\n")
    (root / "dl" / f"{name}.tsv").write_text(HEAD + "1\tAP\t0.3\n2\tAP\t0.1\n", "utf-8")
    if config:
        (root / "irtables.toml").write_text(config, "utf-8")
    return root


def _compiles(table: Path) -> bool:
    doc = table.parent / f"compile-{table.stem}.tex"
    doc.write_text(DOCUMENT % table.name)
    done = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", doc.name],
        cwd=table.parent,
        capture_output=True,
        timeout=120,
    )
    return done.returncode == 0


@pytest.mark.parametrize(("name", "char"), [("🚀 launch", "🚀"), ("bm25 中文", "中")])
def test_an_untypesettable_name_is_refused_before_writing(
    tmp_path: Path, name: str, char: str
) -> None:
    require_pdflatex()
    root = _study(tmp_path / "s", name)
    out = tmp_path / "out"
    result = invoke("tables", str(root), "-o", str(out))
    assert_one_line_error(result, "pdflatex cannot typeset", repr(char), name, "table1.tex")
    assert not out.exists()
    # without LaTeX, or with a display name pdflatex can typeset, the tables are written
    assert invoke("tables", str(root), "-o", str(out), "-f", "markdown").exit_code == 0
    named = _study(tmp_path / "t", name, f'[[systems]]\nid = "{name}"\nname = "launch"\n')
    result = invoke("tables", str(named), "-o", str(tmp_path / "named"))
    assert result.exit_code == 0, result.output
    assert all(_compiles(t) for t in (tmp_path / "named").glob("table*.tex"))


@pytest.mark.parametrize(
    ("name", "shown"), [("Müller–Šimek", "Müller--Šimek"), ("naïve café", "naïve café")]
)
def test_what_is_written_compiles(tmp_path: Path, name: str, shown: str) -> None:
    require_pdflatex()
    root = _study(tmp_path / "s", name)
    out = tmp_path / "out"
    result = invoke("tables", str(root), "-o", str(out))
    assert result.exit_code == 0, result.output
    tables = sorted(out.glob("table*.tex"))
    assert tables and all(_compiles(t) for t in tables)
    assert any(shown in t.read_text("utf-8") for t in tables)
