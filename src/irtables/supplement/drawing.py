"""Drawing the supplement's figures, in worker processes when several cores are there.

A job is a picklable callable that returns a :class:`~matplotlib.figure.Figure` (a
:func:`functools.partial` of a function of :mod:`.figures` and its data). Each figure is
drawn once and saved in every format (:func:`.figures.render_all`). The figures do not
depend on each other, so with several cores they are drawn in a process pool; the files
are the same bytes either way (fixed style, sizes and metadata; results kept in job order).
Workers start from a fork server that has imported matplotlib once (``spawn`` where there
is no fork server), never by forking this process, whose threads (pyarrow, BLAS) a fork
could leave locked.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import warnings
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool

from matplotlib.figure import Figure

from irtables.errors import IrtablesWarning
from irtables.supplement.figures import render_all

Job = Callable[[], Figure]
Rendered = dict[str, bytes]
#: Imported once by the fork server, so that each worker starts with matplotlib loaded.
PRELOAD = ["irtables.supplement.figures"]


def available_cores() -> int:
    """The number of cores this process may run on.

    Examples
    --------
    >>> available_cores() >= 1
    True
    """
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def worker_count(jobs: int, workers: int | None = None) -> int:
    """How many processes draw ``jobs`` figures: ``workers``, else one per available core,
    never more than there are jobs (1: drawn in this process).

    Examples
    --------
    >>> worker_count(3, 8), worker_count(0, 4), worker_count(5, 1)
    (3, 0, 1)
    """
    return min(jobs, available_cores() if workers is None else workers)


def warm_up(workers: int | None = None) -> None:
    """Start the fork server now, so that it imports matplotlib while this process reads
    the results and builds the tables; a no-op unless figures will be drawn in parallel."""
    if worker_count(2, workers) > 1 and "forkserver" in multiprocessing.get_all_start_methods():
        from multiprocessing import forkserver

        _context()
        with contextlib.suppress(OSError):  # no processes here: render_jobs draws in-process
            forkserver.ensure_running()


def render_jobs(
    jobs: Sequence[Job],
    *,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Rendered]:
    """Draw every job's figure and save it in every format; results in job order.

    ``workers`` is the number of processes (default: one per available core, at most one
    per job); with one, or when processes cannot be started here, the figures are drawn in
    this process. ``progress(done, total)`` is called as figures are finished.
    """
    report = progress or (lambda done, total: None)
    count = worker_count(len(jobs), workers)
    if count > 1:
        try:
            return _in_pool(jobs, count, report)
        except (OSError, BrokenProcessPool) as e:  # a sandbox, limits, an unguarded script
            warnings.warn(
                f"figures drawn in one process: worker processes failed ({e})",
                IrtablesWarning,
                stacklevel=2,
            )
    out = []
    for done, job in enumerate(jobs, start=1):
        out.append(render_all(job()))
        report(done, len(jobs))
    return out


def _render_pickled(job: bytes) -> Rendered:
    """In a worker: unpickle one job, draw it and save it in every format."""
    draw: Job = pickle.loads(job)
    return render_all(draw())


def _in_pool(
    jobs: Sequence[Job], workers: int, report: Callable[[int, int], None]
) -> list[Rendered]:
    results: dict[int, Rendered] = {}
    local: list[int] = []
    with ProcessPoolExecutor(workers, mp_context=_context()) as pool:
        futures: dict[Future[Rendered], int] = {}
        for i, job in enumerate(jobs):
            try:
                data = pickle.dumps(job)
            except (pickle.PicklingError, AttributeError, TypeError):
                local.append(i)  # a closure cannot go to a worker: drawn here below
                continue
            futures[pool.submit(_render_pickled, data)] = i
        for i in local:
            results[i] = render_all(jobs[i]())
            report(len(results), len(jobs))
        for future in as_completed(futures):
            results[futures[future]] = future.result()
            report(len(results), len(jobs))
    return [results[i] for i in range(len(jobs))]


def _context() -> multiprocessing.context.BaseContext:
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)
        return context
    return multiprocessing.get_context("spawn")
