"""The supplement's index.html shows names from the data as text, in a real browser.

A study whose dataset and system names are HTML, Markdown links, images and autolinks
is built into a supplement; headless chromium loads its ``index.html`` and the DOM must
hold no element that came from the data (no ``svg``, no image but the figures, no link
off the page), while every name is on the page as text.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from irtables.supplement.run import make_supplement
from tests.acceptance.test_browser import read_page

DATASET = "<svg onload=alert(1)>"
SYSTEMS = (
    "![t](https://evil.example/x.png)",
    "<https://evil.example/>",
    "a|b [c](https://evil.example/) www.evil.example",
    "<img src=x onerror=alert(2)> **bold** `code`",
)
# What the page holds that irtables did not write itself.
READ_DOM = """(() => JSON.stringify({
  foreign: [...document.querySelectorAll("svg, script, iframe, object, embed, form, input")]
    .map((e) => e.outerHTML.slice(0, 80)),
  images: [...document.querySelectorAll("img")].map((i) => i.getAttribute("src")),
  links: [...document.querySelectorAll("a[href]")].map((a) => a.getAttribute("href")),
  text: document.body.textContent,
  significance: document.querySelectorAll("#significance table tr").length,
  tables: [...document.querySelectorAll("table.irtables tbody th[scope=row]")]
    .map((th) => th.textContent),
}))()"""


def _study(root: Path) -> Path:
    lines = []
    for i, system in enumerate(SYSTEMS):
        for q in range(5):
            for metric, base in (("AP", 0.2), ("nDCG@10", 0.3)):
                value = round(base + 0.1 * (q % 3) + 0.05 * i + 0.01 * (q * i % 4), 3)
                row = {"dataset": DATASET, "system": system, "query": f"q{q}", "metric": metric}
                lines.append(json.dumps({**row, "value": value}))
    root.mkdir()
    (root / "all.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    config = f"[compare]\nbaseline = {json.dumps(SYSTEMS[0])}\n"
    config += '[tables.main]\nmetrics = ["AP", "nDCG@10"]\n'
    (root / "irtables.toml").write_text(config, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("names")
    out = tmp / "supplement"
    make_supplement(_study(tmp / "res"), outdir=out, pdf=False)
    found: dict[str, Any] = read_page((out / "index.html").as_uri(), READ_DOM)
    return found


def test_index_html_holds_no_element_from_the_data(page: dict[str, Any]) -> None:
    assert page["foreign"] == []
    assert all(src.startswith("figures/") for src in page["images"]), page["images"]
    off_page = [h for h in page["links"] if "//" in h or h.startswith(("javascript:", "www"))]
    assert off_page == []


def test_index_html_shows_every_name_as_text(page: dict[str, Any]) -> None:
    assert page["significance"] > 1  # the tests' table, from significance.md
    for name in (DATASET, *SYSTEMS):
        assert name in page["text"], name
    assert sorted(set(page["tables"])) == sorted(SYSTEMS)
