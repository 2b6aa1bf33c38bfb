"""Writing outputs: all files of a command at once, atomically, never over a file irtables
did not write, never outside the output folder.

:func:`write_files` is the one place where irtables writes or deletes files. In order:

1. every relative path passes :func:`~irtables.base.paths.relative_path` and no two
   are the same file (also ignoring case);
2. the folder is locked (``flock``) against a concurrent irtables, and temporary files
   that a crashed run left behind are removed;
3. every destination is checked before any is written: it must be absent or a regular
   file inside the folder whose bytes are already the new ones, or what the record
   (:mod:`~irtables.base.record`) says irtables wrote there, or ``force``; one refusal
   and nothing is written;
4. new contents go to temporary files beside their destinations (mode from the umask),
   which replace the destinations only once all of them are on disk; a full disk
   leaves every old file as it was;
5. the record is updated before the replacements (accepting old and new hashes, so a
   crash in between still counts as irtables' own) and after them;
6. with ``remove_dropped``, outputs the command made before and no longer makes are
   moved aside into :data:`ASIDE`, never deleted: the record that lists them is a file
   anyone may have edited (to list a user's own file, say). The aside folder is checked
   in step 3 (:func:`~irtables.output.aside.check_aside`), and one that cannot be
   written into is named before anything is written; an output that still cannot be
   moved is named in a warning (it stays, recorded, and ``check`` calls it stale).
"""

from __future__ import annotations

import os
import re
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from irtables.base.paths import inside, new_file, regular_or_absent, relative_path
from irtables.base.record import (
    RECORD,
    WRITERS,
    Entry,
    Record,
    file_sha256,
    read_record,
    record_text,
    sha256_hex,
)
from irtables.errors import IrtablesWarning, OutputError, OverwriteError
from irtables.output.aside import ASIDE, check_aside, move_aside

WriteStatus = Literal["written", "unchanged", "moved aside"]
_TEMP = re.compile(r"\.irtables-(\d+)-[0-9a-f]{8}\.tmp")
_STALE_AFTER = 24 * 3600.0  # seconds: a temporary file older than this is stale anyway


@dataclass(frozen=True)
class Written:
    """One output file and what happened to it: written, unchanged or moved aside (then
    ``moved_to`` says where)."""

    path: Path
    status: WriteStatus
    moved_to: Path | None = None


@dataclass(frozen=True)
class _Plan:
    rel: str
    target: Path
    data: bytes
    sha256: str
    current: str | None  # hash of the file there now (None: absent)
    refused: bool

    @property
    def changed(self) -> bool:
        return self.current != self.sha256


def write_files(
    folder: str | Path,
    files: Mapping[str, str | bytes] | Iterable[tuple[str, str | bytes]],
    *,
    by: str,
    force: bool = False,
    remove_dropped: bool | Callable[[str], bool] = False,
) -> list[Written]:
    """Write ``files`` (relative path -> text or bytes, or such pairs) into ``folder``,
    all or nothing.

    ``by`` names the command (a :data:`~irtables.base.record.WRITERS` key). With
    ``remove_dropped``, files that ``by`` wrote before but are not in ``files`` are
    moved aside into :data:`ASIDE` (same relative path), if their bytes are still what
    the record says it wrote; a function of the relative path chooses which of them
    (the others stay). Strings are written as UTF-8.

    Raises
    ------
    OverwriteError
        A destination holds a file irtables did not write (or that was edited since)
        and ``force`` is false; nothing was written.
    OutputError
        A path leaves the folder, two paths are one file, a destination is not a
        regular file, or the operating system refused (read-only, disk full).

    Examples
    --------
    >>> import tempfile
    >>> out = Path(tempfile.mkdtemp())
    >>> [w.status for w in write_files(out, {"a.csv": "x\\n", "sub/b.md": "y\\n"}, by="tables")]
    ['written', 'written']
    >>> [w.status for w in write_files(out, {"a.csv": "x\\n"}, by="tables")]
    ['unchanged']
    """
    if by not in WRITERS:
        raise ValueError(f"unknown writer {by!r} (known: {', '.join(sorted(WRITERS))})")
    root = Path(folder)
    pairs = files.items() if isinstance(files, Mapping) else files
    blobs: dict[str, bytes] = {}
    folded: dict[str, str] = {}  # each path so far by its case-folded spelling
    for rel, value in pairs:
        path = _checked(rel, root, folded)
        folded[path.casefold()] = path
        blobs[path] = _bytes(value)
    _make_folder(root)
    with _locked(root):
        regular_or_absent(root / RECORD)
        record = read_record(root)
        _clean_temps(root, blobs)
        plans = [_plan(root, rel, data, record, force) for rel, data in blobs.items()]
        _refuse(plans)
        dropped = _dropped(record, blobs, by, remove_dropped) if remove_dropped else []
        if dropped:
            check_aside(root, dropped)
        pending = [p for p in plans if p.changed]
        temps = _write_temps(pending)
        entries = dict(record.files)
        try:
            if pending:
                intent = {p.rel: Entry(p.sha256, by, p.current) for p in pending}
                _save_record(root, {**entries, **intent})
            for plan, tmp in zip(pending, temps, strict=True):
                os.replace(tmp, plan.target)
        except OSError as e:
            raise _os_error(e, root) from None
        finally:
            for tmp in temps:
                with suppress(OSError):
                    tmp.unlink(missing_ok=True)
        removed = [_remove(root, rel, entries) for rel in dropped]
        entries.update({p.rel: Entry(p.sha256, by) for p in plans})
        _save_record(root, entries)
    statuses = [Written(p.target, "written" if p.changed else "unchanged") for p in plans]
    return statuses + [w for w in removed if w is not None]


