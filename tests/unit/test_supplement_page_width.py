"""Every table of ``supplement.pdf`` fits the page: no ``Overfull \\hbox`` of more than
1 pt in pdflatex's log, and the PDF's text holds every column header.

The topic-set-size table set its twelve headings (``n ANOVA for Δ=0.02`` ...) in one row,
248 pt wider than the page of the shipped example: two columns fell off it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from irtables.config import parse_config
from irtables.study import load_study
from irtables.supplement.build import build_supplement
from tests.conftest import require_pdflatex, results_from_rows

ROOT = Path(__file__).resolve().parents[2]
OVERFULL = re.compile(r"Overfull \\hbox \((\d+(?:\.\d+)?)pt too wide\)")


def _compile(outputs: list[tuple[str, bytes]], folder: Path) -> tuple[str, str]:
    """pdflatex's log of the second run over the supplement's sources, and the PDF's text."""
    require_pdflatex()
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext not installed")
    for rel, data in outputs:
        if rel.endswith((".tex", ".pdf", ".bib")):
            target = folder / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    command = ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "supplement.tex"]
    for _ in range(2):
        done = subprocess.run(command, cwd=folder, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout[-2000:]
    log = (folder / "supplement.log").read_text(encoding="utf-8", errors="replace")
    text = subprocess.run(
        ["pdftotext", "-layout", str(folder / "supplement.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return log, text


def _overfull(log: str) -> list[float]:
    return [float(m) for m in OVERFULL.findall(log) if float(m) > 1.0]


def _topic_set_size_section(text: str) -> str:
    start = text.rfind("Topic-set size\n")
    assert start >= 0, "no topic-set-size section in the PDF"
    return text[start:]


def _assert_headers(section: str, differences: tuple[float, ...]) -> None:
    words = re.sub(r"\s+", " ", section)
    for header in ("Dataset", "Metric", "Systems", "Topics", "σd", "MDD"):
        assert header in words, header
    assert "paired t" in words and "two-way ANOVA" in words
    for d in differences:
        # each planned difference heads a column of each design
        assert words.count(f" {d:g} ") >= 2, d


@pytest.mark.latex
@pytest.mark.slow
def test_the_shipped_example_fits_the_page(tmp_path: Path) -> None:
    study = load_study(ROOT / "results")
    built = build_supplement(study.results, study.config, workers=1)
    log, text = _compile([(o.path, o.data) for o in built.outputs], tmp_path)
    assert _overfull(log) == []
    _assert_headers(_topic_set_size_section(text), study.config.compare.differences)


@pytest.mark.latex
@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::irtables.errors.LayoutWarning")
def test_the_supplement_of_a_sweep_fits_the_page(tmp_path: Path) -> None:
    """Twelve systems of a parameter sweep on two datasets with long names, and five
    planned differences (the default plans three)."""
    rng = np.random.default_rng(5)
    systems = [f"bm25-k1={k1}-b={b}" for k1 in (0.6, 0.9, 1.2) for b in (0.3, 0.5, 0.7, 0.9)]
    datasets = ("robust04-title-descriptions", "msmarco-passage-dev-small")
    rows = [
        (d, s, f"q{q}", m, float(rng.random()))
        for d in datasets
        for s in systems
        for q in range(30)
        for m in ("AP", "nDCG@10", "P@10", "R@1000")
    ]
    differences = (0.01, 0.02, 0.05, 0.1, 0.2)
    config = parse_config(
        {
            "compare": {"baseline": systems[0], "differences": list(differences)},
            "tables": {"main": {"metrics": ["AP", "nDCG@10", "P@10", "R@1000"]}},
        }
    )
    built = build_supplement(results_from_rows(rows), config, workers=1)
    log, text = _compile([(o.path, o.data) for o in built.outputs], tmp_path)
    assert _overfull(log) == []
    _assert_headers(_topic_set_size_section(text), differences)
