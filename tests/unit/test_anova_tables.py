"""The two-way ANOVA tables of `compare --anova` equal statsmodels' anova_lm."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from irtables.cli import main
from irtables.model import ResultSet
from irtables.render.anova import format_anova
from irtables.stats.anova import anova_tables


def study(seed: int = 11) -> ResultSet:
    rng = np.random.default_rng(seed)
    parts = []
    for dataset, n, k in (("d1", 25, 4), ("d2", 12, 3)):
        base = rng.beta(2, 3, n)
        for j in range(k):
            vals = np.clip(base + 0.03 * j + rng.normal(0, 0.07, n), 0, 1)
            for metric in ("AP", "nDCG@10"):
                parts.append(pd.DataFrame({"dataset": dataset, "system": f"s{j}",
                                           "query": [f"q{q:02d}" for q in range(n)],
                                           "metric": metric, "value": vals}))  # fmt: skip
    return ResultSet.from_frame(pd.concat(parts, ignore_index=True))


def statsmodels_table(rs: ResultSet, dataset: str, metric: str) -> pd.DataFrame:
    import statsmodels.formula.api as smf
    from statsmodels.stats.anova import anova_lm

    f = rs.frame
    f = f[(f.dataset == dataset) & (f.metric == metric)].rename(columns={"query": "topic"})
    f = f.astype({"system": str, "topic": str})  # no unused categories in the design
    return anova_lm(smf.ols("value ~ C(system) + C(topic)", data=f).fit())


def test_anova_tables_equal_statsmodels_anova_lm() -> None:
    rs = study()
    found = anova_tables(rs)
    assert [(a.dataset, a.metric) for a in found] == [
        ("d1", "AP"), ("d1", "nDCG@10"), ("d2", "AP"), ("d2", "nDCG@10")
    ]  # fmt: skip
    for a in found:
        ref = statsmodels_table(rs, a.dataset, a.metric)
        for row, key in zip(a.rows, ("C(system)", "C(topic)", "Residual"), strict=True):
            assert row.ss == pytest.approx(ref.loc[key, "sum_sq"], rel=1e-10, abs=1e-14)
            assert row.df == ref.loc[key, "df"]
            assert row.ms == pytest.approx(ref.loc[key, "mean_sq"], rel=1e-10, abs=1e-14)
            if key != "Residual":
                assert row.f == pytest.approx(ref.loc[key, "F"], rel=1e-10)
                assert row.pvalue == pytest.approx(ref.loc[key, "PR(>F)"], rel=1e-10, abs=1e-14)


def test_compare_anova_writes_csv_latex_and_markdown(tmp_path: Path) -> None:
    rs = study()
    data = tmp_path / "results.csv"
    rs.frame.to_csv(data, index=False)
    runner = CliRunner()
    out = tmp_path / "anova.csv"
    res = runner.invoke(main, ["compare", str(data), "--anova", "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert res.stdout == f"  written  {out}\n"  # the tables go to the file only
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    ref = statsmodels_table(rs, "d2", "nDCG@10")
    got = next(
        r for r in rows if (r["dataset"], r["metric"], r["source"]) == ("d2", "nDCG@10", "systems")
    )
    assert float(got["ss"]) == pytest.approx(ref.loc["C(system)", "sum_sq"], rel=1e-10)
    tex = tmp_path / "anova.tex"
    res = runner.invoke(
        main, ["compare", str(data), "--anova", "--format", "latex", "-o", str(tex)]
    )
    assert res.exit_code == 0, res.output
    assert tex.read_text(encoding="utf-8").count("\\begin{tabular}{lrrrrr}") == 4
    assert "| systems" in format_anova(anova_tables(rs), "markdown")
    res = runner.invoke(main, ["compare", str(data), "--format", "latex", "-o", str(tex)])
    assert res.exit_code == 2 and res.output.startswith("Error: ")


def test_compare_anova_headings_show_display_names(tmp_path: Path) -> None:
    """Headings name datasets and metrics as the tables do (they showed ``d1, AP``)."""
    data = tmp_path / "results.csv"
    study().frame.to_csv(data, index=False)
    config = tmp_path / "irtables.toml"
    config.write_text('[[datasets]]\nid = "d1"\nname = "TREC DL 2019"\n')
    res = CliRunner().invoke(main, ["compare", str(data), "--config", str(config), "--anova"])
    assert res.exit_code == 0, res.output
    assert "TREC DL 2019, MAP: 4 systems x 25 topics" in res.stdout
    assert "TREC DL 2019, NDCG@10: 4 systems x 25 topics" in res.stdout
    assert "d1, AP" not in res.stdout


def test_compare_o_writes_the_report_to_the_file_only(tmp_path: Path) -> None:
    data = tmp_path / "results.csv"
    study().frame.to_csv(data, index=False)
    out = tmp_path / "tests.csv"
    res = CliRunner().invoke(main, ["compare", str(data), "--baseline", "s0", "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert res.stdout == f"  written  {out}\n"
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert len(rows) == 2 * (3 + 2)  # two metrics; 3 systems against s0 on d1, 2 on d2


def test_es_e_of_tukey_and_dunnett_is_the_difference_over_the_residual_sd() -> None:
    """Sakai's ES_E = diff / sqrt(V_E), V_E the residual mean square of anova_lm."""
    from irtables.stats import compare
    from irtables.stats.report import format_comparisons

    rs = study()
    for test, pairs in (("tukey", "all"), ("dunnett", "baseline")):
        c = compare(rs, test=test, pairs=pairs, metrics=["AP"])  # type: ignore[arg-type]
        for r in c:
            ve = statsmodels_table(rs, r.dataset, "AP").loc["Residual", "mean_sq"]
            assert r.effect_size_e == pytest.approx(r.mean_diff / ve**0.5, rel=1e-9)
        assert "ES_E" in format_comparisons(c, "terminal").splitlines()[0]
    paired = compare(rs, test="t", metrics=["AP"])
    assert all(r.effect_size_e is None for r in paired)
    assert "ES_E" not in format_comparisons(paired, "terminal")


