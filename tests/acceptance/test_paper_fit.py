"""Every golden table in a two-column ACM paper (acmart sigconf) and in plain article.

The tables go into one document per class; the test fails on any ``Overfull \\hbox``
(only tables are in the documents) and checks the table/table* choice against the
width LaTeX itself measures: a ``table`` must fit the column.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import require_pdflatex

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
TABLES = sorted([*GOLDEN.glob("*.tex"), *(GOLDEN / "layouts").glob("*.tex")])
PREAMBLES = {
    # acmart without the Libertine fonts of texlive-fonts-extra falls back to bitmap fonts,
    # which microtype cannot expand: expansion off, everything else as a real paper.
    "sigconf": "\\PassOptionsToPackage{expansion=false}{microtype}\n"
    "\\documentclass[sigconf]{acmart}\n\\settopmatter{printacmref=false}\n"
    "\\setcopyright{none}\n\\renewcommand\\footnotetextcopyrightpermission[1]{}\n"
    "\\usepackage{booktabs}\n",
    "article": "\\documentclass{article}\n\\usepackage{booktabs}\n\\usepackage{graphicx}\n",
}
MEASURE = "\\leavevmode\\ifdim\\wd0>"


def _key(path: Path) -> str:
    return path.relative_to(GOLDEN).with_suffix("").as_posix()


def _document(cls: str) -> str:
    parts = []
    for path in TABLES:
        tex = path.read_text(encoding="utf-8")
        assert MEASURE in tex, path.name
        probe = f"\\typeout{{IRTABLES {_key(path)} \\the\\wd0 \\space\\the\\columnwidth}}"
        parts.append(tex.replace(MEASURE, probe + MEASURE) + "\nSome text.\n")
    title = "\\title{Tables}\n\\maketitle\n" if cls == "sigconf" else ""
    return PREAMBLES[cls] + "\\begin{document}\n" + title + "\n".join(parts) + "\\end{document}\n"


def _compile(cls: str, workdir: Path) -> str:
    require_pdflatex()
    (workdir / f"{cls}.tex").write_text(_document(cls), encoding="utf-8")
    for _ in range(2):
        result = subprocess.run(
            ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", f"{cls}.tex"],
            cwd=workdir,
            capture_output=True,
            text=True,
            timeout=300,
            env={**os.environ, "max_print_line": "10000"},  # no wrapped log lines
        )
        assert result.returncode == 0, result.stdout[-3000:]
    return (workdir / f"{cls}.log").read_text(encoding="utf-8", errors="replace")


@pytest.mark.latex
@pytest.mark.parametrize("cls", sorted(PREAMBLES))
def test_tables_fit_the_page(cls: str, tmp_path: Path) -> None:
    log = _compile(cls, tmp_path)
    overfull = re.findall(r"Overfull \\hbox.*", log)
    assert not overfull, overfull
    widths = {
        m.group(1): (float(m.group(2)), float(m.group(3)))
        for m in re.finditer(r"IRTABLES (\S+) ([\d.]+)pt ([\d.]+)pt", log)
    }
    assert set(widths) == {_key(p) for p in TABLES}
    for path in TABLES:
        natural, column = widths[_key(path)]
        if "\\begin{table}" in path.read_text(encoding="utf-8"):
            assert natural <= column, f"{path.name}: {natural}pt in a {column}pt column"
