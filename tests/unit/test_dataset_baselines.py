"""Per-dataset baselines, the all-pairs tests in tables and on the command line, cell
intervals, and the supplement's meta-analysis and topic-set-size outputs."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from scipy import stats

from irtables.cli import main
from irtables.config import ConfigError, parse_config
from irtables.errors import InputError, UnknownNameError
from irtables.model import ResultSet
from irtables.render import render
from irtables.stats import compare
from irtables.tables import build_all

RESULTS = Path(__file__).resolve().parents[2] / "results"


def study(seed: int = 3) -> ResultSet:
    """Three datasets: d1 and d2 with bm25, dense, splade; d3 with dense and splade only."""
    rng = np.random.default_rng(seed)
    parts = []
    for dataset, systems in (("d1", "abc"), ("d2", "abc"), ("d3", "bc")):
        base = rng.beta(2, 3, 40)
        for i, s in enumerate(systems):
            name = {"a": "bm25", "b": "dense", "c": "splade"}[s]
            shift = {"a": 0.0, "b": 0.08, "c": 0.1}[s]
            vals = np.clip(base + shift + rng.normal(0, 0.05 + 0.01 * i, 40), 0, 1).round(4)
            for metric in ("nDCG@10", "AP"):
                parts.append(pd.DataFrame({"dataset": dataset, "system": name,
                                           "query": [f"q{q}" for q in range(40)],
                                           "metric": metric, "value": vals}))  # fmt: skip
    return ResultSet.from_frame(pd.concat(parts, ignore_index=True))


def config(**compare: object) -> object:
    return parse_config(
        {
            "compare": compare,
            "tables": {"main": {"metrics": ["NDCG@10", "MAP"]}},
            "datasets": [{"id": "d3", "name": "Third"}],
        }
    )


def test_compare_with_a_baseline_per_dataset() -> None:
    rs = study()
    c = compare(rs, baseline={"d1": "bm25", "d2": "dense"}, metrics=["AP"])
    assert {(r.dataset, r.baseline) for r in c} == {("d1", "bm25"), ("d2", "dense")}
    assert c.without_baseline == (("d3", ()),)  # not in the mapping: not tested


def test_a_dataset_without_the_global_baseline_is_skipped_not_an_error() -> None:
    c = compare(study(), baseline="bm25", metrics=["AP"])
    assert {r.dataset for r in c} == {"d1", "d2"}
    assert c.without_baseline == (("d3", ("bm25",)),)
    with pytest.raises(UnknownNameError, match="did you mean 'bm25'"):
        compare(study(), baseline="bm52")  # in no dataset: a typo
    with pytest.raises(UnknownNameError, match="dataset in baseline"):
        compare(study(), baseline={"d9": "bm25"})


def test_tables_mark_each_dataset_against_its_own_baseline_and_say_so() -> None:
    cfg = config(baseline={"d1": "bm25", "d2": "dense"})
    built = build_all(study(), cfg)  # type: ignore[arg-type]
    table1 = built.tables[0]
    caption = table1.full_caption
    assert "the baseline of each dataset (d1: bm25; d2: dense)" in caption
    assert "No markers on Third: no baseline is configured for it." in caption
    s1 = {t.name: t.full_caption for t in built.tables}
    assert "No markers on Third" in s1["tableS1-d3"]
    assert "significantly better and worse than dense" in s1["tableS1-d2"]
    marked = {
        (g.label, r.key) for g in table1.groups for r in g.rows if any(c.markers for c in r.cells)
    }
    assert ("Third", "dense") not in marked and ("Third", "splade") not in marked


def test_a_dataset_of_one_system_without_a_baseline_is_named_not_left_empty() -> None:
    """A per-dataset baseline that does not name a one-system dataset: the caption listed
    it with no baseline ("(d1: bm25; d2: dense; Fourth: )") in every format and the
    notebook; it says that the dataset has no markers."""
    rows = study().frame
    one = rows[(rows["dataset"] == "d1") & (rows["system"] == "bm25")].assign(dataset="d4")
    rs = ResultSet.from_frame(pd.concat([rows, one], ignore_index=True))
    cfg = parse_config(
        {
            "compare": {"baseline": {"d1": "bm25", "d2": "dense"}},
            "tables": {"main": {"metrics": ["NDCG@10", "MAP"]}},
            "datasets": [{"id": "d3", "name": "Third"}, {"id": "d4", "name": "Fourth"}],
        }
    )
    table1 = build_all(rs, cfg).tables[0]
    shown = {
        "latex": render(table1, "latex"),
        "markdown": render(table1, "markdown"),
        "html": render(table1, "html"),
        "notebook": table1._repr_html_() + table1._repr_markdown_(),
    }
    for where, text in shown.items():
        flat = " ".join(text.split())
        assert "the baseline of each dataset (d1: bm25; d2: dense)" in flat, where
        assert "Fourth: )" not in flat and "Fourth: ;" not in flat, where
        assert "No markers on Fourth: no baseline is configured for it." in flat, where


def test_global_baseline_missing_from_one_dataset_gives_a_caption_not_an_error() -> None:
    built = build_all(study(), config(baseline="bm25"))  # type: ignore[arg-type]
    assert "No markers on Third: it has no run of bm25." in built.tables[0].full_caption


def test_tukey_in_the_tables_gives_letters_and_its_legend() -> None:
    cfg = config(all_pairs=True, test="tukey")
    built = build_all(study(), cfg)  # type: ignore[arg-type]
    assert built.comparisons is not None and built.comparisons.correction == "tukey"
    caption = built.tables[0].full_caption
    assert "Superscript letters" in caption and "Tukey HSD test (two-way ANOVA" in caption
    assert "studentized range" in caption
    md = render(built.tables[0], "markdown")
    assert "(a)" in md  # the systems' letters


def test_randomized_tukey_in_the_tables() -> None:
    cfg = config(all_pairs=True, test="randomized-tukey", resamples=200)
    built = build_all(study(), cfg)  # type: ignore[arg-type]
    assert built.comparisons is not None
    assert {r.method for r in built.comparisons} >= {
        "randomized Tukey HSD (200 permutations within topics, seed 0)"
    }


def test_all_pairs_tests_refuse_what_does_not_apply() -> None:
    with pytest.raises(InputError, match="does not apply"):
        compare(study(), pairs="all", test="tukey", correction="holm")
    with pytest.raises(InputError, match="two-sided"):
        compare(study(), pairs="all", test="tukey", alternative="greater")
    with pytest.raises(ConfigError, match="no correction with test tukey"):
        parse_config({"compare": {"test": "tukey", "correction": "bh"}})


def test_config_reads_the_new_compare_keys() -> None:
    c = parse_config({"compare": {"baseline": {"cacm": "bm25", "dl19": ["bm25", "dense"]},
                                  "interval": "bounds", "power": 0.9,
                                  "differences": [0.01, 0.05]}}).compare  # fmt: skip
    assert c.baselines_of("dl19") == ("bm25", "dense") and c.baselines_of("other") == ()
    assert (c.interval, c.power, c.differences) == ("bounds", 0.9, (0.01, 0.05))
    for bad in ({"baseline": {"cacm": 3}}, {"interval": "pm"}, {"power": 1.2},
                {"differences": []}):  # fmt: skip
        with pytest.raises(ConfigError, match="compare"):
            parse_config({"compare": bad})
    with pytest.raises(ConfigError, match="both put ±"):
        parse_config({"compare": {"interval": "half-width"}, "output": {"seeds": "mean_std"}})


@pytest.mark.parametrize(("style", "pattern"), [("half-width", "± "), ("bounds", " \\[")])
def test_cells_show_the_95_percent_interval_of_each_mean(style: str, pattern: str) -> None:
    rs = study()
    built = build_all(rs, config(interval=style))  # type: ignore[arg-type]
    table1 = built.tables[0]
    group = next(g for g in table1.groups if g.label == "d1")
    cell = group.rows[0].cells[1]  # d1, bm25, MAP
    values = rs.frame[(rs.frame["dataset"] == "d1") & (rs.frame["system"] == "bm25")
                      & (rs.frame["metric"] == "AP")]["value"].to_numpy()  # fmt: skip
    low, high = stats.t.interval(0.95, values.size - 1, loc=values.mean(), scale=stats.sem(values))
    if style == "half-width":
        assert cell.spread == f"± {(high - low) / 2:.3f}"
    else:
        assert cell.spread == f"[{low:.3f}, {high:.3f}]"
    assert "confidence interval of each mean over the queries" in table1.full_caption
    assert pattern in render(table1, "markdown")


def test_cli_tables_baseline_none_means_no_markers(tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = ["tables", str(RESULTS), "-o", str(out), "--baseline", "none", "-f", "markdown"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    text = (out / "table1.md").read_text(encoding="utf-8")
    assert "†" not in text and "significantly" not in text


def test_cli_tables_baseline_per_dataset(tmp_path: Path) -> None:
    root = tmp_path / "results"
    shutil.copytree(RESULTS, root)
    shutil.copy(root / "cacm" / "bm25.tsv", root / "cacm" / "bm25-copy.tsv")
    out = tmp_path / "out"
    plain = CliRunner().invoke(main, ["tables", str(root), "-o", str(out), "-f", "markdown"])
    assert plain.exit_code == 0, plain.output  # cacm has no org_manual_bm25: no error
    assert "No markers on CACM: it has no run of BM25." in (out / "table1.md").read_text()
    args = ["tables", str(root), "-o", str(out), "-f", "markdown", "--baseline", "org_manual_bm25",
            "--baseline", "cacm=bm25"]  # fmt: skip
    per = CliRunner().invoke(main, args)
    assert per.exit_code == 0, per.output
    text = (out / "table1.md").read_text(encoding="utf-8")
    assert "the baseline of each dataset (TREC CAsT 2021: BM25; CACM: BM25 (Anserini))" in text


def test_cli_compare_all_pairs_tukey(tmp_path: Path) -> None:
    out = tmp_path / "sig.csv"
    args = ["compare", str(RESULTS), "--all-pairs", "--test", "tukey", "-o", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    frame = pd.read_csv(out, comment="#")
    assert set(frame["correction"]) == {"tukey"}
    assert frame["method"].str.startswith("Tukey HSD, two-way ANOVA (5 systems x 158").all()
    assert (frame["pvalue_adjusted"] >= frame["pvalue"]).all()
    bad = CliRunner().invoke(main, [*args[:-2], "--correction", "holm"])
    assert bad.exit_code == 2 and "no correction with test tukey" in bad.output
    assert "'holm'" in bad.output


def test_supplement_pools_comparisons_across_datasets(tmp_path: Path) -> None:
    from irtables.supplement.build import build_supplement

    cfg = config(baseline="bm25")
    built = build_supplement(study(), cfg)  # type: ignore[arg-type]
    files = {o.path: o.data for o in built.outputs}
    assert {"meta_analysis.md", "meta_analysis.csv", "topic_set_size.md"} <= set(files)
    assert "figures/forest.png" in files and "figures/forest.pdf" in files  # a panel per metric
    meta = files["meta_analysis.md"].decode()
    assert "| NDCG@10  | dense    | bm25       | 2   |" in meta
    methods = next(o.data.decode() for o in built.outputs if o.path == "methods.md")
    assert "random-effects" in methods and "DerSimonian" in methods
    # two datasets: every pooled interval is HKSJ's t (1 df) floored at the normal one,
    # and the text, the Markdown and the CSV say so
    assert "floored at the variance of the normal interval" in methods and "Röver" in methods
    assert "its variance at least the normal one (Röver et al. 2015" in meta
    rows = list(csv.DictReader(io.StringIO(files["meta_analysis.csv"].decode())))
    pooled = [r for r in rows if r["Dataset"] == "pooled"]
    assert pooled and {r["interval"] for r in pooled} == {"HKSJ t, 1 df (≥ normal)"}
    assert {r["interval"] for r in rows if r["Dataset"] != "pooled"} == {""}
    bib = files["references.bib"].decode()
    assert "@article{dersimonian1986" in bib and "@article{sakai2016" in bib
