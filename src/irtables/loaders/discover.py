"""Finding result files: a single file, ``DIR/<dataset>/<system>.<ext>``, or a folder of files.

A folder inside a dataset folder is a system with several runs (seeds or folds):
``DIR/<dataset>/<system>/<seed>.<ext>``; a system's per-query values are then the means
over its runs (:func:`~irtables.loaders.seeds.average_seeds`), as they are for a tidy
file with a ``seed`` (or ``fold``) column.

Files and folders whose names start with ``.`` or ``_``, the ``tables/`` and
``supplement/`` output folders, ``irtables.toml`` and ``*.md`` / ``*.tex`` files are ignored;
so are, with a note (:attr:`Study.skipped`, :func:`skipped_note`), files whose last
extension is not one of :data:`~irtables.loaders.source.KNOWN_EXTENSIONS` (a name
without any dot is read), TREC runs and qrels, files whose format cannot be told from
their first line (notes, a README) and folders that hold no result file. Inside a
dataset or system folder such a file is skipped only if its name says it is not results
(:data:`NOT_RESULTS_BY_NAME`, or no results extension); otherwise it is an error naming
it. Everything is visited in sorted order.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, cast

import numpy as np
import numpy.typing as npt

from irtables.base.record import Record, recorded_outputs, warn_if_changed
from irtables.errors import InputError, user_stacklevel
from irtables.loaders.base import LoadedFile, check_name
from irtables.loaders.detect import RunOrQrelsError, UnknownFormatError
from irtables.loaders.registry import load_file
from irtables.loaders.source import KNOWN_EXTENSIONS, main_extension, name_parts
from irtables.model import COLUMNS, ResultSet
from irtables.model.factor import Factor, factors_frame, merge_factors
from irtables.model.parts import Part

if TYPE_CHECKING:
    import pandas as pd

IGNORED_DIRS = frozenset({"tables", "supplement"})
IGNORED_FILES = frozenset({"irtables.toml"})
IGNORED_SUFFIXES = (".md", ".tex")
#: Names (before the first dot, any case) that are documentation, not results: inside
#: a dataset folder, only these and names without a results extension are skipped when
#: their format cannot be told; any other such file is an error.
NOT_RESULTS_BY_NAME = frozenset({"readme", "notes", "license", "changelog", "todo"})
SUMMARY = ("dataset", "system", "metric", "value", "path", "num_q")
LAYOUT = "DIR/<dataset>/<system>.<ext>, DIR/<dataset>/<system>/<seed>.<ext> or result files in DIR"


@dataclass(frozen=True)
class Study:
    """Everything read from a results path: the per-query rows and the files' own means.

    ``files`` holds one :class:`LoadedFile` per file, with ``dataset`` and ``system`` set
    when they come from the folder or file name rather than from columns. ``run_means``
    holds the mean over queries of every run of the systems with several runs
    (:data:`~irtables.loaders.seeds.SEED_COLUMNS`: dataset, system, seed, metric, mean),
    None when no system has more than one run (:attr:`seeds` is then empty). ``results``
    then holds the per-query means over the runs (and carries them along).
    """

    results: ResultSet
    files: tuple[LoadedFile, ...]
    run_means: pd.DataFrame | None = None
    skipped: tuple[Path, ...] = ()  # files and folders holding no results (:func:`skipped_note`)

    @property
    def seeds(self) -> pd.DataFrame:
        """The mean over queries of every run of the systems with several runs (empty if
        none has)."""
        if self.run_means is not None:
            return self.run_means
        from irtables.loaders.seeds import no_seeds

        return no_seeds()

    @property
    def summary(self) -> pd.DataFrame:
        """The files' own means (trec_eval ``all`` rows): dataset, system, metric, value,
        path, and num_q, the queries they average over where the file says (else NaN)."""
        import pandas as pd

        parts = []
        for f in self.files:
            if f.own_means is None or f.own_means.empty:
                continue
            part = f.summary.copy()
            if "system" not in part.columns:
                part.insert(0, "system", f.system)
            part.insert(0, "dataset", f.dataset)
            part["path"] = f.path
            part["num_q"] = float(f.num_q) if f.num_q is not None else float("nan")
            parts.append(part[list(SUMMARY)])
        if not parts:
            floats = ("value", "num_q")
            empty = {c: pd.Series([], dtype=float if c in floats else str) for c in SUMMARY}
            return pd.DataFrame(empty)
        out = pd.concat(parts, ignore_index=True)
        if any(f.seed is not None for f in self.files):  # a system's runs: their mean
            keys = ["dataset", "system", "metric"]
            out = out.groupby(keys, sort=False).agg(
                value=("value", "mean"), path=("path", "first"), num_q=("num_q", "first")
            )
            out = out.reset_index()
        return out


def load_results(
    path: str | os.PathLike[str] | pd.DataFrame | Mapping[str, object],
    *,
    input_format: str | None = None,
    dataset: str | None = None,
    system: str | None = None,
    allow_empty: bool = False,
    exclude: Collection[Path] = (),
) -> ResultSet:
    """Read per-query results from a file, a folder or a Python object into a :class:`ResultSet`.

    Parameters
    ----------
    path
        A file, a folder laid out ``DIR/<dataset>/<system>.<ext>``, or a folder of
        files (for instance one tidy file with system and dataset columns). Or, without
        files: a tidy pandas frame, PyTerrier's ``pt.Experiment(..., perquery=True)``
        frame, or a per-query dict as pytrec_eval (``{query: {metric: value}}``) or
        ranx (``{metric: {query: value}}``) give it (:mod:`~irtables.loaders.memory`).
    input_format
        A :data:`~irtables.loaders.LOADERS` key for every file; detected per file if None.
    dataset
        The dataset of files that neither have a dataset column nor sit in a dataset
        folder; defaults to the name of the folder holding them. Required for a frame
        without a dataset column and for a dict.
    system
        The system of a frame without a system column, or of a dict.
    allow_empty
        Return an empty result set for a folder without result files (the configuration
        may name qrels and runs instead) rather than raise.
    exclude
        Files that are not per-query results (the qrels and runs a configuration names);
        a folder holding nothing else is passed over.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp()) / "dl19"
    >>> d.mkdir()
    >>> _ = (d / "bm25.txt").write_text("P_10   \\t301\\t0.5\\nP_10   \\tall\\t0.5\\n")
    >>> rs = load_results(d.parent)
    >>> rs.datasets(), rs.systems(), rs.metrics()
    (('dl19',), ('bm25',), ('P@10',))
    """
    if isinstance(path, Mapping) or _is_frame(path):
        from irtables.loaders.memory import results_from_object

        return results_from_object(cast("pd.DataFrame", path), dataset=dataset, system=system)
    path = cast("str | os.PathLike[str]", path)
    walk = _Walk(frozenset(p.resolve() for p in exclude), root=Path(path))
    if allow_empty and Path(path).is_dir() and not _has_results(Path(path), walk):
        return ResultSet.concat([])
    return _study(Path(path), input_format, dataset, walk, allow_empty=allow_empty).results


def load_study(
    path: str | os.PathLike[str],
    *,
    input_format: str | None = None,
    dataset: str | None = None,
    exclude: Collection[Path] = (),
    allow_empty: bool = False,
    bounds: bool = True,
) -> Study:
    """Like :func:`load_results`, keeping every file, its own means (for ``lint``) and
    what was skipped as not results; with ``bounds`` false, values outside a measure's
    range are kept (for ``lint`` to report them)."""
    walk = _Walk(frozenset(p.resolve() for p in exclude), root=Path(path), bounds=bounds)
    if allow_empty and Path(path).is_dir() and not _has_results(Path(path), walk):
        return Study(results=ResultSet.concat([]), files=(), skipped=tuple(walk.skipped))
    return _study(Path(path), input_format, dataset, walk, allow_empty=allow_empty)


def skipped_note(skipped: Sequence[Path], *, verbose: bool = False) -> list[str]:
    """The note about what discovery skipped as not results: one line, or with
    ``verbose`` one line per skipped file or folder (empty if nothing was skipped).

    Examples
    --------
    >>> s = [Path("r/notes.txt"), Path("r/figs")]
    >>> skipped_note(s)
    ['skipped 2 files or folders that hold no results: r/notes.txt, r/figs']
    >>> skipped_note(s, verbose=True)
    ['skipped 2 files or folders that hold no results:', '  r/notes.txt', '  r/figs']
    """
    found = [str(p) for p in skipped]
    if not found:
        return []
    what = "file or folder that holds" if len(found) == 1 else "files or folders that hold"
    head = f"skipped {len(found)} {what} no results"
    if verbose:
        return [f"{head}:", *(f"  {p}" for p in found)]
    if len(found) <= 3:
        return [f"{head}: {', '.join(found)}"]
    return [f"{head}: {', '.join(found[:3])}, ... (--verbose lists them)"]


@dataclass(frozen=True)
class _Walk:
    """What one discovery's walks over the folders share: the files to skip, the folder
    being read (records above it grant nothing), the records read so far (each folder's
    is read once), the recorded outputs already checked (each is hashed, and warned about
    if edited, once) and those left out that would otherwise be read (named in a note)."""

    skip: frozenset[Path]
    root: Path | None = None
    records: dict[Path, Record] = field(default_factory=dict)
    checked: set[Path] = field(default_factory=set)
    skipped: list[Path] = field(default_factory=list)  # not results: reported in a note
    bounds: bool = True  # refuse values outside a measure's range
    left_out: dict[Path, None] = field(default_factory=dict)


def _study(
    root: Path,
    input_format: str | None,
    dataset: str | None,
    walk: _Walk,
    *,
    allow_empty: bool = False,
) -> Study:
    if root.is_file():
        default = dataset if dataset is not None else _folder_name(root.parent)
        files = [_load(root, input_format, default, _reader(input_format, walk.bounds))]
    elif root.is_dir():
        with _prefetched(_result_files(root, walk), input_format, walk.bounds) as read:
            files = _load_dir(root, input_format, dataset, walk, read, allow_empty=allow_empty)
        _note_left_out(root, walk)
    else:
        raise InputError("no such file or directory", path=str(root))
    if not files:
        return Study(results=ResultSet.concat([]), files=(), skipped=tuple(walk.skipped))
    study = _assemble(root, files)
    return replace(study, skipped=tuple(walk.skipped))


def _assemble(root: Path, files: list[LoadedFile]) -> Study:
    _check_distinct(files)
    seeded = any(f.seed is not None or "seed" in f.factors for f in files)
    parts = None if seeded else _parts(files)
    if parts is not None:  # one dataset and system per file: kept as parts
        return Study(results=ResultSet.from_parts(parts, source=str(root)), files=tuple(files))
    factors = _stack(files, seeded=seeded)
    values = _values(files)
    # Each file's keys are unique and no two files share (dataset, system): so is the whole
    # (and the means over seeds have one row per key by construction).
    proved = all(f.system is not None and f.dataset is not None for f in files)
    if not seeded:
        results = ResultSet.from_factors(factors, values, source=str(root), key_checked=proved)
        return Study(results=results, files=tuple(files))
    from irtables.loaders.seeds import average_seeds

    frame, seeds = average_seeds(factors_frame(factors, values), paths=_run_paths(files))
    results = ResultSet.from_frame(frame, source=str(root), key_checked=proved)
    if not seeds.empty:
        results = replace(results, seeds=seeds)
    return Study(results=results, files=tuple(files), run_means=seeds)


Reader = Callable[[Path], LoadedFile]


def _is_frame(obj: object) -> bool:
    """Whether ``obj`` is a pandas frame (without importing pandas when no one has)."""
    pandas = sys.modules.get("pandas")
    return pandas is not None and isinstance(obj, pandas.DataFrame)


def _reader(input_format: str | None, bounds: bool = True) -> Reader:
    def read(path: Path) -> LoadedFile:
        return load_file(path, input_format=input_format, bounds=bounds)

    return read


@contextmanager
def _prefetched(
    paths: list[Path], input_format: str | None, bounds: bool = True
) -> Iterator[Reader]:
    """A reader of result files that has started reading ``paths`` on every core.

    The folders are still walked in order and each file's result (or error) is taken
    when the walk reaches it, so errors are the same as when reading one at a time.
    """
    read = _reader(input_format, bounds)
    if len(paths) < 2:
        yield read
        return
    from concurrent.futures import ThreadPoolExecutor

    from irtables.loaders.delimited import one_thread_per_file
    from irtables.workers.executor import available_cores

    def read_alone(path: Path) -> LoadedFile:
        with one_thread_per_file():
            return read(path)

    pool = ThreadPoolExecutor(max_workers=min(available_cores(), len(paths)))
    try:
        futures = {path.resolve(): pool.submit(read_alone, path) for path in paths}

        def take(path: Path) -> LoadedFile:
            future = futures.pop(path.resolve(), None)
            return future.result() if future is not None else read(path)

        yield take
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _load_dir(
    root: Path,
    input_format: str | None,
    dataset: str | None,
    walk: _Walk,
    read: Reader,
    *,
    allow_empty: bool = False,
) -> list[LoadedFile]:
    entries = _visible(root, walk)
    default = dataset if dataset is not None else _folder_name(root)
    files = _load_files(entries, input_format, default, walk, read)
    for folder in (e for e in entries if e.is_dir()):
        files.extend(_load_dataset(folder, input_format, walk, read))
    if not files and not allow_empty:
        found = f" (skipped as not results: {_names(walk.skipped)})" if walk.skipped else ""
        if (root / "irtables.toml").is_file():  # qrels + runs: evaluated by load_study
            found += "; for the study of its irtables.toml, use irtables.load_study"
        raise InputError(f"no result files found; expected {LAYOUT}{found}", path=str(root))
    return files


def _names(paths: list[Path]) -> str:
    return ", ".join(p.name for p in paths[:3]) + (", ..." if len(paths) > 3 else "")


def _load_files(
    entries: list[Path],
    input_format: str | None,
    dataset: str,
    walk: _Walk,
    read: Reader,
    *,
    in_dataset: bool = False,
) -> list[LoadedFile]:
    """The result files among ``entries``; the others are noted in ``walk.skipped``: files
    of other kinds (``.png``) and, unless ``input_format`` is given, files whose format
    cannot be told from their first line (``notes.txt``, a README) where they may be
    clutter (see :func:`_undetected`)."""
    out = []
    for entry in entries:
        if not entry.is_file():
            continue
        if not _is_candidate(entry):
            walk.skipped.append(entry)
            continue
        try:
            out.append(_load(entry, input_format, dataset, read))
        except UnknownFormatError as exc:
            _undetected(entry, exc, input_format, in_dataset=in_dataset)
            walk.skipped.append(entry)
    return out


def _undetected(
    path: Path, exc: UnknownFormatError, input_format: str | None, *, in_dataset: bool
) -> None:
    """Raise ``exc`` unless ``path`` may be clutter: a file whose format cannot be told is
    skipped only when no format was named and, inside a dataset (or system) folder, it
    is a TREC run or qrels (input to evaluate) or its name says it is not results
    (:data:`NOT_RESULTS_BY_NAME`, or no results extension). A results file with no
    format (one text line, binary bytes) would otherwise drop its system from every
    table without a word."""
    if input_format is not None:
        raise exc
    if isinstance(exc, RunOrQrelsError):
        return
    stem = path.name.split(".", 1)[0].lower()
    if in_dataset and main_extension(path) and stem not in NOT_RESULTS_BY_NAME:
        reason = f"{exc.reason}; a file that is not results needs another name or extension"
        raise InputError(reason, path=exc.path, line=exc.line) from exc


def _load_dataset(
    folder: Path, input_format: str | None, walk: _Walk, read: Reader
) -> list[LoadedFile]:
    """The files of one dataset folder: systems as files, or as folders of runs."""
    inside = _visible(folder, walk)
    if _only_inputs(folder, walk):
        return []  # a folder of the configuration's qrels or runs
    before = len(walk.skipped)
    files = _load_files(inside, input_format, folder.name, walk, read, in_dataset=True)
    for system in (e for e in inside if e.is_dir()):
        files.extend(_load_runs(system, input_format, folder.name, walk, read))
    if not files:  # notes, figures: not a dataset
        del walk.skipped[before:]
        walk.skipped.append(folder)
    return files


def _load_runs(
    folder: Path, input_format: str | None, dataset: str, walk: _Walk, read: Reader
) -> list[LoadedFile]:
    """The runs of one system folder ``<dataset>/<system>/<seed>.<ext>``."""
    inside = _visible(folder, walk)
    if _only_inputs(folder, walk):
        return []
    nested = [e for e in inside if e.is_dir()]
    if nested:
        reason = f"unexpected folder {nested[0].name!r}; expected {LAYOUT}"
        raise InputError(reason, path=str(folder))
    before = len(walk.skipped)
    found = []
    for entry in inside:
        if entry.is_file() and _is_candidate(entry):
            try:
                found.append((entry, read(entry)))
            except UnknownFormatError as exc:
                _undetected(entry, exc, input_format, in_dataset=True)
                walk.skipped.append(entry)
        else:
            walk.skipped.append(entry)
    if not found:  # figures of a dataset, not a system's runs
        del walk.skipped[before:]
        walk.skipped.append(folder)
        return []
    runs = []
    for path, loaded in found:
        clash = [c for c in ("system", "seed", "dataset") if c in loaded.factors]
        if clash:
            reason = f"a run in a system folder cannot have a {clash[0]} column"
            raise InputError(reason, path=str(path))
        seed = name_parts(path)[0]
        check_name(folder.name, "system (from the folder name)", str(path))
        check_name(seed, "run (from the file name)", str(path))
        runs.append(replace(loaded, system=folder.name, dataset=dataset, seed=seed))
    return runs


def _has_results(root: Path, walk: _Walk) -> bool:
    """Whether a folder holds any result file, directly or in a dataset folder."""
    for entry in _visible(root, walk):
        if entry.is_file() and _is_candidate(entry):
            return True
        if entry.is_dir() and _candidates(entry, walk, depth=1):
            return True
    return False


def _visible(folder: Path, walk: _Walk | None = None) -> list[Path]:
    """The entries of ``folder`` that may hold results, sorted by name.

    With a ``walk``, the files it skips and the outputs that irtables wrote
    (:func:`irtables.base.record.recorded_outputs`) are left out too; an output edited
    since is warned about (once per walk).
    """
    outputs = recorded_outputs(folder, walk.records, root=walk.root) if walk is not None else {}
    out = []
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        name = entry.name
        if name.startswith((".", "_")) or name in IGNORED_FILES:
            continue
        if name not in outputs and _broken_link(entry):
            continue
        if walk is not None and walk.skip and entry.resolve() in walk.skip:
            continue
        if entry.is_dir() and name in IGNORED_DIRS:
            continue
        if entry.is_file() and name.lower().endswith(IGNORED_SUFFIXES):
            continue
        if name in outputs and (entry.is_file() or entry.is_symlink()):
            assert walk is not None  # outputs come from a walk's records
            if entry not in walk.checked:
                walk.checked.add(entry)
                if not warn_if_changed(entry, outputs[name]) and _is_candidate(entry):
                    walk.left_out[entry] = None
            continue
        if walk is not None and entry.is_dir() and _only_outputs(entry, walk, depth=2):
            walk.left_out[entry] = None  # a supplement's tables/ or figures/, wherever written
            continue
        out.append(entry)
    return out


def _broken_link(entry: Path) -> bool:
    """Whether ``entry`` is a symbolic link that leads nowhere (a missing target, a loop):
    skipped, unless its name is a result file's, which is an error (its system would
    vanish from every table).

    Raises
    ------
    InputError
        Naming the link and where it leads, when its name has a results extension.
    """
    if not entry.is_symlink():
        return False
    try:
        entry.stat()
    except OSError as e:
        name = entry.name.lower()
        if "." in name and _is_candidate(entry) and not name.endswith(IGNORED_SUFFIXES):
            where = "a loop of links" if e.errno == errno.ELOOP else "nothing"
            reason = f"a symbolic link to {os.readlink(entry)!r}, which leads to {where}"
            raise InputError(reason, path=str(entry)) from None
        return True
    return False


def _only_inputs(folder: Path, walk: _Walk, *, depth: int = 2) -> bool:
    """Whether ``folder`` holds the configuration's qrels and runs (files the walk skips)
    and nothing else but folders of them (hidden files aside)."""
    found = False
    for entry in _visible(folder):
        named = bool(walk.skip) and entry.resolve() in walk.skip
        if not named and not (
            entry.is_dir() and depth > 0 and _only_inputs(entry, walk, depth=depth - 1)
        ):
            return False
        found = True
    return found


def _note_left_out(root: Path, walk: _Walk) -> None:
    """Say, in one note, which files and folders were not read because a record in
    ``root`` lists them as irtables' outputs."""
    if not walk.left_out:
        return
    import warnings

    from irtables.base.record import RECORD
    from irtables.errors import DataWarning

    names = [_shown(p, root) for p in walk.left_out]
    shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    warnings.warn(
        f"not read as results: {shown} (listed as irtables' outputs in {RECORD}; remove "
        "them from it to read them)",
        DataWarning,
        stacklevel=user_stacklevel(),
    )


