"""Every table CSV keeps the ids beside the display names (as the docs promise): a
program reading ``table1.csv`` can join it with the per-query results."""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd

from irtables.render import render
from irtables.study import load_study

RESULTS = Path(__file__).resolve().parents[2] / "results"


def test_table_csvs_hold_the_ids_of_their_datasets_systems_and_measures() -> None:
    study = load_study(RESULTS)
    names = {study.system_name(s): s for d in study.datasets for s in study.systems(d)}
    datasets = {study.dataset_name(d): d for d in study.datasets}
    tables = {t.name: t for t in study.tables().tables}

    main = pd.read_csv(io.StringIO(render(tables["table1"], "csv")), dtype=str)
    assert [c for c in main.columns if c.endswith(" id")] == ["Dataset id", "System id"]
    assert (main["Dataset id"] == main["Dataset"].map(datasets)).all()
    assert (main["System id"] == main["System"].map(names)).all()
    assert set(main["System id"]) <= set(study.results.systems())

    s1 = pd.read_csv(io.StringIO(render(tables["tableS1-cacm"], "csv")), dtype=str)
    assert (s1["System id"] == "bm25").all()
    assert set(s1["Metric id"]) >= {"nDCG", "P"}

    ablation = pd.read_csv(io.StringIO(render(tables["ablation"], "csv")), dtype=str)
    assert set(ablation["Method id"]) <= set(study.results.systems())
