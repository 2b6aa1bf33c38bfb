"""Evaluating many runs: one unit of work per (run, qrels) pair, on any executor.

A :class:`RunJob` names its qrels and its run by path (or carries them), so it can be
sent to a worker process, or to a cluster, as it is; :func:`run_job` is the module-level
function that does the work. A worker reads and indexes a qrels file once and keeps it
for the next runs against the same file (keyed by path, size and modification time).
:func:`evaluate_jobs` runs the jobs on an executor from
:func:`irtables.workers.executor.make_executor` and returns the results in job order, so
outputs are the same for any number of workers.
The jobs are made by :mod:`irtables.evaluator.plan`.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from pathlib import Path

from irtables.base.arrow import skip_pandas_checks
from irtables.errors import DataWarning, InputError
from irtables.evaluator.trec import JudgementIndex, index_qrels
from irtables.evaluator.values import Options, RunValues, measure_run
from irtables.model.runs import Run
from irtables.workers.executor import SerialExecutor, make_executor, run_all

Progress = Callable[[str, int, int], None]
#: Modules a worker process imports once, before its first job.
PRELOAD = ("irtables.evaluator.jobs", "irtables.loaders.trec_run", "irtables.loaders.qrels")


@dataclass(frozen=True)
class RunJob:
    """One unit of work: a run evaluated against qrels with some options.

    ``qrels`` is a file, or an index built by the caller (sent along to a worker);
    ``run`` a file (read by the worker) or a run in memory.
    """

    qrels: Path | JudgementIndex
    run: Path | Run
    name: str
    options: Options


def run_job_arrow(job: RunJob) -> bytes:
    """Do one job on a cluster's worker: its values as an Arrow IPC stream
    (:mod:`irtables.evaluator.transport`)."""
    from irtables.evaluator.transport import to_ipc

    return to_ipc(run_job(job))


def run_job(job: RunJob, progress: Progress | None = None) -> RunValues:
    """Do one job: read what it names, rank the run, compute its measures."""
    index = job.qrels if isinstance(job.qrels, JudgementIndex) else qrels_index(job.qrels)
    if isinstance(job.run, Run):
        run = job.run
    else:
        from irtables.loaders.trec_run import read_run

        run = read_run(job.run, name=job.name, progress=progress)
    return measure_run(index, run, job.options)


_INDEXES: dict[tuple[str, int, int], JudgementIndex] = {}


def qrels_index(path: Path) -> JudgementIndex:
    """The index of a qrels file, read once per process (the last two files are kept)."""
    from irtables.loaders.qrels import read_qrels

    try:
        stat = path.stat()
    except OSError:
        return index_qrels(read_qrels(path))  # its error names the file
    key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
    if key not in _INDEXES:
        index = index_qrels(read_qrels(path))
        while len(_INDEXES) >= 2:
            del _INDEXES[next(iter(_INDEXES))]
        _INDEXES[key] = index
    return _INDEXES[key]


def check_run_names(
    names: Sequence[str], context: str = "", *, paths: Sequence[object] = ()
) -> None:
    """:class:`InputError` (its message after ``context``) when two runs share a name;
    with ``paths`` (one per name), the message names the files of the first collision."""
    first: dict[str, int] = {}
    for i, name in enumerate(names):
        j = first.setdefault(name, i)
        if j == i:
            continue
        files = f" ({paths[j]} and {paths[i]})" if len(paths) == len(names) else ""
        raise InputError(f"{context}two runs have the same name {name!r}{files}")


def qrels_queries(path: Path, *, index: bool) -> tuple[str, ...]:
    """The judged queries of a qrels file (sorted), read now so that its errors come
    first; with ``index``, the file is indexed and kept for this process's jobs (else
    only worker processes index it, and this one keeps nothing but the queries)."""
    if index:
        return qrels_index(path).queries
    from irtables.loaders.qrels import read_qrels

    return read_qrels(path).queries


def evaluate_jobs(
    jobs: Sequence[RunJob],
    *,
    workers: int | None = 1,
    progress: Progress | None = None,
    warn: bool = True,
    executor: Executor | None = None,
    arrow: bool = False,
) -> list[RunValues]:
    """Run every job (``workers``: processes, None for every core), results in job order.

    Each job's notes are emitted as :class:`~irtables.errors.DataWarning`, in job order
    (unless ``warn`` is false: the caller emits them). ``executor`` runs the jobs on any
    :class:`concurrent.futures.Executor` instead (a cluster's, such as Dask's
    ``Client.get_executor()``; its workers must see the files at the same paths); with
    ``arrow``, its results come back as Arrow IPC streams instead of pickled arrays.
    ``progress("evaluate", done, total)`` follows the jobs; with one worker, the bytes of
    each run file read are reported too (``("read <run>", bytes, total)``).
    """
    total = len(jobs)

    def done(finished: int, _: int) -> None:
        if progress is not None:
            progress("evaluate", finished, total)

    if executor is not None:
        jobs = [_absolute(job) for job in jobs]  # a worker's working folder is its own
        if arrow:
            from irtables.evaluator.transport import from_ipc

            sent = run_all(executor, run_job_arrow, list(jobs), done=done)
            return _emitted([from_ipc(data) for data in sent], warn)
        results = run_all(executor, run_job, list(jobs), done=done)
        return _emitted(results, warn)
    with make_executor(workers, total, preload=PRELOAD, initializer=skip_pandas_checks) as pool:
        if isinstance(pool, SerialExecutor):
            results = []
            for finished, job in enumerate(jobs, start=1):
                results.append(run_job(job, progress))
                done(finished, total)
        else:
            results = run_all(pool, run_job, list(jobs), done=done)
    return _emitted(results, warn)


def _absolute(job: RunJob) -> RunJob:
    """``job`` with its files named by absolute paths: a cluster's worker resolves a
    relative path against its own working folder (where ``qrels.txt`` is another file,
    or none)."""
    qrels = job.qrels.absolute() if isinstance(job.qrels, Path) else job.qrels
    run = job.run.absolute() if isinstance(job.run, Path) else job.run
    return replace(job, qrels=qrels, run=run)


def _emitted(results: list[RunValues], warn: bool) -> list[RunValues]:
    if warn:
        emit_notes(results, stacklevel=5)
    return results


def emit_notes(results: Sequence[RunValues], *, stacklevel: int = 2) -> None:
    """Each distinct note of ``results`` as a :class:`~irtables.errors.DataWarning`, in
    order (a note about the qrels comes with every run, and is given once)."""
    for note in dict.fromkeys(note for values in results for note in values.notes):
        warnings.warn(note, DataWarning, stacklevel=stacklevel + 1)