def _shown(path: Path, root: Path) -> str:
    try:
        rel = path.absolute().relative_to(root.absolute()).as_posix()
    except ValueError:
        rel = str(path)
    return rel + ("/" if path.is_dir() else "")


def _only_outputs(folder: Path, walk: _Walk, *, depth: int) -> bool:
    """Whether ``folder`` holds outputs of irtables and nothing else (hidden files aside)."""
    outputs = recorded_outputs(folder, walk.records, root=walk.root)
    found = False
    for entry in folder.iterdir():
        if entry.name in outputs:
            found = True
        elif entry.name.startswith("."):
            continue
        elif entry.is_dir() and depth > 0 and _only_outputs(entry, walk, depth=depth - 1):
            found = True
        else:
            return False
    return found


def _is_candidate(path: Path) -> bool:
    if "." not in path.name:
        return True
    return path.name.rsplit(".", 1)[1].lower() in KNOWN_EXTENSIONS


def _folder_name(folder: Path) -> str:
    return folder.resolve().name or "default"


def _load(path: Path, input_format: str | None, dataset: str, read: Reader) -> LoadedFile:
    loaded = read(path)
    columns = loaded.factors
    system = None if "system" in columns else name_parts(path)[0]
    for name, what in ((system, "system"), (dataset, "dataset")):
        if name is not None and what not in columns:
            check_name(name, f"{what} (from the file or folder name)", str(path))
    return replace(
        loaded,
        system=system,
        dataset=None if "dataset" in columns else dataset,
    )


