"""A table in a notebook, as a user sees it: executed by a Jupyter kernel (nbclient),
converted to HTML by nbconvert (JupyterLab's style sheet, not irtables'), and looked at
in headless chromium.

The alignment padding of a number without markers must stay invisible and the label
columns left-aligned with no irtables style sheet on the page: a row of a system without
a significant difference (the baseline) shows no marker.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from typing import Any

import pytest

from irtables import build_table, load_config, load_results
from irtables.render.columns import marker_pads
from irtables.stats import compare
from tests.acceptance.test_browser import read_page
from tests.conftest import REPO


def _require(name: str) -> Any:
    """A test-only package (the dev extra): under CI its absence fails the run."""
    try:
        return importlib.import_module(name)
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail(f"{name} is required under CI (pip install -e '.[dev]')")
        pytest.skip(f"{name} not installed", allow_module_level=True)


nbformat = _require("nbformat")
nbclient = _require("nbclient")
nbconvert = _require("nbconvert")

CELLS = [
    "from irtables import build_table, load_config, load_results\n"
    "from irtables.stats import compare\n"
    f"results = load_results({str(REPO / 'results')!r})\n"
    f"config = load_config({str(REPO / 'results' / 'irtables.toml')!r})",
    'build_table(results, "main", config=config)',
    'compare(results, datasets=["cast2021"], metrics=["nDCG@10"], correction="holm")',
]

# Each table row as the reader sees it (innerText leaves out what is not rendered), and
# how its label and number cells are aligned.
READ_PAGE = """(() => JSON.stringify([...document.querySelectorAll("table")].map((t) => ({
  irtables: t.classList.contains("irtables"),
  caption: t.caption ? t.caption.innerText : "",
  rows: [...t.querySelectorAll("tbody tr")].map((r) => ({
    label: (r.querySelector('th[scope="row"]') || {innerText: ""}).innerText,
    text: r.innerText,
    cells: [...r.querySelectorAll("td.num")].map((c) => c.innerText),
    aligns: [...r.cells].map((c) => getComputedStyle(c).textAlign),
    labelAlign: r.querySelector('th[scope="row"]')
      ? getComputedStyle(r.querySelector('th[scope="row"]')).textAlign : null,
    numAlign: r.querySelector("td.num")
      ? getComputedStyle(r.querySelector("td.num")).textAlign : null,
  })),
}))))()"""


def _notebook_html(tmp: Path) -> Path:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]
    client = nbclient.NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp)}}
    )
    client.execute()
    for cell in notebook.cells:
        errors = [o for o in cell.outputs if o.output_type == "error"]
        assert not errors, errors
    body, _ = nbconvert.HTMLExporter(template_name="lab").from_notebook_node(notebook)
    page = tmp / "notebook.html"
    page.write_text(body, encoding="utf-8")
    return page


def _read_in_chromium(page: Path, screenshot: Path) -> list[dict[str, Any]]:
    tables: list[dict[str, Any]] = read_page(
        page.as_uri(), READ_PAGE, size=(1200, 900), screenshot=screenshot
    )
    return tables


@pytest.fixture(scope="module")
def shown(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict[str, Any]], Path]:
    tmp = tmp_path_factory.mktemp("notebook")
    page = _notebook_html(tmp)
    screenshot = tmp / "notebook.png"
    return _read_in_chromium(page, screenshot), screenshot


def test_table_shows_no_padding_marker_in_a_notebook(
    shown: tuple[list[dict[str, Any]], Path],
) -> None:
    tables, screenshot = shown
    assert screenshot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    results = load_results(REPO / "results")
    model = build_table(results, "main", config=load_config(REPO / "results" / "irtables.toml"))
    pads = {ch for pad in marker_pads(model).values() for ch in pad}
    assert pads, "the example's Table 1 pads unmarked numbers (else this test checks nothing)"
    page = [t for t in tables if t["irtables"]]
    assert len(page) == 1 and page[0]["caption"].startswith(model.title)
    rows = [r for r in page[0]["rows"] if r["label"]]
    expected = [row for g in model.groups for row in g.rows]
    assert [r["label"] for r in rows] == [row.label for row in expected]
    unmarked = 0
    for seen, row in zip(rows, expected, strict=True):
        # what a reader sees in each number cell: the number and its own markers only
        assert seen["cells"] == [f"{c.text}{c.markers}" for c in row.cells], row.label
        unmarked += all(not c.markers for c in row.cells)
        assert not pads & set(seen["text"]) - {ch for c in row.cells for ch in c.markers}
        assert seen["labelAlign"] == "left" and seen["numAlign"] == "right", seen
    assert unmarked >= 2  # the baselines (one per dataset) are among the rows checked


def test_comparisons_show_as_a_table_in_a_notebook(
    shown: tuple[list[dict[str, Any]], Path],
) -> None:
    tables, _ = shown
    comparisons = compare(
        load_results(REPO / "results"),
        datasets=["cast2021"],
        metrics=["nDCG@10"],
        correction="holm",
    )
    page = [t for t in tables if not t["irtables"] and t["caption"].startswith("test:")]
    assert len(page) == 1
    rows = page[0]["rows"]
    assert len(rows) == len(comparisons)
    for seen, result in zip(rows, comparisons, strict=True):
        cells = seen["text"].split("\t")
        assert cells[2:4] == [result.system, result.baseline]
        sign = {"better": "+", "worse": "-", "none": ""}[comparisons.outcome(result)]
        assert cells[10].strip() == sign
        # words left-aligned, numbers right-aligned, as in the table irtables draws
        words = ["left"] * 4 + ["right"] * 8 + ["left"]
        assert seen["aligns"] == words, seen["aligns"]
