"""compare(): pairs, families, corrections, policies, options; the report and the CLI."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from statsmodels.stats.multitest import multipletests

from irtables.cli import main
from irtables.errors import InputError, PolicyWarning, QueryMismatchError, UnknownNameError
from irtables.model import ResultSet
from irtables.stats import compare, randomization, t_test
from irtables.stats.comparisons import COLUMNS
from irtables.stats.report import format_comparisons
from tests.conftest import results_from_rows


def study(n: int = 30, seed: int = 1) -> ResultSet:
    """2 datasets x 4 systems x 2 metrics; 'c' is clearly better, 'd' equals 'a'.

    'c' gains 0.2 give or take 0.02: a gain of exactly 0.2 on every query would be a
    constant difference, on which the t-test is undefined (no marker).
    """
    rng = np.random.default_rng(seed)
    rows = []
    for ds in ("d1", "d2"):
        for metric in ("AP", "P@10"):
            base = rng.random(n) * 0.7
            vals = {
                "a": base,
                "b": np.clip(base + rng.normal(0, 0.1, n), 0, 1),
                "c": base + 0.2 + rng.normal(0, 0.02, n),
                "d": base,
            }
            for system, v in vals.items():
                rows += [(ds, system, f"q{i}", metric, x) for i, x in enumerate(v)]
    return results_from_rows(rows)


def test_each_system_against_the_first_by_default() -> None:
    c = compare(study())
    assert len(c) == 2 * 2 * 3
    assert {r.baseline for r in c} == {"a"}
    r = c.get(dataset="d1", metric="AP", system="c")
    assert r.outcome(c.alpha) == "better" and c.outcome(r) == "better"
    same = c.get(dataset="d1", metric="AP", system="d")
    assert (same.pvalue, same.pvalue_adjusted, c.outcome(same)) == (1.0, 1.0, "none")


def test_matches_the_single_test_and_holm_per_metric() -> None:
    rs = study()
    c = compare(rs, baseline="a", correction="holm")
    fam = c.select(dataset="d2", metric="P@10")
    aligned = rs.aligned("d2", "P@10", ["a", "b", "c", "d"])
    raw = [t_test(aligned.column(s), aligned.column("a")).pvalue for s in "bcd"]
    assert [r.pvalue for r in fam] == raw
    expected = multipletests(raw, method="holm")[1]
    np.testing.assert_allclose([r.pvalue_adjusted for r in fam], expected)
    assert {(r.correction, r.family, r.family_size) for r in fam} == {("holm", "metric", 3)}


@pytest.mark.parametrize(
    ("family", "size"), [("metric", 3), ("dataset", 6), ("table", 12), ("all", 12)]
)
def test_family_scopes(family: str, size: int) -> None:
    c = compare(study(), correction="bonferroni", family=family)
    assert {r.family_size for r in c} == {size}
    for r in c:
        assert r.pvalue_adjusted == min(1.0, r.pvalue * size)


def test_custom_family_key() -> None:
    c = compare(study(), correction="bonferroni", family=lambda r: r.system)
    assert {r.family_size for r in c} == {4} and c.family == "custom"


def test_several_baselines_and_all_pairs() -> None:
    rs = study()
    multi = compare(rs, baseline=["a", "b"], metrics=["AP"], datasets=["d1"])
    assert [(r.system, r.baseline) for r in multi] == [
        ("b", "a"),
        ("c", "a"),
        ("d", "a"),
        ("a", "b"),
        ("c", "b"),
        ("d", "b"),
    ]
    pairs = compare(rs, pairs="all", metrics=["AP"], datasets=["d1"])
    assert len(pairs) == 6
    assert set(pairs.better_than("d1", "AP", "c")) == {"a", "b", "d"}
    assert pairs.better_than("d1", "AP", "a") == ()


def test_randomization_in_compare_equals_the_single_test_with_the_same_seed() -> None:
    rs = study()
    c = compare(rs, test="randomization", options={"n_resamples": 2000}, rng=4)
    aligned = rs.aligned("d2", "AP", ["a", "b", "c", "d"])
    single = randomization(aligned.column("b"), aligned.column("a"), n_resamples=2000, rng=4)
    assert c.get(dataset="d2", metric="AP", system="b").pvalue == single.pvalue
    again = compare(rs, test="randomization", options={"n_resamples": 2000}, rng=4)
    assert again == c


def test_bootstrap_in_compare_carries_both_intervals() -> None:
    c = compare(study(), test="bootstrap", options={"n_resamples": 500})
    r = c.get(dataset="d1", metric="AP", system="c")
    assert r.ci is not None and r.ci_bootstrap is not None and r.outcome() == "better"


def test_missing_queries_error_or_policy_recorded() -> None:
    frame = study().frame
    frame = frame[~((frame["system"] == "b") & (frame["query"] == "q3"))]
    rs = ResultSet.from_frame(
        frame.astype({"dataset": str, "system": str, "query": str, "metric": str})
    )
    with pytest.raises(QueryMismatchError, match="b lacks 1 of them: q3"):
        compare(rs)
    with pytest.warns(PolicyWarning, match="dropped"):
        c = compare(rs, missing="intersect")
    assert {r.dropped for r in c} == {("q3",)} and {r.n for r in c} == {29}
    assert set(c.to_frame()["dropped"]) == {"q3"}


def test_progress_reports_every_comparison() -> None:
    seen: list[tuple[int, int]] = []
    compare(study(), test="wilcoxon", progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (12, 12) and len(seen) == 12
    seen.clear()
    compare(study(), progress=lambda done, total: seen.append((done, total)))  # batched t
    assert seen[-1] == (12, 12) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    seen.clear()
    compare(
        study(),
        test="randomization",
        options={"n_resamples": 100},
        progress=lambda d, t: seen.append((d, t)),
    )
    assert seen == [(6, 12), (12, 12)]


def test_errors_name_the_choices() -> None:
    rs = study()
    with pytest.raises(UnknownNameError, match="did you mean 'bonferroni'"):
        compare(rs, correction="bonferoni")
    with pytest.raises(UnknownNameError, match="unknown baseline 'z'"):  # in no dataset
        compare(rs, baseline="z")
    with pytest.raises(UnknownNameError, match="did you mean 'n_resamples'"):
        compare(rs, test="randomization", options={"n_resample": 10})
    with pytest.raises(UnknownNameError, match="family"):
        compare(rs, family="tables")
    with pytest.raises(UnknownNameError, match=r"unknown metric 'MAP'; did you mean 'AP'\?"):
        compare(rs, metrics=["MAP"])
    with pytest.raises(InputError, match="alpha"):
        compare(rs, alpha=1.5)


def test_to_frame_and_report_formats() -> None:
    c = compare(study(), metrics=["AP"])
    frame = c.to_frame()
    assert tuple(frame.columns) == COLUMNS and len(frame) == 6
    assert not frame[["pvalue", "pvalue_adjusted", "statistic", "mean_diff"]].isna().any().any()
    text = format_comparisons(c, "terminal")
    assert "p adj" in text and "correction: holm per metric" in text
    md = format_comparisons(c, "markdown")
    assert md.startswith("<!-- generated by irtables") and "| dataset" in md
    csv = format_comparisons(c, "csv")
    assert csv.splitlines()[0] == ",".join(COLUMNS)
    with pytest.raises(UnknownNameError):
        format_comparisons(c, "latex")


def test_cli_compare_prints_and_writes(tmp_path: Path) -> None:
    rs = study(n=12)
    for (ds, system), part in rs.frame.groupby(["dataset", "system"], observed=True):
        folder = tmp_path / "res" / str(ds)
        folder.mkdir(parents=True, exist_ok=True)
        part.drop(columns=["dataset", "system"]).to_csv(folder / f"{system}.csv", index=False)
    out = tmp_path / "cmp.csv"
    args = [
        "compare",
        str(tmp_path / "res"),
        "--baseline",
        "a",
        "--test",
        "randomization",
        "--correction",
        "bh",
        "--resamples",
        "500",
        "-o",
        str(out),
    ]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert result.stdout == f"  written  {out}\n"  # -o: the report goes to the file only
    first = out.read_bytes()
    assert b",randomization," in first
    printed = CliRunner().invoke(main, args[:-2])
    assert printed.exit_code == 0 and "randomization" in printed.stdout
    assert CliRunner().invoke(main, args).exit_code == 0
    assert out.read_bytes() == first  # seeded: byte-identical
    bad = CliRunner().invoke(main, ["compare", str(tmp_path / "res"), "--baseline", "zz"])
    assert bad.exit_code == 2 and "unknown baseline" in bad.output


def test_average_runs_then_compare() -> None:
    from irtables.stats import average_runs

    rs = study()
    avg = average_runs(rs, {"bc": ["b", "c"]})
    assert avg.systems("d1") == ("a", "d", "bc")
    aligned = rs.aligned("d1", "AP", ["b", "c"])
    merged = avg.aligned("d1", "AP", ["bc"]).column("bc")
    np.testing.assert_allclose(merged, aligned.values.mean(axis=1))
    assert compare(avg, baseline="a").get(dataset="d1", metric="AP", system="bc").n == 30
    partial = ResultSet.from_frame(
        rs.frame[rs.frame["query"] != "q0"].astype(str).astype({"value": float})
    )
    mixed = ResultSet.concat(
        [
            partial,
            ResultSet.from_frame(
                rs.frame[(rs.frame["query"] == "q0") & (rs.frame["system"] == "b")]
                .astype(str)
                .astype({"value": float})
            ),
        ]
    )
    with pytest.raises(QueryMismatchError, match="runs of bc differ in queries: q0 "):
        average_runs(mixed, {"bc": ["b", "c"]})
