"""The one check of every path irtables writes, deletes or reads back inside an output folder.

A relative path comes from irtables itself (``tables/table1.tex``), from data (a
dataset name in a file name) or from a file irtables wrote earlier and reads back (the
record of written files, ``manifest.json``), which anyone may have edited. All of them
pass :func:`relative_path` (relative, POSIX, no ``.``/``..`` parts, no control
characters) and :func:`inside` (the resolved path lies under the resolved folder, so a
symlinked sub-folder cannot lead outside it).
"""

from __future__ import annotations

import os
import stat
import unicodedata
from pathlib import Path, PurePosixPath

from irtables.errors import OutputError

#: Longest file name (in UTF-8 bytes) that common file systems accept.
MAX_NAME_BYTES = 255


def relative_path(rel: str, *, folder: str | Path = ".") -> PurePosixPath:
    """Check that ``rel`` is a plain relative path inside a folder and return it.

    Raises :class:`~irtables.errors.OutputError` naming ``folder`` and the path when it
    is absolute, empty, has ``.`` or ``..`` parts, backslashes, control characters or a
    part longer than :data:`MAX_NAME_BYTES`.

    Examples
    --------
    >>> relative_path("tables/table1.tex")
    PurePosixPath('tables/table1.tex')
    >>> relative_path("../precious.txt", folder="sup")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    irtables.errors.OutputError: refusing the path '../precious.txt' in sup: it must stay ...
    """
    problem = _problem(rel)
    if problem is not None:
        raise OutputError(f"refusing the path {rel!r} in {folder}: {problem}")
    return PurePosixPath(rel)


def is_relative_path(rel: object) -> bool:
    """Whether ``rel`` is a string that :func:`relative_path` accepts.

    Examples
    --------
    >>> is_relative_path("figures/k-cacm.png"), is_relative_path("/etc/passwd")
    (True, False)
    """
    return isinstance(rel, str) and _problem(rel) is None


def _problem(rel: str) -> str | None:
    if not rel:
        return "it is empty"
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in rel):
        return "it holds control characters"
    if "\\" in rel:
        return "it holds a backslash"
    if rel.startswith("/") or (len(rel) > 1 and rel[1] == ":"):
        return "it must be relative"
    parts = rel.split("/")
    if any(p in ("", ".", "..") for p in parts):
        return "it must stay inside the folder (no '..')"
    if any(len(p.encode("utf-8")) > MAX_NAME_BYTES for p in parts):
        return f"a part is longer than {MAX_NAME_BYTES} bytes"
    return None


def inside(folder: Path, rel: str | PurePosixPath) -> Path:
    """``folder / rel``, refused unless it resolves to a place under ``folder``.

    Symlinks in ``rel``'s parent folders are followed: one that leads out of ``folder``
    is refused. The last part is not followed (a symlink there is not a regular file,
    which :func:`regular_or_absent` refuses).
    """
    checked = relative_path(str(rel), folder=folder)
    root = folder.resolve()
    target = folder.joinpath(*checked.parts)
    try:
        parent = target.parent.resolve()
    except (OSError, RuntimeError) as e:  # RuntimeError: a symlink loop (Python < 3.13)
        raise OutputError(
            f"refusing to write {target}: its folder cannot be resolved ({e})"
        ) from None
    if parent != root and root not in parent.parents:
        raise OutputError(f"refusing to write {target}: it resolves to {parent}, outside {folder}")
    return target


def regular_or_absent(path: Path) -> bool:
    """True for a regular file, False when nothing is there; refuses anything else.

    Symlinks, folders, FIFOs and devices raise :class:`~irtables.errors.OutputError`:
    irtables neither follows nor replaces them (a FIFO would hang it, ``/dev/zero``
    exhaust its memory).
    """
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return False
    except OSError as e:
        raise OutputError(f"cannot inspect {path}: {e.strerror or e}") from None
    if stat.S_ISREG(mode):
        return True
    kind = (
        "a symlink"
        if stat.S_ISLNK(mode)
        else "a folder"
        if stat.S_ISDIR(mode)
        else "a FIFO"
        if stat.S_ISFIFO(mode)
        else "not a regular file"
    )
    raise OutputError(
        f"refusing to write {path}: it is {kind}; irtables only replaces regular files"
    )


def new_file(folder: Path, prefix: str, suffix: str) -> tuple[int, Path]:
    """A new, empty file in ``folder`` (never an existing one), open for writing, and its
    path; its mode is what the umask gives, as for any file a program writes (a
    temporary file's usual 0600 would hide it from the rest of a shared project).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     fd, path = new_file(Path(d), ".x-", ".tmp")
    ...     os.close(fd)
    ...     path.name.startswith(".x-") and path.name.endswith(".tmp")
    True
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        path = folder / f"{prefix}{os.getpid()}-{os.urandom(4).hex()}{suffix}"
        try:
            return os.open(path, flags, 0o666), path
        except FileExistsError:
            continue
