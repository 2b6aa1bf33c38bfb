"""Drawing the supplement's figures, in worker processes when several cores are there.

A job is a picklable callable that returns a :class:`~matplotlib.figure.Figure` (a
:func:`functools.partial` of a figure function and its data). Each figure is drawn once
and saved in every format (:func:`.figures.render_all`). The figures do not depend on each
other, so with several cores they are drawn in a process pool while this process goes on
with the rest of the supplement; the files are the same bytes either way (fixed style,
sizes and metadata; results kept in job order). The pool is
:func:`irtables.workers.executor.make_executor`'s: workers start from a fork server that has
imported matplotlib once (``spawn`` where there is no fork server), never by forking this
process, whose threads (pyarrow, BLAS) a fork could leave locked.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import pickle
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from contextlib import ExitStack
from types import TracebackType
from typing import TYPE_CHECKING

from irtables.errors import IrtablesWarning, user_stacklevel
from irtables.supplement.figures import render_all
from irtables.workers.executor import available_cores, make_executor, worker_count
from irtables.workers.leftovers import mark_multiprocessing_folder

if TYPE_CHECKING:
    from matplotlib.figure import Figure

Job = Callable[[], "Figure"]
Rendered = dict[str, bytes]
Progress = Callable[[int, int], None]
#: Imported once by the fork server, so that each worker starts with matplotlib loaded.
PRELOAD = [
    "matplotlib.figure",
    "matplotlib.patches",
    "matplotlib.style",
    "matplotlib.backends.backend_agg",
    "matplotlib.backends.backend_pdf",
    "fontTools.subset",  # each PDF subsets its font
    "irtables.supplement.figures",
    "irtables.supplement.forest",  # with irtables.stats (~0.03 s a worker otherwise)
]


def warm_up(workers: int | None = None) -> None:
    """Start the fork server now, so that it imports matplotlib while this process reads
    the results and builds the tables; a no-op unless figures will be drawn in parallel."""
    if (workers or available_cores()) > 1 and "forkserver" in _methods():
        from multiprocessing import forkserver

        forkserver.set_forkserver_preload(PRELOAD)
        with contextlib.suppress(OSError):  # no processes here: drawn in this process
            forkserver.ensure_running()
        mark_multiprocessing_folder()  # the server's folder: removed if this run is killed


def render_jobs(
    jobs: Sequence[Job], *, workers: int | None = None, progress: Progress | None = None
) -> list[Rendered]:
    """Draw every job's figure and save it in every format; results in job order.

    ``workers`` is the number of processes (default: one per available core, at most one
    per job); with one, the figures are drawn in this process. ``progress(done, total)``
    is called as figures are finished.
    """
    with FigureDrawing(jobs, workers=worker_count(workers, len(jobs))) as drawing:
        return drawing.results(progress)


class FigureDrawing:
    """Figures being drawn: worker processes start on each job as soon as it is
    submitted, :meth:`results` collects them all (and draws here whatever could not go to
    a worker).

    Use it as a context manager, so that the workers stop if the caller fails meanwhile.
    When processes cannot start or die (a sandbox, limits, a script without the
    ``if __name__ == "__main__":`` guard), an :class:`IrtablesWarning` says so and the
    figures are drawn in this process.
    """

    def __init__(self, jobs: Sequence[Job] = (), *, workers: int | None = None) -> None:
        self._jobs: list[Job] = []
        self._sent: list[tuple[int, Future[Future[Rendered]]]] = []
        self._pool: Executor | None = None
        self._feeder: ThreadPoolExecutor | None = None
        self._stack = ExitStack()
        count = workers or available_cores()  # processes start as jobs come
        if count > 1:
            try:
                self._pool = self._stack.enter_context(make_executor(count, count, preload=PRELOAD))
            except OSError as e:
                self._give_up(e)
            else:  # a worker's start waits for the fork server's imports: not on this thread
                self._feeder = ThreadPoolExecutor(1, thread_name_prefix="irtables-figures")
        self.submit(jobs)

    def submit(self, jobs: Sequence[Job]) -> None:
        """Add jobs; with workers, they start at once (processes are started as needed)."""
        for job in jobs:
            self._jobs.append(job)
            pool, feeder = self._pool, self._feeder
            data = _pickled(job) if pool is not None else None
            if pool is None or feeder is None or data is None:
                continue  # no workers, or a closure: drawn here by results()
            sent = feeder.submit(pool.submit, _render_pickled, data)
            self._sent.append((len(self._jobs) - 1, sent))

    def results(self, progress: Progress | None = None) -> list[Rendered]:
        """Every job's files, in the order the jobs were submitted, once all are drawn."""
        report = progress or (lambda done, total: None)
        futures: dict[Future[Rendered], int] = {}
        try:
            for i, sent in self._sent:
                futures[sent.result()] = i  # raises what starting the workers raised
        except (OSError, BrokenProcessPool) as e:
            self._give_up(e)
            futures = {}
        done: dict[int, Rendered] = {}
        waiting = set(futures.values())
        here = [i for i in range(len(self._jobs)) if i not in waiting]
        with heap_frozen(preload=bool(here)):
            for i in here:
                done[i] = render_all(self._jobs[i]())
                report(len(done), len(self._jobs))
        try:
            for future in as_completed(futures):
                done[futures[future]] = future.result()
                report(len(done), len(self._jobs))
        except BrokenProcessPool as e:
            self._give_up(e)
            with heap_frozen(preload=True):
                for i in sorted(waiting - set(done)):
                    done[i] = render_all(self._jobs[i]())
                    report(len(done), len(self._jobs))
        return [done[i] for i in range(len(self._jobs))]

    def close(self) -> None:
        """Stop the workers (after the figures they are drawing, if any)."""
        if self._feeder is not None:
            self._feeder.shutdown(wait=True, cancel_futures=True)
            self._feeder = None
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        self._stack.close()

    def __enter__(self) -> FigureDrawing:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def _give_up(self, error: BaseException) -> None:
        warnings.warn(
            f"figures drawn in one process: worker processes failed ({error})",
            IrtablesWarning,
            stacklevel=user_stacklevel(),
        )
        self.close()
        self._sent = []


@contextlib.contextmanager
def heap_frozen(*, preload: bool = False) -> Iterator[None]:
    """Leave the objects that exist now out of the garbage collector's scans while
    figures are drawn, and put them back after.

    Drawing a figure makes and drops tens of thousands of objects, so full collections
    run while figures are drawn, and each walks the whole heap: in this process the
    results, pandas, scipy and matplotlib themselves (about 0.3 s over the medium
    study's figures). Frozen objects are not collected meanwhile, only scanned no more
    (:func:`gc.freeze`). ``preload`` imports matplotlib's modules first (:data:`PRELOAD`),
    so that they are frozen too. Nothing changes if the heap is frozen already (by the
    caller, who then unfreezes it).
    """
    if gc.get_freeze_count():
        yield
        return
    if preload:
        for name in PRELOAD:
            importlib.import_module(name)
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _pickled(job: Job) -> bytes | None:
    try:
        return pickle.dumps(job)
    except (pickle.PicklingError, AttributeError, TypeError):
        return None


def _render_pickled(job: bytes) -> Rendered:
    """In a worker: unpickle one job, draw it and save it in every format."""
    draw: Job = pickle.loads(job)
    with heap_frozen():
        return render_all(draw())


def _methods() -> list[str]:
    import multiprocessing

    return multiprocessing.get_all_start_methods()
