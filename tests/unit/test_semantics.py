"""The semantics version of the cache key follows the evaluator's outputs.

Every measure family is evaluated on the shared trec_eval fixtures under both trec_eval
versions, two relevance thresholds and both missing-query policies; the digest of every
value, rounded to :data:`DIGITS` significant digits, must be the one recorded for the
current :data:`~irtables.evaluator.semantics.SEMANTICS`. The rounding keeps the digest of a
machine whose C library rounds a logarithm's last bit otherwise; a change of meaning moves
values far more than that. That the values themselves do not depend on the processor's
vector extensions is tested in two processes, with numpy's dispatch on and off.
When the evaluator's outputs change, this fails until a new semantics version is added
with the new digest, so that no cache entry computed the old way is used again.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

import numpy as np
import pytest

from irtables.evaluator import evaluate
from irtables.evaluator.semantics import DIGESTS, SEMANTICS
from irtables.evaluator.values import SUPPORTED_FAMILIES
from irtables.measures import FAMILIES
from tests.conftest import REPO, require_fixtures

pytestmark = pytest.mark.filterwarnings("ignore::irtables.errors.DataWarning")
MEASURES = [
    "AP", "AP@100", "P@5", "P@30", "R@100", "R@1000", "Success@10", "RR", "RR@10",
    "Rprec", "Bpref", "nDCG", "nDCG@10", "nDCG_exp@20", "ERR@20", "RBP", "RBP(p=0.5)",
    "IPrec@0.3", "11pt", "Judged@10", "NumRet", "NumRel", "NumRelRet", "nDCG(rel=2)@10",
]  # fmt: skip


#: Significant digits of each value in the digest.
DIGITS = 12


def _digest(digits: int | None = DIGITS) -> str:
    """The digest of every value, rounded to ``digits`` significant digits (None: exact)."""
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
                        value = float(row.value)
                        text = value.hex() if digits is None else f"{value:.{digits}g}"
                        digest.update(f"{row.query}\t{row.metric}\t{text}\n".encode())
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


def _dispatched_features() -> list[str]:
    """numpy's run-time dispatch targets this processor has (what can be turned off)."""
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

    return [name for name in __cpu_dispatch__ if __cpu_features__.get(name)]


def _exact_digest_in_child(env: dict[str, str]) -> str:
    code = "from tests.unit.test_semantics import _digest; print(_digest(None))"
    done = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", code],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_values_do_not_depend_on_numpys_vector_extensions() -> None:
    """Every bit of every value is the same with numpy's SIMD dispatch on and off."""
    require_fixtures()
    features = _dispatched_features()
    if not features:
        pytest.skip("this processor has no dispatch target beyond numpy's baseline")
    env = {k: v for k, v in os.environ.items() if not k.startswith("NPY_")}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "src"), str(REPO)])
    plain = dict(env, NPY_DISABLE_CPU_FEATURES=" ".join(features))
    assert _exact_digest_in_child(env) == _exact_digest_in_child(plain)


@pytest.mark.parametrize("name", ["log", "log2", "log1p", "exp", "exp2", "power"])
def test_the_evaluator_calls_no_dispatched_transcendental_loop(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """numpy's vectorised logarithms, exponentials and powers round differently on
    AVX-512 than elsewhere: the evaluator computes through the C library's scalar code."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"np.{name} was called")

    monkeypatch.setattr(np, name, refuse)
    shipped = require_fixtures() / "trec_eval_test" / "shipped"
    evaluate(shipped / "qrels.rel_level", shipped / "results.test", MEASURES)
