"""The example's index.html in a narrow headless chromium window: no number breaks
across lines in the significance table, and each table's bottom rule runs under every
column, the first one (a cell spanning the rows of its group: Dataset, Metric) included."""

from __future__ import annotations

from typing import Any

import pytest

from irtables.supplement.run import make_supplement
from tests.acceptance.test_browser import read_page
from tests.conftest import REPO

# Lines of text in each cell of the significance table (distinct tops of its text's line
# boxes); per table, the cells whose bottom edge is the last row's and their borders.
READ_PAGE = """(() => {
  const lines = (cell) => {
    const range = document.createRange();
    range.selectNodeContents(cell);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  };
  const bottoms = [...document.querySelectorAll("table.irtables")].map((table) => {
    const body = table.tBodies[table.tBodies.length - 1];
    const last = body.rows[body.rows.length - 1].getBoundingClientRect().bottom;
    const cells = [...body.querySelectorAll("th, td")].filter(
      (c) => Math.abs(c.getBoundingClientRect().bottom - last) < 1);
    const head = table.tHead.rows[table.tHead.rows.length - 1].cells;
    return {id: table.id, first: cells.length ? cells[0].textContent : "",
      width: cells.reduce((n, c) => n + c.colSpan, 0),
      columns: [...head].reduce((n, c) => n + c.colSpan, 0),
      borders: [...new Set(cells.map((c) => getComputedStyle(c).borderBottomWidth))]};
  });
  return JSON.stringify({
    cells: [...document.querySelectorAll("#significance td")]
      .map((c) => ({text: c.textContent, lines: lines(c)})),
    bottoms: bottoms,
  });
})()"""


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("supplement")
    make_supplement(REPO / "results", outdir=out, pdf=False)
    found: dict[str, Any] = read_page((out / "index.html").as_uri(), READ_PAGE, size=(480, 800))
    return found


def test_no_number_breaks_across_lines(page: dict[str, Any]) -> None:
    cells = page["cells"]
    assert any("e-" in c["text"] for c in cells)  # scientific p-values are there
    broken = [c for c in cells if c["lines"] > 1]
    assert broken == []


def test_the_bottom_rule_spans_every_column(page: dict[str, Any]) -> None:
    bottoms = {t["id"]: t for t in page["bottoms"]}
    assert {"table1", "tableS1-cast2021", "ablation"} <= set(bottoms)
    assert bottoms["tableS1-cast2021"]["first"] == "MAP"  # a group cell over 5 rows
    for table in bottoms.values():
        assert table["width"] == table["columns"] and table["borders"] == ["2px"], table
