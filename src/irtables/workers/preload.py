"""Work beside the main thread: imports in a background thread, a short GIL switch
interval while threads share the work, and no linear-algebra threads where none works.

Import modules in a background thread while the main thread waits on other work.

A command that first reads files (in threads that run without the GIL) and then needs
heavy libraries (scipy's special functions, jinja2) can import them meanwhile instead
of afterwards. The main thread's own ``import`` of a module that is still being
imported waits for it (Python's per-module import lock), so nothing runs twice and a
failing import fails in the main thread as it would have.
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager


def import_now(modules: Sequence[str]) -> None:
    """Import ``modules`` in this thread; ``package.*`` stands for the package and
    every module in it (one level).

    Examples
    --------
    >>> import_now(["json.*"])
    >>> import sys; "json.decoder" in sys.modules
    True
    """
    import pkgutil

    for name in modules:
        if not name.endswith(".*"):
            importlib.import_module(name)
            continue
        package = importlib.import_module(name[:-2])
        for found in pkgutil.iter_modules(package.__path__, f"{package.__name__}."):
            importlib.import_module(found.name)


def preload(modules: Sequence[str], *, stop: threading.Event | None = None) -> threading.Thread:
    """Start importing ``modules`` (in order) in a daemon thread; return the thread.

    Errors are left for the main thread's own import to raise. Once ``stop`` is set,
    no further module is started.

    Examples
    --------
    >>> preload(["json", "csv"]).join()
    >>> import sys; "csv" in sys.modules
    True
    """

    def run() -> None:
        for name in modules:
            if stop is not None and stop.is_set():
                return
            try:
                importlib.import_module(name)
            except Exception:
                return

    thread = threading.Thread(target=run, name="irtables-preload", daemon=True)
    thread.start()
    return thread


@contextmanager
def preloading(modules: Sequence[str]) -> Iterator[None]:
    """Import ``modules`` in a background thread (:func:`preload`) while the block runs;
    on leaving it the thread is joined: it imports the rest of ``modules`` first (what
    comes after the block needs them, and imports in two threads at once can deadlock
    on a module both need), or, when the block raised, only finishes the module it is
    importing.

    A thread left importing as the interpreter exits (after an error) is ended by Python
    when it asks for the GIL, and ending a thread inside C++ code (an extension module's
    initialisation) aborts the process.

    Examples
    --------
    >>> with preloading(["json"]):
    ...     pass
    >>> import threading; any(t.name == "irtables-preload" for t in threading.enumerate())
    False
    """
    stop = threading.Event()
    thread = preload(modules, stop=stop)
    try:
        yield
    except BaseException:
        stop.set()
        raise
    finally:
        thread.join()


@contextmanager
def short_switch_interval(seconds: float = 0.0005) -> Iterator[None]:
    """Let threads take the GIL in turn every ``seconds`` (Python's default: 5 ms).

    For work split between threads that mostly run without the GIL (pyarrow's reader,
    numpy): each needs it back briefly between calls, and would otherwise wait up to
    5 ms each time for a thread running Python code.

    Examples
    --------
    >>> import sys
    >>> before = sys.getswitchinterval()
    >>> with short_switch_interval():
    ...     sys.getswitchinterval() <= 0.0005
    True
    >>> sys.getswitchinterval() == before
    True
    """
    previous = sys.getswitchinterval()
    sys.setswitchinterval(min(previous, seconds))
    try:
        yield
    finally:
        sys.setswitchinterval(previous)


def without_blas_threads() -> None:
    """Ask OpenBLAS, numpy's linear algebra, for one thread (unless numpy is imported
    already, or ``OPENBLAS_NUM_THREADS`` is set).

    OpenBLAS starts a thread per core as numpy is imported: about 0.08 s of CPU, which a
    loaded machine also waits for. A command that does no linear algebra (``irtables
    evaluate``: sorts, searches and sums) needs none; its worker processes inherit the
    setting.
    """
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
