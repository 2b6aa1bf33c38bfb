"""The test and correction records are the only registry: a toy test and a toy correction
registered in a test reach compare, the table markers and legend, the caption, the methods
text (LaTeX, Markdown, HTML), the bibliography, the configuration reference and the
command-line help, and are gone after."""

from __future__ import annotations

import importlib.util
import sys
import types
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scipy.stats import binomtest

from irtables import build_table, render
from irtables.base.procedures import (
    CORRECTIONS,
    TESTS,
    Correction,
    SignificanceTest,
    correction_names,
    names_of_tests,
    registered,
)
from irtables.config import parse_config
from irtables.config.keys import description
from irtables.errors import ConfigError
from irtables.stats import compare
from irtables.stats.correction import FloatArray
from irtables.stats.paired import Alternative, sign_test
from irtables.stats.result import PairedTestResult
from irtables.supplement.index_page import markdown_html
from irtables.supplement.methods import methods_model
from irtables.supplement.methods_text import render_sections
from tests.conftest import results_from_rows

SCRIPTS = Path(__file__).resolve().parents[2] / "docs" / "scripts"


def _help(*command: str) -> str:
    """``irtables <command> --help`` on one long line (no word broken at a hyphen)."""
    from click.testing import CliRunner

    from irtables.cli import main

    wide = {"terminal_width": 10_000, "max_content_width": 10_000}
    result = CliRunner().invoke(main, [*command, "--help"], **wide)  # type: ignore[arg-type]
    return " ".join(result.output.split())


def toy_test(a: Any, b: Any, *, alternative: Alternative = "two-sided") -> PairedTestResult:
    """The toy: the sign test under another name and method."""
    return replace(sign_test(a, b, alternative=alternative), test="toy", method="toy signs")


def toy_correction(p: FloatArray) -> FloatArray:
    """The toy correction: every p-value times three, capped at 1."""
    return np.minimum(1.0, p * 3)


TOY = SignificanceTest(
    "toy", "paired", "toy test", "toy test of signs", "Signs, under another name.",
    ("chapelle2009",), "toy_procedures:toy_test",
    constant="A constant difference is a toy win everywhere.",
)  # fmt: skip
TOY_CORRECTION = Correction(
    "triple", "Triple", "tripling correction", "each p-value times three", ("holm1979",),
    "toy_procedures:toy_correction",
)  # fmt: skip

