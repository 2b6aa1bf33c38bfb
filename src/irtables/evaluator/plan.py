"""One way to evaluate: read the qrels, make the jobs, run them (with a store of values).

:func:`irtables.evaluator.api.evaluate` (the library),
:func:`irtables.evaluator.command.evaluate_files` (``irtables evaluate``) and
:func:`irtables.study.runsets.evaluate_datasets` (a study's qrels + runs, through its
cache) all come here once their options are checked
(:func:`~irtables.evaluator.values.check_options`). A :class:`Batch` is one qrels with
the runs evaluated against it under one set of options; the plan

1. takes from the ``store`` (a study's cache) the values it already holds;
2. measures the rest (bytes of run files) and decides where it runs
   (:func:`~irtables.workers.executor.pool_size`: a pool only when the work pays for it);
3. reads every qrels now, so that its errors come first: indexed once in this process
   for the jobs that run here (the first small run file is read meanwhile, in a thread),
   or only its queries when a pool's workers index what they are sent;
4. runs the jobs (:func:`~irtables.evaluator.jobs.evaluate_jobs`), puts their values in
   the store and emits each batch's notes as warnings, in order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, cast

from irtables.evaluator.jobs import (
    RunJob,
    emit_notes,
    evaluate_jobs,
    qrels_index,
    qrels_queries,
)
from irtables.evaluator.trec import JudgementIndex, index_qrels
from irtables.evaluator.values import Options, RunValues
from irtables.model.runs import Qrels, Run
from irtables.workers.executor import pool_size

Progress = Callable[[str, int, int], None]
#: Bytes per row of a run in memory, as a file would hold it (to weigh it against files).
RUN_ROW_BYTES = 40
#: A long input: about a million TREC run lines. A run file no longer is read in a
#: thread while the qrels are read (a longer one alone, so that its memory is taken in
#: one place); ``irtables evaluate`` shows progress beyond it.
LONG_INPUT_BYTES = 50 * 2**20


@dataclass(frozen=True)
class Batch:
    """Runs (``(file or run, name)``) evaluated against one qrels under one set of options."""

    qrels: Path | Qrels
    runs: Sequence[tuple[Path | Run, str]]
    options: Options


@dataclass(frozen=True)
class Evaluated:
    """A batch's values, one per run in order, and its qrels' judged queries (sorted)."""

    queries: tuple[str, ...]
    values: list[RunValues]


class Store(Protocol):
    """Values kept between calls (a study's cache), addressed by (batch, run) position."""

    def get(self, batch: int, run: int) -> RunValues | None:
        """The stored values of run ``run`` of batch ``batch``, or None."""

    def put(self, batch: int, run: int, values: RunValues) -> None:
        """Keep the values just computed for run ``run`` of batch ``batch``."""

    def discard(self, batch: int, run: int, reason: str) -> None:
        """Stored values of run ``run`` of batch ``batch`` do not fit its qrels: they are
        not used (the run is evaluated again) for ``reason``."""


def evaluate_batches(
    batches: Sequence[Batch],
    *,
    jobs: int | None = 1,
    progress: Progress | None = None,
    store: Store | None = None,
    executor: Executor | None = None,
    scheduler: str | None = None,
) -> list[Evaluated]:
    """Evaluate every run of every batch; one :class:`Evaluated` per batch, in order.

    ``jobs``: processes (None or 0: as many as pay for themselves, see
    :func:`~irtables.workers.executor.pool_size`; the values do not depend on it);
    ``executor``: run the jobs there instead; ``scheduler``: on the Dask cluster of that
    address (:mod:`irtables.workers.cluster`; its workers read the files at the same paths,
    the store is written here only). ``progress("evaluate", done, total)`` counts the
    jobs run (and, in this process, ``("read <run>", bytes, total)`` each run file read).
    """
    found = [
        [store.get(b, r) if store is not None else None for r in range(len(batch.runs))]
        for b, batch in enumerate(batches)
    ]
    todo = [(b, r) for b, slots in enumerate(found) for r, v in enumerate(slots) if v is None]
    with ExitStack() as stack:
        arrow = scheduler is not None and executor is None and bool(todo)
        if arrow:  # results come back from the cluster as Arrow
            from irtables.workers.cluster import cluster_executor

            executor = stack.enter_context(cluster_executor(cast(str, scheduler)))
        sizes = [_size(batches[b], r) for b, r in todo]
        workers = 1 if executor is not None else pool_size(jobs, sizes)
        here = workers == 1 and executor is None
        first = todo[0] if todo and here and progress is None else None
        with _read_meanwhile(batches, first) as first_run:
            indexes, queries = _read_qrels(batches, {b for b, _ in todo}, index=here)
            early = first_run()
        todo += _unfit(found, queries, store)  # stored values naming a query the qrels lack
        made = []
        for b, r in todo:
            run, name = batches[b].runs[r]
            if early is not None and (b, r) == first:
                run = early
            qrels = indexes[b] if b in indexes else _source(batches[b].qrels)
            made.append(RunJob(qrels, run, name, batches[b].options))
        computed = evaluate_jobs(
            made, workers=workers, progress=progress, warn=False, executor=executor, arrow=arrow
        )
    for (b, r), fresh in zip(todo, computed, strict=True):
        found[b][r] = fresh
        if store is not None:
            store.put(b, r, fresh)
    out = []
    for judged, slots in zip(queries, found, strict=True):
        values = [v for v in slots if v is not None]
        emit_notes(values, stacklevel=3)
        out.append(Evaluated(judged, values))
    return out


def _unfit(
    found: list[list[RunValues | None]], queries: list[tuple[str, ...]], store: Store | None
) -> list[tuple[int, int]]:
    """The stored values that name a query position past their qrels' queries (a damaged
    entry), discarded from ``found``; they are evaluated again."""
    out = []
    for b, slots in enumerate(found):
        for r, values in enumerate(slots):
            if values is None or store is None or not len(values.query_index):
                continue
            if int(values.query_index[-1]) >= len(queries[b]):  # positions increase
                store.discard(b, r, "a query the qrels do not have")
                slots[r] = None
                out.append((b, r))
    return out


def _size(batch: Batch, run: int) -> int:
    """The input of a job, in bytes: its run file's size (or its rows', in memory)."""
    source = batch.runs[run][0]
    if isinstance(source, Run):
        return len(source) * RUN_ROW_BYTES
    try:
        return source.stat().st_size
    except OSError:
        return 0  # its job says why


def _source(qrels: Path | Qrels) -> Path | JudgementIndex:
    return qrels if isinstance(qrels, Path) else index_qrels(qrels)


def _read_qrels(
    batches: Sequence[Batch], evaluated: set[int], *, index: bool
) -> tuple[dict[int, JudgementIndex], list[tuple[str, ...]]]:
    """Each batch's judged queries, read now; with ``index``, the index of each batch
    with a job, built once per file (a pool's workers build their own)."""
    indexes: dict[int, JudgementIndex] = {}
    queries: list[tuple[str, ...]] = []
    by_file: dict[Path, JudgementIndex] = {}
    for b, batch in enumerate(batches):
        qrels = batch.qrels
        if isinstance(qrels, Qrels):
            if b in evaluated:
                indexes[b] = index_qrels(qrels)
            queries.append(tuple(qrels.queries))
        elif index and b in evaluated:
            if qrels not in by_file:
                by_file[qrels] = qrels_index(qrels)
            indexes[b] = by_file[qrels]
            queries.append(indexes[b].queries)
        else:
            queries.append(qrels_queries(qrels, index=False))
    return indexes, queries


@contextmanager
def _read_meanwhile(
    batches: Sequence[Batch], job: tuple[int, int] | None
) -> Iterator[Callable[[], Run | None]]:
    """The run file of ``job``, when small, read in a thread while the qrels are read
    (both parsers release the GIL); the callable gives it (or raises its error, after the
    qrels' own), or None when it is not read here."""
    source, name = batches[job[0]].runs[job[1]] if job is not None else (None, "")
    if not isinstance(source, Path) or not _small(source):
        yield lambda: None
        return
    from concurrent.futures import ThreadPoolExecutor

    from irtables.loaders.trec_run import read_run
    from irtables.workers.preload import short_switch_interval

    with short_switch_interval(), ThreadPoolExecutor(max_workers=1) as pool:
        future = pool.submit(read_run, source, name=name)
        yield future.result


def _small(path: Path) -> bool:
    try:
        return path.stat().st_size <= LONG_INPUT_BYTES
    except OSError:
        return False
