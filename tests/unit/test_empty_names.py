"""An empty query, dataset or system name in a result file (issue 34's adversarial sweep).

A row whose query id is empty (``map<TAB><TAB>0.5``, ``{"": {...}}``, a CSV cell of
spaces) was one more query: in every file, it entered every mean ("Means over 4
queries" for 3); in one file, the others "lacked" a query named ''. It is one
``Error:`` naming file and line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import assert_one_line_error, invoke


def _study(root: Path, extra: str) -> Path:
    folder = root / "r" / "dl"
    folder.mkdir(parents=True)
    for i, system in enumerate(("bm25", "dense")):
        rows = [f"q{q}\tAP\t{0.1 * (q + 1) + 0.05 * i:.3f}\n" for q in range(3)]
        (folder / f"{system}.tsv").write_text("query\tmetric\tvalue\n" + "".join(rows) + extra)
    return root / "r"


@pytest.mark.parametrize("query", ["", "  "], ids=["empty", "spaces"])
def test_an_empty_query_in_every_file_is_an_error(tmp_path: Path, query: str) -> None:
    results = _study(tmp_path, f"{query}\tAP\t0.0\n")
    result = invoke("tables", str(results), "-o", str(tmp_path / "o"))
    assert_one_line_error(result, "dl/bm25.tsv:5: empty query")
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    ("name", "text", "where"),
    [
        ("x.json", '{"": {"AP": 0.5}}', "x.json: empty query"),
        ("x.txt", "map\t\t0.5\n", "x.txt:1: empty query"),
        ("x.csv", "query,AP\n,0.5\n", "x.csv:2: empty query"),
    ],
    ids=["pytrec_eval json", "trec_eval", "wide csv"],
)
def test_an_empty_query_is_an_error_in_every_format(
    tmp_path: Path, name: str, text: str, where: str
) -> None:
    results = _study(tmp_path, "")
    (results / "dl" / name).write_text(text)
    assert_one_line_error(invoke("lint", str(results)), f"dl/{where}")


def test_an_empty_dataset_in_a_tidy_file_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "all.csv").write_text("dataset,system,query,metric,value\n ,x,1,AP,0.5\n")
    assert_one_line_error(invoke("lint", str(tmp_path)), "all.csv:2: empty dataset")
