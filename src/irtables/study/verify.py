"""``irtables cache verify``: evaluate cached runs again and report every entry that differs.

A cache entry that checks out (:func:`irtables.cache.read_entry`) may still have been
forged: only evaluating the run again tells. Each (qrels, run) pair the configuration
names whose entry is in the cache is evaluated again (all, or a random sample) and
compared with the entry value by value.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from irtables.config import Config

if TYPE_CHECKING:
    from irtables.evaluator.values import Options, RunValues


@dataclass(frozen=True)
class EntryCheck:
    """One entry and what checking it found: ``problem`` is None when it is right."""

    entry: Path
    dataset: str
    run: Path
    problem: str | None


@dataclass(frozen=True)
class VerifyReport:
    """What ``cache verify`` found: the entries checked, and how many were not."""

    checked: tuple[EntryCheck, ...]
    entries: int
    unrelated: int

    @property
    def differing(self) -> tuple[EntryCheck, ...]:
        """The entries that differ from a fresh evaluation (or are damaged)."""
        return tuple(c for c in self.checked if c.problem is not None)

    def lines(self) -> list[str]:
        """The report as text lines: one per differing entry, then a summary."""
        out = [
            f"differs: {c.entry} (dataset {c.dataset}, run {c.run}): {c.problem}"
            for c in self.differing
        ]
        out.append(
            f"checked {len(self.checked)} of {self.entries} cache entries: "
            f"{len(self.differing)} differ"
        )
        if self.unrelated:
            out.append(
                f"{self.unrelated} entries were not checked: computed from inputs or options "
                "this study no longer names (`irtables cache clear` removes them)"
            )
        return out


def verify_cache(
    config: Config,
    base: Path,
    *,
    sample: int | None = None,
    seed: int | None = None,
    jobs: int | None = 1,
) -> VerifyReport:
    """Evaluate the cached (qrels, run) pairs of a study again and compare.

    ``sample`` checks that many entries chosen at random (``seed`` makes the choice
    repeatable); None checks all. An entry that does not check out when read is
    reported as differing with the reason.
    """
    from irtables.cache import CACHE_DIR_NAME, Cache, DamagedEntry, content_hashes, entries
    from irtables.cache import read_entry as read
    from irtables.evaluator.jobs import RunJob, evaluate_jobs, qrels_queries
    from irtables.loaders.trec_run import system_name
    from irtables.study.runsets import _path, evaluation_options, run_paths

    store = Cache(base / CACHE_DIR_NAME)
    present = set(entries(base))
    specs = [spec for spec in config.datasets if spec.evaluated]
    pairs: list[tuple[str, Path, Path, Options]] = []
    for spec in specs:
        qrels = _path(base, spec.qrels or "", spec.id, "qrels")
        options = evaluation_options(spec, config)
        pairs.extend((spec.id, qrels, run, options) for run in run_paths(spec, base))
    hashes = content_hashes(list(dict.fromkeys(p for _, q, r, _ in pairs for p in (q, r))))
    cached = []
    for dataset, qrels, run, options in pairs:
        request = store.request(
            qrels=hashes[qrels], run=hashes[run], name=system_name(run), options=options
        )
        if store.path(request) in present:
            cached.append((dataset, qrels, run, request))
    chosen = cached
    if sample is not None and sample < len(cached):
        rng = random.Random(seed) if seed is not None else random.SystemRandom()
        chosen = sorted(rng.sample(cached, sample), key=cached.index)
    checks: list[EntryCheck] = []
    jobs_to_run = []
    for dataset, qrels, run, request in chosen:
        path = store.path(request)
        try:
            values = read(path, request)
        except (DamagedEntry, OSError, ValueError) as exc:
            checks.append(EntryCheck(path, dataset, run, f"damaged: {exc}"))
            continue
        job = RunJob(qrels, run, request.name, request.options)
        jobs_to_run.append((dataset, run, path, values, job))
    fresh = evaluate_jobs([j for *_, j in jobs_to_run], workers=jobs, warn=False)
    queries: dict[Path, list[str]] = {}
    for (dataset, run, path, values, job), computed in zip(jobs_to_run, fresh, strict=True):
        qrels = Path(str(job.qrels))
        if qrels not in queries:
            queries[qrels] = list(qrels_queries(qrels, index=False))
        checks.append(EntryCheck(path, dataset, run, difference(values, computed, queries[qrels])))
    return VerifyReport(tuple(checks), len(present), len(present) - len(cached))


def difference(cached: RunValues, fresh: RunValues, queries: Sequence[str]) -> str | None:
    """The first difference between cached values and freshly computed ones (None: same);
    ``queries`` are the qrels' (what the values' query positions index)."""
    for field in ("runid", "relevant_total", "notes", "metrics"):
        a, b = getattr(cached, field), getattr(fresh, field)
        if a != b:
            return f"{field}: cached {a!r}, evaluated {b!r}"
    if not np.array_equal(cached.query_index, fresh.query_index):
        return "the queries differ"
    if not np.array_equal(cached.retrieved, fresh.retrieved):
        return "which queries the run has differs"
    unequal = cached.values != fresh.values
    if not unequal.any():
        return None
    m, q = (int(i) for i in np.argwhere(unequal)[0])
    position = int(fresh.query_index[q])
    query = queries[position] if 0 <= position < len(queries) else "all"
    return (
        f"{fresh.metrics[m]} of query {query}: cached "
        f"{cached.values[m, q]:.6g}, evaluated {fresh.values[m, q]:.6g}"
        f" ({int(unequal.sum())} values differ)"
    )
