"""Unit tests of the run evaluator: hand-worked values, ordering, inputs and the CLI."""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from irtables.cli import main
from irtables.errors import DataWarning, InputError
from irtables.evaluator.api import evaluate
from irtables.evaluator.output import to_trec_eval, trec_eval_name
from irtables.loaders.qrels import read_qrels
from irtables.loaders.trec_run import read_run

DATA = Path(__file__).resolve().parents[1] / "data" / "runs"

# One query, ranking d1..d5; grades d1=2, d2=0, d3=1, d4 unjudged, d5=3; d6 (grade 1)
# is not retrieved.
QRELS = pd.DataFrame(
    {"query": ["q"] * 5, "docid": ["d1", "d2", "d3", "d5", "d6"], "rel": [2, 0, 1, 3, 1]}
)
RUN = pd.DataFrame(
    {"query": ["q"] * 5, "docid": [f"d{i}" for i in range(1, 6)], "score": [5, 4, 3, 2, 1]}
)


def _value(measure: str, qrels: pd.DataFrame = QRELS, run: pd.DataFrame = RUN) -> float:
    frame = evaluate(qrels, run, [measure]).frame
    return float(frame["value"].iloc[0])


def test_err_hand_worked() -> None:
    # Chapelle et al., CIKM 2009, "Expected reciprocal rank for graded relevance", eq. 4:
    # ERR = sum_r (1/r) R_r prod_{i<r} (1 - R_i), R = (2^g - 1) / 2^gmax, gmax = 3 here.
    r = [(2**g - 1) / 8 for g in (2, 0, 1, 0, 3)]
    expected, go_on = 0.0, 1.0
    for rank, stop in enumerate(r[:3], start=1):
        expected += go_on * stop / rank
        go_on *= 1 - stop
    # = 3/8 + 0 + (5/8)(1/8)/3 = 0.375 + 0.0260416...
    assert expected == pytest.approx(0.375 + 5 / 192)
    assert _value("ERR@3") == pytest.approx(expected, abs=1e-12)


def test_rbp_hand_worked() -> None:
    # Moffat & Zobel, TOIS 2008: RBP = (1 - p) sum_r rel_r p^(r-1), binary rel (grade >= 1)
    # relevant at ranks 1, 3, 5; p = 0.5: 0.5 * (1 + 0.25 + 0.0625) = 0.65625
    assert _value("RBP(p=0.5)") == pytest.approx(0.65625, abs=1e-12)


def test_ndcg_exponential_hand_worked() -> None:
    # Burges et al., ICML 2005: gain 2^g - 1, discount 1/log2(rank + 1).
    dcg = 3 / math.log2(2) + 0 + 1 / math.log2(4) + 0 + 7 / math.log2(6)
    ideal = 7 / math.log2(2) + 3 / math.log2(3) + 1 / math.log2(4) + 1 / math.log2(5)
    assert _value("nDCG_exp") == pytest.approx(dcg / ideal, abs=1e-12)


def test_ndcg_linear_gain_is_grade() -> None:
    dcg = 2 + 1 / math.log2(4) + 3 / math.log2(6)
    ideal = 3 + 2 / math.log2(3) + 1 / math.log2(4) + 1 / math.log2(5)
    assert _value("ndcg") == pytest.approx(dcg / ideal, abs=1e-12)


@pytest.mark.parametrize(
    ("measure", "expected"),
    [
        ("P@2", 0.5),
        ("P@10", 0.3),  # divides by K even when fewer were retrieved
        ("R@5", 0.75),
        ("AP", (1 / 1 + 2 / 3 + 3 / 5) / 4),  # divides by all 4 relevant
        ("RR", 1.0),
        ("Rprec", 2 / 4),
        ("Success@1", 1.0),
        ("Judged@5", 4 / 5),
        ("num_rel_ret", 3.0),
        ("num_rel", 4.0),
        ("AP(rel=2)", (1 / 1 + 2 / 5) / 2),
    ],
    ids=lambda v: str(v),
)
def test_binary_measures(measure: str, expected: float) -> None:
    assert _value(measure) == pytest.approx(expected, abs=1e-12)


