"""An executor for the workers of a test's Dask cluster that holds jobs at the test's word.

``distributed.LocalCluster(..., executor=HeldJobs(folder))`` gives each worker process
one (picklable: it is sent to each worker process as it starts) in place of its thread
pool. The jobs started on the cluster are numbered in the order they start, across its
workers: job ``k`` writes ``started-<k>`` (its worker's pid and the task's key), waits
until the file ``allowed`` holds a number greater than ``k``, runs, then writes
``finished-<k>``. A test thus knows which worker is in the middle of which job, and
decides when each may go on. Kept apart from the test modules: a worker imports this
module alone (no pytest, no irtables).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

#: Seconds a job waits for the test's word before it fails (a test that went wrong).
PATIENCE = 120.0


class HeldJobs(Executor):
    """One job at a time, in a thread, each held until ``folder/allowed`` lets it start."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._pool: ThreadPoolExecutor | None = None

    def __getstate__(self) -> dict[str, object]:
        return {"folder": self.folder}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.folder = state["folder"]
        self._pool = None

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """Run ``fn(*args, **kwargs)`` in this executor's thread once it is allowed."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(1, thread_name_prefix="held-job")
        return self._pool.submit(self._held, fn, args, kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop the thread (what has not started is dropped with ``cancel_futures``)."""
        if self._pool is not None:
            self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)

    def _held(self, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        key = getattr(args[0], "key", None) if args else None  # the task (a dask Task)
        number = _take_number(self.folder, f"{os.getpid()} {key}")
        deadline = time.monotonic() + PATIENCE
        while allowed(self.folder) <= number:
            if time.monotonic() > deadline:
                raise TimeoutError(f"job {number} was not allowed to start")
            time.sleep(0.01)
        result = fn(*args, **kwargs)
        (self.folder / f"finished-{number}").write_text(str(os.getpid()))
        return result


def allow(folder: Path, jobs: int) -> None:
    """Let the jobs numbered below ``jobs`` start (written at once: no reader sees half)."""
    part = folder / "allowed.part"
    part.write_text(str(jobs))
    os.replace(part, folder / "allowed")


def allowed(folder: Path) -> int:
    """How many jobs may have started (0 before :func:`allow`)."""
    try:
        return int((folder / "allowed").read_text())
    except (FileNotFoundError, ValueError):
        return 0


def _take_number(folder: Path, note: str) -> int:
    """The lowest job number not taken yet, taken: ``claim-<k>`` is made (only one job
    can), then ``started-<k>`` appears holding ``note`` (written whole, never half)."""
    number = 0
    while True:
        try:
            os.close(os.open(folder / f"claim-{number}", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            number += 1
            continue
        part = folder / f"started-{number}.part"
        part.write_text(note)
        os.replace(part, folder / f"started-{number}")
        return number
