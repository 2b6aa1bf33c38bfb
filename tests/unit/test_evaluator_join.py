"""The join of a run with deep qrels: keys packed by query, found within their bucket."""

from __future__ import annotations

import numpy as np
import pytest

from irtables.evaluator.trec import JoinTable, _join_keys


@pytest.mark.parametrize("ids", ["hashes", "sequential integers", "few keys"])
def test_bucket_search_finds_what_searchsorted_finds(ids: str) -> None:
    rng = np.random.default_rng(5)
    n_queries = {"hashes": 249, "sequential integers": 7, "few keys": 3}[ids]
    size = {"hashes": 20_000, "sequential integers": 5_000, "few keys": 4}[ids]
    query = rng.integers(0, n_queries, size)
    if ids == "hashes":
        doc = rng.integers(0, 2**62, size)
    else:
        doc = rng.choice(10 * size, size, replace=False)  # small integers, in order
    keys = _join_keys(query, doc, n_queries)
    order = np.argsort(keys)
    table = JoinTable.build(keys[order], order)
    assert table.starts[-1] == size and len(table.starts) == 2**table.bits + 1
    if ids != "few keys":  # the keys spread: buckets of a few keys, integer ids too
        assert int(np.diff(table.starts).max()) <= 12
    # keys of the table, of other (query, doc) pairs, and beyond both ends
    other = _join_keys(rng.integers(0, n_queries, 3000), rng.integers(0, 2**40, 3000), n_queries)
    edges = np.array([0, 2**64 - 1, int(table.keys[0]), int(table.keys[-1])], dtype=np.uint64)
    wanted = np.concatenate([keys[rng.integers(0, size, 3000)], other, edges])
    assert table.find(wanted).tolist() == np.searchsorted(table.keys, wanted).tolist()
    assert table.find(np.zeros(0, dtype=np.uint64)).tolist() == []


def test_distinct_integer_codes_keep_distinct_keys() -> None:
    """The spreading product is a bijection of the code's bits below the query's."""
    doc = np.arange(2**16, dtype=np.int64) * 4099 + 2**39  # up to the integer limit
    query = np.zeros(len(doc), dtype=np.int64)
    for n_queries in (1, 2, 2**23):
        keys = _join_keys(query + n_queries - 1, doc, n_queries)
        assert len(np.unique(keys)) == len(doc)
        shift = np.uint64(64 - max((n_queries - 1).bit_length(), 1))
        assert (keys >> shift).tolist() == [n_queries - 1] * len(doc)  # the query on top
