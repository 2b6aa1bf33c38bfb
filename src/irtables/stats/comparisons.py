"""The collection of paired-test results that :func:`~irtables.stats.compare` returns."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from irtables.stats.result import Outcome, PairedTestResult
from irtables.stats.rows import COLUMNS, comparison_row

if TYPE_CHECKING:
    import pandas as pd

    from irtables.model.names import DisplayNames


@dataclass(frozen=True)
class Comparisons:
    """Paired-test results with the settings that produced them.

    ``outcome`` of a result is ``"better"`` / ``"worse"`` when its adjusted p-value is
    at most ``alpha`` (by the sign of the mean difference), else ``"none"``.
    ``correction`` names the procedure for the all-pairs tests (``tukey``,
    ``randomized-tukey``), which adjust for all pairs themselves.
    ``without_baseline`` lists each dataset (with two systems or more) that was not
    compared with some or all of its baselines, and the baselines it has no run of.
    ``resamples`` is the number of resamples a resampling test drew for each comparison.
    """

    results: tuple[PairedTestResult, ...]
    test: str
    correction: str
    family: str
    alpha: float
    alternative: str = "two-sided"
    without_baseline: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: the resamples the test drew (0: a test that draws none)
    resamples: int = 0
    #: The study's display names, for a notebook's view (``study.compare`` sets them).
    names: DisplayNames | None = field(default=None, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.results)

    def _repr_markdown_(self) -> str:
        """How a notebook shows the comparisons: the Markdown report with its legend."""
        from irtables.stats.report import format_comparisons

        return format_comparisons(self, "markdown", names=self.names).split("\n", 1)[1]

    def _repr_html_(self) -> str:
        """The Markdown report's table as HTML (pandas escapes every string)."""
        from irtables.stats.report import comparisons_html

        return comparisons_html(self, names=self.names)

    def __iter__(self) -> Iterator[PairedTestResult]:
        return iter(self.results)

    def select(
        self,
        *,
        dataset: str | None = None,
        metric: str | None = None,
        system: str | None = None,
        baseline: str | None = None,
    ) -> tuple[PairedTestResult, ...]:
        """The results that match every given field, in order."""
        want = {"dataset": dataset, "metric": metric, "system": system, "baseline": baseline}
        want = {k: v for k, v in want.items() if v is not None}
        return tuple(r for r in self.results if all(getattr(r, k) == v for k, v in want.items()))

    def get(
        self,
        *,
        dataset: str | None = None,
        metric: str | None = None,
        system: str | None = None,
        baseline: str | None = None,
    ) -> PairedTestResult:
        """The one result that matches; ``KeyError`` when none or several do."""
        found = self.select(dataset=dataset, metric=metric, system=system, baseline=baseline)
        if len(found) != 1:
            what = f"dataset={dataset}, metric={metric}, system={system}, baseline={baseline}"
            raise KeyError(f"{len(found)} comparisons match {what}")
        return found[0]

    def outcome(self, result: PairedTestResult) -> Outcome:
        """``better`` / ``worse`` / ``none`` for one result at this ``alpha``."""
        return result.outcome(self.alpha)

    def better_than(self, dataset: str, metric: str, system: str) -> tuple[str, ...]:
        """Systems that ``system`` beats significantly (ranx-style letters), either way round."""
        out = []
        for r in self.select(dataset=dataset, metric=metric):
            o = r.outcome(self.alpha)
            if r.system == system and o == "better":
                out.append(r.baseline)
            elif r.baseline == system and o == "worse":
                out.append(r.system)
        return tuple(out)

    def to_frame(self) -> pd.DataFrame:
        """One row per comparison, with the columns in :data:`COLUMNS`."""
        import pandas as pd

        rows = [comparison_row(r, self.alpha) for r in self.results]
        return pd.DataFrame(rows, columns=list(COLUMNS))
