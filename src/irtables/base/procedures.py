"""One record per significance test and per multiple-testing correction.

Every fact about a test lives here: its id, kind, label, the phrase captions and
legends use, its description, its references, the sentence the methods text says about
it, and where the function that computes it lives (imported only when asked for, so
that reading the records imports neither numpy nor scipy: the command line builds its
choices from them). :mod:`irtables.base.names`, the caption legends
(:mod:`irtables.tables.significance`), the methods text and the bibliography read them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["paired", "all-pairs", "many-to-one"]


@dataclass(frozen=True, slots=True)
class SignificanceTest:
    """A significance test.

    ``phrase`` may hold ``{resamples:,}`` (the number of resamples of a resampling
    test); ``function`` is ``"module:name"``, loaded by :meth:`load`.
    """

    id: str
    kind: Kind
    label: str
    phrase: str
    description: str
    method_sentence: str
    cites: tuple[str, ...]
    function: str
    resampled: bool = False
    #: the family-wise error the procedure controls itself (its "correction" phrase)
    controls: str = ""

    def load(self) -> Callable[..., Any]:
        """The function that runs the test (imports its module).

        Examples
        --------
        >>> TESTS["t"].load().__name__
        't_test'
        """
        module, name = self.function.split(":")
        func: Callable[..., Any] = getattr(importlib.import_module(module), name)
        return func

    def named(self, resamples: int) -> str:
        """The caption phrase with the number of resamples filled in.

        Examples
        --------
        >>> TESTS["bootstrap"].named(1000)
        'studentized paired bootstrap test (1,000 resamples)'
        """
        return self.phrase.format(resamples=resamples)


@dataclass(frozen=True, slots=True)
class Correction:
    """A multiple-testing correction (``function`` as for :class:`SignificanceTest`)."""

    id: str
    label: str
    phrase: str
    method_sentence: str
    cites: tuple[str, ...]
    function: str = "irtables.stats.correction:adjust"


_PAIRED = "irtables.stats.paired"
_RECORDS = (
    SignificanceTest(
        "t", "paired", "paired t-test", "paired t-test",
        "Student's t-test of the mean paired difference.",
        "The paired t-test assumes the mean difference is approximately normally distributed.",
        ("student1908", "smucker2007"), f"{_PAIRED}:t_test",
    ),
    SignificanceTest(
        "wilcoxon", "paired", "Wilcoxon signed-rank test", "Wilcoxon signed-rank test",
        "Signed-rank test of paired differences; exact below 50 differences without ties "
        "or zeros (as R), else the normal approximation with continuity correction.",
        "The Wilcoxon signed-rank test assumes differences symmetric about their median.",
        ("wilcoxon1945", "smucker2007"), f"{_PAIRED}:wilcoxon",
    ),
    SignificanceTest(
        "sign", "paired", "sign test", "sign test",
        "Exact binomial test of wins against losses, ties dropped.",
        "The sign test uses only the direction of each difference.",
        ("conover1999", "smucker2007"), f"{_PAIRED}:sign_test",
    ),
    SignificanceTest(
        "randomization", "paired", "randomization test",
        "randomization test ({resamples:,} sign flips)",
        "Sign-flip permutation test of the mean difference.",
        "The randomization test assumes only that each topic's two scores are exchangeable "
        "under the null hypothesis.",
        ("fisher1935", "smucker2007"), f"{_PAIRED}:randomization", resampled=True,
    ),
    SignificanceTest(
        "bootstrap", "paired", "studentized paired bootstrap test",
        "studentized paired bootstrap test ({resamples:,} resamples)",
        "Studentized bootstrap test of the mean difference (Sakai 2006), "
        "p = (b + 1)/(B + 1).",
        "The studentized bootstrap test resamples topics and compares the paired t with its "
        "bootstrap distribution.",
        ("efron1993", "smucker2007"), f"{_PAIRED}:bootstrap", resampled=True,
    ),
    SignificanceTest(
        "tukey", "all-pairs", "Tukey HSD", "Tukey HSD test (two-way ANOVA, topics as blocks)",
        "Tukey's honestly significant difference on the system x topic design.",
        "Tukey HSD compares every pair of systems against the residual variance of the "
        "two-way ANOVA and controls the family-wise error over all pairs.",
        ("tukey1949", "sakai2018"), "irtables.stats.tukey:tukey_hsd",
        controls="family-wise error controlled over all pairs by the studentized range",
    ),
    SignificanceTest(
        "randomized-tukey", "all-pairs", "randomized Tukey HSD",
        "randomized Tukey HSD test ({resamples:,} permutations within topics)",
        "Permutation version of Tukey HSD (Carterette 2012).",
        "Randomized Tukey HSD permutes the systems' scores within each topic and compares "
        "each difference with the distribution of the largest one.",
        ("carterette2012", "sakai2018"), "irtables.stats.randomized_tukey:randomized_tukey_hsd",
        resampled=True,
        controls="family-wise error controlled over all pairs by the permutation "
        "distribution of the largest difference",
    ),
    SignificanceTest(
        "dunnett", "many-to-one", "Dunnett's test",
        "Dunnett's test (two-way ANOVA, topics as blocks)",
        "Each system against the baseline on the system x topic design (multivariate t).",
        "Dunnett's test compares each system with the baseline against the residual "
        "variance of the two-way ANOVA and controls the family-wise error over those "
        "comparisons only.",
        ("dunnett1955", "sakai2018"), "irtables.stats.many_to_one:dunnett",
        controls="family-wise error controlled over the comparisons with the baseline by "
        "the multivariate t distribution",
    ),
)  # fmt: skip
#: Every test by id: the paired tests, the all-pairs procedures, then the many-to-one.
TESTS: dict[str, SignificanceTest] = {r.id: r for r in _RECORDS}

#: Every correction by id.
CORRECTIONS: dict[str, Correction] = {
    r.id: r
    for r in (
        Correction(
            "none", "none", "no correction for multiple testing",
            "The p-values are not corrected for multiple testing.", (),
        ),
        Correction(
            "bonferroni", "Bonferroni", "Bonferroni correction",
            "Bonferroni's correction multiplies each p-value by the family size.",
            ("dunn1961",),
        ),
        Correction(
            "holm", "Holm", "Holm correction",
            "Holm's step-down correction controls the family-wise error.", ("holm1979",),
        ),
        Correction(
            "bh", "Benjamini–Hochberg", "Benjamini–Hochberg correction",
            "Benjamini and Hochberg's procedure controls the false discovery rate.",
            ("benjamini1995",),
        ),
    )
}  # fmt: skip


def correction_phrase(name: str) -> str:
    """The caption phrase of a correction, or of a procedure that controls its own family.

    Examples
    --------
    >>> correction_phrase("holm"), correction_phrase("tukey")[:26]
    ('Holm correction', 'family-wise error controll')
    """
    if name in CORRECTIONS:
        return CORRECTIONS[name].phrase
    return TESTS[name].controls
