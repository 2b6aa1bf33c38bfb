"""Temporary folders of irtables processes killed with SIGKILL (issue 34 §3): the next
run removes those whose marker names a process that is gone, and no other folder.

Every run here is a child process whose TMPDIR is a folder of the test (set in the
child's environment only); the markers are written by the test in the documented form
``irtables <pid> <start time>``, the start time read from /proc by the test.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.conftest import REPO, RUNS

MARKER = ".irtables-owner"


def _start_time(pid: int) -> str:
    """Field 22 of /proc/<pid>/stat (after the command name in parentheses)."""
    data = Path(f"/proc/{pid}/stat").read_text()
    return data[data.rfind(")") + 2 :].split()[19]


def _dead_pid() -> int:
    done = subprocess.Popen([sys.executable, "-c", "pass"])
    done.wait()
    return done.pid


def _env(tmp: Path) -> dict[str, str]:
    env = {**os.environ, "TMPDIR": str(tmp), "PYTHONPATH": f"{REPO / 'src'}{os.pathsep}{REPO}"}
    env.pop("IRTABLES_SCHEDULER", None)
    return env


def _irtables(tmp: Path) -> None:
    args = ["evaluate", str(RUNS / "tiny.qrels"), str(RUNS / "tiny.run"), "-m", "map", "-j", "1"]
    done = subprocess.run(
        [sys.executable, "-m", "irtables", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=_env(tmp),
    )
    assert done.returncode == 0, done.stderr


def _folder(tmp: Path, name: str, marker: str | None) -> Path:
    folder = tmp / name
    folder.mkdir()
    (folder / "socket-or-tex").write_text("left behind\n")
    if marker is not None:
        (folder / MARKER).write_text(marker)
    return folder


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_the_next_run_removes_the_folders_of_dead_irtables_processes_only(
    tmp_path: Path,
) -> None:
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    dead, alive = _dead_pid(), os.getpid()
    started = _start_time(alive)
    removed = [
        _folder(tmp, "pymp-dead1234", f"irtables {dead} 4242\n"),
        _folder(tmp, "irtables-latex-dead5678", f"irtables {dead} -\n"),
        # the pid of a running process, started at another time: the pid was reused
        _folder(tmp, "irtables-latex-reused", f"irtables {alive} 1\n"),
    ]
    kept = [
        _folder(tmp, "pymp-alive", f"irtables {alive} {started}\n"),
        _folder(tmp, "pymp-unmarked", None),  # another Python program's
        _folder(tmp, "pymp-other-form", f"python {dead} 1\n"),
        _folder(tmp, "other-dead", f"irtables {dead} 4242\n"),  # not a name irtables uses
    ]
    _irtables(tmp)
    assert [p.name for p in removed if p.exists()] == []
    assert [p.name for p in kept if not (p / "socket-or-tex").exists()] == []


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_a_pool_killed_outright_leaves_a_folder_the_next_run_removes() -> None:
    # a short TMPDIR: the pool's forkserver socket lives in it, and a socket's path is
    # limited to 107 bytes (pytest's own temporary folders under xdist come close)
    with tempfile.TemporaryDirectory(dir="/tmp", prefix="irt-") as short:
        _killed_pool_leftovers_removed(Path(short))


def _killed_pool_leftovers_removed(tmp: Path) -> None:
    code = (
        "import os, signal\n"
        "from irtables.workers.executor import make_executor\n"
        "with make_executor(2, 2) as pool:\n"
        "    assert list(pool.map(abs, [-1, -2])) == [1, 2]\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=_env(tmp)
    )
    assert done.returncode == -9, done.stderr
    left = [p for p in tmp.iterdir() if p.name.startswith("pymp-")]
    assert left and all((p / MARKER).read_text().startswith("irtables ") for p in left)
    _irtables(tmp)
    assert not [p for p in tmp.iterdir() if p.name.startswith("pymp-") and p in left]
