"""A Dask worker killed in the middle of ``irtables evaluate --scheduler``: Dask runs its
job again on a worker alive, and the output is the bytes of ``-j 1``; when Dask gives up
on a job (its ``allowed-failures``), irtables says so in one error line.

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
from click.testing import CliRunner

from irtables.cli import main
from tests.conftest import REPO
from tests.held_jobs import HeldJobs, allow
from tests.unit.test_dask import _evaluate, local_cluster
from tests.unit.test_jobs import _write_runs

distributed = pytest.importorskip("distributed")
dask = pytest.importorskip("dask")

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


def _kill_mid_run(folder: Path, evaluation: Future[object]) -> tuple[int, str]:
    """Once each worker (one thread) is held in a job after the first three, kill
    (``SIGKILL``) the one running job 3: then jobs 0-2 have finished and three of the six
    remain. Every job is let go at the end. The killed worker's pid and the job's key."""
    try:
        _wait_for({FIRST, FIRST + 1}, folder, evaluation)
        started, finished = _started(folder), _finished(folder)
        assert sorted(finished) == list(range(FIRST)) and sorted(started) == [0, 1, 2, 3, 4]
        (killed, key), (other, _) = started[FIRST], started[FIRST + 1]
        assert killed != other
        os.kill(killed, signal.SIGKILL)
        return killed, key
    finally:
        allow(folder, 10**6)  # every job may go on (and none is left waiting)


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
        killed, key = _kill_mid_run(folder, evaluation)
        assert evaluation.result(timeout=120) == here
    started, finished = _started(folder), _finished(folder)
    assert FIRST not in finished  # the killed worker never finished its job ...
    again = [n for n, (pid, k) in started.items() if k == key and n != FIRST]
    assert len(again) == 1 and finished[again[0]] != killed  # ... run again elsewhere
    # besides, the results the killed worker held may be computed again
    lost = [n for n, (pid, _) in started.items() if pid == killed]
    assert RUNS + 1 <= len(started) <= RUNS + len(lost)
    assert len(finished) == len(started) - 1  # every job but the one killed has finished


def test_a_job_whose_workers_keep_dying_is_one_error_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dask gives up on a job once ``allowed-failures`` workers died running it (0 here:
    the first death); irtables says so in one line, not as an internal error."""
    monkeypatch.syspath_prepend(str(REPO))
    qrels, runs = _write_runs(tmp_path, n_runs=RUNS)
    folder = tmp_path / "held"
    folder.mkdir()
    allow(folder, FIRST)
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),
        local_cluster(executor=HeldJobs(folder)) as cluster,
        ThreadPoolExecutor(1) as background,
    ):
        address = cluster.scheduler_address
        args = ["evaluate", str(qrels), *map(str, runs), "-m", "map", "--scheduler", address]
        evaluation = background.submit(CliRunner().invoke, main, args)
        _kill_mid_run(folder, evaluation)
        result = evaluation.result(timeout=120)
    assert result.exit_code == 2, result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert errors == [
        f"Error: the Dask workers of {address} died running the same job (tries: 1, the "
        "most distributed.scheduler.allowed-failures allows); their logs say why (out of "
        "memory?)"
    ]
