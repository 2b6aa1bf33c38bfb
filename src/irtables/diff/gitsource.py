"""The operands of ``irtables diff``: a results folder, a config file, or ``REV:path``.

``REV:path`` is read from git (``git archive``) into a temporary folder; the working
tree and the index are never touched. As in git, ``path`` is relative to the top of the
repository unless it starts with ``./`` or ``../`` (then: to the current folder).
"""

from __future__ import annotations

import io
import os
import posixpath
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from irtables.errors import IrtablesError

CONFIG_SUFFIX = ".toml"


@dataclass(frozen=True)
class Operand:
    """Where one side of a diff lives: its results folder and config file (if given)."""

    results: Path
    config: Path | None = None


def is_git_spec(spec: str) -> bool:
    """Whether ``spec`` names a git revision (``REV:path``) rather than an existing path.

    Examples
    --------
    >>> is_git_spec("HEAD~1:results"), is_git_spec("results")
    (True, False)
    """
    return ":" in spec and not Path(spec).exists() and not spec.startswith(":")


@contextmanager
def open_operand(spec: str, *, cwd: Path | None = None) -> Iterator[Operand]:
    """Yield the results folder (and config file) that ``spec`` names.

    A git revision is extracted into a temporary folder that is removed afterwards.
    """
    if is_git_spec(spec):
        rev, _, path = spec.partition(":")
        with _checkout(rev, path, Path(cwd or os.getcwd())) as local:
            yield _operand(local)
        return
    local = Path(spec)
    if not local.exists():
        raise IrtablesError(f"{spec}: no such file or directory (nor a git REV:path)")
    yield _operand(local)


def _operand(path: Path) -> Operand:
    if path.is_file() and path.suffix == CONFIG_SUFFIX:
        return Operand(path.parent, path)
    return Operand(path)


def _git(args: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    git = shutil.which("git")
    if git is None:
        raise IrtablesError("git is not installed: cannot read a REV:path operand")
    return subprocess.run([git, *args], cwd=cwd, capture_output=True, check=False)


def _ok(result: subprocess.CompletedProcess[bytes], what: str) -> bytes:
    if result.returncode != 0:
        message = result.stderr.decode("utf-8", "replace").strip().splitlines()
        raise IrtablesError(f"{what}: {message[-1] if message else 'git failed'}")
    return result.stdout


@contextmanager
def _checkout(rev: str, path: str, cwd: Path) -> Iterator[Path]:
    """Extract ``rev:path`` (a folder, or a config file with its folder) into a temp dir."""
    if not rev:
        raise IrtablesError(f"{rev}:{path}: missing revision before ':'")
    top = Path(
        _ok(_git(["rev-parse", "--show-toplevel"], cwd), "not in a git repository").decode().strip()
    )
    if path.startswith(("./", "../")) or path in (".", ".."):
        prefix = _ok(_git(["rev-parse", "--show-prefix"], cwd), "git").decode().strip()
        path = posixpath.normpath(posixpath.join(prefix, path))
    path = path.strip("/") if path not in ("", ".") else ""
    spec = f"{rev}:{path}"
    kind = _ok(_git(["cat-file", "-t", spec], top), f"{spec}: not in git").decode().strip()
    folder = path if kind == "tree" else posixpath.dirname(path)
    if kind == "blob" and not path.endswith(CONFIG_SUFFIX):
        folder = path  # a single result file
    args = ["archive", "--format=tar", rev, *([folder] if folder else [])]
    data = _ok(_git(args, top), f"{spec}: git archive")
    with tempfile.TemporaryDirectory(prefix="irtables-diff-") as tmp:
        _extract(data, Path(tmp), spec)
        try:
            yield Path(tmp, path) if path else Path(tmp)
        except IrtablesError as e:
            _name_in_git(e, tmp, rev)
            raise


def _name_in_git(e: IrtablesError, tmp: str, rev: str) -> None:
    """Let ``e`` name a file of the revision as ``REV:path``, not as its temporary copy
    (gone once the command ends)."""
    copy = f"{tmp}{os.sep}"
    e.args = tuple(a.replace(copy, f"{rev}:") if isinstance(a, str) else a for a in e.args)
    path = getattr(e, "path", None)
    if isinstance(path, str):
        e.path = path.replace(copy, f"{rev}:")  # type: ignore[attr-defined]


def _extract(data: bytes, into: Path, spec: str) -> None:
    """Extract a ``git archive`` with tarfile's ``data`` filter: a symlink or path that
    leads outside the folder (or a device) is an error naming it, never followed."""
    try:
        with tarfile.open(fileobj=io.BytesIO(data)) as archive:
            archive.extractall(into, filter="data")
    except tarfile.TarError as e:
        raise IrtablesError(f"{spec}: refusing to extract it from git: {e}") from None
    except OSError as e:
        raise IrtablesError(f"{spec}: cannot extract it from git: {e.strerror or e}") from None
