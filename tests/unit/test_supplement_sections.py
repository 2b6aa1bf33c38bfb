"""The supplement's three outlines (supplement.tex, README.md, index.html) list the same
sections in the same order, and index.html has the meta-analysis and topic-set sections."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from irtables.cli import main
from irtables.supplement.sections import SECTIONS, present_sections

REPO = Path(__file__).resolve().parents[2]
# the synthetic study of every layout: three datasets compared with one baseline, so it
# has every section (meta-analysis and topic-set size included)
EVERY_SECTION = [
    "Methods",
    "Results",
    "Significance tests",
    "Per-query analysis",
    "Meta-analysis across datasets",
    "Topic-set size",
    "Figures",
]


@pytest.fixture(scope="module")
def supplement(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("supplement")
    args = ["supplement", str(REPO / "tests/data/layouts"), "-o", str(out), "--no-pdf", "-j", "1"]
    done = CliRunner().invoke(main, args)
    assert done.exit_code == 0, done.output
    return out


@pytest.mark.slow
def test_the_latex_document_has_the_sections_in_order(supplement: Path) -> None:
    tex = (supplement / "supplement.tex").read_text(encoding="utf-8")
    assert re.findall(r"^\\section\{(.*)\}$", tex, re.M) == EVERY_SECTION


@pytest.mark.slow
def test_the_readme_has_the_sections_in_order(supplement: Path) -> None:
    readme = (supplement / "README.md").read_text(encoding="utf-8")
    assert re.findall(r"^## (.*)$", readme, re.M) == [*EVERY_SECTION, "Notes", "Files"]


@pytest.mark.slow
def test_the_index_page_has_the_sections_in_order_with_meta_analysis_and_topic_sets(
    supplement: Path,
) -> None:
    page = (supplement / "index.html").read_text(encoding="utf-8")
    main_part = page[page.index("<main>") :]
    headings = re.findall(r"<section id=\"[^\"]+\"[^>]*>\n<h2[^>]*>(.*?)</h2>", main_part)
    assert headings == [*EVERY_SECTION, "Notes"]
    nav = page[page.index("<nav") : page.index("</nav>")]
    linked = re.findall(r"<a href=\"#([^\"]+)\">", nav)
    anchors = [s.anchor for s in SECTIONS if s.key != "tables"]
    assert [a for a in linked if a in anchors] == anchors
    # the sections show their files' content, not just a heading
    assert "Topic-set size and minimum detectable difference</h3>" in main_part
    assert '<a href="meta_analysis.csv">' in main_part and "<h4>Per dataset</h4>" in main_part


def test_sections_without_content_are_left_out() -> None:
    shown = present_sections({"significance": [], "wtl": [["a"]], "meta": [], "tss": [["x"]]})
    assert [s.title for s in shown] == [
        "Methods",
        "Results",
        "Per-query analysis",
        "Topic-set size",
    ]
