"""The folder of outputs moved aside, ``.irtables-aside/``: checked before a write, one
copy per content, ignored by git, and a note when it holds more than :data:`NOTE_ABOVE`.

An output a command no longer makes (``supplement`` after a dataset was dropped, say) is
moved there, never deleted (:func:`~irtables.output.writers.write_files`). The folder is
checked before anything is written: it must be absent or a plain folder (not a symlink,
which could loop or lead out of the output folder) that irtables may write into, and
every place an output would go there must resolve inside the output folder. An output
whose bytes are already there under its name (``name``, ``name.1``, ...) is not copied
again: the earlier copy is the one kept.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from irtables.base.paths import inside
from irtables.base.record import file_sha256
from irtables.errors import OutputError

#: Where outputs a command no longer makes are moved (hidden: discovery never reads it).
ASIDE = ".irtables-aside"
#: Written into the folder when irtables makes it, as for the cache: not part of the study.
GITIGNORE = "# written by irtables: outputs moved aside are not part of the study\n*\n"
#: Bytes past which a run that moves outputs aside says how much the folder holds (100 MiB).
NOTE_ABOVE = 100 << 20


def check_aside(root: Path, rels: Iterable[str]) -> None:
    """Refuse (:class:`~irtables.errors.OutputError`, nothing written yet) an aside
    folder that outputs ``rels`` could not be moved into: not a plain folder, not
    writable, or a place in it that resolves outside ``root``."""
    folder = root / ASIDE
    try:
        mode = folder.lstat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as e:
        raise OutputError(f"cannot inspect {folder}: {e.strerror or e}") from None
    if mode is not None and not stat.S_ISDIR(mode):
        kind = "a symlink" if stat.S_ISLNK(mode) else "not a folder"
        raise OutputError(
            f"cannot move outputs no longer made aside: {folder} is {kind}, expected a "
            "folder (or nothing); remove it or move it away; nothing was written"
        )
    if mode is not None and not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(
            f"cannot move outputs no longer made aside into {folder}: permission denied; "
            "nothing was written"
        )
    for rel in rels:
        try:
            inside(root, f"{ASIDE}/{rel}")
        except OutputError as e:
            raise OutputError(f"cannot move {root / rel} aside: {e}; nothing was written") from None


def move_aside(root: Path, rel: str, target: Path) -> Path:
    """Move ``target`` (the output ``rel`` of ``root``) into the aside folder; where its
    bytes are already there under its name, remove it instead. Returns the copy kept.

    Raises :class:`OSError` or :class:`~irtables.errors.OutputError` when it cannot.
    """
    first = inside(root, f"{ASIDE}/{rel}")
    folder = root / ASIDE
    if not folder.exists():
        folder.mkdir()
        (folder / ".gitignore").write_text(GITIGNORE)
    first.parent.mkdir(parents=True, exist_ok=True)
    sha = file_sha256(target)
    candidate, n = first, 0
    while candidate.exists() or candidate.is_symlink():
        if _regular(candidate) and file_sha256(candidate) == sha:
            target.unlink()  # the same bytes are kept already: one copy per content
            return candidate
        n += 1
        candidate = first.with_name(f"{first.name}.{n}")
    os.rename(target, candidate)
    return candidate


def aside_note(root: Path) -> str | None:
    """One line saying how much the aside folder of ``root`` holds, when that is more
    than :data:`NOTE_ABOVE` bytes; None otherwise (or when it is not a plain folder)."""
    folder = root / ASIDE
    if not folder.is_dir() or folder.is_symlink():
        return None
    size, count = 0, 0
    for dirpath, _, names in os.walk(folder):  # symlinked folders are not followed
        for name in names:
            try:
                info = os.lstat(os.path.join(dirpath, name))
            except OSError:
                continue
            if stat.S_ISREG(info.st_mode) and name != ".gitignore":
                size, count = size + info.st_size, count + 1
    if size <= NOTE_ABOVE:
        return None
    return (
        f"{folder} holds {size / (1 << 20):.0f} MiB in {count} earlier outputs that irtables "
        "moved aside; delete those you no longer need"
    )


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(path.lstat().st_mode)
    except OSError:
        return False
