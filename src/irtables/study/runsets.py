"""Datasets given as qrels + runs in the configuration: evaluated into per-query results.

The measures default to what the tables show: Table 1's metrics, every Table S1 family
at every configured K, the ablation's metrics, and MAP. Binary measures carry the
dataset's relevance threshold in their name (``AP(rel=2)``) when it is not 1, so captions
can state it; nDCG, whose gain is the grade itself, does not.
"""

from __future__ import annotations

import glob
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from irtables.config import Config, DatasetSpec
from irtables.errors import InputError, UnknownNameError
from irtables.measures import FAMILIES, Measure, at_threshold, parse_measure
from irtables.model import ResultSet

if TYPE_CHECKING:
    from irtables.evaluator.trec import JudgementIndex
    from irtables.evaluator.values import Options

Progress = Callable[[str, int, int], None]


def evaluate_datasets(
    config: Config,
    base: Path,
    *,
    progress: Progress | None = None,
    jobs: int | None = 1,
    cache: bool = True,
) -> ResultSet | None:
    """Evaluate every dataset of ``config`` that names qrels and runs (None if none does).

    Every (run, qrels) pair of every dataset is one job; ``jobs`` processes run them
    (None: one per core). With ``cache``, the values of a pair whose qrels, run, options
    and evaluation semantics are unchanged come from the study's cache folder
    (:mod:`irtables.cache`) and only the other pairs are evaluated (then stored); an
    entry that does not check out is evaluated again, with a warning.
    ``progress("evaluate", done, total)`` counts the pairs evaluated.
    """
    specs = [spec for spec in config.datasets if spec.evaluated]
    if not specs:
        return None
    from irtables.cache import Cache, Request, beyond, content_hashes, rows_bound, warn_damaged
    from irtables.evaluator.api import to_results
    from irtables.evaluator.jobs import (
        RunJob,
        check_run_names,
        emit_notes,
        evaluate_jobs,
        in_pool,
        qrels_index,
        qrels_queries,
    )
    from irtables.evaluator.values import RunValues
    from irtables.loaders.trec_run import system_name

    qrels_files = [_path(base, s.qrels or "", s.id, "qrels") for s in specs]
    run_files = [run_paths(s, base) for s in specs]
    store = Cache.of_study(base) if cache else None
    hashes: dict[Path, str] = {}
    if store is not None:
        hashes = content_hashes(qrels_files + [p for paths in run_files for p in paths])
    found: list[list[RunValues | None]] = []
    dataset_options: list[Options] = []
    todo: list[tuple[int, int, Request | None, RunJob]] = []  # (dataset, run, request, job)
    for d, (spec, qrels, paths) in enumerate(zip(specs, qrels_files, run_files, strict=True)):
        options = evaluation_options(spec, config)
        dataset_options.append(options)
        runs = [(path, system_name(path)) for path in paths]
        check_run_names([name for _, name in runs], context=f"datasets {spec.id}: ", paths=paths)
        found.append([None] * len(runs))
        rows = rows_bound(qrels) if store is not None else 0
        for r, (path, name) in enumerate(runs):
            request = None
            if store is not None:
                request = store.request(
                    qrels=hashes[qrels], run=hashes[path], name=name, options=options, max_rows=rows
                )
                found[d][r] = store.get(request)
                if found[d][r] is not None:
                    continue
            todo.append((d, r, request, RunJob(qrels, path, name, options)))
    # Each qrels is read now, so that its errors come first. Jobs run here share one index
    # per file, built only for datasets with a job; a pool's workers index what they get.
    here = not in_pool(jobs, len(todo))
    evaluated = {d for d, *_ in todo}
    indexes: dict[Path, JudgementIndex] = {}
    queries = []
    for d, qrels in enumerate(qrels_files):
        if here and d in evaluated:
            indexes[qrels] = qrels_index(qrels)
            queries.append(indexes[qrels].queries)
        else:
            queries.append(qrels_queries(qrels, index=False))
    todo = [
        (d, r, k, replace(job, qrels=indexes[qrels_files[d]]) if here else job)
        for d, r, k, job in todo
    ]
    for d, slots in enumerate(found):  # an entry naming a query the qrels lack is damaged
        for r, cached in enumerate(slots):
            if store is None or cached is None or not beyond(cached, len(queries[d])):
                continue
            path, name, options = run_files[d][r], cached.system, dataset_options[d]
            request = store.request(
                qrels=hashes[qrels_files[d]], run=hashes[path], name=name, options=options
            )
            warn_damaged(store.path(request), "a query the qrels do not have")
            todo.append((d, r, request, RunJob(qrels_files[d], path, name, options)))
    computed = evaluate_jobs([job for *_, job in todo], workers=jobs, progress=progress, warn=False)
    for (d, r, request, _), fresh in zip(todo, computed, strict=True):
        found[d][r] = fresh
        if store is not None and request is not None:
            store.put(request, fresh)
    parts = []
    for spec, judged, slots in zip(specs, queries, found, strict=True):
        done = [v for v in slots if v is not None]
        emit_notes(done, stacklevel=2)
        parts.append(to_results(done, judged, dataset=spec.id))
    return ResultSet.concat(parts)


