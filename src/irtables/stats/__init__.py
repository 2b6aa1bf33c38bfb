"""Paired significance tests, all-pairs procedures, effect sizes and corrections.

Pure code: no I/O, no clock, no global random state (randomness comes from ``rng``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from irtables.base.lazy import lazy_exports

# Eager: the submodule irtables.stats.compare would otherwise shadow the function.
from irtables.stats.compare import compare

if TYPE_CHECKING:
    from irtables.stats.allpairs import AllPairsResult, PairDifference
    from irtables.stats.anova import TwoWayAnova, two_way_anova
    from irtables.stats.compare import ALL_TESTS, FAMILIES
    from irtables.stats.comparisons import Comparisons
    from irtables.stats.correction import CORRECTIONS, adjust
    from irtables.stats.effect import cohens_dz, percentile_interval, t_interval
    from irtables.stats.many_to_one import dunnett
    from irtables.stats.meta import MetaAnalysis, hedges_g, meta_analyse, random_effects
    from irtables.stats.paired import (
        TESTS,
        bootstrap,
        get_test,
        randomization,
        sign_test,
        t_test,
        wilcoxon,
    )
    from irtables.stats.power import (
        anova_power,
        anova_topics_needed,
        min_detectable_difference,
        paired_t_power,
        topics_needed,
    )
    from irtables.stats.procedures import ALL_PAIRS_TESTS
    from irtables.stats.randomized_tukey import randomized_tukey_hsd, randomized_tukey_many
    from irtables.stats.result import ConfidenceInterval, PairedTestResult
    from irtables.stats.runs import average_runs
    from irtables.stats.topicset import TopicSetSize, topic_set_sizes
    from irtables.stats.tukey import tukey_hsd

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "irtables.stats.allpairs": (
            "AllPairsResult",
            "PairDifference",
        ),
        "irtables.stats.anova": (
            "TwoWayAnova",
            "two_way_anova",
        ),
        "irtables.stats.compare": (
            "ALL_TESTS",
            "FAMILIES",
        ),
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
        "irtables.stats.many_to_one": ("dunnett",),
        "irtables.stats.meta": (
            "MetaAnalysis",
            "hedges_g",
            "meta_analyse",
            "random_effects",
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
        "irtables.stats.power": (
            "anova_power",
            "anova_topics_needed",
            "min_detectable_difference",
            "paired_t_power",
            "topics_needed",
        ),
        "irtables.stats.procedures": ("ALL_PAIRS_TESTS",),
        "irtables.stats.randomized_tukey": ("randomized_tukey_hsd", "randomized_tukey_many"),
        "irtables.stats.result": (
            "ConfidenceInterval",
            "PairedTestResult",
        ),
        "irtables.stats.runs": ("average_runs",),
        "irtables.stats.topicset": (
            "TopicSetSize",
            "topic_set_sizes",
        ),
        "irtables.stats.tukey": ("tukey_hsd",),
    },
)

__all__ = [
    "ALL_PAIRS_TESTS",
    "ALL_TESTS",
    "CORRECTIONS",
    "FAMILIES",
    "TESTS",
    "AllPairsResult",
    "Comparisons",
    "ConfidenceInterval",
    "MetaAnalysis",
    "PairDifference",
    "PairedTestResult",
    "TopicSetSize",
    "TwoWayAnova",
    "adjust",
    "anova_power",
    "anova_topics_needed",
    "average_runs",
    "bootstrap",
    "cohens_dz",
    "compare",
    "dunnett",
    "get_test",
    "hedges_g",
    "meta_analyse",
    "min_detectable_difference",
    "paired_t_power",
    "percentile_interval",
    "random_effects",
    "randomization",
    "randomized_tukey_hsd",
    "randomized_tukey_many",
    "sign_test",
    "t_interval",
    "t_test",
    "topic_set_sizes",
    "topics_needed",
    "tukey_hsd",
    "two_way_anova",
    "wilcoxon",
]
