"""Results of significance tests in the cache folder, by recipe (``tests/<recipe>.json``).

An entry holds the description of what a unit of tests was computed from (the recipe is
its SHA-256: :mod:`irtables.stats.memo`), the results as JSON, and a checksum. This
module stores them as opaque JSON: reading one, the file must be a regular file (a link
is not followed) of at most :data:`MAX_ENTRY_BYTES` in a plain folder, its name, its
recipe and the SHA-256 of its description must agree, and its checksum must hold;
an entry that does not check out is not used (a warning says why) and is rewritten.
What the results mean is checked by the layer that reads them.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from irtables._version import __version__
from irtables.base.paths import new_file
from irtables.cache.store import (
    CACHE_DIR_NAME,
    DamagedEntry,
    entry_bytes,
    make_cache_folder,
)
from irtables.errors import DataWarning, user_stacklevel

#: The folder of the cache that holds the tests' entries.
TESTS_DIR_NAME = "tests"
FORMAT = 1
#: The largest entry read (bytes).
MAX_ENTRY_BYTES = 1 << 26
_ENTRY = re.compile(r"^[0-9a-f]{64}\.json$")
_PARTIAL = re.compile(r"^\.[0-9a-f]{64}\.json\.[A-Za-z0-9_-]+\.part$")
_KIND = "irtables-tests"


@dataclass(frozen=True)
class ResultEntry:
    """A stored unit: what it was computed from and its results (JSON values)."""

    recipe: str
    description: Mapping[str, Any]
    results: Any


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, allow_nan=False, ensure_ascii=True).encode()


def _checksum(description: Any, results: Any) -> str:
    return hashlib.sha256(_canonical({"description": description, "results": results})).hexdigest()


@dataclass(frozen=True)
class ResultStore:
    """The tests' entries of a study's cache (``<study>/.irtables-cache/tests``)."""

    folder: Path

    @classmethod
    def of_study(cls, base: Path) -> ResultStore | None:
        """The store of the cache inside the study folder ``base``; None (with a warning)
        when the cache folder, or its tests folder, is there but not a plain folder."""
        from irtables.cache.store import Cache

        cache = Cache.of_study(base)
        if cache is None:
            return None
        folder = cache.folder / TESTS_DIR_NAME
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            warnings.warn(
                f"{folder} is not a folder of this study: tests run without the cache",
                DataWarning,
                stacklevel=user_stacklevel(),
            )
            return None
        return cls(folder)

    def path(self, recipe: str) -> Path:
        """Where the entry of ``recipe`` lives."""
        return self.folder / f"{recipe}.json"

    def get(self, recipe: str) -> ResultEntry | None:
        """The entry of ``recipe``; None when there is none or it does not check out
        (then a :class:`~irtables.errors.DataWarning` says why)."""
        path = self.path(recipe)
        try:
            return read_result_entry(path)
        except FileNotFoundError:
            return None
        except DamagedEntry as exc:
            warn_damaged_result(path, str(exc))
        return None

    def put(self, recipe: str, description: Mapping[str, Any], results: Any) -> None:
        """Store an entry (atomically). A cache that cannot be written is not an error."""
        data = {
            "kind": _KIND,
            "format": FORMAT,
            "irtables": __version__,  # who wrote it: information only
            "recipe": recipe,
            "description": description,
            "results": results,
            "checksum": _checksum(description, results),
        }
        if hashlib.sha256(_canonical(description)).hexdigest() != recipe:
            raise ValueError("the recipe is not the SHA-256 of the description")
        try:
            make_cache_folder(self.folder.parent)
            self.folder.mkdir(exist_ok=True)
            _write(self.path(recipe), _canonical(data))
        except OSError as exc:
            warnings.warn(f"cache not written ({exc})", DataWarning, stacklevel=user_stacklevel())


def warn_damaged_result(path: Path, reason: str) -> None:
    """Say that a tests' entry was not used, and why."""
    warnings.warn(
        f"{path}: cache entry not used ({reason}): the tests run again",
        DataWarning,
        stacklevel=user_stacklevel(),
    )


def _write(path: Path, data: bytes) -> None:
    handle, tmp = new_file(path.parent, f".{path.name}.", ".part")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_result_entry(path: Path) -> ResultEntry:
    """The entry at ``path``, checked: a regular file, bounded, JSON of the form
    :meth:`ResultStore.put` writes, whose name, recipe, description and checksum agree.

    Raises
    ------
    FileNotFoundError
        There is no entry.
    DamagedEntry
        It does not check out (the message says what).
    """
    raw = _bounded_bytes(path)
    try:
        data = json.loads(raw, parse_constant=_refuse)
    except (ValueError, RecursionError):
        raise DamagedEntry("not JSON") from None
    keys = {"kind", "format", "irtables", "recipe", "description", "results", "checksum"}
    if not isinstance(data, dict) or set(data) != keys or data["kind"] != _KIND:
        raise DamagedEntry("not an entry of test results")
    if data["format"] != FORMAT:
        raise DamagedEntry(f"format {data['format']!r}, not {FORMAT}")
    recipe, description = data["recipe"], data["description"]
    if recipe != path.name.removesuffix(".json") or not isinstance(description, dict):
        raise DamagedEntry("its recipe is not its name")
    if hashlib.sha256(_canonical(description)).hexdigest() != recipe:
        raise DamagedEntry("its description is not that of its recipe")
    if data["checksum"] != _checksum(description, data["results"]):
        raise DamagedEntry("checksum mismatch")
    return ResultEntry(recipe, description, data["results"])


def _refuse(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _bounded_bytes(path: Path) -> bytes:
    """The bytes of a regular file of a plain folder (a link is not followed), at most
    MAX_ENTRY_BYTES."""
    if path.parent.is_symlink():
        raise DamagedEntry("its folder is a link")
    return entry_bytes(path, MAX_ENTRY_BYTES)


def result_entries(base: Path) -> list[Path]:
    """The tests' entries of the study folder ``base`` (``<sha256>.json`` regular files
    of plain folders, no links), sorted."""
    folder = base / CACHE_DIR_NAME / TESTS_DIR_NAME
    if not _plain(folder.parent) or not _plain(folder):
        return []
    return sorted(
        p for p in folder.iterdir() if _ENTRY.match(p.name) and p.is_file() and not p.is_symlink()
    )


def clear_results(base: Path) -> int:
    """Remove the tests' entries (and their partial writes) of the study folder
    ``base``, then their folder if that left it empty; returns how many entries."""
    folder = base / CACHE_DIR_NAME / TESTS_DIR_NAME
    found = result_entries(base)
    for entry in found:
        entry.unlink()
    if _plain(folder.parent) and _plain(folder):
        for entry in folder.iterdir():
            if _PARTIAL.match(entry.name) and entry.is_file() and not entry.is_symlink():
                entry.unlink()
        with contextlib.suppress(OSError):
            folder.rmdir()  # only when empty
    return len(found)


def _plain(folder: Path) -> bool:
    return folder.is_dir() and not folder.is_symlink()


__all__ = [
    "MAX_ENTRY_BYTES",
    "TESTS_DIR_NAME",
    "ResultEntry",
    "ResultStore",
    "clear_results",
    "read_result_entry",
    "result_entries",
    "warn_damaged_result",
]
