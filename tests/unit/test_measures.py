"""Measure names: the three spellings resolve to one canonical name and label."""

from __future__ import annotations

import pytest

from irtables.errors import UnknownNameError
from irtables.measures import parse_measure

SPELLINGS = [
    # (trec_eval, ir_measures, ranx, canonical, label)
    ("ndcg_cut_10", "nDCG@10", "ndcg@10", "nDCG@10", "NDCG@10"),
    ("P_10", "P@10", "precision@10", "P@10", "P@10"),
    ("recall_100", "R@100", "recall@100", "R@100", "R@100"),
    ("map", "AP", "map", "AP", "MAP"),
    ("map_cut_10", "AP@10", "map@10", "AP@10", "MAP@10"),
    ("recip_rank", "RR", "mrr", "RR", "MRR"),
    ("success_5", "Success@5", "hit_rate@5", "Success@5", "Success@5"),
    ("Rprec", "Rprec", "r-precision", "Rprec", "R-Prec"),
    ("bpref", "Bpref", "bpref", "Bpref", "bpref"),
]


@pytest.mark.parametrize(
    "trec, irm, ranx, canonical, label", SPELLINGS, ids=[s[3] for s in SPELLINGS]
)
def test_three_spellings_one_measure(
    trec: str, irm: str, ranx: str, canonical: str, label: str
) -> None:
    measures = {parse_measure(trec), parse_measure(irm), parse_measure(ranx)}
    assert len(measures) == 1
    (measure,) = measures
    assert measure.name == canonical
    assert measure.label == label


def test_mrr_at_10_is_not_recip_rank() -> None:
    assert parse_measure("RR@10") != parse_measure("recip_rank")
    assert parse_measure("mrr@10").label == "MRR@10"
    assert parse_measure("recip_rank").label == "MRR"


def test_relevance_threshold_is_part_of_the_name() -> None:
    m = parse_measure("P(rel=2)@10")
    assert (m.family, m.k, m.rel, m.name, m.label) == ("P", 10, 2, "P(rel=2)@10", "P@10")


def test_exponential_gain_is_a_separate_measure() -> None:
    assert parse_measure("ndcg_burges@10").name == "nDCG_exp@10"
    assert parse_measure("ndcg_burges@10") != parse_measure("ndcg@10")


@pytest.mark.parametrize("name", ["ndgc@10", "P", "precision", "recall_x", "foo", "AP@ten"])
def test_unknown_names_are_errors(name: str) -> None:
    with pytest.raises(UnknownNameError, match="unknown measure"):
        parse_measure(name)


def test_unknown_name_suggests_the_closest() -> None:
    with pytest.raises(UnknownNameError, match="did you mean 'nDCG@10'"):
        parse_measure("ndgc@10")


def test_trec_eval_extras_keep_their_name() -> None:
    assert parse_measure("gm_map").name == "gm_map"
    assert parse_measure("Rprec_mult_0.20").name == "Rprec_mult_0.20"


@pytest.mark.parametrize("name", ["P@0", "P_0", "ndcg_cut_0", "nDCG@0", "map_cut_0"])
def test_a_zero_cutoff_is_named_as_the_problem(name: str) -> None:
    with pytest.raises(UnknownNameError, match=r"a rank cutoff K counts from 1, got 0") as err:
        parse_measure(name)
    assert "did you mean" not in str(err.value)


@pytest.mark.parametrize(
    "name",
    # full-width, superscript and Arabic-Indic digits: Python's int() and \d take some
    ["P@１０", "P_２", "P@²", "AP(rel=２)", "AP(rel=²)", "ndcg_cut_١٠", "map-l２",
     "iprec_at_recall_０.５", "RBP(p=nan)", "RBP(p=1_0)"],
)  # fmt: skip
def test_only_ascii_digits_make_numbers_in_names(name: str) -> None:
    with pytest.raises(UnknownNameError, match="unknown measure"):
        parse_measure(name)


def test_a_leading_zero_is_the_same_cutoff() -> None:
    assert parse_measure("P@007") == parse_measure("P_7") == parse_measure("P@7")


def test_a_cutoff_glued_to_a_trec_eval_name_is_suggested_with_it() -> None:
    with pytest.raises(UnknownNameError, match="did you mean 'ndcg_cut_10'"):
        parse_measure("ndcg_cut10")


@pytest.mark.parametrize(
    ("name", "canonical"),
    [("RBP(p=0.1234567)", "RBP(p=0.1234567)"), ("RBP(p=0.95)", "RBP(p=0.95)"),
     ("RBP", "RBP(p=0.8)"), ("IPrec@0.1234567", "IPrec@0.1234567"), ("IPrec@1.0", "IPrec@1")],
)  # fmt: skip
def test_parameters_keep_every_digit(name: str, canonical: str) -> None:
    m = parse_measure(name)
    assert m.name == canonical
    assert parse_measure(m.name) == m  # the name gives back the same parameter


def test_rbp_is_computed_with_the_parameter_of_its_name() -> None:
    import pandas as pd

    from irtables import evaluate

    qrels = pd.DataFrame([("q", "a", 1), ("q", "c", 1)], columns=["query", "docid", "relevance"])
    run = pd.DataFrame(
        [("q", "a", 3.0), ("q", "b", 2.0), ("q", "c", 1.0)], columns=["query", "docid", "score"]
    )
    (value,) = evaluate(qrels, run, "RBP(p=0.1234567)").frame["value"]
    p = 0.1234567  # relevant at ranks 1 and 3: (1 - p)(1 + p^2), Moffat & Zobel's definition
    assert value == (1 - p) * (1 + p**2)
    assert value != pytest.approx((1 - 0.123457) * (1 + 0.123457**2), rel=1e-9, abs=0)


def test_the_cache_key_keeps_every_digit_of_a_parameter() -> None:
    from irtables.evaluator.values import check_options

    a = check_options(["RBP(p=0.1234567)"], per_query=True).describe()
    b = check_options(["RBP(p=0.1234568)"], per_query=True).describe()
    assert "RBP(p=0.1234567)" in a and a != b
