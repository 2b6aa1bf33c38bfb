"""Import modules in a background thread while the main thread waits on other work.

A command that first reads files (in threads that run without the GIL) and then needs
heavy libraries (scipy's special functions, jinja2) can import them meanwhile instead
of afterwards. The main thread's own ``import`` of a module that is still being
imported waits for it (Python's per-module import lock), so nothing runs twice and a
failing import fails in the main thread as it would have.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Sequence


def preload(modules: Sequence[str]) -> threading.Thread:
    """Start importing ``modules`` (in order) in a daemon thread; return the thread.

    Errors are left for the main thread's own import to raise.

    Examples
    --------
    >>> preload(["json", "csv"]).join()
    >>> import sys; "csv" in sys.modules
    True
    """

    def run() -> None:
        for name in modules:
            try:
                importlib.import_module(name)
            except Exception:
                return

    thread = threading.Thread(target=run, name="irtables-preload", daemon=True)
    thread.start()
    return thread
