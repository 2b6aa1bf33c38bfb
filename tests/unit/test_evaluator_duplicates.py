"""A document retrieved twice for one query is an error (as in trec_eval), whatever the
document ids look like; string ids are checked without a dictionary of every id."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from irtables.errors import InputError
from irtables.evaluator import evaluate


def _files(
    root: Path, seed: int, *, string_ids: bool, duplicate: bool, uneven: bool
) -> tuple[Path, Path, tuple[str, str] | None]:
    """A run (and qrels) with maybe one duplicate; returns the (query, doc) repeated."""
    rng = np.random.default_rng(seed)
    lines, judged = [], []
    repeated = None
    n_queries = 6
    dup_query = int(rng.integers(0, n_queries))
    for q in range(n_queries):
        depth = int(rng.integers(1, 60)) if uneven else 40
        numbers = rng.choice(100_000, size=depth, replace=False)
        docs = [f"LA{n:06d}-{n % 97:04d}" if string_ids else str(n) for n in numbers]
        if duplicate and q == dup_query and depth > 1:
            docs[-1] = docs[0]
            repeated = (str(q + 1), docs[0])
        scores = np.sort(rng.integers(0, 5, depth))[::-1]  # many ties
        lines += [
            f"{q + 1} Q0 {d} {i + 1} {s} t"
            for i, (d, s) in enumerate(zip(docs, scores, strict=True))
        ]
        judged += [f"{q + 1} 0 {d} {int(rng.integers(0, 2))}" for d in docs[:5]]
    run, qrels = root / "r.run", root / "q.qrels"
    run.write_text("\n".join(lines) + "\n")
    qrels.write_text("\n".join(dict.fromkeys(judged)) + "\n")
    return qrels, run, repeated


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("string_ids", [True, False], ids=["strings", "integers"])
@pytest.mark.parametrize("uneven", [False, True], ids=["even", "uneven"])
def test_duplicates_are_found_exactly(
    tmp_path: Path, seed: int, string_ids: bool, uneven: bool
) -> None:
    duplicate = seed % 2 == 0
    qrels, run, repeated = _files(
        tmp_path, seed, string_ids=string_ids, duplicate=duplicate, uneven=uneven
    )
    if repeated is None:
        assert len(evaluate(qrels, run, ["P@5"]).frame) > 0
        return
    query, doc = repeated
    with pytest.raises(InputError, match=f"document {doc} is retrieved twice for query {query}"):
        evaluate(qrels, run, ["P@5"])


def test_string_ids_get_no_dictionary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Dictionary-encoding every document id of a run held them all a second time (the
    peak was 4.5x the run file); only the qrels' ids may be encoded."""
    qrels, run, _ = _files(tmp_path, 1, string_ids=True, duplicate=False, uneven=False)
    judged = {line.split()[2] for line in qrels.read_text().splitlines()}
    run_only = {line.split()[2] for line in run.read_text().splitlines()} - judged
    assert run_only  # the run retrieves documents that nobody judged
    encoded: list[list[str]] = []  # the values of each call, as strings
    real = pc.dictionary_encode

    def spy(values: pa.Array, *args: object, **kwargs: object) -> object:
        encoded.append([str(v) for v in values.to_pylist()])
        return real(values, *args, **kwargs)

    monkeypatch.setattr(pc, "dictionary_encode", spy)
    evaluate(qrels, run, ["P@5"])
    assert encoded  # the query ids and the qrels' document ids are
    assert all(run_only.isdisjoint(values) for values in encoded)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("ids", ["strings", "integers", "padded integers"])