def evaluation_options(spec: DatasetSpec, config: Config) -> Options:
    """How the runs of a dataset are evaluated: its measures and trec_eval's options."""
    from irtables.evaluator.values import check_options

    return check_options(
        [m.name for m in dataset_measures(spec, config)],
        relevance=spec.relevance,
        depth=spec.depth,
        missing_queries="zero" if spec.complete else "ignore",
        trec_eval=spec.trec_eval,
    )


def configured_inputs(config: Config, base: Path) -> list[Path]:
    """Every qrels and run file the configuration names."""
    out: list[Path] = []
    for spec in config.datasets:
        if spec.evaluated:
            out.append(_path(base, spec.qrels or "", spec.id, "qrels"))
            out.extend(run_paths(spec, base))
    return out


def run_paths(spec: DatasetSpec, base: Path) -> list[Path]:
    """The run files of a dataset: paths and glob patterns, relative to ``base``, sorted."""
    found: list[Path] = []
    for pattern in spec.runs:
        if glob.has_magic(pattern):
            matches = sorted(Path(p) for p in glob.glob(str(base / pattern)))
            if not matches:
                raise InputError(
                    f"datasets {spec.id}: no run file matches {pattern!r}", path=str(base)
                )
            found.extend(matches)
        else:
            found.append(_path(base, pattern, spec.id, "run"))
    return list(dict.fromkeys(found))


def dataset_measures(spec: DatasetSpec, config: Config) -> list[Measure]:
    """The measures to compute for a dataset, with its relevance threshold in their names."""
    if spec.measures:
        names: Iterable[str] = spec.measures
    else:
        names = _shown(config)
    out: dict[str, Measure] = {}
    for name in names:
        m = at_threshold(parse_measure(name), spec.relevance)
        out.setdefault(m.name, m)
    return list(out.values())


def _shown(config: Config) -> list[str]:
    names = [*config.main.metrics, "MAP"]
    for family in config.k_breakdown.metrics:
        try:
            m = parse_measure(family)
        except UnknownNameError:
            m = parse_measure(f"{family}@1")
        if FAMILIES[m.family].cutoff == "none" or (m.k is None and family.upper() == "MAP"):
            names.append(family)
            continue
        names.extend(f"{m.family}@{k}" for k in config.k_breakdown.k)
    if config.ablation is not None:
        names.extend(config.ablation.metrics)
    return names


def _path(base: Path, name: str, dataset: str, what: str) -> Path:
    path = Path(name) if Path(name).is_absolute() else base / name
    if not path.is_file():
        raise InputError(f"datasets {dataset}: {what} file not found", path=str(path))
    return path
