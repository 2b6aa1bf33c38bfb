"""ranx's relevance-level suffix (``ndcg@10-l2``) names what ranx computes, checked against
ranx itself: on the ranx fixtures, on TREC CAsT 2021 (graded 0-4) and on generated graded
qrels. Where ranx computes a family otherwise (or has none), the suffix is refused.

Rankings are given distinct scores in trec_eval's order (score as float32 descending,
document id descending), so that ranx's order of tied scores does not enter the comparison.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from irtables import evaluate
from irtables.errors import UnknownNameError
from irtables.measures import FAMILIES, parse_measure
from tests.conftest import require_fixtures

# ranx's numba kernels warn about their own integer casts when they compile
pytestmark = pytest.mark.filterwarnings("ignore::numba.core.errors.NumbaTypeSafetyWarning")

# Every family whose record accepts the suffix, in ranx's spelling.
BASES = (
    "ndcg@10", "ndcg@3", "ndcg", "ndcg_burges@10", "ndcg_burges", "map", "map@10", "mrr",
    "mrr@10", "precision@5", "precision@10", "recall@10", "recall@100", "hit_rate@5",
    "r-precision",
)  # fmt: skip


def _read(path: Path, names: list[str]) -> pd.DataFrame:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        rows = [line.split() for line in f if line.strip()]
    return pd.DataFrame(rows, columns=names)


def _distinct_scores(run: pd.DataFrame) -> pd.DataFrame:
    """The run with scores 0, -1, -2 ... in trec_eval 9.0.8's order of each query."""
    run = run.assign(s32=run["score"].astype(float).astype(np.float32))
    run = run.sort_values(["query", "s32", "docid"], ascending=[True, False, False])
    score = -run.groupby("query").cumcount().astype(float)
    return run.assign(score=score)[["query", "docid", "score"]].reset_index(drop=True)


def _compare(qrels: pd.DataFrame, run: pd.DataFrame, levels: tuple[int, ...]) -> int:
    """Assert irtables' and ranx's per-query values agree; return how many were compared."""
    qrels = qrels.assign(relevance=qrels["relevance"].astype(int))
    common = sorted(set(qrels["query"]) & set(run["query"]))
    qrels, run = qrels[qrels["query"].isin(common)], run[run["query"].isin(common)]
    judged: dict[str, dict[str, int]] = {}
    for q, d, g in zip(qrels["query"], qrels["docid"], qrels["relevance"], strict=True):
        judged.setdefault(str(q), {})[str(d)] = int(g)
    ranked: dict[str, dict[str, float]] = {}
    for q, d, s in zip(run["query"], run["docid"], run["score"], strict=True):
        ranked.setdefault(str(q), {})[str(d)] = float(s)
    ranx = pytest.importorskip("ranx")  # here, not at collection: numba takes seconds
    theirs = ranx.Run(ranked)
    names = [f"{b}-l{level}" for level in levels for b in BASES]
    ranx.evaluate(ranx.Qrels(judged), theirs, names)
    frame = run.copy()
    frame.attrs["system"] = "run"
    ours = evaluate(qrels[["query", "docid", "relevance"]], frame, names).frame
    compared = 0
    for name in names:
        mine = ours[ours["metric"] == parse_measure(name).name].set_index("query")["value"]
        expected = pd.Series(theirs.scores[name]).reindex(mine.index.astype(str))
        assert len(mine) == len(common), name
        np.testing.assert_allclose(mine.to_numpy(), expected.to_numpy(), atol=1e-12, err_msg=name)
        compared += len(mine)
    return compared


def test_ranx_fixture_levels_1_to_3() -> None:
    data = require_fixtures() / "ranx_test_data" / "data"
    qrels = _read(data / "qrels.trec", ["query", "iter", "docid", "relevance"])
    run = _read(data / "run.trec", ["query", "q0", "docid", "rank", "score", "tag"])
    assert _compare(qrels, _distinct_scores(run), (1, 2, 3)) == 2 * len(BASES) * 3