def test_ties_broken_by_docid_descending_and_rank_ignored() -> None:
    qrels = pd.DataFrame({"query": ["q"], "docid": ["a"], "rel": [1]})
    run = pd.DataFrame({"query": ["q", "q"], "docid": ["a", "b"], "score": [1.0, 1.0]})
    assert _value("RR", qrels, run) == 0.5  # b before a


def test_relevance_threshold_and_depth() -> None:
    frame = evaluate(QRELS, RUN, ["P@5", "ndcg_cut_5"], relevance=2, depth=1).frame
    values = dict(zip(frame["metric"], frame["value"], strict=True))
    assert set(values) == {"P(rel=2)@5", "nDCG@5"}  # the threshold is in the name it changes
    assert values["P(rel=2)@5"] == pytest.approx(1 / 5)
    ideal = 3 + 2 / math.log2(3) + 1 / math.log2(4) + 1 / math.log2(5)
    assert values["nDCG@5"] == pytest.approx(2 / ideal)  # gain unaffected by -l


def test_missing_and_run_only_queries_are_reported() -> None:
    qrels = pd.concat([QRELS, pd.DataFrame({"query": ["z"], "docid": ["x"], "rel": [1]})])
    run = pd.concat([RUN, pd.DataFrame({"query": ["only"], "docid": ["x"], "score": [1]})])
    with pytest.warns(DataWarning, match="1 run queries are not in the qrels"):
        ignored = evaluate(qrels, run, ["P@1", "num_ret"], per_query=False).frame
    assert ignored["value"].tolist() == [1.0, 5.0]
    with pytest.warns(DataWarning, match="scored 0"):
        zero = evaluate(qrels, run, ["P@1"], missing_queries="zero").frame
    assert zero["query"].tolist() == ["q", "z"] and zero["value"].tolist() == [1.0, 0.0]