#: d: system b beats a on all 10 queries, c ties a on 5 and beats it on 5
ROWS = [("d", "a", f"q{i}", "AP", 0.1 + 0.05 * i) for i in range(10)]
ROWS += [("d", "b", f"q{i}", "AP", 0.2 + 0.05 * i) for i in range(10)]
ROWS += [("d", "c", f"q{i}", "AP", 0.1 + 0.05 * i + (0.1 if i % 2 else 0)) for i in range(10)]


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy test and correction in the registries, their functions in a module."""
    module = types.ModuleType("toy_procedures")
    module.toy_test = toy_test  # type: ignore[attr-defined]
    module.toy_correction = toy_correction  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "toy_procedures", module)
    with registered(TOY, TOY_CORRECTION):
        yield


@pytest.mark.usefixtures("toy")
def test_a_toy_test_and_correction_reach_compare() -> None:
    rs = results_from_rows(ROWS)
    c = compare(rs, baseline="a", test="toy", correction="triple")
    b, cc = c.get(system="b"), c.get(system="c")
    # independent: the exact binomial test of 10 wins of 10, and of 5 wins of 5 (ties dropped)
    assert b.pvalue == pytest.approx(binomtest(10, 10).pvalue, rel=1e-12)
    assert cc.pvalue == pytest.approx(binomtest(5, 5).pvalue, rel=1e-12)
    assert (b.test, b.method, b.correction) == ("toy", "toy signs", "triple")
    assert b.pvalue_adjusted == pytest.approx(3 * 2 / 2**10, rel=1e-12)
    assert cc.pvalue_adjusted == pytest.approx(min(1.0, 3 * 2 / 2**5), rel=1e-12)


@pytest.mark.usefixtures("toy")
def test_a_toy_test_reaches_the_markers_the_caption_and_the_methods_text() -> None:
    rs = results_from_rows(ROWS)
    config = parse_config(
        {
            "compare": {"baseline": "a", "test": "toy", "correction": "triple"},
            "tables": {"main": {"metrics": ["AP"]}},
        }
    )
    table = render(build_table(rs, "main", config=config), "markdown")
    # b: p = 2/1024, times 3 = 0.006 -> marked; c: 2/32 times 3 = 0.19 -> not
    rows = {line.split("|")[2].strip(): line for line in table.splitlines() if "|" in line}
    assert "0.425**†" in rows["b"] and "†" not in rows["c"]
    assert "toy test of signs, two-sided, α = 0.05; tripling correction" in table
    c = compare(rs, baseline="a", test="toy", correction="triple")
    model = methods_model(config, {"d": ["AP"]}, {"d": 10}, c, by_table={"Table 1": c})
    assert "chapelle2009" in [r.key for r in model.references]  # the bibliography
    assert "holm1979" in [r.key for r in model.references]
    latex = " ".join(" ".join(s["body"] for s in render_sections(model, "latex")).split())
    assert "with a toy test of signs~\\cite{chapelle2009} on the per-query values" in latex
    assert "The p-values are adjusted with the tripling correction~\\cite{holm1979}" in latex
    assert "A constant difference is a toy win everywhere." in latex
    sections = render_sections(model, "markdown")
    markdown = "\n\n".join(f"# {s['title']}\n\n{s['body']}" for s in sections)
    flat = " ".join(markdown.split())
    assert "with a toy test of signs [Chapelle et al., 2009] on the per-query" in flat
    html = " ".join(markdown_html(markdown).split())
    assert "toy test of signs [Chapelle et al., 2009]" in html
    assert "A constant difference is a toy win everywhere." in html


@pytest.mark.usefixtures("toy")
def test_a_toy_test_reaches_the_configuration_reference_and_the_help() -> None:
    assert "toy (toy test)" not in description("compare", "test")  # a paired test: by id
    assert "toy" in description("compare", "test")
    assert "triple (each p-value times three)" in description("compare", "correction")
    path = SCRIPTS / "reference.py"
    spec = importlib.util.spec_from_file_location("irtables_docs_reference", path)
    assert spec is not None and spec.loader is not None
    reference = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reference)
    text = reference.config_reference()
    assert "bootstrap, toy)" in text and "triple (each p-value times three)" in text
    helped = _help("compare")
    assert "bootstrap, toy)" in helped and "triple (each p-value times three)" in helped
    assert "[t|wilcoxon|sign|randomization|bootstrap|tukey|randomized-tukey|dunnett|toy]" in helped
    diff = _help("diff")
    assert "bootstrap|toy]" in diff


def test_the_registries_are_restored_and_a_toy_is_unknown_after() -> None:
    tests, corrections = dict(TESTS), dict(CORRECTIONS)
    with registered(TOY, TOY_CORRECTION):
        assert names_of_tests()[-1] == "toy" and correction_names()[-1] == "triple"
    assert (tests, corrections) == (TESTS, CORRECTIONS)
    with pytest.raises(ConfigError, match=r"compare\.test: expected one of t, wilcoxon"):
        parse_config({"compare": {"test": "toy"}})
    assert "toy" not in _help("compare")


def test_the_help_and_the_reference_name_dunnett() -> None:
    helped = _help("compare")
    assert "dunnett (Dunnett's test)" in helped
    assert "The procedures tukey, randomized-tukey, dunnett control" in helped
    assert "dunnett (Dunnett's test)" in description("compare", "test")
    assert "tukey, randomized-tukey, dunnett control" in description("compare", "correction")


def _study_text(c: Any, by_table: dict[str, Any] | None = None) -> str:
    config = parse_config({"datasets": [{"id": "d"}]})
    model = methods_model(config, {"d": ["AP"]}, {"d": 10}, c, by_table=by_table)
    sections = {s["title"]: " ".join(s["body"].split()) for s in render_sections(model, "latex")}
    return sections["Statistical significance"] + " || " + sections.get("Tests per table", "")


def test_dunnett_s_methods_paragraph_is_dunnett_s() -> None:
    rs = results_from_rows(ROWS)
    c = compare(rs, baseline="a", test="dunnett")
    text = _study_text(c).split(" || ")[0]
    assert "with Dunnett's many-to-one test~\\cite{dunnett1955,sakai2018}" in text
    assert "two-way ANOVA without replication, topics as blocks" in text
    assert "each system's difference from the baseline is divided by $\\sqrt{2V_E/n}$" in text
    assert "referred jointly to the multivariate $t$ distribution" in text
    assert "adjusted over the comparisons with the baseline only" in text
    assert "the alternative is two-sided" in text
    assert "paired by query" not in text and "The p-values are adjusted with the" not in text
    one_sided = _study_text(compare(rs, baseline="a", test="dunnett", alternative="greater"))
    assert "the alternative is greater" in one_sided and "one-sided 95\\% confidence" in one_sided


def _constant_shift(n: int, systems: int = 2) -> tuple[FloatArray, list[str]]:
    """``systems`` columns over ``n`` topics: s1 = s0 + 0.25 exactly (a third system, when
    asked, varies freely)."""
    base = np.arange(n) / 16
    cols = [base, base + 0.25, np.random.default_rng(3).uniform(0, 1, n)][:systems]
    return np.column_stack(cols), [f"s{i}" for i in range(systems)]


@pytest.mark.parametrize("test", ["t", "wilcoxon", "sign", "randomization", "bootstrap"])
def test_what_a_paired_test_does_with_a_constant_difference_is_what_its_record_says(
    test: str,
) -> None:
    """Each claim of the record checked on a constant shift: undefined (p = 1) where the
    record names a spread, else p = 2^(1-n) (scipy's exact binomial test) for the sign and
    randomization tests, and the hand-computed normal approximation for Wilcoxon."""
    record = TESTS[test]
    extra = {"n_resamples": 1000, "rng": 0} if record.resampled else {}
    p = {n: record.load()(*_constant_shift(n)[0].T[::-1], **extra).pvalue for n in (4, 5, 6, 10)}
    if record.spread:  # the per-table text then gives the no-variance tolerance
        assert p == dict.fromkeys(p, 1.0) and not record.constant
        return
    if test == "wilcoxon":
        # every |d| tied: T+ = n(n+1)/2, var = n(n+1)(2n+1)/24 - (n^3 - n)/48, continuity 1/2
        from scipy.stats import norm

        for n in p:
            var = n * (n + 1) * (2 * n + 1) / 24 - (n**3 - n) / 48
            z = (n * (n + 1) / 4 - 0.5) / var**0.5
            assert p[n] == pytest.approx(2 * norm.sf(z), rel=1e-9)
        assert p[4] > 0.05 >= p[5] and "from 5 topics" in record.constant
        return
    for n in p:
        assert p[n] == pytest.approx(binomtest(n, n).pvalue, rel=1e-12)
    assert p[5] > 0.05 >= p[6] and "$p = 2^{1-n}$" in record.constant
    assert "from 6 topics" in record.constant


@pytest.mark.parametrize("test", ["tukey", "randomized-tukey", "dunnett"])
def test_what_a_procedure_does_with_a_constant_difference_is_what_its_record_says(
    test: str,
) -> None:
    record = TESTS[test]
    extra: dict[str, Any] = {"n_resamples": 1000, "rng": 0} if record.resampled else {}
    if record.kind == "many-to-one":
        extra["baseline"] = "s0"
    two = record.load()(*_constant_shift(10), **extra).pair("s1", "s0")
    three = record.load()(*_constant_shift(10, 3), **extra).pair("s1", "s0")
    if record.spread:  # zero residual variance with two systems only
        assert two.pvalue == 1.0 and 0 < three.pvalue < 1 and not record.constant
    else:  # permutations: 2 of the 2^10 arrangements reach it
        assert two.pvalue == pytest.approx(binomtest(10, 10).pvalue, rel=1e-12)
        assert "with two systems, $p = 2^{1-n}$" in record.constant


def test_the_tests_per_table_say_what_each_test_does_with_a_constant_difference() -> None:
    rs = results_from_rows(ROWS)
    by_table = {t: compare(rs, baseline="a", test=t) for t in ("sign", "t")}
    per_table = _study_text(by_table["t"], by_table).split(" || ")[1]
    sign, t = per_table.split("\\item")[1:]
    assert "A constant difference is a win on every topic: $p = 2^{1-n}$" in sign
    assert "No variance" not in sign
    assert "A constant difference" not in t
    assert "No variance (statistic undefined, $p = 1$, no marker) when the standard" in t


def test_each_table_is_described_with_its_own_resamples_and_settings() -> None:
    rs = results_from_rows(ROWS)
    mine = compare(rs, baseline="a", test="randomization", options={"n_resamples": 2000})
    other = compare(rs, baseline="a", test="wilcoxon", correction="bonferroni")
    assert (mine.resamples, other.resamples) == (2000, 0)
    both = {"Table 1": other, "Table 2": mine}
    text, per_table = _study_text(other, both).split(" || ")
    assert "Randomization test (2,000 sign flips), two-sided; Holm" in per_table
    assert "10,000" not in text + per_table
    # the study paragraph names each table's test and correction, not the first one's only
    assert "In Table 1, the comparisons are made with a Wilcoxon signed-rank test" in text
    assert "adjusted with the Bonferroni correction~\\cite{dunn1961}" in text
    assert "In Table 2, the comparisons are made with a randomization test (2,000 sign" in text
    assert "adjusted with the Holm correction~\\cite{holm1979}" in text
    # every table's procedure as run, not only those of the comparisons listed once
    run = text.split("Test procedure as run: ")[1]
    assert "normal approximation" in run and "randomization, exact (1024 sign patterns)" in run
    assert "dataset. In Table 1" in text  # the sentence before the runs ends once
    rows = [{"system": "a"}, {"system": "b"}]
    ablation = {"ablation": {"dataset": "d", "full": "a", "rows": rows}}
    config = parse_config({"datasets": [{"id": "d"}], "tables": ablation})
    model = methods_model(config, {"d": ["AP"]}, {"d": 10}, other, by_table=both)
    text = " ".join(render_sections(model, "latex")[-2]["body"].split())
    assert "with the full model of its group. In Table 1, the comparisons" in text
    # by default, the function's own resamples
    assert compare(rs, baseline="a", test="bootstrap").resamples == 10_000


def test_the_study_paragraph_states_each_table_s_sides_and_family() -> None:
    """A one-sided t-test in one table and randomized Tukey (two-sided) in another: the
    intervals are not all called one-sided; two tables corrected over their own (different)
    numbers of comparisons do not get one family size."""
    rs = results_from_rows(ROWS)
    one_sided = compare(rs, baseline="a", test="t", alternative="greater")
    tukey = compare(rs, baseline="a", test="randomized-tukey", options={"n_resamples": 200})
    text = _study_text(one_sided, {"Table 1": one_sided, "Table 2": tukey}).split(" || ")[0]
    assert "one-sided 95" not in text
    assert "95\\% confidence interval (one-sided for the one-sided tests; method:" in text
    assert "the alternative is greater" in text and "randomized Tukey HSD test~" in text
    small = compare(rs, baseline="a", test="t", family="table", metrics=["AP"], systems=["a", "b"])
    large = compare(rs, baseline="a", test="t", family="table")
    assert (small.results[0].family_size, large.results[0].family_size) == (1, 2)
    text = _study_text(large, {"Table 1": small, "Table 2": large}).split(" || ")[0]
    assert "over all comparisons of each table;" in text
    assert "over all 2 comparisons" not in text and "over all 1 comparisons" not in text