def write_atomic(
    path: str | Path, text: str | bytes, *, by: str, force: bool = False
) -> WriteStatus:
    """Write one file (its folder is the output folder) with :func:`write_files`."""
    target = Path(path)
    return write_files(target.parent, {target.name: text}, by=by, force=force)[0].status


def check_destination(path: str | Path, *, force: bool = False) -> None:
    """Refuse early (before long work) a destination that :func:`write_atomic` would refuse.

    The content is not known yet: a file there must be one irtables wrote (or ``force``).
    """
    target = Path(path)
    root = target.parent
    rel = _checked(target.name, root)
    if root.exists() and not os.access(root, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write into {root}: permission denied")
    if root.is_dir():
        _refuse([_plan(root, rel, b"", read_record(root), force)])


def _checked(rel: str, root: Path, earlier: Mapping[str, str] | None = None) -> str:
    """A checked relative path, distinct (also ignoring case) from the ``earlier`` ones,
    which are given by their case-folded spelling."""
    path = str(relative_path(rel, folder=root))
    if path == RECORD:
        raise OutputError(f"refusing to write {root / rel}: the name is irtables' record")
    clash = None if earlier is None else earlier.get(path.casefold())
    if clash is not None:
        raise OutputError(
            f"two outputs would be the same file in {root}: {clash!r} and {path!r}"
            + (" (file names differ only in case)" if clash != path else "")
        )
    return path


def _bytes(value: str | bytes) -> bytes:
    return value.encode("utf-8") if isinstance(value, str) else value


def _make_folder(root: Path) -> None:
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise _os_error(e, root) from None
    if not root.is_dir():
        raise OutputError(f"cannot write into {root}: it is not a folder")


@contextmanager
def _locked(root: Path) -> Iterator[None]:
    """Hold an exclusive ``flock`` on the folder (where the platform has one)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    try:
        fd = os.open(root, os.O_RDONLY)
    except OSError:  # cannot open the folder itself: writing will say why
        yield
        return
    try:
        with suppress(OSError):  # a file system without locks: go on unlocked
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _plan(root: Path, rel: str, data: bytes, record: Record, force: bool) -> _Plan:
    target = inside(root, rel)
    sha = sha256_hex(data)
    current = None
    if regular_or_absent(target):
        try:
            current = file_sha256(target)
        except OSError as e:
            raise _os_error(e, target) from None
    entry = record.files.get(rel)
    known = current is None or current == sha or (entry is not None and entry.accepts(current))
    return _Plan(rel, target, data, sha, current, refused=not (known or force))


def _refuse(plans: list[_Plan]) -> None:
    refused = [p for p in plans if p.refused]
    if not refused:
        return
    more = ""
    if len(refused) > 1:
        names = ", ".join(p.rel for p in refused[1:4]) + (", ..." if len(refused) > 4 else "")
        more = f" (and {len(refused) - 1} more: {names})"
    raise OverwriteError(
        f"refusing to overwrite {refused[0].target} (not generated by irtables, or edited "
        f"since){more}; nothing was written; use --force"
    )


def _dropped(
    record: Record, blobs: Mapping[str, bytes], by: str, which: bool | Callable[[str], bool]
) -> list[str]:
    return sorted(
        rel
        for rel, e in record.files.items()
        if e.by == by and rel not in blobs and (which is True or (callable(which) and which(rel)))
    )


def _remove(root: Path, rel: str, entries: dict[str, Entry]) -> Written | None:
    """Move an output no longer made aside, only if its bytes are what the record says
    irtables wrote (never deleted: the record may have been edited)."""
    entry = entries[rel]
    try:
        target = inside(root, rel)
        if not regular_or_absent(target):
            del entries[rel]
            return None
        if not entry.accepts(file_sha256(target)):
            return None  # edited by hand: it stays, and stays recorded as an output
    except (OutputError, OSError):
        return None  # not a regular file inside the folder: not irtables' to move
    try:
        aside = move_aside(root, rel, target)
    except (OutputError, OSError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        warnings.warn(
            f"{target} is no longer made but could not be moved into {root / ASIDE} "
            f"({reason}); it stays, and the next run tries again",
            IrtablesWarning,
            stacklevel=3,
        )
        return None
    del entries[rel]
    return Written(target, "moved aside", aside)


def _write_temps(plans: list[_Plan]) -> list[Path]:
    temps: list[Path] = []
    try:
        for plan in plans:
            plan.target.parent.mkdir(parents=True, exist_ok=True)
            temps.append(_write_temp(plan.target.parent, plan.data))
    except OSError as e:
        for tmp in temps:
            with suppress(OSError):
                tmp.unlink()
        raise _os_error(e, plans[len(temps)].target) from None
    return temps


def _write_temp(folder: Path, data: bytes) -> Path:
    """A new file with ``data`` in ``folder``; its mode is what the umask gives."""
    fd, tmp = new_file(folder, ".irtables-", ".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return tmp


def _save_record(root: Path, entries: Mapping[str, Entry]) -> None:
    """Write the record, unless it already holds exactly this (a rerun touches nothing)."""
    data = record_text(entries).encode("utf-8")
    path = root / RECORD
    if not entries and not path.exists():
        return  # nothing written, nothing to record
    with suppress(OSError):
        if regular_or_absent(path) and path.read_bytes() == data:
            return
    try:
        tmp = _write_temp(root, data)
        os.replace(tmp, path)
    except OSError as e:
        raise _os_error(e, root / RECORD) from None


def _clean_temps(root: Path, blobs: Mapping[str, bytes]) -> None:
    """Remove temporary files left in the folders about to be written by a crashed run."""
    folders = {root, *(root.joinpath(*rel.split("/")[:-1]) for rel in blobs)}
    names = {rel.rsplit("/", 1)[-1] for rel in blobs}
    for folder in sorted(folders):
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            if _is_stale_temp(entry, names) and entry.is_file(follow_symlinks=False):
                with suppress(OSError):
                    os.unlink(entry.path)


def _is_stale_temp(entry: os.DirEntry[str], names: set[str]) -> bool:
    match = _TEMP.fullmatch(entry.name)
    if match is not None:
        return not _alive(int(match.group(1)), entry)
    # the temporary files of earlier versions: ".<name>.<8 random characters>.tmp"
    legacy = re.fullmatch(r"\.(.+)\.[a-z0-9_]{8}\.tmp", entry.name)
    return legacy is not None and legacy.group(1) in names


def _alive(pid: int, entry: os.DirEntry[str]) -> bool:
    if pid == os.getpid():
        return True
    with suppress(OSError):
        if time.time() - entry.stat(follow_symlinks=False).st_mtime > _STALE_AFTER:
            return False
    if os.name != "posix":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _os_error(e: OSError, where: Path) -> OutputError:
    return OutputError(f"cannot write {where}: {e.strerror or e}")
