"""Display names: how the paper shows an id (``robust03`` -> ``TREC Robust 2003``, ``AP`` ->
``MAP``). Decided once, from the configuration, and read by every human-readable output;
machine outputs keep the ids in their own columns beside the names."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class DisplayNames:
    """The display names of dataset and system ids (an id without one shows as itself)
    and the labels of metrics (``AP`` -> ``MAP``, ``RR@10`` -> ``MRR@10``).

    Examples
    --------
    >>> names = DisplayNames({"robust03": "TREC Robust 2003"})
    >>> names.dataset("robust03"), names.system("bm25"), names.metric("AP"), names.metric("x")
    ('TREC Robust 2003', 'bm25', 'MAP', 'x')
    """

    datasets: Mapping[str, str] = field(default_factory=dict)
    systems: Mapping[str, str] = field(default_factory=dict)

    def dataset(self, dataset: str) -> str:
        """The display name of a dataset id."""
        return self.datasets.get(dataset, dataset)

    def system(self, system: str) -> str:
        """The display name of a system id."""
        return self.systems.get(system, system)

    @staticmethod
    def metric(metric: str) -> str:
        """The table label of a canonical metric name (the name itself if it is none)."""
        from irtables.errors import UnknownNameError
        from irtables.measures import parse_measure

        try:
            return parse_measure(metric).label
        except UnknownNameError:
            return metric
