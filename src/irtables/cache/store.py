"""The cache folder: entries keyed by content, written atomically, checked when read."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from irtables._version import __version__
from irtables.base.paths import new_file
from irtables.base.record import file_sha256
from irtables.errors import DataWarning
from irtables.evaluator.values import RunValues

CACHE_DIR_NAME = ".irtables-cache"
FORMAT = 1
_ENTRY = re.compile(r"^[0-9a-f]{64}\.parquet$")
_PARTIAL = re.compile(r"^\.[0-9a-f]{64}\.parquet\.[A-Za-z0-9_-]+\.part$")
_META = b"irtables-cache"
_GITIGNORE = "# written by irtables: the cache is not part of the study\n*\n"


def content_hashes(paths: Sequence[Path]) -> dict[Path, str]:
    """The SHA-256 (:func:`~irtables.base.record.file_sha256`) of several files, hashed on
    every core (threads: hashing releases the GIL)."""
    unique = list(dict.fromkeys(paths))
    if len(unique) < 2:
        return {p: file_sha256(p) for p in unique}
    from concurrent.futures import ThreadPoolExecutor

    from irtables.base.executor import available_cores

    with ThreadPoolExecutor(max_workers=min(available_cores(), len(unique))) as pool:
        return dict(zip(unique, pool.map(file_sha256, unique), strict=True))


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
                stacklevel=2,
            )
            return None
        return cls(folder)

    @staticmethod
    def key(*, qrels: str, run: str, name: str, options: str) -> str:
        """The key of an evaluation: content hashes of the files, the run's name, the
        options and irtables' version."""
        text = json.dumps(
            {
                "format": FORMAT,
                "irtables": __version__,
                "qrels": qrels,
                "run": run,
                "name": name,
                "options": options,
            },
            sort_keys=True,
        )
        return hashlib.sha256(text.encode()).hexdigest()

    def path(self, key: str) -> Path:
        """Where the entry of ``key`` lives."""
        return self.folder / f"{key}.parquet"

    def get(self, key: str) -> RunValues | None:
        """The entry of ``key``, or None when there is none or it does not check out
        (then it is left to be rewritten)."""
        path = self.path(key)
        if not path.is_file():
            return None
        try:
            return _read_entry(path, key)
        except Exception:  # any damage: unreadable, truncated, edited, wrong key
            return None

    def put(self, key: str, values: RunValues) -> None:
        """Store the values of ``key`` (atomically: a reader never sees half a file).

        A cache that cannot be written (read-only folder, full disk) is not an error:
        the results are right without it.
        """
        try:
            if not self.folder.is_dir():
                self.folder.mkdir()
                (self.folder / ".gitignore").write_text(_GITIGNORE)
            _write_entry(self.path(key), key, values)
        except OSError as exc:
            warnings.warn(f"cache not written ({exc})", DataWarning, stacklevel=2)


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


def _write_entry(path: Path, key: str, values: RunValues) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    meta = {
        "format": FORMAT,
        "key": key,
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


def _read_entry(path: Path, key: str) -> RunValues:
    import pyarrow.parquet as pq

    from irtables.base.arrow import to_numpy

    table = pq.read_table(path)
    meta = json.loads(table.schema.metadata[_META])
    if meta["format"] != FORMAT or meta["key"] != key:
        raise ValueError("an entry of another key or format")
    metrics = tuple(str(m) for m in meta["metrics"])
    matrix = (
        np.vstack([to_numpy(table.column(f"m{i}")).astype(np.float64) for i in range(len(metrics))])
        if metrics
        else np.zeros((0, table.num_rows))
    )
    values = RunValues(
        system=str(meta["system"]),
        runid=str(meta["runid"]),
        query_index=to_numpy(table.column("query_index")).astype(np.int64),
        retrieved=to_numpy(table.column("retrieved")).astype(np.bool_),
        metrics=metrics,
        values=matrix,
        relevant_total=int(meta["relevant_total"]),
        notes=tuple(str(n) for n in meta["notes"]),
    )
    if _checksum(values) != meta["checksum"]:
        raise ValueError("checksum mismatch")
    return values
