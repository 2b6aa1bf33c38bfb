"""The methods text written once: every measure family's sentence, laid out as LaTeX that
pdflatex compiles and as Markdown with no LaTeX left in it; user names escaped in both."""

from __future__ import annotations

from pathlib import Path

from irtables.config import parse_config
from irtables.measures import FAMILIES, parse_measure
from irtables.render.escape import escape_markdown
from irtables.supplement.methods import methods_model
from irtables.supplement.methods_text import render_sections
from irtables.supplement.prose import Name, render_text
from tests.conftest import compile_latex

HOSTILE = "A_B & C #1 at 100% {x}"


def _every_family() -> list[str]:
    names = []
    for f in FAMILIES.values():
        if f.param == "r":
            names.append(f"{f.name}@0.5")
        elif f.cutoff != "none":
            names.append(f"{f.name}@10")
        if f.cutoff != "required" and f.param != "r":
            names.append(f.name)
    names += ["nDCG(rel=2)@10", "AP(rel=2)"]
    assert {parse_measure(n).family for n in names} == set(FAMILIES)
    return names


def _model():  # type: ignore[no-untyped-def]
    config = parse_config({"datasets": [{"id": "d", "name": HOSTILE}, {"id": "e", "name": "E"}]})
    return methods_model(config, {"d": _every_family(), "e": ["AP"]}, {"d": 3, "e": 4}, None)


def test_every_family_compiles_in_latex(tmp_path: Path) -> None:
    body = "\n\n".join(
        f"\\subsection*{{{s['title']}}}\n\n{s['body']}" for s in render_sections(_model(), "latex")
    )
    for family in FAMILIES.values():
        assert f"\\item[{family.label}".replace("#", "\\#") in body
    assert "A\\_B \\& C \\#1 at 100\\% \\{x\\}" in " ".join(body.split())
    done = compile_latex(body, tmp_path, ("amsmath",))
    assert done.returncode == 0, done.stdout[-3000:]
    assert "Undefined control sequence" not in done.stdout


def test_markdown_has_no_latex_layout() -> None:
    text = "\n".join(s["body"] for s in render_sections(_model(), "markdown"))
    for latex_only in ("\\[", "\\]", "\\texttt", "\\cite", "\\item", "~"):
        assert latex_only not in text
    assert "[Chapelle et al., 2009]" in text and "[Moffat & Zobel, 2008]" in text
    assert "A\\_B" in text  # the user's name is escaped, the prose is not
    assert "trec_eval" in text


def test_thresholds_per_dataset_name_each_dataset() -> None:
    text = " ".join(" ".join(s["body"] for s in render_sections(_model(), "markdown")).split())
    assert f"at least 2 on {escape_markdown(HOSTILE)}, 1 on E;" in text  # the one chokepoint


def test_markup_pieces() -> None:
    short = {"k": "K, 2000"}
    text = ("a `x_y`[@k]: $$a b$$ ~c ", Name("n_1"))
    latex = "a \\texttt{x\\_y}~\\cite{k}: \\[ a b \\] ~c n\\_1"
    assert render_text(text, "latex", short) == latex
    assert render_text(text, "markdown", short) == "a `x_y` [K, 2000]: $a b$  c n\\_1"


def _two_dataset_study():  # type: ignore[no-untyped-def]
    """d1: 4 systems x 20 topics, d2: 3 systems x 15 topics, metric AP."""
    import numpy as np
    import pandas as pd

    from irtables.model import ResultSet

    rng = np.random.default_rng(4)
    parts = []
    for dataset, n, k in (("d1", 20, 4), ("d2", 15, 3)):
        for j in range(k):
            parts.append(pd.DataFrame({"dataset": dataset, "system": f"s{j}",
                                       "query": [f"q{q}" for q in range(n)], "metric": "AP",
                                       "value": rng.uniform(0, 1, n)}))  # fmt: skip
    return ResultSet.from_frame(pd.concat(parts, ignore_index=True))


def test_tests_per_table_state_test_family_size_effect_size_and_tolerance() -> None:
    """Each table's item names its own test, alternative, correction, family and family
    size (k - 1 comparisons with the baseline: 3 on d1, 2 on d2), the effect size (d_z for
    a paired test, ES_E with its interval for Dunnett) and the no-variance tolerance."""
    from irtables.stats import compare

    rs = _two_dataset_study()
    paired = compare(rs, test="t", correction="bonferroni", alternative="greater")
    dunnett = compare(rs, test="dunnett")
    config = parse_config({"datasets": [{"id": "d1"}, {"id": "d2"}]})
    model = methods_model(
        config, {"d1": ["AP"], "d2": ["AP"]}, {"d1": 20, "d2": 15}, paired,
        by_table={"Table 1": paired, "Table 7": dunnett},
    )  # fmt: skip
    body = next(
        s["body"] for s in render_sections(model, "markdown") if s["title"] == "Tests per table"
    )
    one, seven = (" ".join(b.split()) for b in body.split("- **")[1:])
    assert one.startswith("Table 1**: Paired t-test, greater; Bonferroni correction over")
    assert "(family sizes 2 to 3)" in one and "Cohen's $d_z$" in one and "ES_E" not in one
    assert "the standard deviation of the differences is at most $10^{-10}" in one
    assert seven.startswith("Table 7**: Dunnett's test (two-way ANOVA, topics as blocks),")
    assert "blocks), two-sided;" in seven
    assert "multivariate t distribution (family sizes 2 to 3)" in seven
    assert "$ES_E = \\bar d / \\sqrt{V_E}$" in seven and "d_z" not in seven
    assert "simultaneous interval of the difference divided by $\\sqrt{V_E}$" in seven
    assert "residual standard deviation of the two-way ANOVA is at most $10^{-10}" in seven
    main = methods_model(config, {"d1": ["AP"], "d2": ["AP"]}, {"d1": 20, "d2": 15}, dunnett)
    significance = " ".join(render_sections(main, "markdown")[-1]["body"].split())
    assert (
        "Cohen's $d_z$" in significance
        and "for these procedures also Sakai's $ES_E" in significance
    )
