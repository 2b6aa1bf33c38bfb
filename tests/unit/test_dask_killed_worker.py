"""A Dask worker killed in the middle of ``irtables evaluate --scheduler``: Dask runs its
job again on a worker alive, and the output is the bytes of ``-j 1``.

The cluster (``distributed.LocalCluster``, two worker processes of one thread) holds its
jobs at the test's word (:mod:`tests.held_jobs`), so the worker is killed (``SIGKILL``)
while it has a job started and not finished, after some jobs and before the others,
whatever the speed of the machine."""

from __future__ import annotations

import os
import signal
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.held_jobs import HeldJobs, allow
from tests.unit.test_dask import _evaluate, local_cluster
from tests.unit.test_jobs import _write_runs

distributed = pytest.importorskip("distributed")

RUNS = 6
#: Jobs let through before the kill: then each of the two workers holds one started job.
FIRST = 3


def _started(folder: Path) -> dict[int, tuple[int, str]]:
    """The jobs started so far: number → (worker pid, task key)."""
    out = {}
    for path in folder.glob("started-*"):
        if path.suffix != ".part":
            pid, key = path.read_text().split(" ", 1)
            out[int(path.name.split("-")[1])] = (int(pid), key)
    return out


def _finished(folder: Path) -> dict[int, int]:
    """The jobs finished so far: number → worker pid."""
    return {int(p.name.split("-")[1]): int(p.read_text()) for p in folder.glob("finished-*")}


def _wait_for(numbers: set[int], folder: Path, evaluation: Future[str]) -> None:
    """Wait until the jobs ``numbers`` have started (the evaluation still going)."""
    deadline = time.monotonic() + 120
    while not numbers <= _started(folder).keys():
        if evaluation.done():
            pytest.fail(f"the evaluation ended before jobs {sorted(numbers)} started")
        assert time.monotonic() < deadline, f"jobs {sorted(numbers)} never started"
        time.sleep(0.01)


def test_a_worker_killed_mid_run_is_replaced_and_the_bytes_are_those_of_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(REPO))  # the workers unpickle tests.held_jobs.HeldJobs
    qrels, runs = _write_runs(tmp_path, n_runs=RUNS)
    here = _evaluate(qrels, runs, "-j", "1")
    folder = tmp_path / "held"
    folder.mkdir()
    allow(folder, FIRST)
    with (
        local_cluster(executor=HeldJobs(folder)) as cluster,
        ThreadPoolExecutor(1) as background,
    ):
        evaluation = background.submit(
            _evaluate, qrels, runs, "--scheduler", cluster.scheduler_address
        )
        try:
            # each worker (one thread) is held in its next job: jobs 0-2 have finished,
            # three of the six remain (one of them started on the worker killed)
            _wait_for({FIRST, FIRST + 1}, folder, evaluation)
            started, finished = _started(folder), _finished(folder)
            assert sorted(finished) == list(range(FIRST)) and sorted(started) == [0, 1, 2, 3, 4]
            (killed, key), (other, _) = started[FIRST], started[FIRST + 1]
            assert killed != other
            os.kill(killed, signal.SIGKILL)
        finally:
            allow(folder, 10**6)  # every job may go on (and none is left waiting)
        assert evaluation.result(timeout=120) == here
    started, finished = _started(folder), _finished(folder)
    assert FIRST not in finished  # the killed worker never finished its job ...
    again = [n for n, (pid, k) in started.items() if k == key and n != FIRST]
    assert len(again) == 1 and finished[again[0]] != killed  # ... run again elsewhere
    # besides, the results the killed worker held may be computed again
    lost = [n for n, (pid, _) in started.items() if pid == killed]
    assert RUNS + 1 <= len(started) <= RUNS + len(lost)
    assert len(finished) == len(started) - 1  # every job but the one killed has finished
