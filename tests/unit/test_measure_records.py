"""The measure records are the only source of a measure's facts: a toy family registered in
a test reaches evaluate, the trec_eval output, tables, captions, the methods text and the
bibliography at once, and is gone after."""

from __future__ import annotations

from collections.abc import Iterator

import pandas as pd
import pytest

from irtables import build_table, evaluate, render
from irtables.config import parse_config
from irtables.errors import UnknownNameError
from irtables.evaluator.output import is_count, trec_eval_name
from irtables.evaluator.ranking import FloatArray, Judged
from irtables.measures import FAMILIES, Family, Measure, parse_measure, registered
from irtables.supplement.methods import methods_model
from irtables.supplement.methods_text import render_sections


def _relevant_in_top(j: Judged, m: Measure) -> FloatArray:
    """Toy measure: the number of relevant documents in the top K, halved."""
    assert m.k is not None
    return j.count_at(m.k) / 2.0


TOY = Family(
    "Toy", "TOY", "required", "half the relevant documents in the top K",
    threshold=True, trec_eval=(None, "toy_cut_{k}"), ir_measures=("toy", "toy-measure"),
    ranx=("toy",), cites=("chapelle2009",), caption="TOY halves what it counts.",
    method="The toy measure[@]: half the relevant documents in the top $K$.",
    compute=_relevant_in_top,
)  # fmt: skip

QRELS = pd.DataFrame(
    [("q1", "a", 1), ("q1", "b", 2), ("q1", "c", 0), ("q2", "a", 2)],
    columns=["query", "docid", "relevance"],
)
RUN = pd.DataFrame(
    [("q1", "a", 3.0), ("q1", "b", 2.0), ("q1", "c", 1.0), ("q2", "b", 2.0), ("q2", "a", 1.0)],
    columns=["query", "docid", "score"],
)


@pytest.fixture
def toy() -> Iterator[Family]:
    with registered(TOY):
        yield TOY


def test_a_toy_family_reaches_everything_that_reads_the_records(toy: Family) -> None:
    # spellings and names
    assert parse_measure("toy_cut_2") == parse_measure("TOY-measure@2") == parse_measure("toy@2")
    with pytest.raises(UnknownNameError, match="ranx's relevance-level suffix"):
        parse_measure("toy@2-l2")  # its record does not say ranx computes it at a level
    m = parse_measure("Toy@2")
    assert (m.name, m.label, trec_eval_name(m.name), is_count(m.name)) == (
        "Toy@2",
        "TOY@2",
        "toy_cut_2",
        False,
    )
    # evaluate: computed by the record's function, at the relevance threshold
    frame = evaluate(QRELS, RUN, ["toy@2"], relevance=2).frame
    assert list(frame["metric"]) == ["Toy(rel=2)@2", "Toy(rel=2)@2"]
    # q1: b (grade 2) in the top 2 -> 1 / 2; q2: a (grade 2) at rank 2 -> 1 / 2
    assert frame["value"].tolist() == [0.5, 0.5]
    frame = evaluate(QRELS, RUN, ["toy@2"]).frame
    assert frame["value"].tolist() == [1.0, 0.5]
    results = frame.assign(dataset="d", system="s")
    results = pd.concat([results, results.assign(system="t", value=results["value"] / 2)])
    from irtables.model import ResultSet

    rs = ResultSet.from_frame(results[["dataset", "system", "query", "metric", "value"]])
    # tables and captions
    config = parse_config({"tables": {"main": {"metrics": ["TOY@2"]}}})
    table = render(build_table(rs, "main", config=config), "markdown")
    assert "TOY@2" in table and "TOY halves what it counts." in table
    assert "0.750" in table  # (1 + 0.5) / 2
    # methods text and bibliography
    model = methods_model(config, {"d": ["Toy@2"]}, {"d": 2}, None)
    assert [(e.label, e.ks, e.binary) for e in model.metrics] == [("TOY@K", (2,), True)]
    assert "chapelle2009" in [r.key for r in model.references]
    for fmt, cite in (("latex", "~\\cite{chapelle2009}"), ("markdown", "[Chapelle et al., 2009]")):
        text = " ".join(s["body"] for s in render_sections(model, fmt))
        assert f"The toy measure{cite if fmt == 'latex' else ' ' + cite}: half" in text
        assert "relevance grade is at least 1" in " ".join(text.split())


def test_the_registry_is_restored() -> None:
    before = dict(FAMILIES)
    with registered(TOY):
        assert parse_measure("toy@3").family == "Toy"
    assert before == FAMILIES
    with pytest.raises(UnknownNameError, match="unknown measure"):
        parse_measure("toy@3")


def test_a_family_without_a_compute_function_is_refused_by_evaluate() -> None:
    plain = Family("Plain", "Plain", "none", "not computed", ir_measures=("plain",))
    with registered(plain), pytest.raises(Exception, match="not computed by irtables evaluate"):
        evaluate(QRELS, RUN, ["plain"])


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_built_in_record_is_complete(family: str) -> None:
    f = FAMILIES[family]
    assert f.method and f.compute is not None and f.label and f.description
    assert f.method.count("$") % 2 == 0  # math spans are closed
    assert ("[@]" in f.method) == bool(f.cites)  # cites are cited where the sentence says
    assert not (f.threshold and f.graded_level)


def test_threshold_applies_is_one_fact_rbp_gets_the_threshold_sentence() -> None:
    """RBP is binary: the evaluator applies the threshold, so the methods text says it."""
    from irtables.measures import at_threshold

    assert at_threshold(parse_measure("RBP"), 2).name == "RBP(rel=2,p=0.8)"
    config = parse_config({"datasets": [{"id": "d", "name": "D"}]})
    model = methods_model(config, {"d": ["RBP(rel=2,p=0.8)"]}, {"d": 5}, None)
    assert model.any_binary and model.datasets[0].relevance == 2
    for fmt in ("latex", "markdown"):
        text = " ".join(" ".join(s["body"] for s in render_sections(model, fmt)).split())
        assert "relevance grade is at least 2; negative grades never count." in text
        assert "Rank-biased precision" in text


def test_a_stated_ndcg_level_is_not_contradicted_by_the_methods_text() -> None:
    config = parse_config({"datasets": [{"id": "d", "name": "D"}]})
    model = methods_model(config, {"d": ["nDCG(rel=2)@10", "nDCG@10"]}, {"d": 5}, None)
    text = " ".join(" ".join(s["body"] for s in render_sections(model, "markdown")).split())
    assert "Where a level $\\ell$ is stated (NDCG(rel≥2))" in text
    assert "does not depend on the relevance threshold" not in text