def test_cast2021_graded_levels_match_ranx() -> None:
    data = require_fixtures() / "trec_cast2021_baselines" / "data"
    qrels = _read(data / "trec-cast-qrels-docs.2021.qrel.gz", ["query", "i", "docid", "relevance"])
    names = ["query", "q", "docid", "r", "score", "t"]
    run = _read(data / "runs" / "org_manual_bm25.run.gz", names)
    compared = _compare(qrels, _distinct_scores(run), (1, 2, 3, 4))
    assert compared == 158 * len(BASES) * 4


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_generated_graded_qrels_match_ranx(seed: int) -> None:
    rng = np.random.default_rng(seed)
    qrels_rows, run_rows = [], []
    for q in range(25):
        docs = [f"d{i:03d}" for i in rng.choice(200, size=60, replace=False)]
        for d in docs[:40]:  # some retrieved documents stay unjudged
            qrels_rows.append((f"q{q}", d, int(rng.choice(5, p=[0.4, 0.2, 0.2, 0.1, 0.1]))))
        for d in docs[int(rng.integers(0, 15)) :]:  # some judged ones are not retrieved
            run_rows.append((f"q{q}", d, float(rng.random())))
    qrels = pd.DataFrame(qrels_rows, columns=["query", "docid", "relevance"])
    run = pd.DataFrame(run_rows, columns=["query", "docid", "score"])
    assert _compare(qrels, _distinct_scores(run), (1, 2, 3, 4)) == 25 * len(BASES) * 4


def test_the_level_changes_ndcg() -> None:
    """The bug this guards against: ``ndcg@10-l2`` computed as ``ndcg@10``."""
    qrels = pd.DataFrame(
        [("q", "a", 1), ("q", "b", 2), ("q", "c", 1)], columns=["query", "docid", "relevance"]
    )
    run = pd.DataFrame([("q", "a", 3.0), ("q", "b", 2.0)], columns=["query", "docid", "score"])
    values = evaluate(qrels, run, ["ndcg@10", "ndcg@10-l2"]).frame.set_index("metric")["value"]
    # ideal gains 2, 1, 1; level 2 keeps 2 only. Worked by hand from the definition.
    d1, d2, d3 = 1.0, 1 / np.log2(3), 0.5
    assert values["nDCG@10"] == pytest.approx((1 * d1 + 2 * d2) / (2 * d1 + d2 + d3))
    assert values["nDCG(rel=2)@10"] == pytest.approx((2 * d2) / (2 * d1))


def test_the_suffix_is_refused_where_ranx_computes_otherwise() -> None:
    accepted = {f.name for f in FAMILIES.values() if f.ranx_level}
    assert accepted == {"nDCG", "nDCG_exp", "P", "R", "AP", "RR", "Success", "Rprec"}
    assert {parse_measure(b).family for b in BASES} == accepted
    for name, hint in [
        ("bpref-l2", "Bpref\\(rel=2\\)"),  # ranx's bpref at a level is not trec_eval's
        ("rbp-l2", "RBP\\(rel=2\\)"),  # ranx's rbp is graded, irtables' binary
        ("err@10-l2", "does not depend on a relevance level"),
        ("judged@10-l2", "does not depend on a relevance level"),
        ("numret-l2", "does not depend on a relevance level"),
        ("iprec@0.5-l2", "IPrec\\(rel=2\\)"),
    ]:
        with pytest.raises(UnknownNameError, match=hint):
            parse_measure(name)


@pytest.mark.parametrize("name", ["ERR(rel=2)@10", "Judged(rel=2)@10", "NumRet(rel=2)"])
def test_a_threshold_on_a_measure_that_ignores_it_is_refused(name: str) -> None:
    with pytest.raises(UnknownNameError, match="does not depend on a relevance threshold"):
        parse_measure(name)


def test_cli_evaluate_prints_two_numbers_for_two_names(tmp_path: Path) -> None:
    """The report of the issue: ``-m ndcg@10-l2 -m ndcg@10`` printed the same mean twice."""
    from click.testing import CliRunner

    from irtables.cli import main

    data = require_fixtures() / "trec_cast2021_baselines" / "data"
    out = tmp_path / "means.tsv"
    args = ["evaluate", str(data / "trec-cast-qrels-docs.2021.qrel.gz")]
    args += [str(data / "runs" / "org_manual_bm25.run.gz"), "-m", "ndcg@10-l2", "-m", "ndcg@10"]
    done = CliRunner().invoke(main, [*args, "-o", str(out)])
    assert done.exit_code == 0, done.output
    means = pd.read_csv(out, sep="\t").set_index("metric")["value"]
    assert set(means.index) == {"nDCG(rel=2)@10", "nDCG@10"}
    assert means["nDCG(rel=2)@10"] < means["nDCG@10"] - 0.01
    done = CliRunner().invoke(main, [*args[:3], "-m", "bpref-l2"])
    assert done.exit_code == 2
    assert done.output.startswith("Error: ") and "Bpref(rel=2)" in done.output
