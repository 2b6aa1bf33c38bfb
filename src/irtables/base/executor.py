"""Where independent units of work run: in this process, or on every core.

Work is handed out through the :class:`concurrent.futures.Executor` interface, so that
any executor of that shape can take it: :class:`SerialExecutor` (in process, in order),
a :class:`~concurrent.futures.ProcessPoolExecutor` (``--jobs N``, default all cores), or
a cluster's (Dask's ``distributed.Client.get_executor()``, Ray's) through the same three
calls. A unit of work is a picklable object and a module-level function; results are
collected in submission order, whatever order they finish in, so outputs do not depend
on the number of workers.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future, as_completed
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def available_cores() -> int:
    """Cores this process may run on (its CPU affinity), at least 1."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not on Linux
        return max(os.cpu_count() or 1, 1)


def worker_count(jobs: int | None, tasks: int) -> int:
    """Workers for ``tasks`` units of work: ``jobs`` (None or 0: every core), at most one
    per task, at least 1.

    Examples
    --------
    >>> worker_count(4, 2), worker_count(1, 10), worker_count(3, 0)
    (2, 1, 1)
    """
    wanted = jobs if jobs else available_cores()
    return max(1, min(wanted, tasks))


class SerialExecutor(Executor):
    """An executor that runs each task at once, in this process (``--jobs 1``).

    Exceptions are kept in the future, as a pool would, and raised by ``result()``.
    """

    def submit(self, fn: Callable[..., R], /, *args: Any, **kwargs: Any) -> Future[R]:
        """Run ``fn(*args, **kwargs)`` now; return its finished future."""
        future: Future[R] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # delivered by future.result(), as a pool does
            future.set_exception(exc)
        return future


@contextmanager
def make_executor(
    jobs: int | None,
    tasks: int,
    *,
    preload: Sequence[str] = (),
    initializer: Callable[[], object] | None = None,
) -> Iterator[Executor]:
    """An executor for ``tasks`` units of work with ``jobs`` workers (None: every core).

    One worker (or one task) runs in this process; more run in a process pool whose
    processes are forked from a clean server process (``forkserver``: no threads of this
    process are inherited) that has imported ``preload`` once; each worker calls
    ``initializer`` first.
    """
    workers = worker_count(jobs, tasks)
    if workers == 1:
        yield SerialExecutor()
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if preload and context.get_start_method() == "forkserver":
        context.set_forkserver_preload(list(preload))
    with ProcessPoolExecutor(workers, context, initializer) as pool:
        yield pool


def run_all(
    executor: Executor,
    fn: Callable[[T], R],
    items: Iterable[T],
    *,
    done: Callable[[int, int], None] | None = None,
) -> list[R]:
    """``[fn(item) for item in items]`` on ``executor``, in the order of ``items``.

    ``done(finished, total)`` is called as tasks finish (in any order). The first
    failure is raised once every task has ended.
    """
    futures = [executor.submit(fn, item) for item in items]
    total = len(futures)
    try:
        if done is not None:
            for finished, _ in enumerate(as_completed(futures), start=1):
                done(finished, total)
        return [f.result() for f in futures]
    except BaseException:
        for f in futures:  # a failure (or ^C): what has not started never will
            f.cancel()
        raise
