"""Worker processes that end with the process that started them.

A pool's workers are not children of this process (they are forked by the fork server),
and block reading their next task: killed with ``SIGKILL``, or by its parent's death,
this process would leave them running, and with them the fork server and the resource
tracker (the server stops once its last client is gone). Each worker therefore watches
this process: a thread waits on a pidfd of it (Linux; elsewhere it polls) and ends the
worker the moment it is gone. ``^C`` reaches every process of the terminal's group:
workers ignore it, and this process, which gets it too, stops them (see
:func:`irtables.workers.executor.make_executor`).
"""

from __future__ import annotations

import os
import select
import signal
import threading
import time
from collections.abc import Callable

#: Seconds between two checks where there is no pidfd (not Linux).
POLL_SECONDS = 0.5


def start_worker(parent: int, initializer: Callable[[], object] | None = None) -> None:
    """A worker's first call: ignore ``^C``, end with process ``parent``, then run
    ``initializer``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    watch(parent)
    if initializer is not None:
        initializer()


def watch(pid: int) -> threading.Thread | None:
    """End this process (exit status 1, at once) when process ``pid`` ends; the watching
    thread, or None when ``pid`` is already gone (this process then ends now)."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        os._exit(1)
    except (AttributeError, OSError):  # not Linux, or an old kernel
        thread = threading.Thread(target=_poll, args=(pid,), daemon=True, name="lifeline")
    else:
        thread = threading.Thread(target=_wait, args=(fd,), daemon=True, name="lifeline")
    thread.start()
    return thread


def _wait(fd: int) -> None:
    select.select([fd], [], [])  # a pidfd is readable once its process has ended
    os._exit(1)


def _poll(pid: int) -> None:
    while _alive(pid):
        time.sleep(POLL_SECONDS)
    os._exit(1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process now holds the number
        return False
    return True
