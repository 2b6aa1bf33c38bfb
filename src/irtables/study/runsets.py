"""Datasets given as qrels + runs in the configuration: evaluated into per-query results.

The measures default to what the tables show (each layout's record says what its tables
show: Table 1's metrics, every Table S1 family at every configured K, ...), and MAP.
Binary measures carry the dataset's relevance threshold in their name (``AP(rel=2)``)
when it is not 1, so captions can state it; nDCG, whose gain is the grade itself, does
not."""

from __future__ import annotations

import glob
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast

from irtables.config import Config, DatasetSpec
from irtables.config.tables import LAYOUTS
from irtables.errors import InputError
from irtables.measures import Measure, at_threshold, parse_measure
from irtables.model import ResultSet

if TYPE_CHECKING:
    from irtables.cache import Cache, Request
    from irtables.evaluator.plan import Batch
    from irtables.evaluator.values import Options, RunValues

Progress = Callable[[str, int, int], None]


def evaluate_datasets(
    config: Config,
    base: Path,
    *,
    progress: Progress | None = None,
    jobs: int | None = 1,
    cache: bool = True,
    scheduler: str | None = None,
) -> ResultSet | None:
    """Evaluate every dataset of ``config`` that names qrels and runs (None if none does).

    Every (run, qrels) pair of every dataset is one job of one evaluation plan
    (:mod:`irtables.evaluator.plan`); ``jobs`` processes run them (None: as many as the
    work pays for), or the Dask cluster of ``scheduler``. With ``cache``, the values of
    a pair whose qrels, run, options and evaluation semantics are unchanged come from the
    study's cache folder (:mod:`irtables.cache`) and only the other pairs are evaluated
    (then stored); an entry that does not check out is evaluated again, with a warning.
    ``progress("evaluate", done, total)`` counts the pairs evaluated.
    """
    specs = [spec for spec in config.datasets if spec.evaluated]
    if not specs:
        return None
    from irtables.evaluator.api import to_results
    from irtables.evaluator.jobs import check_run_names
    from irtables.evaluator.plan import Batch, evaluate_batches
    from irtables.loaders.trec_run import system_name

    batches = []
    for spec in specs:
        paths = run_paths(spec, base)
        runs = [(path, system_name(path)) for path in paths]
        check_run_names([name for _, name in runs], context=f"datasets {spec.id}: ", paths=paths)
        qrels = _path(base, spec.qrels or "", spec.id, "qrels")
        batches.append(Batch(qrels, runs, evaluation_options(spec, config)))
    store = _CacheStore.open(base, batches) if cache else None
    done = evaluate_batches(batches, jobs=jobs, progress=progress, store=store, scheduler=scheduler)
    parts = [
        to_results(e.values, e.queries, dataset=spec.id)
        for spec, e in zip(specs, done, strict=True)
    ]
    return ResultSet.concat(parts)


def evaluation_options(spec: DatasetSpec, config: Config) -> Options:
    """How the runs of a dataset are evaluated: its measures and trec_eval's options."""
    from irtables.evaluator.values import check_options

    return check_options(
        [m.name for m in dataset_measures(spec, config)],
        relevance=spec.relevance,
        depth=spec.depth,
        missing_queries="zero" if spec.complete else "ignore",
        trec_eval=spec.trec_eval,
    )


class _CacheStore:
    """The study's cache (:mod:`irtables.cache`) as the plan's store: an entry per
    (qrels, run, name, options) by content, checked against that request when read."""

    def __init__(self, store: Cache, batches: Sequence[Batch], hashes: dict[Path, str]):
        from irtables.cache import rows_bound

        self._store = store
        self._batches = batches
        self._requests: list[list[Request]] = []
        for batch in batches:
            qrels = cast(Path, batch.qrels)
            rows = rows_bound(qrels)
            self._requests.append(
                [
                    store.request(
                        qrels=hashes[qrels],
                        run=hashes[cast(Path, run)],
                        name=name,
                        options=batch.options,
                        max_rows=rows,
                    )
                    for run, name in batch.runs
                ]
            )

    @classmethod
    def open(cls, base: Path, batches: Sequence[Batch]) -> _CacheStore | None:
        """The store of the cache in ``base`` (None when it cannot be used)."""
        from irtables.cache import Cache, content_hashes

        store = Cache.of_study(base)
        if store is None:
            return None
        files = [cast(Path, b.qrels) for b in batches]
        files += [cast(Path, run) for b in batches for run, _ in b.runs]
        return cls(store, batches, content_hashes(files))

    def get(self, batch: int, run: int) -> RunValues | None:
        """The cached values of a run, if its entry checks out.

        The run's header is read all the same (a bounded read of its top): its values do
        not depend on its ``ir_metadata`` block, but a malformed block is an error here
        too, also in a run whose entry an irtables that skipped blocks wrote.
        """
        values = self._store.get(self._requests[batch][run])
        if values is not None:
            from irtables.loaders.ir_metadata import read_header

            read_header(cast(Path, self._batches[batch].runs[run][0]))
        return values

    def put(self, batch: int, run: int, values: RunValues) -> None:
        """Cache the values of a run just evaluated."""
        self._store.put(self._requests[batch][run], values)

    def discard(self, batch: int, run: int, reason: str) -> None:
        """Say that an entry was not used, and why (it is rewritten with fresh values)."""
        from irtables.cache import warn_damaged

        warn_damaged(self._store.path(self._requests[batch][run]), reason)


def configured_inputs(config: Config, base: Path) -> list[Path]:
    """Every qrels and run file the configuration names."""
    out: list[Path] = []
    for spec in config.datasets:
        if spec.evaluated:
            out.append(_path(base, spec.qrels or "", spec.id, "qrels"))
            out.extend(run_paths(spec, base))
    return out


def run_paths(spec: DatasetSpec, base: Path) -> list[Path]:
    """The run files of a dataset: paths and glob patterns, relative to ``base``, sorted."""
    found: list[Path] = []
    for pattern in spec.runs:
        if glob.has_magic(pattern):
            matches = sorted(Path(p) for p in glob.glob(str(base / pattern)))
            if not matches:
                raise InputError(
                    f"datasets {spec.id}: no run file matches {pattern!r}", path=str(base)
                )
            found.extend(matches)
        else:
            found.append(_path(base, pattern, spec.id, "run"))
    return list(dict.fromkeys(found))


def dataset_measures(spec: DatasetSpec, config: Config) -> list[Measure]:
    """The measures to compute for a dataset, with its relevance threshold in their names."""
    if spec.measures:
        names: Iterable[str] = spec.measures
    else:
        names = _shown(config)
    out: dict[str, Measure] = {}
    for name in names:
        m = at_threshold(parse_measure(name), spec.relevance)
        out.setdefault(m.name, m)
    return list(out.values())


def _shown(config: Config) -> list[str]:
    """What a dataset without ``measures`` is evaluated for: the measures every table
    shows (its layout's record says which), and MAP."""
    names = [name for spec in config.tables for name in LAYOUTS[spec.layout].metrics(spec)]
    return [*names, "MAP"]


def _path(base: Path, name: str, dataset: str, what: str) -> Path:
    path = Path(name) if Path(name).is_absolute() else base / name
    if not path.is_file():
        raise InputError(f"datasets {dataset}: {what} file not found", path=str(path))
    return path
