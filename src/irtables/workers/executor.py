"""Where independent units of work run: in this process, or on every core.

Work is handed out through the :class:`concurrent.futures.Executor` interface, so that
any executor of that shape can take it: :class:`SerialExecutor` (in process, in order),
a :class:`~concurrent.futures.ProcessPoolExecutor` (``--jobs N``, default all cores), or
a cluster's (Dask's ``distributed.Client.get_executor()``, Ray's) through the same three
calls. A unit of work is a picklable object and a module-level function; results are
collected in submission order, whatever order they finish in, so outputs do not depend
on the number of workers.

A pool costs a process start and the imports of its workers (about half a second of
CPU on a laptop-sized machine): by default (:func:`pool_size`) it is started only when
the work measured beforehand (bytes of input) is large enough to pay for it. Its
processes end with this one: each worker watches this process and exits when it is gone
(killed, even with ``SIGKILL``); an exception (``^C``, ``SIGTERM`` turned into
:class:`SystemExit` by the command line) stops the workers at once instead of letting
them finish (see :mod:`irtables.workers.lifeline`).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future, as_completed
from contextlib import contextmanager, suppress
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from irtables.errors import InputError
from irtables.workers.leftovers import mark_multiprocessing_folder

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing.context import BaseContext

T = TypeVar("T")
R = TypeVar("R")

#: Bytes of input that pay for one worker process when ``--jobs`` is left to irtables:
#: evaluating them takes about half a second of CPU, as much as a pool's start (its fork
#: server imports numpy and pyarrow) and a worker's own reading of the qrels.
BYTES_PER_WORKER = 32 * 2**20
#: The smallest pool started when ``--jobs`` is left to irtables: in this process, reading
#: a run already keeps two cores busy (pyarrow's reader threads), so one or two workers
#: gain nothing (measured on 2 cores: ``bench/bench_trec.py --pool``, 20 and 60 runs).
MIN_POOL = 3


def available_cores() -> int:
    """Cores this process may run on (its CPU affinity), at least 1."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not on Linux
        return max(os.cpu_count() or 1, 1)


def check_jobs(jobs: int | None) -> int | None:
    """``jobs`` if it is None or an integer of at least 0 (0 and None: as many processes
    as the work pays for); the one check of ``--jobs`` and of
    :func:`irtables.load_study`'s ``jobs``.

    Examples
    --------
    >>> check_jobs(0), check_jobs(4), check_jobs(None)
    (0, 4, None)
    """
    if jobs is None or (type(jobs) is int and jobs >= 0):
        return jobs
    raise InputError(
        "jobs: expected an integer of at least 0 (0: as many processes as the work pays "
        f"for), got {jobs!r}"
    )


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


def pool_size(jobs: int | None, sizes: Sequence[int]) -> int:
    """Workers for tasks of ``sizes`` (their input, in bytes), given ``--jobs``.

    An explicit ``jobs`` is obeyed (at most one worker per task). Left to irtables
    (None or 0), a pool is started only when it pays: one worker per ``BYTES_PER_WORKER``
    of input, at most one per task and per idle core (:func:`idle_cores`), and only when
    that makes ``MIN_POOL`` workers or more; a small job, a machine with few cores or one
    busy with other work runs in this process.

    Examples
    --------
    >>> pool_size(4, [10, 10]), pool_size(None, [10, 10]), pool_size(0, [])
    (2, 1, 1)
    """
    if jobs:
        return worker_count(jobs, len(sizes))
    workers = min(sum(sizes) // BYTES_PER_WORKER, len(sizes), idle_cores())
    return workers if workers >= MIN_POOL else 1


def idle_cores() -> int:
    """Available cores not taken by other running processes at this moment (the
    kernel's count of runnable tasks, ``/proc/loadavg``, less this process's own
    threads), at least 1; all available cores where the kernel does not say."""
    cores = available_cores()
    try:
        with open("/proc/loadavg", encoding="ascii") as f:
            running = int(f.read().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return cores
    return max(1, min(cores, cores - (running - _own_running())))


def _own_running() -> int:
    """This process's threads that are running or runnable now (at least this one)."""
    count = 0
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return 1
    for task in tasks:
        try:
            with open(f"/proc/self/task/{task}/stat", encoding="ascii") as f:
                count += f.read().rsplit(")", 1)[1].split()[0] == "R"
        except (OSError, IndexError):
            continue
    return max(count, 1)


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
    ``initializer`` first. The workers end with this process
    (:func:`irtables.workers.lifeline.start_worker`), and an exception raised in the
    ``with`` block (``^C``, ``SIGTERM``) stops them at once.
    """
    workers = worker_count(jobs, tasks)
    if workers == 1:
        yield SerialExecutor()
        return
    from concurrent.futures import ProcessPoolExecutor

    from irtables.workers.lifeline import start_worker

    start = partial(start_worker, os.getpid(), initializer)
    with ProcessPoolExecutor(workers, _context(preload), start) as pool:
        try:
            yield pool
        except BaseException:
            _stop(pool)
            raise


def _context(preload: Sequence[str]) -> BaseContext:
    """The ``forkserver`` context (``spawn`` where there is none), its server usable.

    The server listens on a socket in a temporary folder made when it started; if that
    folder is gone (a program, a test suite, cleaned its temporary files or changed
    ``tempfile.tempdir`` meanwhile), the server is stopped and the next pool starts a
    new one in a new folder, rather than failing to connect.
    """
    import multiprocessing

    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    _mend_forkserver()
    mark_multiprocessing_folder()  # its fork server's folder: removed if this one is killed
    if preload:
        context.set_forkserver_preload(list(preload))
    return context


def _mend_forkserver() -> None:
    """Stop the fork server if its socket is gone; forget multiprocessing's temporary
    folder if it was removed (a new one is made when needed)."""
    from multiprocessing import forkserver, process

    config: dict[str, object] = getattr(process.current_process(), "_config", {})
    folder = config.get("tempdir")
    if isinstance(folder, str) and not os.path.isdir(folder):
        del config["tempdir"]
    server = forkserver._forkserver
    address = getattr(server, "_forkserver_address", None)
    if getattr(server, "_forkserver_pid", None) is None or not isinstance(address, str):
        return
    if not os.path.exists(address):
        with suppress(OSError):  # unlinking the socket file that is no longer there
            server._stop()  # type: ignore[attr-defined]


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: cancel what has not started, end the workers (``SIGTERM``),
    then wait for the pool's manager thread, which would otherwise still be reading the
    workers' pipes as the interpreter closes them (and print an ``OSError`` on the way
    out)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with suppress(OSError, ValueError):
            process.terminate()
    for process in processes:
        with suppress(OSError, ValueError, AssertionError):
            process.join(5)
    manager = getattr(pool, "_executor_manager_thread", None)
    if isinstance(manager, threading.Thread) and manager is not threading.current_thread():
        manager.join(5)


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
