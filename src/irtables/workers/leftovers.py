"""Temporary folders of irtables processes killed outright, removed by the next run.

An irtables process removes its temporary folders as it ends, ``^C`` and ``SIGTERM``
included; ``SIGKILL`` leaves them in the temporary folder (``TMPDIR``): pdflatex's
``irtables-latex-*`` and the ``pymp-*`` folder of Python's :mod:`multiprocessing`, whose
fork server listens on a socket there. Each such folder that irtables makes or uses holds
a marker, :data:`MARKER`: ``irtables <pid> <start time>`` (the start time of the process,
in clock ticks since boot, from ``/proc``, or ``-`` where there is none). Each command
removes the marked folders whose process is gone: no process with that pid, or one
started at another time (the pid was reused). A folder without a marker, with a marker
in another form, of another user, or whose process runs is never touched.
"""

from __future__ import annotations

import os
import re
import stat
from contextlib import suppress
from pathlib import Path

#: The marker file in each temporary folder of an irtables process.
MARKER = ".irtables-owner"
#: Names of the temporary folders that may hold one.
PREFIXES = ("pymp-", "irtables-")
_FORM = re.compile(r"irtables (\d+) (\d+|-)\n?")


def mark(folder: str | Path) -> None:
    """Put the marker of this process in ``folder`` (a temporary folder it made or uses);
    a folder that cannot take it is left unmarked (never removed by another run)."""
    pid = os.getpid()
    with suppress(OSError):
        Path(folder, MARKER).write_text(f"irtables {pid} {_start_time(pid) or '-'}\n")


def mark_multiprocessing_folder() -> None:
    """Mark the ``pymp-*`` folder of :mod:`multiprocessing` (made now if there is none
    yet), where the fork server of this process's pools keeps its socket."""
    from multiprocessing import util

    with suppress(OSError):
        mark(util.get_temp_dir())


def remove_dead(folder: str | Path | None = None) -> list[Path]:
    """Remove the marked temporary folders in ``folder`` (default: the temporary folder,
    ``TMPDIR``) whose irtables process is gone; the folders removed."""
    import shutil
    import tempfile

    root = Path(folder if folder is not None else tempfile.gettempdir())
    removed = []
    try:
        entries = [e for e in os.scandir(root) if e.name.startswith(PREFIXES)]
    except OSError:
        return []
    for entry in entries:
        pid = _dead_owner(entry)
        if pid is not None:
            shutil.rmtree(entry.path, ignore_errors=True)
            removed.append(Path(entry.path))
    return removed


def _dead_owner(entry: os.DirEntry[str]) -> int | None:
    """The pid in the marker of the folder ``entry`` if that process is gone, else None."""
    try:
        info = entry.stat(follow_symlinks=False)
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
            return None
        marker = os.path.join(entry.path, MARKER)
        if not stat.S_ISREG(os.lstat(marker).st_mode):
            return None
        with open(marker, encoding="ascii") as f:
            found = _FORM.fullmatch(f.read(64))
    except (OSError, ValueError):
        return None
    if found is None:
        return None
    pid, started = int(found.group(1)), found.group(2)
    if pid == os.getpid() or _running(pid, None if started == "-" else started):
        return None
    return pid


def _running(pid: int, started: str | None) -> bool:
    """Whether the process ``pid`` runs, and, when ``started`` is known, is the one that
    started then (not a later process given the same pid)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists (another user's: not allowed to signal it)
        pass
    if started is None:
        return True
    now = _start_time(pid)
    return now is None or now == started


def _start_time(pid: int) -> str | None:
    """When the process ``pid`` started (clock ticks since boot: field 22 of
    ``/proc/<pid>/stat``), or None where that is not known."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
    except OSError:
        return None
    fields = data[data.rfind(b")") + 2 :].split()  # after the command name, which may hold spaces
    return fields[19].decode("ascii") if len(fields) > 19 else None