def _check_distinct(files: list[LoadedFile]) -> None:
    seen: dict[tuple[str, str], dict[str | None, str]] = {}
    for f in files:
        if f.system is None or f.dataset is None:
            continue
        runs = seen.setdefault((f.dataset, f.system), {})
        other = runs.get(f.seed)
        if other is None and runs and (f.seed is None or None in runs):
            other = next(iter(runs.values()))  # a system as a file and as a folder of runs
        if other is not None:
            run = "" if f.seed is None else f"seed {f.seed} of "
            raise InputError(
                f"{run}system {f.system} of dataset {f.dataset} is also read from {other}",
                path=f.path,
            )
        runs[f.seed] = f.path


def _run_paths(files: list[LoadedFile]) -> dict[tuple[str, str, str], str]:
    """The file of each run read from a system folder, by (dataset, system, seed)."""
    return {(str(f.dataset), str(f.system), f.seed): f.path for f in files if f.seed is not None}


def _stack(files: list[LoadedFile], *, seeded: bool = False) -> dict[str, Factor]:
    """The key columns of all files, stacked; categories in order of first appearance.

    With ``seeded``, a ``seed`` column is added (missing for files of a system with a
    single run).
    """
    return {
        col: merge_factors([_column(f, col) for f in files])
        for col in (*COLUMNS[:-1], *(("seed",) if seeded else ()))
    }


