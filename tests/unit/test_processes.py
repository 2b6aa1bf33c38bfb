"""Processes end with irtables: killed (``SIGKILL``), terminated (``SIGTERM``) or
interrupted (``^C``: ``SIGINT`` to the process group) at several moments, it leaves no
process and no output behind.

The moments are made to last, not timed: runs and qrels are named pipes (FIFOs), so the
workers (or irtables itself) wait reading them until the test kills irtables. What is
counted is the processes still alive afterwards (``/proc``), within generous bounded
waits.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")

WAIT = 60.0  # seconds: the longest a step may take on a loaded machine


def _stat(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _descendants(root: int) -> list[int]:
    """Living (not zombie) processes below ``root``."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))) is not None:
            children.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return [pid for pid in found if _alive(pid)]


def _alive(pid: int) -> bool:
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


def _blocked_on_fifo(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/wchan").read_text() == "wait_for_partner"
    except OSError:
        return False


def _wait_until(check: object, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not check():  # type: ignore[operator]
        if time.monotonic() > deadline:
            pytest.fail(f"not within {WAIT:.0f} s: {what}")
        time.sleep(0.05)


@pytest.fixture
def study(tmp_path: Path) -> Iterator[Path]:
    (tmp_path / "qrels.txt").write_text("1 0 d1 1\n1 0 d2 0\n")
    for name in ("qrels.fifo", "a.run", "b.run"):
        os.mkfifo(tmp_path / name)
    yield tmp_path


def _start(folder: Path, qrels: str) -> subprocess.Popen[bytes]:
    argv = [sys.executable, "-m", "irtables", "evaluate", str(folder / qrels)]
    argv += [str(folder / "a.run"), str(folder / "b.run"), "-j", "2", "-m", "map"]
    argv += ["-o", str(folder / "out.tsv")]
    return subprocess.Popen(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    )


def _stop(proc: subprocess.Popen[bytes], how: str) -> None:
    if how == "SIGINT":  # ^C: the terminal signals the whole foreground group
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(getattr(signal, how))


@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM", "SIGINT"])
@pytest.mark.parametrize("moment", ["workers reading runs", "irtables reading qrels"])
def test_no_process_and_no_output_outlive_irtables(study: Path, how: str, moment: str) -> None:
    in_pool = moment == "workers reading runs"
    proc = _start(study, "qrels.txt" if in_pool else "qrels.fifo")
    seen: list[int] = []
    try:
        if in_pool:  # the fork server, its resource tracker and two workers at the pipes

            def ready() -> bool:
                seen[:] = _descendants(proc.pid)
                return sum(_blocked_on_fifo(p) for p in seen) == 2

            _wait_until(ready, "two workers reading the runs")
        else:
            _wait_until(lambda: _blocked_on_fifo(proc.pid), "irtables reading the qrels")
            seen[:] = _descendants(proc.pid)
        _stop(proc, how)
        proc.wait(WAIT)
        _wait_until(lambda: not any(_alive(p) for p in seen), "every child process ended")
    finally:
        for pid in [proc.pid, *seen]:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        _, err = proc.communicate(timeout=WAIT)
    assert len(seen) == (4 if in_pool else 0)
    assert proc.returncode == {"SIGKILL": -9, "SIGTERM": 143, "SIGINT": 1}[how]
    assert sorted(p.name for p in study.iterdir()) == ["a.run", "b.run", "qrels.fifo", "qrels.txt"]
    assert b"Traceback" not in err
