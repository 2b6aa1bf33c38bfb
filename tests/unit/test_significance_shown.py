"""Letters, families and legends say only what the table shows (issue 18, section 4)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.multitest import multipletests

from irtables.config import parse_config
from irtables.model import ResultSet
from irtables.render import render
from irtables.tables import build_all

SYSTEMS = ("bm25", "dense", "splade", "fuse1", "fuse2", "fuse3")


def study(seed: int = 5) -> ResultSet:
    """d1 with six systems, d2 with five (no fuse1); the fusion runs are strong."""
    rng = np.random.default_rng(seed)
    parts = []
    for dataset, systems in (("d1", SYSTEMS), ("d2", tuple(s for s in SYSTEMS if s != "fuse1"))):
        base = rng.beta(2, 3, 40)
        for i, name in enumerate(systems):
            shift = 0.04 * SYSTEMS.index(name)
            vals = np.clip(base + shift + rng.normal(0, 0.05 + 0.01 * i, 40), 0, 1).round(4)
            for metric in ("nDCG@10", "AP"):
                parts.append(pd.DataFrame({"dataset": dataset, "system": name,
                                           "query": [f"q{q}" for q in range(40)],
                                           "metric": metric, "value": vals}))  # fmt: skip
    return ResultSet.from_frame(pd.concat(parts, ignore_index=True))


def config(shown: list[str], **compare: object) -> object:
    return parse_config(
        {
            "compare": compare,
            "tables": {
                "main": {"metrics": ["NDCG@10"]},
                "shown": {"layout": "main", "metrics": ["NDCG@10", "MAP"], "systems": shown},
            },
        }
    )


def _table1(built: object) -> object:
    return next(t for t in built.tables if t.name == "shown")  # type: ignore[attr-defined]


def test_letters_cover_the_systems_shown_consecutively_and_restart_per_dataset() -> None:
    shown = ["bm25", "splade", "fuse2", "fuse3"]
    built = build_all(study(), config(shown, all_pairs=True, test="tukey"))  # type: ignore[arg-type]
    table = _table1(built)
    labels = [r.label for g in table.groups for r in g.rows]
    assert labels == [f"{s} ({x})" for s, x in zip(shown, "abcd", strict=True)] * 2  # both datasets
    letters = {m for g in table.groups for r in g.rows for c in r.cells for m in c.markers}
    assert letters and letters <= set("abcd")  # never a letter of a system not shown
    # the Tukey family is the four systems shown: 6 pairs per dataset and metric
    shown_results = list(built.by_table["shown"])
    assert {r.family_size for r in shown_results} == {6}
    assert {r.system for r in shown_results} | {r.baseline for r in shown_results} == set(shown)


def test_letters_restart_per_dataset_when_a_dataset_lacks_a_system() -> None:
    shown = ["bm25", "fuse1", "fuse3"]  # d2 has no fuse1: fuse3 is b there
    built = build_all(study(), config(shown, all_pairs=True, test="tukey"))  # type: ignore[arg-type]
    md = render(_table1(built), "markdown")
    assert "fuse3 (c)" in md and "fuse3 (b)" in md
    assert not re.search(r"\d[a-z]*[d-z]\b", md.split("\n\n", 1)[1])  # letters a-c only


def test_family_table_is_the_comparisons_the_table_shows_and_the_caption_says_its_size() -> None:
    shown = ["bm25", "dense", "fuse3"]
    cfg = config(shown, baseline="bm25", family="table", correction="holm")
    built = build_all(study(), cfg)  # type: ignore[arg-type]
    table = _table1(built)
    mine = list(built.by_table["shown"])
    assert len(mine) == 2 * 2 * 2  # datasets x metrics x systems shown (not the baseline)
    assert {r.family_size for r in mine} == {8}
    expected = multipletests([r.pvalue for r in mine], method="holm")[1]
    assert [r.p for r in mine] == list(expected)
    assert "Holm correction over all 8 comparisons of the table" in table.full_caption


def test_one_sided_legend_drops_the_impossible_marker_and_says_one_sided() -> None:
    cfg = config(["bm25", "dense", "fuse3"], baseline="bm25", alternative="greater")
    table = _table1(build_all(study(), cfg))  # type: ignore[arg-type]
    caption = table.full_caption
    assert "‡" not in caption and "significantly better than bm25" in caption
    assert "one-sided: it tests only whether a system scores higher than the baseline" in caption
    assert not any("‡" in c.markers for g in table.groups for r in g.rows for c in r.cells)
    two = _table1(build_all(study(), config(["bm25", "dense"], baseline="bm25")))  # type: ignore[arg-type]
    assert "† and ‡: significantly better and worse than bm25" in two.full_caption


def test_a_constant_difference_gets_no_marker_from_tukey_in_a_table() -> None:
    rs = study()
    frame = rs.frame.copy()
    base = frame[frame.system == "bm25"].copy()
    base["system"], base["value"] = "plus", base["value"] + 0.1
    rs = ResultSet.from_frame(pd.concat([frame, base], ignore_index=True))
    cfg = config(["bm25", "plus"], all_pairs=True, test="tukey")
    built = build_all(rs, cfg)  # type: ignore[arg-type]
    table = _table1(built)
    assert not any(c.markers for g in table.groups for r in g.rows for c in r.cells)
    methods = {r.method for r in built.by_table["shown"]}
    assert methods == {"undefined: constant differences on every topic (zero residual variance)"}


def test_each_caption_states_its_family_and_significance_backs_every_table() -> None:
    """Table 1 of four of six systems is corrected over the 3 comparisons it shows,
    Table S1 over all 5: each caption says its own family size, and significance.csv
    holds a row per (table, comparison) with that table's adjusted p-value (Holm by
    statsmodels on the table's own raw p-values)."""
    import csv
    import io

    from scipy import stats

    from irtables.study.pipeline import significance_files

    rs = study()
    d1 = rs.frame[rs.frame["dataset"] == "d1"]
    rs = ResultSet.from_frame(d1.reset_index(drop=True))
    shown = ["bm25", "splade", "fuse2", "fuse3"]
    cfg = parse_config(
        {
            "compare": {"baseline": "bm25", "family": "metric"},
            "tables": {"main": {"metrics": ["NDCG@10"], "systems": shown}},
        }
    )
    built = build_all(rs, cfg)  # type: ignore[arg-type]
    captions = {t.title: t.full_caption for t in built.tables}
    family = "Holm correction over the {} comparisons of each dataset and metric"
    assert family.format(3) in captions["Table 1"]
    assert family.format(5) in captions["Table S1"]

    rows = list(csv.DictReader(io.StringIO(significance_files(built, cfg)["significance.csv"])))

    def values(system: str) -> np.ndarray:
        one = d1[(d1["system"] == system) & (d1["metric"] == "nDCG@10")].sort_values("query")
        return one["value"].to_numpy()

    every = [s for s in SYSTEMS if s != "bm25"]
    for title, systems in (("Table 1", shown[1:]), ("Table S1", every)):
        raw = [stats.ttest_rel(values(s), values("bm25")).pvalue for s in systems]
        expected = dict(zip(systems, multipletests(raw, method="holm")[1], strict=True))
        got = {
            r["system"]: float(r["pvalue_adjusted"])
            for r in rows
            if r["table"] == title and r["metric"] == "nDCG@10"
        }
        assert got.keys() == expected.keys(), title
        for s in systems:
            assert got[s] == pytest.approx(expected[s], rel=1e-9), (title, s)
    # the same comparison, in two families: two rows, two adjusted p-values
    both = [r for r in rows if r["system"] == "fuse3" and r["metric"] == "nDCG@10"]
    assert sorted(r["table"] for r in both) == ["Table 1", "Table S1"]
    assert both[0]["pvalue_adjusted"] != both[1]["pvalue_adjusted"]