def _parts(files: list[LoadedFile]) -> list[Part] | None:
    """The files as parts of a result set, if each is of one dataset and one system."""
    out = []
    for f in files:
        if f.shape is None or f.dataset is None or f.system is None:
            return None
        q, m = f.factors["query"], f.factors["metric"]
        out.append(Part(f.dataset, f.system, q, m, f.values, f.shape))
    return out


def _values(files: list[LoadedFile]) -> npt.NDArray[np.float64]:
    if len(files) == 1:
        return files[0].values
    return np.concatenate([f.values for f in files])


def _column(f: LoadedFile, col: str) -> Factor:
    """A key column of a file (a constant for ``system``, ``dataset`` and ``seed`` when
    the file has no such column)."""
    if col in f.factors:
        return f.factors[col]
    constant = {"system": f.system, "dataset": f.dataset, "seed": f.seed}[col]
    return Factor.constant(constant, len(f.values))


def result_files(path: str | os.PathLike[str], *, exclude: Collection[Path] = ()) -> list[Path]:
    """The files that :func:`load_results` would read from ``path``, sorted.

    Nothing is opened: ``irtables check`` uses this to notice added or removed inputs.
    """
    root = Path(path)
    if root.is_file():
        return [root]
    if not root.is_dir():
        return []
    return _result_files(root, _Walk(frozenset(p.resolve() for p in exclude), root=root))


def _result_files(root: Path, walk: _Walk) -> list[Path]:
    """The result files of a folder, sorted."""
    out = []
    for entry in _visible(root, walk):
        if entry.is_file() and _is_candidate(entry):
            out.append(entry)
        elif entry.is_dir():
            out.extend(_candidates(entry, walk, depth=1))
    return sorted(out)


def _candidates(folder: Path, walk: _Walk, *, depth: int) -> list[Path]:
    """Result files in ``folder`` and, ``depth`` levels down, in its sub-folders."""
    out = []
    for entry in _visible(folder, walk):
        if entry.is_file() and _is_candidate(entry):
            out.append(entry)
        elif entry.is_dir() and depth > 0:
            out.extend(_candidates(entry, walk, depth=depth - 1))
    return out
