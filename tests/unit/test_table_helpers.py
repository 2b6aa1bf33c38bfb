"""Table models and statistics: the cases behind review mends (a dataset id that is not a
file name, the shared helpers of the layouts)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from irtables.config import Config
from irtables.model import ResultSet
from irtables.stats.effect import t_interval
from irtables.tables import build_all, build_table
from irtables.tables.build import number_tables
from irtables.tables.intervals import mean_intervals
from irtables.tables.layouts import collect_means, mean_of
from irtables.tables.model import TableModel


def _rs(rows: list[tuple[str, str, str, str, float]]) -> ResultSet:
    return ResultSet.from_frame(
        pd.DataFrame(rows, columns=["dataset", "system", "query", "metric", "value"])
    )


def _two_datasets() -> ResultSet:
    rows = []
    for dataset in ("msmarco/dev", "trec dl:2019"):
        for system, base in (("a", 0.1), ("b", 0.2)):
            for query in ("1", "2"):
                for k in (1, 10):
                    rows.append((dataset, system, query, f"nDCG@{k}", base + k / 100))
                rows.append((dataset, system, query, "AP", base))
    return _rs(rows)


@pytest.mark.parametrize("dataset", [None, "msmarco/dev", "trec dl:2019"])
def test_table_s1_of_a_dataset_whose_id_is_not_a_file_name(dataset: str | None) -> None:
    rs = _two_datasets()
    built = {t.datasets: t for t in build_all(rs, Config()).tables if t.layout == "k_breakdown"}
    wanted = dataset or "msmarco/dev"  # the first dataset by default
    model = build_table(rs, "k_breakdown", dataset=dataset)
    assert model == built[(wanted,)]
    assert model.name.startswith("tableS1-") and "/" not in model.name


def test_mean_of_needs_every_value_unless_partial() -> None:
    assert mean_of([0.25, 0.75]) == 0.5
    assert mean_of([0.25, None]) is None
    assert mean_of([0.25, None], partial=True) == 0.25
    assert mean_of([None, None], partial=True) is None
    assert mean_of([]) is None


def test_runs_in_counts_only_the_systems_asked_for() -> None:
    rs = _two_datasets()
    seeds = pd.DataFrame(
        {
            "dataset": "msmarco/dev",
            "system": ["a", "a", "b", "b", "b"],
            "seed": ["1", "2", "1", "2", "3"],
            "metric": "AP",
            "mean": [0.1, 0.2, 0.2, 0.3, 0.4],
        }
    )
    m = collect_means(rs, Config(), missing="error", seeds=seeds)
    assert m.runs_in(["msmarco/dev"], Config()) == {"a": 2, "b": 3}
    assert m.runs_in(["msmarco/dev"], Config(), ["b"]) == {"b": 3}
    assert m.runs_in(["msmarco/dev", "trec dl:2019"], Config(), []) == {}


def test_mean_intervals_per_cell_of_the_systems_that_have_the_metric() -> None:
    ap = {"1": 0.1, "2": 0.3, "3": 0.2}
    rows = [("d2", "b", q, "AP", v) for q, v in ap.items()]  # d2 first, as in the results
    rows += [
        ("d1", s, q, "AP", v + (0.1 if s == "a" else 0.0)) for s in "ab" for q, v in ap.items()
    ]
    rows += [("d1", "a", q, "P@5", 0.2 * int(q)) for q in ap]  # b has no P@5
    got = mean_intervals(_rs(rows))
    cells = list(dict.fromkeys((d, s, m) for d, s, _, m, _ in rows))
    want = {}
    for cell in cells:
        ci = t_interval(np.array([r[4] for r in rows if (r[0], r[1], r[3]) == cell]), 0.95)
        assert ci is not None
        want[cell] = (ci.low, ci.high)
    assert got == want
    assert list(got) == cells  # in the order of the results: datasets, then metrics, systems


def test_tables_are_numbered_without_limit() -> None:
    # before: StopIteration past Table S999 (1,000 datasets) or Table 999
    blank = TableModel("grid", "grid", "", ("System",), (), (), "", "")
    s1 = [replace(blank, layout="k_breakdown", name=f"tableS1-d{i}") for i in range(1200)]
    configured = [blank] * 1100
    titles = [t.title for t in number_tables([replace(blank, title="Table 1"), *s1, *configured])]
    assert titles[1:1201] == [f"Table S{n}" for n in range(1, 1201)]
    assert titles[1201:] == [f"Table {n}" for n in range(2, 1102)]
