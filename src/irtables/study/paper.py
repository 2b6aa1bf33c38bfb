r"""A paper's LaTeX sources, as ``irtables check --paper`` reads them.

The files named, and those they pull in with ``\input``, ``\include`` and ``\subfile``
(relative to the named file's folder, where pdflatex runs, else to the file that pulls
them in; ``.tex`` added when missing), each once. Files
irtables generated (a table, ``numbers.tex``: their first line says so) are skipped,
and so is a file that does not exist (a table not written yet).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from irtables.base.header import GENERATED_MARK
from irtables.errors import InputError

_PULLED = re.compile(r"(?<!\\)\\(?:input|include|subfile)\s*\{([^{}]+)\}")
_COMMENT = re.compile(r"(?<!\\)%.*")
MAX_FILES = 500


def paper_sources(papers: Sequence[str | Path]) -> list[tuple[str, str]]:
    """``(path, text)`` of every source of ``papers``, in the order they are reached.

    See :func:`read_paper`, which also says where the generated files it pulls in are.
    """
    return read_paper(papers)[0]


def read_paper(papers: Sequence[str | Path]) -> tuple[list[tuple[str, str]], list[Path]]:
    """``(path, text)`` of every source of ``papers``, in the order they are reached,
    and the folders of the generated files they pull in (``numbers.tex``, tables): where
    the history of the numbers is kept.

    Raises
    ------
    InputError
        A file named on the command line cannot be read as UTF-8 text.
    """
    out: list[tuple[str, str]] = []
    generated: dict[Path, None] = {}
    seen: set[Path] = set()
    todo = [(Path(p), Path(p).parent, True) for p in reversed(papers)]
    while todo and len(seen) < MAX_FILES:
        path, root, named = todo.pop()
        try:
            key = path.resolve()
        except (OSError, RuntimeError):  # a loop of links: unreadable
            key = path.absolute()
        if key in seen:
            continue
        seen.add(key)
        text = _read(path, named)
        if text is None:
            continue
        if GENERATED_MARK in text.split("\n", 1)[0]:
            generated[path.parent] = None
            continue
        out.append((str(path), text))
        pulled = _PULLED.findall(_COMMENT.sub("", text))
        for name in reversed(pulled):
            todo.append((_pulled(name.strip(), root, path.parent), root, False))
    return out, list(generated)


def _pulled(name: str, root: Path, parent: Path) -> Path:
    r"""The file ``\input{name}`` reads: relative to ``root`` (the named file's folder,
    where pdflatex runs) as LaTeX finds it, else to ``parent`` (the file's that pulls it
    in, as ``\subfile`` and the import package find it)."""
    tex = name if name.endswith(".tex") else f"{name}.tex"
    first = root / tex
    return first if first.is_file() or not (parent / tex).is_file() else parent / tex


def _read(path: Path, named: bool) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        if named:
            raise InputError(f"cannot read the paper: {e}", path=str(path)) from None
        return None
