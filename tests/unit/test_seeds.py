"""Several runs per system (seeds or folds): averaged per query, std over seed means."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from scipy import stats

from irtables.cli import main
from irtables.config import parse_config
from irtables.errors import ConfigError, InputError
from irtables.loaders import load_results
from irtables.loaders.discover import load_study
from irtables.render import render
from irtables.tables import build_all

SYSTEMS = ("bm25", "dense")
SEEDS = ("1", "2", "3")
METRICS = ("AP", "P@10")
QUERIES = ("101", "102", "103", "104", "105", "106")


def _values() -> dict[tuple[str, str, str], np.ndarray]:
    """(system, seed, metric) -> values over QUERIES; seeded, distinct for every run."""
    rng = np.random.default_rng(7)
    return {
        (s, seed, m): np.round(rng.uniform(0.1, 0.9, len(QUERIES)), 4)
        for s in SYSTEMS
        for seed in SEEDS
        for m in METRICS
    }


def _write_run(path: Path, values: dict[str, np.ndarray], queries: tuple[str, ...]) -> None:
    lines = ["query\tmetric\tvalue"]
    for m, column in values.items():
        lines += [f"{q}\t{m}\t{v}" for q, v in zip(queries, column, strict=True)]
    path.write_text("\n".join(lines) + "\n")


def _study(tmp_path: Path, config: str = "") -> tuple[Path, dict[tuple[str, str, str], np.ndarray]]:
    """DIR/dl19/<system>/<seed>.tsv for 2 systems x 3 seeds."""
    values = _values()
    root = tmp_path / "results"
    for s in SYSTEMS:
        folder = root / "dl19" / s
        folder.mkdir(parents=True)
        for seed in SEEDS:
            runs = {m: values[s, seed, m] for m in METRICS}
            _write_run(folder / f"{seed}.tsv", runs, QUERIES)
    if config:
        (root / "irtables.toml").write_text(config)
    return root, values


def _per_query(values: dict[tuple[str, str, str], np.ndarray], s: str, m: str) -> np.ndarray:
    return np.mean([values[s, seed, m] for seed in SEEDS], axis=0)


def test_folder_of_seeds_gives_per_query_means(tmp_path: Path) -> None:
    root, values = _study(tmp_path)
    rs = load_results(root)
    assert rs.systems() == SYSTEMS
    for s in SYSTEMS:
        for m in METRICS:
            got = rs.aligned("dl19", m, [s]).column(s)
            np.testing.assert_allclose(got, _per_query(values, s, m), rtol=0, atol=1e-12)


def test_seed_means_and_their_std(tmp_path: Path) -> None:
    root, values = _study(tmp_path)
    study = load_study(root)
    seeds = study.seeds
    assert list(seeds.columns) == ["dataset", "system", "seed", "metric", "mean"]
    assert len(seeds) == len(SYSTEMS) * len(SEEDS) * len(METRICS)
    assert study.results.seeds is not None
    for s in SYSTEMS:
        for m in METRICS:
            mine = seeds[(seeds["system"] == s) & (seeds["metric"] == m)].sort_values("seed")
            expected = [values[s, seed, m].mean() for seed in SEEDS]
            np.testing.assert_allclose(mine["mean"], expected, atol=1e-12)
            assert mine["mean"].std() == pytest.approx(np.std(expected, ddof=1), abs=1e-12)


def test_a_single_run_has_no_seed_info(tmp_path: Path) -> None:
    folder = tmp_path / "r" / "dl19" / "bm25"
    folder.mkdir(parents=True)
    _write_run(folder / "1.tsv", {"AP": np.array([0.5, 0.25])}, ("1", "2"))
    study = load_study(tmp_path / "r")
    assert study.seeds.empty
    assert study.results.seeds is None
    assert study.results.frame["value"].tolist() == [0.5, 0.25]


def test_a_seed_missing_a_query_is_an_error_naming_it(tmp_path: Path) -> None:
    root, values = _study(tmp_path)
    runs = {m: values["dense", "2", m][:-1] for m in METRICS}
    _write_run(root / "dl19" / "dense" / "2.tsv", runs, QUERIES[:-1])
    with pytest.raises(
        InputError, match=r"seed 2 of system dense \(dataset dl19\) lacks 1 query: 106"
    ) as info:
        load_results(root)
    assert info.value.path == str(root / "dl19" / "dense" / "2.tsv")


def test_a_seed_missing_a_metric_is_an_error_naming_it(tmp_path: Path) -> None:
    root, values = _study(tmp_path)
    _write_run(root / "dl19" / "bm25" / "3.tsv", {"AP": values["bm25", "3", "AP"]}, QUERIES)
    with pytest.raises(InputError, match=r"seed 3 of system bm25 .* lacks metric\(s\) P@10"):
        load_results(root)


def test_a_system_as_file_and_as_folder_is_an_error(tmp_path: Path) -> None:
    root, values = _study(tmp_path)
    _write_run(root / "dl19" / "dense.tsv", {"AP": values["dense", "1", "AP"]}, QUERIES)
    with pytest.raises(InputError, match="system dense of dataset dl19 is also read from"):
        load_results(root)


@pytest.mark.parametrize("column", ["seed", "fold"])
def test_seed_column_in_a_tidy_file(tmp_path: Path, column: str) -> None:
    path = tmp_path / "all.tsv"
    path.write_text(
        f"system\t{column}\tquery\tmetric\tvalue\n"
        "a\t1\tq1\tAP\t0.2\na\t2\tq1\tAP\t0.4\na\t1\tq2\tAP\t0.6\na\t2\tq2\tAP\t1.0\n"
        "b\t0\tq1\tAP\t0.3\nb\t0\tq2\tAP\t0.1\n"
    )
    study = load_study(path, dataset="d")
    frame = study.results.frame.astype({"system": str, "query": str})
    got = {
        (s, q): v for s, q, v in zip(frame["system"], frame["query"], frame["value"], strict=True)
    }
    assert got == pytest.approx(
        {("a", "q1"): 0.3, ("a", "q2"): 0.8, ("b", "q1"): 0.3, ("b", "q2"): 0.1}
    )
    assert sorted(study.seeds["mean"].round(6)) == [0.4, 0.7]  # seeds 1 and 2 of a; b has one run


def test_seed_column_with_a_missing_query_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "all.tsv"
    path.write_text("system\tseed\tquery\tmetric\tvalue\na\t1\tq1\tAP\t0.2\na\t2\tq2\tAP\t0.4\n")
    with pytest.raises(InputError, match=r"seed 1 of system a .* lacks 1 query: q2"):
        load_results(path)


def test_mean_std_cells_and_caption(tmp_path: Path) -> None:
    root, values = _study(tmp_path)
    rs = load_results(root)
    config = parse_config(
        {"output": {"seeds": "mean_std"}, "tables": {"main": {"metrics": ["AP"]}}}
    )
    main = build_all(rs, config).tables[0]
    for row in main.groups[0].rows:
        seed_means = [values[row.key, seed, "AP"].mean() for seed in SEEDS]
        cell = row.cells[0]
        assert cell.text == f"{np.mean(seed_means):.3f}"
        assert cell.spread == f"± {np.std(seed_means, ddof=1):.3f}"
    caption = main.full_caption
    assert "Per-query values are means over the seeds of each system." in caption
    assert "mean ± standard deviation over 3 seeds" in caption
    latex = render(main, "latex")
    for row in main.groups[0].rows:
        assert f"{row.cells[0].text}" + "}" * row.cells[0].best + " & $\\pm$ " in latex
    assert " ± " in render(main, "markdown")


def test_mean_only_by_default(tmp_path: Path) -> None:
    root, _ = _study(tmp_path)
    main = build_all(load_results(root), parse_config({})).tables[0]
    assert all(not c.spread for r in main.groups[0].rows for c in r.cells)
    assert "means over the seeds of each system" in main.full_caption
    assert "±" not in main.full_caption


def test_best_is_decided_on_the_mean(tmp_path: Path) -> None:
    root, values = _study(tmp_path)
    config = parse_config(
        {"output": {"seeds": "mean_std"}, "tables": {"main": {"metrics": ["AP"]}}}
    )
    rows = build_all(load_results(root), config).tables[0].groups[0].rows
    means = {s: _per_query(values, s, "AP").mean() for s in SYSTEMS}
    best = max(means, key=lambda s: means[s])
    assert [r.key for r in rows if r.cells[0].best] == [best]


def test_bad_seeds_setting_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match=r"output\.seeds: expected one of mean, mean_std"):
        parse_config({"output": {"seeds": "std"}})


def test_significance_runs_on_the_seed_averaged_values(tmp_path: Path) -> None:
    root, values = _study(tmp_path)
    config = parse_config({"compare": {"baseline": ["bm25"], "correction": "none"}})
    built = build_all(load_results(root), config)
    assert built.comparisons is not None
    for result in built.comparisons.results:
        a = _per_query(values, "bm25", result.metric)
        b = _per_query(values, "dense", result.metric)
        expected = stats.ttest_rel(b, a)
        assert result.pvalue == pytest.approx(expected.pvalue, rel=1e-9)
        assert result.statistic == pytest.approx(expected.statistic, rel=1e-9)


def test_cli_tables_markdown_on_seed_folders(tmp_path: Path) -> None:
    root, values = _study(tmp_path, config='[output]\nseeds = "mean_std"\n')
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["tables", str(root), "-f", "markdown", "-o", str(out)])
    assert result.exit_code == 0, result.output
    text = (out / "table1.md").read_text()
    expected = np.std([values["dense", seed, "AP"].mean() for seed in SEEDS], ddof=1)
    assert f"± {expected:.3f}" in text
    assert "mean ± standard deviation over 3 seeds" in text
