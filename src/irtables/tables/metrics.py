"""Matching the metrics a table asks for with the metrics the results hold."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irtables.errors import IrtablesError, UnknownNameError
from irtables.measures import Measure, parse_measure
from irtables.model import ResultSet


def family_of(name: str) -> Measure:
    """The measure without cutoff that a K-breakdown row names (``NDCG``, ``P``, ``MAP``).

    Examples
    --------
    >>> family_of("P").name, family_of("MRR").name
    ('P', 'RR')
    """
    try:
        return parse_measure(name).without_cutoff
    except UnknownNameError:
        try:
            measure = parse_measure(f"{name}@1")
        except UnknownNameError:
            raise UnknownNameError(
                f"unknown metric family {name!r} in tables.k_breakdown.metrics "
                "(use names like NDCG, P, R, MRR, MAP, Success)"
            ) from None
        return Measure(measure.family, None, measure.rel, measure.param)


def dataset_metric_pairs(results: ResultSet) -> list[tuple[str, str]]:
    """The distinct (dataset, metric) pairs of the results, from the category codes."""
    datasets = results.categories("dataset")
    metrics = results.categories("metric")
    n_metrics = results.size("metric")
    present = np.flatnonzero(results.pair_counts("metric").ravel())
    return [(datasets[int(p) // n_metrics], metrics[int(p) % n_metrics]) for p in present]


def _match_key(m: Measure) -> tuple[str, int | None, float | None, str | None]:
    return (m.family, m.k, m.param, m.extra)


@dataclass(frozen=True)
class MetricIndex:
    """The canonical metrics present per dataset, for resolving requested measures.

    A requested measure matches a present one with the same name, or else with the same
    family, cutoff and parameter whatever its relevance threshold (``MAP`` finds
    ``AP(rel=2)``), provided only one such measure is present.
    """

    present: dict[str, dict[tuple[str, int | None, float | None, str | None], list[Measure]]]

    @classmethod
    def from_results(cls, results: ResultSet) -> MetricIndex:
        present: dict[
            str, dict[tuple[str, int | None, float | None, str | None], list[Measure]]
        ] = {}
        for dataset, metric in dataset_metric_pairs(results):
            measure = parse_measure(metric)
            present.setdefault(dataset, {}).setdefault(_match_key(measure), []).append(measure)
        for table in present.values():
            for found in table.values():
                found.sort(key=lambda m: m.name)
        return cls(present)

    def resolve(self, dataset: str, requested: Measure) -> str | None:
        """Canonical name of the metric that stands for ``requested`` in ``dataset``."""
        found = self.present.get(dataset, {}).get(_match_key(requested), [])
        exact = [m for m in found if m == requested]
        if exact:
            return exact[0].name
        if len(found) == 1:
            return found[0].name
        if len(found) > 1:
            names = ", ".join(m.name for m in found)
            raise IrtablesError(
                f"{requested.label} is ambiguous on dataset {dataset}: the results hold {names}; "
                "name one of them in the configuration"
            )
        return None

    def cutoffs(self, dataset: str) -> set[int]:
        """The cutoffs of the metrics of ``dataset``."""
        return {key[1] for key in self.present.get(dataset, {}) if key[1] is not None}

    def has_k(self, dataset: str, k: int) -> bool:
        """Whether any metric of ``dataset`` has cutoff ``k``."""
        return any(key[1] == k for key in self.present.get(dataset, {}))

    def columns(
        self,
        requested: Sequence[Measure],
        *,
        strict: bool,
        table: str,
        dataset: str | None = None,
    ) -> list[Measure]:
        """The requested measures present in ``dataset`` (or in any dataset).

        With ``strict``, a requested measure that is nowhere is an error listing what is.
        """
        datasets = [dataset] if dataset is not None else list(self.present)
        out = []
        for measure in requested:
            if any(self.resolve(d, measure) is not None for d in datasets):
                out.append(measure)
            elif strict:
                known = sorted(
                    {
                        m.label
                        for d in datasets
                        for ms in self.present.get(d, {}).values()
                        for m in ms
                    }
                )
                where = f" on dataset {dataset}" if dataset else ""
                raise IrtablesError(
                    f"{table}.metrics: {measure.label} is not in the results{where} "
                    f"(available: {', '.join(known)})"
                )
        if not out:
            known = sorted(
                {m.label for d in datasets for ms in self.present.get(d, {}).values() for m in ms}
            )
            raise IrtablesError(
                f"{table}: none of the metrics {', '.join(m.label for m in requested)} is in the "
                f"results (available: {', '.join(known)}); set {table}.metrics in irtables.toml"
            )
        return out
