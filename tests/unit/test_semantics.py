"""The semantics version of the cache key follows the evaluator's outputs.

Every measure family is evaluated on the shared trec_eval fixtures under both trec_eval
versions, two relevance thresholds and both missing-query policies; the digest of every
value (exact, as float.hex) must be the one recorded for the current
:data:`~irtables.evaluator.semantics.SEMANTICS`. When the evaluator's outputs change,
this fails until a new semantics version is added with the new digest, so that no cache
entry computed the old way is used again.
"""

from __future__ import annotations

import hashlib

import pytest

from irtables.evaluator import evaluate
from irtables.evaluator.semantics import DIGESTS, SEMANTICS
from irtables.evaluator.values import SUPPORTED_FAMILIES
from irtables.measures import FAMILIES
from tests.conftest import require_fixtures

pytestmark = pytest.mark.filterwarnings("ignore::irtables.errors.DataWarning")
MEASURES = [
    "AP", "AP@100", "P@5", "P@30", "R@100", "R@1000", "Success@10", "RR", "RR@10",
    "Rprec", "Bpref", "nDCG", "nDCG@10", "nDCG_exp@20", "ERR@20", "RBP", "RBP(p=0.5)",
    "IPrec@0.3", "11pt", "Judged@10", "NumRet", "NumRel", "NumRelRet", "nDCG(rel=2)@10",
]  # fmt: skip


def _digest() -> str:
    shipped = require_fixtures() / "trec_eval_test" / "shipped"
    cacm = require_fixtures() / "anserini_cacm" / "data"
    inputs = [
        (shipped / "qrels.test", shipped / "results.test"),
        (shipped / "qrels.rel_level", shipped / "results.test"),
        (cacm / "qrels.cacm.txt", cacm / "cacm-bm25.txt"),
    ]
    digest = hashlib.sha256()
    for qrels, run in inputs:
        for version in ("9.0.8", "10"):
            for relevance in (1, 2):
                for missing in ("ignore", "zero"):
                    results = evaluate(
                        qrels,
                        run,
                        MEASURES,
                        relevance=relevance,
                        missing_queries=missing,
                        trec_eval=version,
                    )
                    frame = results.frame.sort_values(["system", "query", "metric"])
                    digest.update(f"{qrels.name} {version} {relevance} {missing}\n".encode())
                    for row in frame.itertuples(index=False):  # one run: values, not names
                        value = float(row.value).hex()
                        digest.update(f"{row.query}\t{row.metric}\t{value}\n".encode())
    return digest.hexdigest()


def test_every_family_is_in_the_digest() -> None:
    from irtables.measures import parse_measure

    assert {parse_measure(m).family for m in MEASURES} == set(SUPPORTED_FAMILIES)
    assert set(SUPPORTED_FAMILIES) <= set(FAMILIES)


def test_outputs_match_the_semantics_version() -> None:
    found = _digest()
    assert DIGESTS.get(SEMANTICS) == found, (
        "the evaluator's outputs on the fixtures changed: add a new SEMANTICS version to "
        f"irtables/evaluator/semantics.py with the digest {found!r} (never edit an old one)"
    )


def test_versions_have_distinct_digests() -> None:
    assert max(DIGESTS) == SEMANTICS
    assert len(set(DIGESTS.values())) == len(DIGESTS)
