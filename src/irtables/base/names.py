"""The names in the statistics registries, without loading the statistics (numpy, scipy).

The command line builds its choices from these; the keys of :data:`~irtables.stats.TESTS`,
:data:`~irtables.stats.ALL_PAIRS_TESTS`, :data:`~irtables.stats.CORRECTIONS` and
:data:`~irtables.stats.FAMILIES` equal them, in order (a unit test checks it). The tests
and corrections come from their records (:mod:`irtables.base.procedures`).
"""

from __future__ import annotations

from irtables.base.procedures import CORRECTIONS, TESTS

TEST_NAMES: tuple[str, ...] = tuple(r.id for r in TESTS.values() if r.kind == "paired")
ALL_PAIRS_TEST_NAMES: tuple[str, ...] = tuple(r.id for r in TESTS.values() if r.kind == "all-pairs")
#: Many-to-one procedures: every system against the baseline at once.
MANY_TO_ONE_TEST_NAMES: tuple[str, ...] = tuple(
    r.id for r in TESTS.values() if r.kind == "many-to-one"
)
#: The procedures that control the family-wise error themselves (no correction applies).
PROCEDURE_NAMES: tuple[str, ...] = (*ALL_PAIRS_TEST_NAMES, *MANY_TO_ONE_TEST_NAMES)
ALL_TEST_NAMES: tuple[str, ...] = (*TEST_NAMES, *PROCEDURE_NAMES)
#: The tests that draw resamples (their ``n_resamples`` option is ``[compare] resamples``).
RESAMPLED_TEST_NAMES: tuple[str, ...] = tuple(r.id for r in TESTS.values() if r.resampled)
CORRECTION_NAMES: tuple[str, ...] = tuple(CORRECTIONS)
FAMILY_NAMES: tuple[str, ...] = ("metric", "dataset", "table", "all")

#: The designs of the ANOVA-based topic-set size (``[compare] anova_design``):
#: ``two-way`` (systems x topics, topics as blocks: error df (k - 1)(n - 1), the residual
#: variance) and ``one-way`` (Sakai 2016's design as he defines it: systems only, error df
#: k(n - 1), the within-system variance).
ANOVA_DESIGNS: tuple[str, ...] = ("two-way", "one-way")
