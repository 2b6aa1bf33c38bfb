"""Every CSV file irtables writes (supplement tables, compare) reads with pandas as plain
columns, with no comment lines (issue 9, through the command line)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from tests.conftest import invoke, tidy_study


def test_every_csv_irtables_writes_reads_with_pandas(tmp_path: Path) -> None:
    results = tidy_study(tmp_path, ["dl"])
    (results / "irtables.toml").write_text('[compare]\nbaseline = "bm25"\n')
    out = tmp_path / "sup"
    assert invoke("supplement", str(results), "-o", str(out), "--no-pdf").exit_code == 0
    assert invoke("compare", str(results), "-o", str(tmp_path / "sig.csv")).exit_code == 0
    csvs = [*out.rglob("*.csv"), tmp_path / "sig.csv"]
    assert len(csvs) >= 6
    for path in csvs:
        frame = pd.read_csv(path)
        assert len(frame.columns) > 2 and not frame.columns[0].startswith("#"), path
    table = pd.read_csv(out / "tables" / "table1.csv")
    # the columns each row shows bold follow the values (best)
    assert list(table.columns) == [
        "Dataset", "System", "NDCG@10", "MAP", "best", "Dataset id", "System id",
    ]  # fmt: skip
    assert len(table) == 2
