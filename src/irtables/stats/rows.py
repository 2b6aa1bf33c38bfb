"""The comparisons as records: the columns of a comparisons table and one row of it.

Below both :mod:`irtables.stats.comparisons` (the result collection) and
:mod:`irtables.stats.report` (its text forms), which read each other's data only
through this module and :class:`ComparisonSet`.
"""

from __future__ import annotations

from typing import Protocol

from irtables.stats.result import PairedTestResult

COLUMNS = (
    "dataset", "metric", "system", "baseline", "system_mean", "baseline_mean", "mean_diff",
    "n", "test", "method", "alternative", "statistic", "pvalue", "pvalue_adjusted",
    "correction", "family", "family_size", "alpha", "significant", "outcome", "ci_low",
    "ci_high", "boot_ci_low", "boot_ci_high", "effect_size", "n_dropped", "dropped",
    "effect_size_e", "effect_size_e_low", "effect_size_e_high",
)  # fmt: skip


class ComparisonSet(Protocol):
    """What the text forms read of :class:`~irtables.stats.Comparisons`."""

    @property
    def results(self) -> tuple[PairedTestResult, ...]: ...
    @property
    def test(self) -> str: ...
    @property
    def correction(self) -> str: ...
    @property
    def family(self) -> str: ...
    @property
    def alpha(self) -> float: ...
    @property
    def alternative(self) -> str: ...
    def __len__(self) -> int: ...


def comparison_row(r: PairedTestResult, alpha: float) -> dict[str, object]:
    """One result as a record of :data:`COLUMNS` (None where a field does not apply)."""
    return {
        "dataset": r.dataset, "metric": r.metric, "system": r.system, "baseline": r.baseline,
        "system_mean": r.system_mean, "baseline_mean": r.baseline_mean,
        "mean_diff": r.mean_diff, "n": r.n, "test": r.test, "method": r.method,
        "alternative": r.alternative, "statistic": r.statistic, "pvalue": r.pvalue,
        "pvalue_adjusted": r.p, "correction": r.correction or "none",
        "family": r.family, "family_size": r.family_size, "alpha": alpha,
        "significant": r.significant(alpha), "outcome": r.outcome(alpha),
        "ci_low": r.ci.low if r.ci else None, "ci_high": r.ci.high if r.ci else None,
        "boot_ci_low": r.ci_bootstrap.low if r.ci_bootstrap else None,
        "boot_ci_high": r.ci_bootstrap.high if r.ci_bootstrap else None,
        "effect_size": r.effect_size, "n_dropped": len(r.dropped), "dropped": " ".join(r.dropped),
        "effect_size_e": r.effect_size_e,
        "effect_size_e_low": r.effect_size_e_ci.low if r.effect_size_e_ci else None,
        "effect_size_e_high": r.effect_size_e_ci.high if r.effect_size_e_ci else None,
    }  # fmt: skip
