"""Per-query analysis against the baseline: wins, ties, losses and the largest changes.

Pure: takes a :class:`~irtables.model.ResultSet`, returns records.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from irtables.model import MissingPolicy, ResultSet

#: Differences at most this large (in absolute value) count as ties (float noise).
TIE_TOLERANCE = 1e-9


@dataclass(frozen=True)
class QueryChange:
    """One query: the baseline's value, the system's, and their difference."""

    query: str
    baseline: float
    system: float

    @property
    def diff(self) -> float:
        """``system - baseline``."""
        return self.system - self.baseline


@dataclass(frozen=True, eq=False)
class PerQuery:
    """One system against the baseline on one dataset and metric, query by query.

    ``queries``, ``baseline_values`` and ``system_values`` hold every query, largest gain
    first (ties in query order), as arrays: a study has tens of thousands of them per
    dataset, and the figures and counts work on the differences as a whole.

    Examples
    --------
    >>> p = PerQuery.from_changes("d", "AP", "x", "b", (QueryChange("2", 0.1, 0.5),
    ...     QueryChange("1", 0.3, 0.3), QueryChange("3", 0.6, 0.2)))
    >>> p.wins, p.ties, p.losses
    (1, 1, 1)
    >>> [c.query for c in p.top_gains(2)], [c.query for c in p.top_losses(2)]
    (['2'], ['3'])
    """

    dataset: str
    metric: str
    system: str
    baseline: str
    queries: tuple[str, ...]
    baseline_values: npt.NDArray[np.float64]
    system_values: npt.NDArray[np.float64]

    @classmethod
    def from_changes(
        cls, dataset: str, metric: str, system: str, baseline: str, changes: Sequence[QueryChange]
    ) -> PerQuery:
        """The analysis of ``changes``, given in the order kept (largest gain first)."""
        return cls(
            dataset,
            metric,
            system,
            baseline,
            tuple(c.query for c in changes),
            np.array([c.baseline for c in changes], dtype=np.float64),
            np.array([c.system for c in changes], dtype=np.float64),
        )

    @property
    def n(self) -> int:
        """Number of paired queries."""
        return len(self.queries)

    @cached_property
    def diffs(self) -> npt.NDArray[np.float64]:
        """``system - baseline`` of every query, in the kept order (largest gain first)."""
        diffs: npt.NDArray[np.float64] = self.system_values - self.baseline_values
        return diffs

    @cached_property
    def wins(self) -> int:
        """Queries where the system beats the baseline."""
        return int(np.count_nonzero(self.diffs > TIE_TOLERANCE))

    @cached_property
    def losses(self) -> int:
        """Queries where the baseline beats the system."""
        return int(np.count_nonzero(self.diffs < -TIE_TOLERANCE))

    @property
    def ties(self) -> int:
        """Queries with the same value (within :data:`TIE_TOLERANCE`)."""
        return self.n - self.wins - self.losses

    def change(self, i: int) -> QueryChange:
        """The ``i``-th query of the kept order."""
        return QueryChange(
            self.queries[i], float(self.baseline_values[i]), float(self.system_values[i])
        )

    def top_gains(self, count: int) -> tuple[QueryChange, ...]:
        """The ``count`` largest improvements (only queries that improved)."""
        first = range(min(count, self.n))
        return tuple(self.change(i) for i in first if self.diffs[i] > TIE_TOLERANCE)

    def top_losses(self, count: int) -> tuple[QueryChange, ...]:
        """The ``count`` largest drops, worst first (only queries that got worse);
        equal drops in query order."""
        at = np.flatnonzero(self.diffs < -TIE_TOLERANCE)
        if count <= 0 or not at.size:
            return ()
        drops = self.diffs[at]
        shown = min(count, at.size)
        cut = np.partition(drops, shown - 1)[shown - 1]  # the shown-th largest drop
        candidates = at[drops <= cut].tolist()  # those, and any equal to the last
        worst = sorted(candidates, key=lambda i: (self.diffs[i], self.queries[i]))[:shown]
        return tuple(self.change(i) for i in worst)


def compare_queries(
    results: ResultSet,
    dataset: str,
    metric: str,
    systems: Sequence[str],
    baseline: str,
    *,
    missing: MissingPolicy = "error",
) -> tuple[PerQuery, ...]:
    """Per-query changes of each of ``systems`` against ``baseline`` on one dataset and metric.

    Queries are paired as in the significance tests (``missing`` decides what happens
    when the systems cover different queries).
    """
    others = [s for s in systems if s != baseline]
    aligned = results.aligned(dataset, metric, [baseline, *others], missing=missing)
    names = np.array(aligned.queries, dtype=object)
    codes = np.array(aligned.queries, dtype=str)  # sorts as Python sorts str, in C
    base = np.asarray(aligned.column(baseline), dtype=np.float64)
    out = []
    for system in others:
        values = np.asarray(aligned.column(system), dtype=np.float64)
        # largest gain first, equal gains in query order (lexsort: last key first)
        order = np.lexsort((codes, -(values - base)))
        queries = tuple(names[order].tolist())
        out.append(PerQuery(dataset, metric, system, baseline, queries, base[order], values[order]))
    return tuple(out)
