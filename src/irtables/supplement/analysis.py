"""Per-query analysis against the baseline: wins, ties, losses and the largest changes.

Pure: takes a :class:`~irtables.model.ResultSet`, returns records.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

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


@dataclass(frozen=True)
class PerQuery:
    """One system against the baseline on one dataset and metric, query by query.

    ``changes`` holds every query, largest gain first (ties in query order).

    Examples
    --------
    >>> p = PerQuery("d", "AP", "x", "b", (QueryChange("2", 0.1, 0.5),
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
    changes: tuple[QueryChange, ...]

    @property
    def n(self) -> int:
        """Number of paired queries."""
        return len(self.changes)

    @cached_property
    def wins(self) -> int:
        """Queries where the system beats the baseline."""
        return sum(c.diff > TIE_TOLERANCE for c in self.changes)

    @cached_property
    def losses(self) -> int:
        """Queries where the baseline beats the system."""
        return sum(c.diff < -TIE_TOLERANCE for c in self.changes)

    @property
    def ties(self) -> int:
        """Queries with the same value (within :data:`TIE_TOLERANCE`)."""
        return self.n - self.wins - self.losses

    def top_gains(self, count: int) -> tuple[QueryChange, ...]:
        """The ``count`` largest improvements (only queries that improved)."""
        return tuple(c for c in self.changes[:count] if c.diff > TIE_TOLERANCE)

    def top_losses(self, count: int) -> tuple[QueryChange, ...]:
        """The ``count`` largest drops, worst first (only queries that got worse)."""
        worst = sorted(self.changes, key=lambda c: (c.diff, c.query))[:count]
        return tuple(c for c in worst if c.diff < -TIE_TOLERANCE)


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
        changes = map(QueryChange, names[order], base[order].tolist(), values[order].tolist())
        out.append(PerQuery(dataset, metric, system, baseline, tuple(changes)))
    return tuple(out)
