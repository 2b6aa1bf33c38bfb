"""Micro averaging (Keen & Salton), progress reporting and several runs per qrels."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from irtables.cli import main
from irtables.errors import DataWarning, InputError
from irtables.evaluator.api import evaluate
from irtables.evaluator.command import progress_display

DATA = Path(__file__).resolve().parents[1] / "data" / "runs"

# q1 judges a, b relevant and c not; q2 judges x, y, z, w relevant (4); q3 (judged, r
# relevant) is not in the run.
QRELS = pd.DataFrame(
    {
        "query": ["q1", "q1", "q1", "q2", "q2", "q2", "q2", "q3"],
        "docid": ["a", "b", "c", "x", "y", "z", "w", "r"],
        "rel": [1, 1, 0, 1, 1, 1, 1, 1],
    }
)
# q1 ranks a, c, b; q2 ranks x, v (not judged), y.
RUN = pd.DataFrame(
    {
        "query": ["q1", "q1", "q1", "q2", "q2", "q2"],
        "docid": ["a", "c", "b", "x", "v", "y"],
        "score": [3.0, 2.0, 1.0, 3.0, 2.0, 1.0],
    }
)


def _values(**kwargs: object) -> dict[str, float]:
    with pytest.warns(DataWarning):  # q3 is judged but not retrieved
        result = evaluate(QRELS, RUN, ["P@2", "P@3", "R@2", "R@3"], per_query=False, **kwargs)  # type: ignore[arg-type]
    frame = result.frame
    return dict(zip(frame["metric"], frame["value"], strict=True))


def test_micro_precision_and_recall_hand_worked() -> None:
    values = _values(average="micro")
    # top 2: q1 {a, c} -> 1 relevant; q2 {x, v} -> 1 relevant.
    # micro P@2 = (1 + 1) / (2 * 2 queries) = 0.5
    assert values["P@2 (micro)"] == pytest.approx(0.5, abs=1e-15)
    # top 3: q1 {a, c, b} -> 2; q2 {x, v, y} -> 2; micro P@3 = 4 / (3 * 2) = 2/3
    assert values["P@3 (micro)"] == pytest.approx(2 / 3, abs=1e-15)
    # micro R@2 = (1 + 1) / (2 + 4 relevant) = 1/3 (the macro mean is (1/2 + 1/4) / 2)
    assert values["R@2 (micro)"] == pytest.approx(1 / 3, abs=1e-15)
    # micro R@3 = (2 + 2) / (2 + 4) = 2/3 (macro: (2/2 + 2/4) / 2 = 0.75)
    assert values["R@3 (micro)"] == pytest.approx(2 / 3, abs=1e-15)


def test_macro_differs_from_micro_for_recall() -> None:
    values = _values()
    assert values["R@2"] == pytest.approx((1 / 2 + 1 / 4) / 2, abs=1e-15)
    assert values["R@3"] == pytest.approx(0.75, abs=1e-15)
    assert values["P@2"] == pytest.approx(0.5, abs=1e-15)  # P@K: micro = macro


def test_micro_with_missing_queries_scored_zero() -> None:
    values = _values(average="micro", missing_queries="zero")
    # q3 joins with 0 retrieved and 1 relevant: P@2 = 2 / (2 * 3) = 1/3, R@2 = 2 / 7
    assert values["P@2 (micro)"] == pytest.approx(1 / 3, abs=1e-15)
    assert values["R@2 (micro)"] == pytest.approx(2 / 7, abs=1e-15)


def test_micro_pools_with_a_relevance_threshold() -> None:
    qrels = pd.DataFrame({"query": ["1", "1", "2"], "docid": ["a", "b", "c"], "rel": [2, 1, 2]})
    run = pd.DataFrame({"query": ["1", "1", "2"], "docid": ["a", "b", "c"], "score": [2, 1, 1]})
    frame = evaluate(qrels, run, ["R@1"], per_query=False, average="micro", relevance=2).frame
    # grade >= 2 relevant: q1 {a}, q2 {c}; top 1: a, c -> 2 / 2 = 1.0
    assert frame["value"].tolist() == [1.0]


@pytest.mark.parametrize(
    ("measures", "per_query", "message"),
    [
        (["nDCG@10"], False, "P@K and R@K only, not nDCG@10"),
        (["AP", "P@5"], False, "not AP"),
        (["P@5"], True, "per_query=False"),
    ],
)
def test_micro_refuses_other_measures(measures: list[str], per_query: bool, message: str) -> None:
    with pytest.raises(InputError, match=message):
        evaluate(QRELS, RUN, measures, per_query=per_query, average="micro")  # before reading


def test_cli_average_micro(tmp_path: Path) -> None:
    qrels, run = tmp_path / "q.qrels", tmp_path / "bm25.run"
    QRELS.assign(it=0)[["query", "it", "docid", "rel"]].to_csv(
        qrels, sep=" ", header=False, index=False
    )
    RUN.assign(z="Q0", r=1, t="x")[["query", "z", "docid", "r", "score", "t"]].to_csv(
        run, sep=" ", header=False, index=False
    )
    runner = CliRunner()
    ok = runner.invoke(main, ["evaluate", str(qrels), str(run), "-m", "R@2", "--average", "micro"])
    assert ok.exit_code == 0, ok.output
    assert "bm25\tall\tR@2 (micro)\t0.3333333333333333" in ok.output
    bad = runner.invoke(main, ["evaluate", str(qrels), str(run), "-m", "AP", "--average", "micro"])
    assert bad.exit_code != 0 and "P@K and R@K only" in bad.output


def test_progress_callback_reports_reading_and_runs(tmp_path: Path) -> None:
    paths = []
    for name in ("bm25", "dense", "splade"):  # three runs share one qrels
        path = tmp_path / f"{name}.run"
        path.write_text("1 Q0 d1 1 2.0 x\n1 Q0 d2 2 1.0 x\n")
        paths.append(path)
    calls: list[tuple[str, int, int]] = []
    with pytest.warns(DataWarning):  # queries 2 and 3 are judged, not retrieved
        result = evaluate(
            DATA / "tiny.qrels",
            paths,
            ["P@1"],
            progress=lambda stage, done, total: calls.append((stage, done, total)),
        )
    frame = result.frame
    assert frame["system"].unique().tolist() == ["bm25", "dense", "splade"]
    size = paths[0].stat().st_size
    assert ("read bm25", size, size) in calls and ("read splade", size, size) in calls
    assert [c for c in calls if c[0] == "evaluate"] == [("evaluate", i, 3) for i in (1, 2, 3)]


def test_progress_display_only_for_long_work_on_a_terminal(tmp_path: Path) -> None:
    runs = [DATA / "tiny.run"]
    with progress_display(runs) as shown:  # pytest's stderr is not a terminal
        assert shown is None
    with progress_display(runs, force=True) as shown:  # a terminal, but short work
        assert shown is None
    with progress_display(runs * 3, force=True) as shown:  # three runs: long
        assert shown is not None
        shown("read tiny", 10, 100)
        shown("evaluate", 1, 3)


def test_large_file_in_several_blocks_matches_the_frame_path(tmp_path: Path) -> None:
    # 60,000 lines (several 1 MiB blocks of the streaming reader), scores with many ties:
    # the file (already in score order: no sort) and a shuffled frame (sorted) must agree.
    import numpy as np

    rng = np.random.default_rng(7)
    n_q, depth = 60, 1000
    qid = np.repeat([f"q{i:02d}" for i in range(n_q)], depth)
    doc = rng.permutation(10**6)[: n_q * depth].astype(str)
    score = np.sort(rng.integers(0, 50, (n_q, depth)), axis=1)[:, ::-1].ravel() / 4
    run = pd.DataFrame({"query": qid, "docid": doc, "score": score})
    path = tmp_path / "big.run"
    run.assign(z="Q0", r=1, t="t")[["query", "z", "docid", "r", "score", "t"]].to_csv(
        path, sep=" ", header=False, index=False
    )
    judged = run.sample(3000, random_state=1)
    qrels = pd.DataFrame(
        {"query": judged["query"], "docid": judged["docid"], "rel": rng.integers(0, 3, 3000)}
    )
    measures = ["P@10", "AP", "nDCG@20", "RR@10", "R@1000", "bpref"]
    from_file = evaluate(qrels, path, measures).frame
    shuffled = run.sample(frac=1.0, random_state=2).reset_index(drop=True)
    from_frame = evaluate(qrels, shuffled, measures).frame
    assert from_file["value"].to_numpy() == pytest.approx(from_frame["value"].to_numpy())
    assert from_file["query"].tolist() == from_frame["query"].tolist()


@pytest.mark.parametrize("string_ids", [True, False], ids=["strings", "integers"])
def test_deep_qrels_join_the_same_grouped_or_interleaved(tmp_path: Path, string_ids: bool) -> None:
    """Deep judgements are joined through the qrels' sorted keys: a run grouped by query
    searches them as it comes, an interleaved one sorts its keys first; judged documents
    of other queries and unjudged ones must not match either way."""
    import numpy as np

    from irtables.evaluator.command import evaluate_files

    rng = np.random.default_rng(11)
    n_q, depth = 25, 120
    grouped, judged = [], []
    for q in range(n_q):
        numbers = rng.choice(4000, size=depth, replace=False)  # ids shared across queries
        docs = [f"LA{n:06d}-{n % 97:04d}" if string_ids else str(n) for n in numbers]
        scores = np.sort(rng.integers(0, 30, depth))[::-1]
        grouped.append([f"{q + 301} Q0 {d} 1 {s} t\n" for d, s in zip(docs, scores, strict=True)])
        pool = rng.choice(4000, size=150, replace=False)  # some judged ids are not retrieved
        ids = [f"LA{n:06d}-{n % 97:04d}" if string_ids else str(n) for n in pool]
        judged += [f"{q + 301} 0 {d} {int(rng.integers(0, 3))}\n" for d in ids]
    qrels, in_order, interleaved = tmp_path / "q", tmp_path / "a.run", tmp_path / "b.run"
    qrels.write_text("".join(judged))
    in_order.write_text("".join(line for block in grouped for line in block))
    interleaved.write_text("".join(block[i] for i in range(depth) for block in grouped))
    measures = ["map", "P_10", "ndcg_cut_20", "bpref", "num_rel_ret", "recip_rank"]
    a = evaluate_files(qrels, [in_order], measures, per_query=True, fmt="trec_eval")
    b = evaluate_files(qrels, [interleaved], measures, per_query=True, fmt="trec_eval")
    assert a == b
    rel_ret = [line for line in a.splitlines() if line.startswith("num_rel_ret")]
    assert len(rel_ret) == n_q + 1 and any(not line.endswith("\t0") for line in rel_ret)