def _scipy_dunnett_critical(k: int, df: int) -> float:
    """The two-sided 95% Dunnett critical value for ``k - 1`` comparisons and ``df``
    residual degrees of freedom, read from scipy's one-way Dunnett interval on a
    balanced design with the same degrees of freedom (``k`` groups of ``df / k + 1``)."""
    from scipy.stats import dunnett as scipy_dunnett

    m = df // k + 1
    assert k * (m - 1) == df
    rng = np.random.default_rng(3)
    groups = [rng.normal(0.0, 1.0, m) for _ in range(k)]
    res = scipy_dunnett(*groups[1:], control=groups[0], rng=np.random.default_rng(5))
    ci = res.confidence_interval(0.95)
    half = float((ci.high[0] - ci.low[0]) / 2)
    pooled = sum(float(np.var(g, ddof=1)) for g in groups) / k
    return half / (pooled**0.5 * (2.0 / m) ** 0.5)


def test_es_e_interval_is_the_simultaneous_interval_over_the_residual_sd(tmp_path: Path) -> None:
    """ES_E's interval: Tukey ES_E ± q_{.95}(k, df_E) / sqrt(n) (scipy's studentized
    range), Dunnett ES_E ± c sqrt(2 / n) (c from scipy's one-way Dunnett), V_E and df_E
    from statsmodels; the CSV carries both bounds beside effect_size_e."""
    from scipy.stats import studentized_range

    from irtables.stats import compare

    rs = study()
    tukey = compare(rs, test="tukey", pairs="all", metrics=["AP"])
    for r in tukey:
        ref = statsmodels_table(rs, r.dataset, "AP")
        ve, df = ref.loc["Residual", "mean_sq"], int(ref.loc["Residual", "df"])
        k = int(ref.loc["C(system)", "df"]) + 1
        half = studentized_range.ppf(0.95, k, df) / r.n**0.5
        es = r.mean_diff / ve**0.5
        assert r.effect_size_e_ci is not None
        assert r.effect_size_e_ci.low == pytest.approx(es - half, rel=1e-7, abs=1e-9)
        assert r.effect_size_e_ci.high == pytest.approx(es + half, rel=1e-7, abs=1e-9)
    dunnett = compare(rs, test="dunnett", pairs="baseline", metrics=["AP"], datasets=["d1"])
    c = _scipy_dunnett_critical(4, 72)  # d1: 4 systems x 25 topics, df_E = 3 * 24
    for r in dunnett:
        ve = statsmodels_table(rs, "d1", "AP").loc["Residual", "mean_sq"]
        es, half = r.mean_diff / ve**0.5, c * (2.0 / r.n) ** 0.5
        assert r.effect_size_e_ci is not None
        assert r.effect_size_e_ci.low == pytest.approx(es - half, rel=2e-3)
        assert r.effect_size_e_ci.high == pytest.approx(es + half, rel=2e-3)
    randomized = compare(rs, test="randomized-tukey", pairs="all", metrics=["AP"])
    for r in randomized:  # its permutation interval over the same residual sd
        ve = statsmodels_table(rs, r.dataset, "AP").loc["Residual", "mean_sq"]
        assert r.ci is not None and r.effect_size_e_ci is not None
        assert r.effect_size_e_ci.low == pytest.approx(r.ci.low / ve**0.5, rel=1e-9)
        assert r.effect_size_e_ci.high == pytest.approx(r.ci.high / ve**0.5, rel=1e-9)
    assert all(r.effect_size_e_ci is None for r in compare(rs, test="t", metrics=["AP"]))
    data, out = tmp_path / "results.csv", tmp_path / "cmp.csv"
    rs.frame.to_csv(data, index=False)
    res = CliRunner().invoke(main, ["compare", str(data), "--test", "tukey", "-o", str(out)])
    assert res.exit_code == 0, res.output
    header = out.read_text(encoding="utf-8").splitlines()[0].split(",")
    i = header.index("effect_size_e")
    assert header[i + 1 : i + 3] == ["effect_size_e_low", "effect_size_e_high"]
