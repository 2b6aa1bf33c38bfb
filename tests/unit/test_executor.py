"""When a pool is started, and a pool that survives its temporary folder being removed."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from irtables.workers import executor
from irtables.workers.executor import BYTES_PER_WORKER, available_cores, idle_cores, pool_size

MIB = 2**20


def test_an_explicit_jobs_is_obeyed_up_to_one_worker_per_task() -> None:
    assert pool_size(4, [10, 10]) == 2
    assert pool_size(2, [1, 1, 1]) == 2
    assert pool_size(1, [10**12] * 8) == 1


@pytest.mark.parametrize(
    ("sizes", "idle", "expected"),
    [
        ([10 * MIB], 8, 1),  # one run: never a pool
        ([BYTES_PER_WORKER * 4], 8, 1),  # one task, however large
        ([MIB] * 20, 8, 1),  # twenty small runs: less work than one worker's start
        ([BYTES_PER_WORKER] * 2, 8, 1),  # two workers' worth: no gain over this process
        ([BYTES_PER_WORKER] * 3, 8, 3),  # enough work for three workers
        ([BYTES_PER_WORKER // 2] * 9, 8, 4),  # 4.5 workers' worth
        ([BYTES_PER_WORKER] * 20, 8, 8),  # at most one per idle core
        ([BYTES_PER_WORKER] * 20, 2, 1),  # two idle cores: in this process
        ([BYTES_PER_WORKER] * 20, 1, 1),  # a busy machine: in this process
    ],
)
def test_the_default_starts_a_pool_only_when_the_work_pays_for_it(
    monkeypatch: pytest.MonkeyPatch, sizes: list[int], idle: int, expected: int
) -> None:
    monkeypatch.setattr(executor, "idle_cores", lambda: idle)
    assert pool_size(None, sizes) == expected
    assert pool_size(0, sizes) == expected


def test_idle_cores_is_between_one_and_the_available_cores() -> None:
    assert 1 <= idle_cores() <= available_cores()


# A fresh interpreter (the fork server is process-wide): a pool, then its temporary folder
# (and tempfile.tempdir's) removed, as a test suite's clean-up does, then another pool.
SCRIPT = """
import math, shutil, sys, tempfile
from pathlib import Path
from irtables.workers.executor import make_executor, run_all

if __name__ == "__main__":
    for round in range(2):
        folder = Path(sys.argv[1]) / f"tmp{round}"
        folder.mkdir()
        tempfile.tempdir = str(folder)
        with make_executor(2, 2) as pool:
            print(run_all(pool, math.sqrt, [4.0, 9.0]), flush=True)
        shutil.rmtree(folder)
"""


def test_a_pool_starts_after_the_fork_servers_folder_was_removed(tmp_path: Path) -> None:
    script = tmp_path / "pools.py"
    script.write_text(SCRIPT)
    # a short folder: the fork server's socket path must fit AF_UNIX's 108 bytes (a pytest
    # worker's tmp_path does not leave room for multiprocessing's pymp-*/listener-*)
    with tempfile.TemporaryDirectory(prefix="irt") as short:
        done = subprocess.run(
            [sys.executable, str(script), short], capture_output=True, text=True, timeout=300
        )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split("\n") == ["[2.0, 3.0]", "[2.0, 3.0]", ""]
