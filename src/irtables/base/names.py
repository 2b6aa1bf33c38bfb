"""Names of the statistics settings that have no record of their own, without loading the
statistics (numpy, scipy). The tests and corrections are named by their records
(:func:`irtables.base.procedures.test_names`, :func:`~irtables.base.procedures.correction_names`).
"""

from __future__ import annotations

FAMILY_NAMES: tuple[str, ...] = ("metric", "dataset", "table", "all")

#: The designs of the ANOVA-based topic-set size (``[compare] anova_design``):
#: ``two-way`` (systems x topics, topics as blocks: error df (k - 1)(n - 1), the residual
#: variance) and ``one-way`` (Sakai 2016's design as he defines it: systems only, error df
#: k(n - 1), the within-system variance).
ANOVA_DESIGNS: tuple[str, ...] = ("two-way", "one-way")