def test_a_threshold_no_judgement_reaches_is_warned_about_once(tmp_path: Path) -> None:
    with pytest.warns(DataWarning, match=r"reaches relevance 4 \(the highest grade is 3\)"):
        frame = evaluate(QRELS, RUN, ["P@5", "nDCG@5"], relevance=4).frame
    values = dict(zip(frame["metric"], frame["value"], strict=True))
    assert values["P(rel=4)@5"] == 0.0 and values["nDCG@5"] > 0  # the gain is the grade
    qrels, run, other = tmp_path / "qrels", tmp_path / "run", tmp_path / "other"
    qrels.write_text("".join(f"q 0 {d} {g}\n" for d, g in [("d1", 2), ("d3", 1)]))
    run.write_text("".join(f"q Q0 d{i} {i} {10 - i} r\n" for i in range(1, 6)))
    other.write_text(run.read_text())
    args = ["evaluate", str(qrels), str(run), str(other), "-l", "3", "-m", "P@5", "-j", "2"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert result.output.count("no judgement in the qrels reaches relevance 3") == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        evaluate(QRELS, RUN, ["P@5"], relevance=3)  # grade 3 exists: no warning


def test_judged_query_without_relevant_scores_zero() -> None:
    qrels = pd.DataFrame({"query": ["q"], "docid": ["a"], "rel": [0]})
    run = pd.DataFrame({"query": ["q"], "docid": ["a"], "score": [1.0]})
    with pytest.warns(DataWarning, match="no judgement in the qrels reaches relevance 1"):
        frame = evaluate(qrels, run, ["AP", "nDCG@10", "R@10", "bpref"]).frame
    assert frame["value"].tolist() == [0.0, 0.0, 0.0, 0.0]


def test_read_run_mixed_whitespace_comments_and_extra_columns() -> None:
    run = read_run(DATA / "tiny.run")
    assert run.name == "tiny" and run.runid == "tiny"
    assert run.docid.to_pylist() == ["d1", "d2", "d3", "d4", "d1"]
    assert run.line_of(0) == 2


@pytest.mark.parametrize(
    ("path", "reader", "message"),
    [
        ("bad_score.run", read_run, r"bad_score.run:2: expected a number in column 5"),
        ("short.qrels", read_qrels, r"short.qrels:2: expected 4 columns"),
    ],
    ids=["score", "qrels-columns"],
)
def test_malformed_lines_name_file_and_line(path: str, reader: object, message: str) -> None:
    with pytest.raises(InputError, match=message):
        reader(DATA / path)  # type: ignore[operator]


def test_duplicate_document_is_an_error_like_trec_eval() -> None:
    with pytest.raises(InputError, match=r"duplicate.run:3: document d1 is retrieved twice"):
        evaluate(DATA / "tiny.qrels", DATA / "duplicate.run", ["P@1"])


def test_unknown_or_unsupported_measure() -> None:
    with pytest.raises(InputError, match="did you mean"):
        evaluate(QRELS, RUN, ["ndgc@10"])
    with pytest.raises(InputError, match="not computed"):
        evaluate(QRELS, RUN, ["gm_map"])


def test_trec_eval_names_and_layout() -> None:
    assert trec_eval_name("nDCG@10") == "ndcg_cut_10"
    assert trec_eval_name("IPrec@0.5") == "iprec_at_recall_0.50"
    text = to_trec_eval(evaluate(QRELS, RUN, ["map", "num_ret"]), per_query=True)
    assert text.splitlines()[0] == f"{'map':<22}\tq\t0.5667"
    assert text.splitlines()[-1] == f"{'num_ret':<22}\tall\t5"


def test_cli_evaluate_tsv_and_errors(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["evaluate", str(DATA / "tiny.qrels"), str(DATA / "tiny.run"), "-m", "P_2"]
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "system\tquery\tmetric\tvalue"
    assert lines[1] == "tiny\tmean\tP@2\t0.25"
    assert "Warning: tiny: 1 run queries" in result.stderr
    bad = runner.invoke(
        main, ["evaluate", str(DATA / "tiny.qrels"), str(DATA / "bad_score.run"), "-m", "P_2"]
    )
    assert bad.exit_code == 2 and "bad_score.run:2:" in bad.stderr
    out = tmp_path / "eval.tsv"
    written = runner.invoke(main, [*args, "-q", "--format", "trec_eval", "-o", str(out)])
    assert written.exit_code == 0 and out.read_text().startswith("P_2")


def test_num_rel_under_c_l2_is_labelled_and_the_tsv_matches_the_per_query_lines() -> None:
    """trec_eval -c prints num_rel 'all' over grade >= 1 whatever -l: said, not hidden."""
    args = [
        "evaluate", str(DATA / "tiny.qrels"), str(DATA / "tiny.run"), "-m", "num_rel",
        "-c", "-l", "2", "-q",
    ]  # fmt: skip
    runner = CliRunner()
    layout = runner.invoke(main, [*args, "--format", "trec_eval"])
    assert layout.exit_code == 0, layout.output
    lines = [line.split("\t") for line in layout.stdout.splitlines()]
    per_query = {q: v for name, q, v in lines if name.strip() == "num_rel" and q != "all"}
    assert per_query == {"1": "1", "2": "0"}  # grade >= 2; 9.0.8 prints no line for 3
    assert ["num_rel", "all", "4"] in [[n.strip(), q, v] for n, q, v in lines]
    assert "Warning: num_rel 'all' is 4: under -c, trec_eval counts" in layout.stderr
    tsv = runner.invoke(main, args)
    rows = [line.split("\t") for line in tsv.stdout.splitlines()[1:]]
    assert {q: float(v) for _, q, m, v in rows if m == "NumRel(rel=2)"} == {
        "1": 1.0,
        "2": 0.0,
        "3": 0.0,
    }
