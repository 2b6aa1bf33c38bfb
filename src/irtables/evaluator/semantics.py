"""The version of what evaluated values mean: part of every cache key.

:data:`SEMANTICS` names how the evaluator and the measure records turn a run and qrels
into numbers (ranking and tie rules, every measure's definition, the trec_eval
versions' differences). A change that changes any value must bump it, so that no cache
entry computed the old way is ever used again; irtables' own version is not part of
the key (a release that changes no value keeps the cache).

:data:`DIGESTS` holds, for every version, a digest of the evaluator's outputs on the
shared fixtures, each value rounded to 12 significant digits
(``tests/unit/test_semantics.py`` recomputes it): when the outputs
change and :data:`SEMANTICS` is not bumped, that test fails. A version's digest is never
edited, only a new version added.
"""

from __future__ import annotations

#: The current semantics version (an integer, bumped with every change of values).
SEMANTICS = 3
#: The digest of the evaluator's outputs on the fixtures, per semantics version.
DIGESTS: dict[int, str] = {
    1: "05b78a8b40b6fa59f773c44565ac6eebc0de487230f0b73bc0669f3cc5a907b0",
    # nDCG with a graded level (ndcg@10-l2, nDCG(rel=2)) drops the judgements below it, as
    # ranx does; the digest covers such a measure and no longer the run's file name.
    2: "5cedef7cbc27812f4a423763124cfa81187e78b70ebd393b6d9b19fe7ca6ab47",
    # Logarithms, exponentials and powers through the C library's scalar code
    # (base/portable_math.py), not numpy's vector loops: the last bits no longer depend on
    # the processor (version 2's values were those of an AVX-512 machine). The digest now
    # rounds each value to 12 significant digits (tests/unit/test_semantics.py).
    3: "5d4ac55509662887cc7781c9629d68a1b2b809e71dcd858b2c3bbdf98aaa4b95",
}
