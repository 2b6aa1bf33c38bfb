"""irtables diff lists the cited numbers (keys of numbers.json) whose displayed text changed."""

from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path

import pandas as pd

from tests.conftest import REPO, invoke

KEY = "table1/cast2021/org_manual_ance/nDCG@10"


def _cell(tables: Path, row: tuple[str, str], column: str) -> str:
    with (tables / "table1.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    at = rows[0].index(column)
    return next(r[at] for r in rows[1:] if tuple(r[:2]) == row)


def test_diff_lists_the_keys_whose_text_changed(tmp_path: Path) -> None:
    old, new = tmp_path / "old", tmp_path / "new"
    shutil.copytree(REPO / "results", old, ignore=shutil.ignore_patterns("tables", "*.py", "*.md"))
    shutil.copytree(old, new)
    path = new / "cast2021" / "org_manual_ance.tsv"
    frame = pd.read_csv(path, sep="\t", dtype={"query": str})
    rows = frame["metric"] == "nDCG@10"
    frame.loc[rows, "value"] = (frame.loc[rows, "value"] + 0.08).clip(0.0, 1.0)
    frame.to_csv(path, sep="\t", index=False)
    for side in (old, new):
        assert invoke("tables", str(side), "-o", str(tmp_path / f"{side.name}-t")).exit_code == 0
    ance, bm25 = ("TREC CAsT 2021", "ANCE"), ("TREC CAsT 2021", "BM25")
    before = _cell(tmp_path / "old-t", ance, "NDCG@10")
    after = _cell(tmp_path / "new-t", ance, "NDCG@10")
    assert before != after
    assert _cell(tmp_path / "old-t", bm25, "NDCG@10") == _cell(tmp_path / "new-t", bm25, "NDCG@10")

    result = invoke("diff", str(old), str(new), "--format", "json")
    assert result.exit_code == 0, result.output
    numbers = {n["key"]: (n["old"], n["new"]) for n in json.loads(result.stdout)["numbers"]}
    assert numbers[KEY] == (before, after)
    assert "table1/cast2021/org_manual_bm25/nDCG@10" not in numbers
    # the relative improvement of ANCE changed, not BM25's own numbers on other metrics
    assert not any(k.startswith("table1/cast2021/org_manual_bm25/") for k in numbers)

    markdown = invoke("diff", str(old), str(new), "--format", "markdown").stdout
    assert "### Cited numbers that change" in markdown
    row = rf"\|\s*`{re.escape(KEY)}`\s*\|\s*{before}\s*\|\s*{after}\s*\|"
    assert re.search(row, markdown), markdown
