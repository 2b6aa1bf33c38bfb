r"""A paper's LaTeX sources, as ``irtables check --paper`` reads them.

The files named, and those they pull in with ``\input``, ``\include`` and ``\subfile``
(relative to the file that names them, ``.tex`` added when missing), each once. Files
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
    todo = [(Path(p), True) for p in reversed(papers)]
    while todo and len(seen) < MAX_FILES:
        path, named = todo.pop()
        key = path.resolve()
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
            child = path.parent / name.strip()
            todo.append((child if child.suffix == ".tex" else Path(f"{child}.tex"), False))
    return out, list(generated)


def _read(path: Path, named: bool) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        if named:
            raise InputError(f"cannot read the paper: {e}", path=str(path)) from None
        return None
