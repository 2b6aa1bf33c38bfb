"""Paired significance tests, effect sizes and multiple-testing corrections.

Pure code: no I/O, no clock, no global random state (randomness comes from ``rng``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from irtables._lazy import lazy_exports

# Eager: the submodule irtables.stats.compare would otherwise shadow the function.
from irtables.stats.compare import compare

if TYPE_CHECKING:
    from irtables.stats.compare import FAMILIES
    from irtables.stats.comparisons import Comparisons
    from irtables.stats.correction import CORRECTIONS, adjust
    from irtables.stats.effect import cohens_dz, percentile_interval, t_interval
    from irtables.stats.paired import (
        TESTS,
        bootstrap,
        get_test,
        randomization,
        sign_test,
        t_test,
        wilcoxon,
    )
    from irtables.stats.result import ConfidenceInterval, PairedTestResult
    from irtables.stats.runs import average_runs

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "irtables.stats.compare": ("FAMILIES",),
        "irtables.stats.comparisons": ("Comparisons",),
        "irtables.stats.correction": (
            "CORRECTIONS",
            "adjust",
        ),
        "irtables.stats.effect": (
            "cohens_dz",
            "percentile_interval",
            "t_interval",
        ),
        "irtables.stats.paired": (
            "TESTS",
            "bootstrap",
            "get_test",
            "randomization",
            "sign_test",
            "t_test",
            "wilcoxon",
        ),
        "irtables.stats.result": (
            "ConfidenceInterval",
            "PairedTestResult",
        ),
        "irtables.stats.runs": ("average_runs",),
    },
)

__all__ = [
    "CORRECTIONS",
    "FAMILIES",
    "TESTS",
    "Comparisons",
    "ConfidenceInterval",
    "PairedTestResult",
    "adjust",
    "average_runs",
    "bootstrap",
    "cohens_dz",
    "compare",
    "get_test",
    "percentile_interval",
    "randomization",
    "sign_test",
    "t_interval",
    "t_test",
    "wilcoxon",
]