def test_judged_rows_joined_on_codes_equal_the_string_lookup(seed: int, ids: str) -> None:
    """Deep qrels: judged rows found through the qrels' join table of (query, document
    code) are exactly those a lookup of the strings finds ("07" and "7" differ)."""
    from irtables.evaluator.trec import _doc_codes, _judged_rows, _positions, index_qrels
    from irtables.model.runs import qrels_from_frame, run_from_frame

    rng = np.random.default_rng(seed)

    def name(n: int) -> str:
        if ids == "strings":
            return f"FT{n:05d}-{n % 7}"
        return f"0{n}" if ids == "padded integers" and n % 3 == 0 else str(n)

    qrels = {"query": [], "docid": [], "rel": []}
    run = {"query": [], "docid": [], "score": []}
    for q in range(5):
        judged = rng.choice(300, size=120, replace=False)
        for n in judged:
            qrels["query"].append(str(q))
            qrels["docid"].append(name(int(n)))
            qrels["rel"].append(int(rng.integers(0, 3)))
        if ids == "padded integers":  # both "07"-style and "7"-style ids judged
            qrels["query"] += [str(q), str(q)]
            qrels["docid"] += ["0301", "301"]
            qrels["rel"] += [1, 0]
        for i, n in enumerate(rng.choice(310, size=60, replace=False)):
            run["query"].append(str(q if q < 4 else 9))  # query 9 is not judged
            run["docid"].append(name(int(n)))
            run["score"].append(float(60 - i))
    index = index_qrels(qrels_from_frame(pd.DataFrame(qrels)))
    r = run_from_frame(pd.DataFrame(run), name="r")
    codes = r.query_codes
    lut = _positions(r.qid.dictionary, index.queries, missing=-1)
    joined = _judged_rows(index, r, codes, lut, _doc_codes(r.docid))
    looked_up = _judged_rows(index, r, codes, lut, None)
    order_a, order_b = np.argsort(joined[0]), np.argsort(looked_up[0])
    assert joined[0][order_a].tolist() == looked_up[0][order_b].tolist()
    assert joined[1][order_a].tolist() == looked_up[1][order_b].tolist()
    assert len(joined[0]) > 0


@pytest.mark.parametrize("string_ids", [True, False], ids=["strings", "integers"])
def test_a_document_judged_twice_is_named_with_its_line(tmp_path: Path, string_ids: bool) -> None:
    doc = "LA0001-0001" if string_ids else "17"
    other = "FT0002-0002" if string_ids else "18"
    qrels = tmp_path / "q.qrels"
    qrels.write_text(f"1 0 {other} 1\n1 0 {doc} 1\n2 0 {doc} 0\n1 0 {doc} 0\n")
    run = tmp_path / "r.run"
    run.write_text(f"1 Q0 {doc} 1 2.0 t\n")
    with pytest.raises(InputError, match=f"document {doc} is judged twice for query 1") as err:
        evaluate(qrels, run, ["P@5"])
    assert err.value.line == 4


def test_string_ids_with_one_hash_are_told_apart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two judged ids of a query with the same hash: no hashed join, the same values."""
    from irtables.evaluator import jobs, trec
    from irtables.loaders.qrels import read_qrels

    qrels, run, _ = _files(tmp_path, 3, string_ids=True, duplicate=False, uneven=True)
    measures = ["P@5", "AP", "nDCG@10", "R@20"]
    expected = evaluate(qrels, run, measures).frame
    monkeypatch.setattr(trec, "string_hashes", lambda v: np.zeros(len(v), dtype=np.int64))
    monkeypatch.setattr(jobs, "_INDEXES", {})  # index the qrels again
    assert trec.index_qrels(read_qrels(qrels)).hashed is None
    got = evaluate(qrels, run, measures).frame
    pd.testing.assert_frame_equal(got, expected)


@pytest.mark.parametrize(
    ("shape", "n"),
    [("one document", 300_000), ("every document twice", 200_000), ("string ids", 100_000)],
)
def test_the_duplicate_check_is_linear(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shape: str, n: int
) -> None:
    """A concatenated or looped run (issue 23 §2: 10,000 identical lines took 27 s,
    300,000 did not finish in 13 minutes) is refused reading each row a bounded number of
    times: the rows whose ids are fetched to confirm repeats are counted, and the count
    stops the old per-repeat scan (n repeats x n rows) at once."""
    import irtables.evaluator.trec as trec

    fetched = [0]
    original = trec.take

    def counting_take(array: pa.Array, rows: np.ndarray) -> pa.Array:
        fetched[0] += len(rows)
        if fetched[0] > 2 * n:
            raise AssertionError(f"{fetched[0]} rows fetched for a run of {n}: not linear")
        return original(array, rows)

    monkeypatch.setattr(trec, "take", counting_take)
    if shape == "one document":
        docs = ["7"] * n
    elif shape == "every document twice":
        docs = [str(i // 2) for i in range(n)]
    else:
        docs = [f"LA{i // 2:06d}-0001" for i in range(n)]
    run, qrels = tmp_path / "r.run", tmp_path / "q.qrels"
    run.write_text("".join(f"1 Q0 {d} {i + 1} {n - i} t\n" for i, d in enumerate(docs)))
    qrels.write_text(f"1 0 {docs[0]} 1\n")
    with pytest.raises(InputError, match=f"document {docs[0]} is retrieved twice for query 1"):
        evaluate(qrels, run, "AP")
    assert 0 < fetched[0] <= 2 * n
