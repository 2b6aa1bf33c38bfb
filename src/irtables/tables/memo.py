"""The tests of a build, reused from the study's cache by recipe (issue 33 §2).

:class:`StoredTests` is the :class:`~irtables.stats.memo.Memo` that
:func:`~irtables.tables.build_all` passes down to :func:`~irtables.stats.compare`: the
results of each unit (the tests of one dataset and metric) are kept in the cache folder
(:mod:`irtables.cache.results`), read back on a rerun whose unit has the same recipe, and
the work is counted: the units run and those reused, by (dataset, metric).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from irtables.cache.results import (
    ResultStore,
    read_result_entry,
    result_entries,
    warn_damaged_result,
)
from irtables.cache.store import DamagedEntry
from irtables.stats.memo import decode_results, encode_results
from irtables.stats.result import PairedTestResult

Unit = tuple[str, str]  # (dataset, metric)


@dataclass
class StoredTests:
    """Results of tests by recipe: in ``store`` (None: kept for this build only) and read
    back unless ``read`` is False (a forced rebuild runs every test, and stores it).

    ``ran`` and ``reused`` list the units, (dataset, metric), as they were decided; a
    unit that two tables test with the same recipe is run once in a build. A unit read
    and then run all the same (a batched test runs the units of a query set together,
    when one of them must run) counts as run.
    """

    store: ResultStore | None = None
    read: bool = True
    ran: list[Unit] = field(default_factory=list)
    reused: list[Unit] = field(default_factory=list)
    _kept: dict[str, tuple[Unit, list[PairedTestResult]]] = field(default_factory=dict)
    _read: list[str] = field(default_factory=list)  # the recipe of each of ``reused``

    @classmethod
    def of_study(cls, base: Path, *, cache: bool, rebuild: bool) -> StoredTests:
        """The tests of the study folder ``base``: kept in its cache unless ``cache`` is
        False (``--no-cache``), read back unless ``rebuild`` (``--rebuild``)."""
        return cls(ResultStore.of_study(base) if cache else None, not rebuild)

    def get(self, recipe: str) -> list[PairedTestResult] | None:
        """The results of ``recipe``: from this build, else from the store's entry if it
        checks out (else a warning says why, and the unit runs again)."""
        if not self.read:
            return None
        if recipe in self._kept:
            unit, results = self._kept[recipe]
            self._reuse(recipe, unit)
            return list(results)
        entry = self.store.get(recipe) if self.store is not None else None
        if entry is None or self.store is None:
            return None
        try:
            results = decode_results(entry.results)
            unit = _unit(entry.description)
            _check_pairs(entry.description, results)
        except ValueError as exc:
            warn_damaged_result(self.store.path(recipe), f"not the results it describes: {exc}")
            return None
        self._kept[recipe] = (unit, results)
        self._reuse(recipe, unit)
        return list(results)

    def _reuse(self, recipe: str, unit: Unit) -> None:
        self.reused.append(unit)
        self._read.append(recipe)

    def put(
        self, recipe: str, description: Mapping[str, Any], results: Sequence[PairedTestResult]
    ) -> None:
        """Count the unit as run, keep its results for this build and store them."""
        unit = _unit(description)
        if recipe in self._read:  # read, then run all the same: it counts as run
            i = len(self._read) - 1 - self._read[::-1].index(recipe)
            del self._read[i], self.reused[i]
        self.ran.append(unit)
        self._kept[recipe] = (unit, list(results))
        if self.store is not None:
            self.store.put(recipe, description, encode_results(results))


def _unit(description: Mapping[str, Any]) -> Unit:
    dataset, metric = description.get("dataset"), description.get("metric")
    if not isinstance(dataset, str) or not isinstance(metric, str):
        raise ValueError("no dataset and metric")
    return dataset, metric


def _check_pairs(description: Mapping[str, Any], results: Sequence[PairedTestResult]) -> None:
    """The results are those of the pairs, dataset and metric the description names."""
    dataset, metric = _unit(description)
    pairs = [[r.system, r.baseline] for r in results]
    if pairs != description.get("compared"):
        raise ValueError("other comparisons than its description's")
    if any(r.dataset != dataset or r.metric != metric for r in results):
        raise ValueError("another dataset or metric than its description's")


@dataclass(frozen=True)
class CheckedTests:
    """What :func:`verify_tested` found: the entries run again and those that differ
    (with why), and how many entries no test of the study has the recipe of."""

    checked: tuple[Path, ...]
    differing: tuple[tuple[Path, str], ...]
    unrelated: int

    def lines(self) -> list[str]:
        """The report as text lines: one per differing entry, then a summary."""
        out = [f"differs: {path}: {why}" for path, why in self.differing]
        out.append(
            f"checked {len(self.checked)} of {len(self.checked) + self.unrelated} "
            f"test results: {len(self.differing)} differ"
        )
        if self.unrelated:
            out.append(
                f"{self.unrelated} test results were not checked: computed from inputs or "
                "settings this study no longer has (`irtables cache clear` removes them)"
            )
        return out


@dataclass
class _Verifying:
    """A memo that runs every unit and compares each with its entry in ``store``."""

    store: ResultStore
    checked: dict[Path, str | None] = field(default_factory=dict)

    def get(self, recipe: str) -> list[PairedTestResult] | None:
        return None

    def put(
        self, recipe: str, description: Mapping[str, Any], results: Sequence[PairedTestResult]
    ) -> None:
        path = self.store.path(recipe)
        if path in self.checked:
            return
        try:
            entry = read_result_entry(path)
        except FileNotFoundError:
            return
        except DamagedEntry as exc:
            self.checked[path] = str(exc)
            return
        same = _json(entry.results) == _json(encode_results(results))
        self.checked[path] = None if same else "its results differ from those run again"


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, allow_nan=False)


def verify_tested(base: Path, run: Callable[[Any], object]) -> CheckedTests:
    """Run again the tests whose results the cache of the study folder ``base`` holds
    and compare: ``run(memo)`` builds the study's tables with ``memo``
    (:func:`~irtables.tables.build_all`); every unit it runs that has an entry is
    compared with it, exactly (the JSON form of every field)."""
    found = result_entries(base)
    store = ResultStore.of_study(base)
    if not found or store is None:
        return CheckedTests((), (), len(found))
    memo = _Verifying(store)
    run(memo)
    known = set(found)
    checked = tuple(p for p in memo.checked if p in known)
    differing = tuple((p, why) for p, why in memo.checked.items() if p in known and why)
    return CheckedTests(checked, differing, len(found) - len(checked))


__all__ = ["CheckedTests", "StoredTests", "Unit", "verify_tested"]
