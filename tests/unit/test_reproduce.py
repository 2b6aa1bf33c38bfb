"""Reproducibility measures against the numbers repro_eval 0.5.0 gives on the same files.

tests/data/repro holds an original study, a reproduction (same qrels) and a replication
(other qrels) whose runs have many tied scores; expected.json holds what repro_eval
(commit 63b5d8c) computed on them, written by tests/data/repro/make_expected.py.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from irtables.errors import DataWarning, InputError
from irtables.evaluator.order import ranked_documents
from irtables.loaders.trec_run import read_run
from irtables.model.runs import run_from_frame
from irtables.stats.document_order import order_agreement
from irtables.stats.reproduce import COLUMNS, TopicValues, reproduction_rows
from irtables.study.reproduction import Side, folder_side, reproduce

DATA = Path(__file__).resolve().parents[1] / "data" / "repro"
EXPECTED = json.loads((DATA / "expected.json").read_text(encoding="utf-8"))
CUTOFFS = tuple(EXPECTED["cutoffs"])
MEASURES = tuple(EXPECTED["measures"])
TOL = 1e-9


def _rows() -> list:
    return reproduce(
        folder_side(DATA / "orig"),
        [folder_side(DATA / "rpd"), folder_side(DATA / "rpl")],
        pairs=[("bm25", "rm3")],
        metrics=MEASURES,
        cutoffs=CUTOFFS,
    )


ROWS = _rows()


def _row(reproduction: str, system: str, measure: str = "", cutoff: int | None = None):
    (row,) = [
        r
        for r in ROWS
        if (r.reproduction, r.system, r.measure, r.cutoff)
        == (reproduction, system, measure, cutoff)
    ]
    return row


def test_the_test_data_has_ties_in_score_order() -> None:
    frame = pd.read_csv(DATA / "orig" / "bm25.run", sep=" ", header=None, dtype=str)
    scores = frame[4].astype(float)
    assert frame.duplicated([0, 4]).sum() > 100  # many documents share a score
    assert (scores.groupby(frame[0]).diff().dropna() <= 0).all()  # written in score order
    # within a tie the file order is not docid-descending (so the tie rule matters)
    tied = frame[frame.duplicated([0, 4], keep=False)]
    assert any((g[2].tolist() != sorted(g[2], reverse=True)) for _, g in tied.groupby([0, 4]))


@pytest.mark.parametrize("system", ["bm25", "rm3"])
@pytest.mark.parametrize("cutoff", CUTOFFS)
def test_ktu_and_rbo_equal_repro_eval(system: str, cutoff: int) -> None:
    row = _row("rpd", system, "", cutoff)
    assert row.kind == "reproducibility"
    assert row.ktu == pytest.approx(
        EXPECTED["reproducibility"]["ktu"][system][str(cutoff)], abs=TOL
    )
    assert row.rbo == pytest.approx(
        EXPECTED["reproducibility"]["rbo"][system][str(cutoff)], abs=TOL
    )


@pytest.mark.parametrize("system", ["bm25", "rm3"])
@pytest.mark.parametrize("measure", MEASURES)
def test_rmse_nrmse_pvalue_means_equal_repro_eval(system: str, measure: str) -> None:
    want = EXPECTED["reproducibility"]
    row = _row("rpd", system, measure)
    assert row.rmse == pytest.approx(want["rmse"][system][measure], abs=TOL)
    assert row.nrmse == pytest.approx(want["nrmse"][system][measure], abs=TOL)
    assert row.pvalue == pytest.approx(want["pvalue"][system][measure], abs=TOL)
    assert row.original_mean == pytest.approx(want["original_mean"][system][measure], abs=TOL)
    assert row.reproduced_mean == pytest.approx(want["reproduced_mean"][system][measure], abs=TOL)


@pytest.mark.parametrize("kind", ["reproducibility", "replicability"])
@pytest.mark.parametrize("measure", MEASURES)
def test_er_and_delta_ri_equal_repro_eval(kind: str, measure: str) -> None:
    name = {"reproducibility": "rpd", "replicability": "rpl"}[kind]
    want = EXPECTED[kind]
    row = _row(name, "rm3", measure)
    assert row.kind == kind
    assert row.er == pytest.approx(want["er"][measure], abs=TOL)
    assert row.delta_ri == pytest.approx(want["delta_ri"][measure], abs=TOL)
    assert _row(name, "bm25", measure).er is None  # ER sits in the advanced system's rows


@pytest.mark.parametrize("system", ["bm25", "rm3"])
@pytest.mark.parametrize("measure", MEASURES)
def test_replicability_unpaired_pvalue_and_means_equal_repro_eval(
    system: str, measure: str
) -> None:
    want = EXPECTED["replicability"]
    row = _row("rpl", system, measure)
    assert row.pvalue == pytest.approx(want["pvalue"][system][measure], abs=TOL)
    assert row.original_mean == pytest.approx(want["original_mean"][system][measure], abs=TOL)
    assert row.reproduced_mean == pytest.approx(want["reproduced_mean"][system][measure], abs=TOL)
    assert row.rmse is None and row.nrmse is None  # repro_eval has no RMSE across collections


def test_replicability_has_no_document_order_rows() -> None:
    assert not [r for r in ROWS if r.reproduction == "rpl" and r.cutoff is not None]


def test_columns_are_the_issues() -> None:
    assert COLUMNS == (
        "reproduction", "kind", "system", "measure", "cutoff", "ktu", "rbo", "rmse", "nrmse",
        "er", "delta_ri", "pvalue", "original_mean", "reproduced_mean",
    )  # fmt: skip


def _ranked(query: str, docs: str, scores: list[float] | None = None, name: str = "r"):
    scores = scores if scores is not None else list(range(len(docs), 0, -1))
    frame = pd.DataFrame({"query": query, "docid": list(docs), "score": scores})
    return ranked_documents(run_from_frame(frame, name=name))


def test_ktu_by_hand() -> None:
    # union sorted: a b c d; orig positions 0 1 2 3, rep (a b d c) 0 1 3 2: one discordant
    # pair of six: tau = (5 - 1) / 6
    a = order_agreement(_ranked("1", "abcd"), _ranked("1", "abdc"), cutoffs=[4])
    assert a.mean_ktu()[0] == pytest.approx(4 / 6, abs=1e-12)


def test_rbo_by_hand() -> None:
    # depth 3, p = 0.5: overlaps 1/1, 1/2 (a; b vs c), 3/3; weights 1, .5, .25
    a = order_agreement(_ranked("1", "abc"), _ranked("1", "acb"), cutoffs=[3], p=0.5, depth=3)
    assert a.mean_rbo()[0] == pytest.approx((1 + 0.5 * 0.5 + 0.25 * 1) / 1.75, abs=1e-12)


def test_tied_scores_are_ranked_docid_descending() -> None:
    # b, c tie: trec_eval (and repro_eval's break_ties on a file in score order) put c first
    tied = _ranked("1", "abcd", [3.0, 2.0, 2.0, 1.0])
    assert tied.docid.to_pylist() == ["a", "c", "b", "d"]
    plain = _ranked("1", "acbd")
    assert order_agreement(tied, plain, cutoffs=[4]).mean_ktu()[0] == 1.0


def test_one_document_topic_ktu_is_undefined_as_in_repro_eval() -> None:
    # scipy's kendalltau (repro_eval) gives NaN for fewer than two pairs, so does the mean
    a = order_agreement(_ranked("1", "a"), _ranked("1", "b"), cutoffs=[5])
    assert math.isnan(a.mean_ktu()[0])
    assert a.mean_rbo()[0] == 0.0


def test_unequal_lengths_are_an_error_naming_the_topic() -> None:
    with pytest.raises(InputError, match=r"topic '1' has 4 documents .* and 3"):
        order_agreement(_ranked("1", "abcd", name="o"), _ranked("1", "abc"), cutoffs=[10])
    # below both lengths they compare
    a = order_agreement(_ranked("1", "abcd"), _ranked("1", "abc"), cutoffs=[3])
    assert a.mean_ktu()[0] == 1.0


def test_missing_topic_is_an_error_naming_it() -> None:
    frame = pd.DataFrame({"query": ["1", "2"], "docid": ["a", "b"], "score": [1.0, 1.0]})
    two = ranked_documents(run_from_frame(frame, name="two"))
    with pytest.raises(InputError, match="topics 2 of run 'two' are not in run 'r'"):
        order_agreement(two, _ranked("1", "a"), cutoffs=[5])
    with pytest.raises(InputError, match="topics 2 of run 'two' are not in run 'r'"):
        order_agreement(_ranked("1", "a"), two, cutoffs=[5])


def test_duplicate_document_is_an_error_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "dup.run"
    path.write_text("1 Q0 a 1 3.0 r\n1 Q0 b 2 2.0 r\n1 Q0 a 3 1.0 r\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"dup.run:3: document 'a' is retrieved twice"):
        ranked_documents(read_run(path))


def test_empty_ranking_is_an_error_naming_the_topics(tmp_path: Path) -> None:
    # repro_eval fails on it (RMSE looks up the original's topics in the reproduced run)
    path = tmp_path / "empty.run"
    path.write_text("", encoding="utf-8")
    with pytest.warns(DataWarning, match="is empty"):
        empty = ranked_documents(read_run(path))
    with pytest.raises(InputError, match="topics 1 of run 'r' are not in run 'empty'"):
        order_agreement(_ranked("1", "ab"), empty, cutoffs=[5])


def test_reproducibility_needs_the_same_evaluated_topics() -> None:
    one = {"s": TopicValues(("1", "2"), {"AP": np.array([0.1, 0.2])})}
    other = {"s": TopicValues(("1",), {"AP": np.array([0.1])})}
    with pytest.raises(InputError, match="topics 2 only in the original"):
        reproduction_rows(
            "x", "reproducibility", one, other, pairs=[], systems=["s"], metrics=["AP"]
        )
    # a replication is unpaired: other topics are fine
    rows = reproduction_rows(
        "x", "replicability", one, other, pairs=[], systems=["s"], metrics=["AP"]
    )
    assert rows[0].original_mean == pytest.approx(0.15)


def test_identical_values_give_p_one_as_repro_eval() -> None:
    same = {"s": TopicValues(("1", "2"), {"AP": np.array([0.1, 0.2])})}
    (row,) = reproduction_rows(
        "x", "reproducibility", same, same, pairs=[], systems=["s"], metrics=["AP"]
    )
    assert row.pvalue == 1.0 and row.rmse == 0.0


def test_same_qrels_in_another_order_is_reproducibility(tmp_path: Path) -> None:
    for name in ("o", "r"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "a.run").write_text(
            (DATA / "orig" / "bm25.run").read_text(encoding="utf-8"), encoding="utf-8"
        )
    lines = (DATA / "orig" / "qrels.txt").read_text(encoding="utf-8").splitlines()
    (tmp_path / "o" / "qrels.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "r" / "qrels.txt").write_text("\n".join(lines[::-1]) + "\n", encoding="utf-8")
    rows = reproduce(
        folder_side(tmp_path / "o"), [folder_side(tmp_path / "r")], pairs=[], systems=["a"]
    )
    assert {r.kind for r in rows} == {"reproducibility"}
    assert all(r.ktu == 1.0 for r in rows if r.cutoff is not None)
    assert isinstance(Side, type)
