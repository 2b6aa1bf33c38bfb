"""The cache folder: entries keyed by what determines their values, checked when read.

An entry is a Parquet file that carries the full description of what it was computed
from (:class:`Request`: content hashes of the qrels and the run, the run's name, the
evaluation options, the evaluator's semantics version). Reading one, everything is
checked against the request before a number is used: the description, the names and
types of its columns, the query positions (strictly increasing), and its values pass
the checks a loader applies to any input (finite, bounded measures in [0, 1], counts
non-negative integers). Memory is bounded by what the entry declares (its rows, and
column sizes consistent with them), links are not followed, and an entry that does not
check out is evaluated again with a warning, never used.

A forged entry whose description and values are all plausible cannot be told from a
real one without evaluating again: the cache is as trusted as the folder it is in
(``irtables cache verify`` evaluates again and compares).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from irtables._version import __version__
from irtables.base.paths import new_file
from irtables.base.record import file_sha256
from irtables.errors import DataWarning, user_stacklevel
from irtables.evaluator.semantics import SEMANTICS
from irtables.evaluator.values import Options, RunValues

if TYPE_CHECKING:
    import pyarrow.parquet as pq

CACHE_DIR_NAME = ".irtables-cache"
FORMAT = 2
#: The most query rows an entry may declare whatever its qrels (2,097,152 queries).
MAX_ROWS = 1 << 21
#: The shortest qrels line, ``q 0 d r`` and its newline: a qrels file of n bytes judges
#: at most n / 8 queries.
MIN_QRELS_LINE = 8
#: Largest entry file read (bytes), and largest metadata (bytes).
MAX_ENTRY_BYTES = 1 << 30
MAX_META_BYTES = 1 << 20
_ENTRY = re.compile(r"^[0-9a-f]{64}\.parquet$")
_PARTIAL = re.compile(r"^\.[0-9a-f]{64}\.parquet\.[A-Za-z0-9_-]+\.part$")
_META = b"irtables-cache"
_GITIGNORE = "# written by irtables: the cache is not part of the study\n*\n"
_SLACK = 1 << 16  # bytes per column chunk beyond 8 per row: page headers, statistics


def content_hashes(paths: Sequence[Path]) -> dict[Path, str]:
    """The SHA-256 (:func:`~irtables.base.record.file_sha256`) of several files, hashed on
    every core (threads: hashing releases the GIL)."""
    unique = list(dict.fromkeys(paths))
    if len(unique) < 2:
        return {p: file_sha256(p) for p in unique}
    from concurrent.futures import ThreadPoolExecutor

    from irtables.workers.executor import available_cores

    with ThreadPoolExecutor(max_workers=min(available_cores(), len(unique))) as pool:
        return dict(zip(unique, pool.map(file_sha256, unique), strict=True))


@dataclass(frozen=True)
class Request:
    """What the values of one (qrels, run) evaluation are computed from.

    ``qrels`` and ``run`` are SHA-256 of the files' bytes; ``options`` the evaluation
    options. The :attr:`description` is stored in the entry and compared when it is read;
    the :attr:`key` (its hash) names the entry's file. ``max_rows`` bounds the rows an
    entry may declare (:func:`rows_bound` of the qrels file).
    """

    qrels: str
    run: str
    name: str
    options: Options
    max_rows: int = MAX_ROWS

    @property
    def metrics(self) -> tuple[str, ...]:
        """The metric names the values must have, in order."""
        suffix = " (micro)" if self.options.average == "micro" else ""
        return tuple(m.name + suffix for m in self.options.measures)

    @property
    def description(self) -> dict[str, Any]:
        """Everything that determines the values (irtables' version does not)."""
        return {
            "format": FORMAT,
            "semantics": SEMANTICS,
            "qrels": self.qrels,
            "run": self.run,
            "name": self.name,
            "options": self.options.describe(),
        }

    @property
    def key(self) -> str:
        """The SHA-256 of the description: the entry's file name."""
        text = json.dumps(self.description, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()


class DamagedEntry(ValueError):
    """An entry that does not check out against its request (the reason is the message)."""


@dataclass(frozen=True)
class Cache:
    """The cache folder of a study (``<study>/.irtables-cache``)."""

    folder: Path

    @classmethod
    def of_study(cls, base: Path) -> Cache | None:
        """The cache inside the study folder ``base``; None (with a warning) when that
        path exists but is not a plain folder inside it (a link elsewhere, a file)."""
        folder = base / CACHE_DIR_NAME
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            warnings.warn(
                f"{folder} is not a folder of this study: runs are evaluated without the cache",
                DataWarning,
                stacklevel=user_stacklevel(),
            )
            return None
        return cls(folder)

    @staticmethod
    def request(
        *, qrels: str, run: str, name: str, options: Options, max_rows: int = MAX_ROWS
    ) -> Request:
        """The request of an evaluation (content hashes of the files, name, options)."""
        return Request(qrels, run, name, options, max_rows)

    def path(self, request: Request) -> Path:
        """Where the entry of ``request`` lives."""
        return self.folder / f"{request.key}.parquet"

    def get(self, request: Request) -> RunValues | None:
        """The values of ``request``, or None when there is no entry or it does not check
        out (then a :class:`~irtables.errors.DataWarning` says why, and it is left to be
        rewritten)."""
        path = self.path(request)
        try:
            return read_entry(path, request)
        except FileNotFoundError:
            return None
        except DamagedEntry as exc:
            reason = str(exc)
        except Exception as exc:  # unreadable, truncated, not Parquet: damage of any kind
            reason = f"unreadable ({type(exc).__name__})"
        warn_damaged(path, reason)
        return None

    def put(self, request: Request, values: RunValues) -> None:
        """Store the values of ``request`` (atomically: a reader never sees half a file).

        A cache that cannot be written (read-only folder, full disk) is not an error:
        the results are right without it.
        """
        try:
            make_cache_folder(self.folder)
            _write_entry(self.path(request), request, values)
        except OSError as exc:
            warnings.warn(f"cache not written ({exc})", DataWarning, stacklevel=user_stacklevel())


def make_cache_folder(folder: Path) -> None:
    """Create the cache folder ``folder`` with its ``.gitignore`` (the cache is not part
    of the study), unless it is there."""
    if not folder.is_dir():
        folder.mkdir()
        (folder / ".gitignore").write_text(_GITIGNORE)


def warn_damaged(path: Path, reason: str) -> None:
    """Say that an entry was not used, and why."""
    warnings.warn(
        f"{path}: cache entry not used ({reason}): the run is evaluated again",
        DataWarning,
        stacklevel=user_stacklevel(),
    )


def rows_bound(qrels: Path) -> int:
    """At most how many queries the qrels file ``qrels`` judges: one per line of at least
    :data:`MIN_QRELS_LINE` bytes (:data:`MAX_ROWS` for a compressed file, which expands)."""
    from irtables.loaders.source import compressed_format

    try:
        with qrels.open("rb") as handle:
            magic = handle.read(16)
        size = qrels.stat().st_size
    except OSError:
        return MAX_ROWS
    if compressed_format(magic) is not None:
        return MAX_ROWS
    return min(size // MIN_QRELS_LINE + 1, MAX_ROWS)


def clear(base: Path) -> int:
    """Remove the cache entries of the study folder ``base``; returns how many.

    Only files irtables writes there (``<sha256>.parquet`` entries, their partial writes
    and its ``.gitignore``) are removed, then the folder if that left it empty.
    """
    folder = base / CACHE_DIR_NAME
    if not _plain_folder(folder):
        return 0
    found = entries(base)
    for entry in found:
        entry.unlink()
    for entry in folder.iterdir():
        if _file(entry) and (_PARTIAL.match(entry.name) or _ours(entry)):
            entry.unlink()
    with contextlib.suppress(OSError):
        folder.rmdir()  # only when empty
    return len(found)


def entries(base: Path) -> list[Path]:
    """The cache entries of the study folder ``base`` (``<sha256>.parquet`` files of a
    cache folder that is a plain folder, not a link), sorted."""
    folder = base / CACHE_DIR_NAME
    if not _plain_folder(folder):
        return []
    return sorted(p for p in folder.iterdir() if _ENTRY.match(p.name) and _file(p))


def _plain_folder(folder: Path) -> bool:
    return folder.is_dir() and not folder.is_symlink()


def _file(entry: Path) -> bool:
    return entry.is_file() and not entry.is_symlink()


def _ours(entry: Path) -> bool:
    """Whether ``entry`` is the ``.gitignore`` that irtables wrote."""
    try:
        return entry.name == ".gitignore" and entry.read_text() == _GITIGNORE
    except (OSError, UnicodeDecodeError):
        return False


def _checksum(values: RunValues) -> str:
    digest = hashlib.sha256()
    header = {
        "system": values.system,
        "runid": values.runid,
        "metrics": list(values.metrics),
        "relevant_total": values.relevant_total,
        "notes": list(values.notes),
        "shape": list(values.values.shape),
    }
    digest.update(json.dumps(header, sort_keys=True).encode())
    digest.update(np.ascontiguousarray(values.query_index, dtype="<i8").tobytes())
    digest.update(np.ascontiguousarray(values.retrieved, dtype=np.bool_).tobytes())
    digest.update(np.ascontiguousarray(values.values, dtype="<f8").tobytes())
    return digest.hexdigest()


def _write_entry(path: Path, request: Request, values: RunValues) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    meta = {
        "description": request.description,
        "irtables": __version__,  # who wrote it: information only, not checked
        "system": values.system,
        "runid": values.runid,
        "metrics": list(values.metrics),
        "relevant_total": values.relevant_total,
        "notes": list(values.notes),
        "checksum": _checksum(values),
    }
    columns = {
        "query_index": pa.array(values.query_index, type=pa.int64()),
        "retrieved": pa.array(values.retrieved, type=pa.bool_()),
    }
    for i, _ in enumerate(values.metrics):
        columns[f"m{i}"] = pa.array(values.values[i], type=pa.float64())
    table = pa.table(columns).replace_schema_metadata({_META: json.dumps(meta).encode()})
    handle, tmp = new_file(path.parent, f".{path.name}.", ".part")
    os.close(handle)
    try:
        pq.write_table(table, tmp, compression="zstd")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_entry(path: Path, request: Request) -> RunValues:
    """The values of the entry at ``path``, checked against ``request``.

    Raises
    ------
    FileNotFoundError
        There is no entry.
    DamagedEntry
        It is not a regular file, or it does not check out (the message says what).
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    data = entry_bytes(path)
    try:
        parquet = pq.ParquetFile(pa.BufferReader(data))
    except (pa.ArrowException, OSError) as exc:
        raise DamagedEntry(f"not a Parquet file ({type(exc).__name__})") from None
    meta = _metadata(parquet)
    if meta.get("description") != request.description:
        raise DamagedEntry("computed from other inputs or options than this run's")
    metrics = request.metrics
    if meta.get("metrics") != list(metrics) or meta.get("system") != request.name:
        raise DamagedEntry("its metrics or run name are not this run's")
    _check_declared(parquet, len(metrics), request.max_rows)
    table = parquet.read(use_threads=False)
    values = _values(table, meta, request)
    if _checksum(values) != meta.get("checksum"):
        raise DamagedEntry("checksum mismatch")
    return values


def entry_bytes(path: Path, limit: int = MAX_ENTRY_BYTES) -> bytes:
    """The bytes of a regular file (a link is not followed), at most ``limit``: a cache
    entry, read as the cache reads them."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise
    except OSError as exc:  # ELOOP: a link
        raise DamagedEntry(f"not a regular file ({exc.strerror or exc})") from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise DamagedEntry("not a regular file")
        if info.st_size > limit:
            raise DamagedEntry(f"larger than {limit >> 20} MiB")
        data = handle.read(limit + 1)
    if len(data) > limit:  # grown since fstat
        raise DamagedEntry(f"larger than {limit >> 20} MiB")
    return data


def _metadata(parquet: pq.ParquetFile) -> dict[str, Any]:
    raw = (parquet.schema_arrow.metadata or {}).get(_META)
    if raw is None or len(raw) > MAX_META_BYTES:
        raise DamagedEntry("no irtables metadata")
    try:
        meta = json.loads(raw)
    except (ValueError, RecursionError):
        raise DamagedEntry("unreadable metadata") from None
    if not isinstance(meta, dict):
        raise DamagedEntry("unreadable metadata")
    return meta


def _check_declared(parquet: pq.ParquetFile, n_metrics: int, max_rows: int) -> None:
    """Refuse, before reading any value, an entry whose declared shape is not an
    entry's: the columns, at most ``max_rows`` rows, and no column chunk declaring more
    bytes than its rows hold (so reading costs what the rows declare)."""
    import pyarrow as pa

    expected = ["query_index", "retrieved", *(f"m{i}" for i in range(n_metrics))]
    types = [pa.int64(), pa.bool_(), *([pa.float64()] * n_metrics)]
    schema = parquet.schema_arrow
    if schema.names != expected or [f.type for f in schema] != types:
        raise DamagedEntry("its columns are not an entry's")
    info = parquet.metadata
    if info.num_rows > max_rows:
        raise DamagedEntry(f"declares {info.num_rows} queries, more than its qrels can judge")
    for g in range(info.num_row_groups):
        group = info.row_group(g)
        limit = 8 * group.num_rows + _SLACK
        for c in range(group.num_columns):
            chunk = group.column(c)
            if max(chunk.total_uncompressed_size, chunk.total_compressed_size) > limit:
                raise DamagedEntry("a column declares more bytes than its rows hold")


def _values(table: Any, meta: dict[str, Any], request: Request) -> RunValues:
    """The entry's values, checked as a loader checks any input."""
    from irtables.base.arrow import to_numpy
    from irtables.loaders.normalize import first_bad_value
    from irtables.measures import parse_measure

    metrics = request.metrics
    columns = [table.column(i) for i in range(table.num_columns)]
    if any(c.null_count for c in columns):
        raise DamagedEntry("missing values")
    index = to_numpy(columns[0]).astype(np.int64)
    micro = request.options.average == "micro"
    if micro and not np.array_equal(index, [-1]):
        raise DamagedEntry("query positions are not a micro average's")
    if not micro and len(index) and (index[0] < 0 or (np.diff(index) <= 0).any()):
        raise DamagedEntry("query positions are not increasing")
    n = len(index)
    matrix = np.zeros((len(metrics), n))
    for i, column in enumerate(columns[2:]):
        matrix[i] = to_numpy(column)
    measures = [parse_measure(m.removesuffix(" (micro)")) for m in metrics]
    codes = np.repeat(np.arange(len(metrics)), n)
    bad = first_bad_value(matrix.reshape(-1), measures, codes)
    if bad is not None:
        raise DamagedEntry(f"a value no input may hold: {bad[1]}")
    total, notes, runid = meta.get("relevant_total"), meta.get("notes"), meta.get("runid")
    if not isinstance(total, int) or isinstance(total, bool) or total < 0:
        raise DamagedEntry("relevant_total is not a count")
    if not isinstance(notes, list) or not all(isinstance(x, str) for x in notes):
        raise DamagedEntry("notes are not texts")
    if not isinstance(runid, str):
        raise DamagedEntry("runid is not a text")
    return RunValues(
        system=request.name,
        runid=runid,
        query_index=index,
        retrieved=to_numpy(columns[1]).astype(np.bool_),
        metrics=metrics,
        values=matrix,
        relevant_total=total,
        notes=tuple(notes),
    )
