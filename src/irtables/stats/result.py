"""Result records of the paired tests: named fields, never bare tuples."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

Outcome = Literal["better", "worse", "none"]


@dataclass(frozen=True, slots=True)
class ConfidenceInterval:
    """A confidence interval of the mean difference.

    One-sided intervals (for one-sided tests) have an infinite bound: ``greater`` gives
    ``[low, inf)``, ``less`` gives ``(-inf, high]``.

    Examples
    --------
    >>> ConfidenceInterval(-0.1, 0.3, level=0.95, method="t").contains(0.0)
    True
    """

    low: float
    high: float
    level: float = 0.95
    method: str = "t"  # "t", "bootstrap percentile", "Tukey (studentized range)", ...

    def contains(self, value: float) -> bool:
        """Whether ``value`` lies inside the interval (bounds included)."""
        return self.low <= value <= self.high


@dataclass(frozen=True, slots=True)
class PairedTestResult:
    """One paired comparison: ``system`` against ``baseline`` over the same queries.

    ``mean_diff`` is ``mean(system - baseline)``. ``method`` says what actually ran
    (exact or approximate, zero handling, resamples and seed). Degenerate inputs never
    give NaN: when a statistic is undefined (all differences zero, fewer than two
    queries) it is reported as 0.0, the p-value as 1.0 and ``method`` says why.

    Examples
    --------
    >>> r = PairedTestResult(test="t", method="paired t-test", n=3, mean_diff=0.2,
    ...                      statistic=4.0, pvalue=0.01)
    >>> r.outcome(0.05), r.with_adjusted(0.03, "holm").outcome(0.05)
    ('better', 'better')
    """

    test: str
    method: str
    n: int
    mean_diff: float
    statistic: float
    pvalue: float
    system_mean: float = 0.0
    baseline_mean: float = 0.0
    alternative: str = "two-sided"
    ci: ConfidenceInterval | None = None
    ci_bootstrap: ConfidenceInterval | None = None
    effect_size: float | None = None  # Cohen's d_z
    pvalue_adjusted: float | None = None
    correction: str | None = None
    family: str | None = None
    family_size: int | None = None
    dataset: str = ""
    metric: str = ""
    system: str = ""
    baseline: str = ""
    dropped: tuple[str, ...] = ()
    #: Sakai's ES_E = mean_diff / sqrt(V_E), the residual of the two-way ANOVA (Tukey HSD,
    #: randomized Tukey HSD, Dunnett); None for the paired tests, whose effect size is d_z
    effect_size_e: float | None = None
    #: the interval of ES_E: the simultaneous interval of the difference (``ci``) over
    #: ``sqrt(V_E)``; None where ES_E is None
    effect_size_e_ci: ConfidenceInterval | None = None

    @property
    def p(self) -> float:
        """The p-value that decides significance: adjusted when a correction ran."""
        return self.pvalue if self.pvalue_adjusted is None else self.pvalue_adjusted

    def significant(self, alpha: float = 0.05) -> bool:
        """Whether :attr:`p` is at most ``alpha``."""
        return self.p <= alpha

    def outcome(self, alpha: float = 0.05) -> Outcome:
        """``"better"`` / ``"worse"`` when significant (by the sign of the mean
        difference), else ``"none"``; a significant zero mean difference is ``"none"``."""
        if not self.significant(alpha) or self.mean_diff == 0:
            return "none"
        return "better" if self.mean_diff > 0 else "worse"

    def with_adjusted(
        self, pvalue: float, correction: str, family: str | None = None, size: int | None = None
    ) -> PairedTestResult:
        """A copy that carries the adjusted p-value and the correction that made it."""
        return replace(
            self, pvalue_adjusted=pvalue, correction=correction, family=family, family_size=size
        )

    def with_context(
        self, *, dataset: str, metric: str, system: str, baseline: str, dropped: tuple[str, ...]
    ) -> PairedTestResult:
        """A copy that names where the test ran."""
        return replace(
            self, dataset=dataset, metric=metric, system=system, baseline=baseline, dropped=dropped
        )
