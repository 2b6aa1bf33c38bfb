"""A run's ``ir_metadata`` block (TIRA / ir_metadata, the PRIMAD model).

A run file may start with YAML in comment lines::

    # ir_metadata.start
    # platform:
    #   software: {libraries: {pyserini: 0.22}}
    # implementation: {source: {repository: https://github.com/x/y, commit: 1a2b3c}}
    # ir_metadata.end
    301 Q0 doc1 1 12.5 bm25

:func:`read_header` reads the block: the lines between the two markers, each without
its leading ``#`` and one space, as YAML (a mapping). Every reader of a run file goes
through it (:func:`~irtables.loaders.trec_run.read_run` before it reads the ranking,
whatever the command), so a malformed block (it never ends, a second start, an end
without a start, not YAML, not a mapping) is an :class:`~irtables.errors.InputError`
naming the file and line everywhere. Reading stops at the first line that is neither
blank nor a comment: only a block at the top counts, and a file that does not start with
a comment costs one read of its first :data:`PEEK_BYTES`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from irtables.errors import InputError
from irtables.loaders.source import UTF8_BOM, content_lines, open_input

START = "# ir_metadata.start"
END = "# ir_metadata.end"
#: The PRIMAD components of ir_metadata, in the order texts list them.
PRIMAD: tuple[str, ...] = ("platform", "research goal", "implementation", "method", "actor", "data")
#: Bytes looked at to tell whether a run file starts with a comment (most do not).
PEEK_BYTES = 4096


@dataclass(frozen=True)
class Header:
    """What precedes the ranking of a run file: its ``ir_metadata`` block (None: none)
    and ``lines``, the number of lines (comment or blank) before the first ranking line
    (0: the file does not start with a comment, or has no ranking line)."""

    metadata: dict[str, Any] | None
    lines: int


def read_ir_metadata(path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The ``ir_metadata`` block at the top of a run file, or None when it has none.

    Raises
    ------
    InputError
        A malformed block (see :func:`read_header`), naming the file and line.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "r.run"
    >>> _ = p.write_text("# ir_metadata.start\\n# tag: bm25\\n# method: {retrieval: bm25}\\n"
    ...                  "# ir_metadata.end\\n1 Q0 d 1 1.0 bm25\\n")
    >>> read_ir_metadata(p)
    {'tag': 'bm25', 'method': {'retrieval': 'bm25'}}
    """
    return read_header(path).metadata


def read_header(path: str | os.PathLike[str]) -> Header:
    """The comment lines at the top of a run file, with its ``ir_metadata`` block.

    Only the top is read: a file whose first bytes (:data:`PEEK_BYTES`, after blank
    space) do not start a comment has no header, and otherwise the reading stops at the
    first line that is neither blank nor a comment.

    Raises
    ------
    InputError
        Naming the file and line: a block without its end line before the ranking, a
        second start line (inside the block or after it), an end line without a start,
        a block that is not YAML or not a mapping.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "r.run"
    >>> _ = p.write_text("# ir_metadata.start\\n# tag: bm25\\n# ir_metadata.end\\n"
    ...                  "1 Q0 d 1 1.0 bm25\\n")
    >>> read_header(p)
    Header(metadata={'tag': 'bm25'}, lines=3)
    """
    name = os.fspath(path)
    if not _starts_with_comment(name):
        return Header(None, 0)
    return scan_header(content_lines(name), name)


def scan_header(lines: Iterable[tuple[int, str]], path: str) -> Header:
    """:func:`read_header` on numbered non-blank lines (as
    :func:`~irtables.loaders.source.content_lines` gives them), named ``path`` in errors."""
    start: int | None = None
    body: list[tuple[int, str]] = []
    metadata: dict[str, Any] | None = None
    ranking = 0  # the line of the first ranking line
    for number, line in lines:
        text = line.strip()
        if not text.startswith("#"):
            ranking = number
            break
        if start is not None and metadata is None:  # inside the block
            if text == END:
                metadata = _parse(path, start, body)
            elif text == START:
                raise _error(
                    f"a second '{START}' line inside the block of line {start}", path, number
                )
            else:
                body.append((number, _uncomment(line.rstrip())))
        elif text == START:
            if metadata is not None:
                raise _error("a second block (the first ends before it)", path, number)
            start = number
        elif text == END:
            raise _error(f"'{END}' without a '{START}' line before it", path, number)
    if start is not None and metadata is None:
        raise InputError(
            f"the ir_metadata block that starts here has no '{END}' line before the ranking; "
            f"expected the YAML between '{START}' and '{END}' comment lines",
            path=path,
            line=start,
        )
    return Header(metadata, ranking - 1 if ranking else 0)


def _error(problem: str, path: str, line: int) -> InputError:
    return InputError(
        f"ir_metadata block: {problem}; expected one block, its YAML between one "
        f"'{START}' and one '{END}' comment line, at the top of the run",
        path=path,
        line=line,
    )


def _starts_with_comment(path: str) -> bool:
    """Whether the first bytes of a file, after a byte-order mark and blank space, are
    ``#`` (only :data:`PEEK_BYTES` are read; a file blank that far is read further by the
    caller)."""
    with open_input(path, text=True) as stream:
        head = stream.read(PEEK_BYTES)
    head = head.removeprefix(UTF8_BOM).lstrip()
    return not head or head.startswith(b"#")


def _uncomment(text: str) -> str:
    stripped = text.lstrip()[1:]
    return stripped[1:] if stripped.startswith(" ") else stripped


def _parse(path: str, start: int, body: list[Any]) -> dict[str, Any]:
    import yaml

    numbers = [n for n, _ in body]
    source = "\n".join(t for _, t in body) + "\n"
    try:
        data = yaml.safe_load(source)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
        index = mark.line if mark is not None else 0
        line = numbers[min(index, len(numbers) - 1)] if numbers else start
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise InputError(
            f"ir_metadata block: not YAML ({problem}); expected YAML in the comment lines "
            f"between '{START}' and '{END}'",
            path=path,
            line=line,
        ) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise InputError(
            f"ir_metadata block: a {type(data).__name__}; expected a mapping of PRIMAD "
            "components (platform, implementation, method, data, ...)",
            path=path,
            line=start,
        )
    return {str(k): v for k, v in data.items()}


def summary(metadata: Mapping[str, Any]) -> dict[str, str]:
    """One line per PRIMAD component present (others after them): ``key: value, ...``
    with nested mappings flattened as ``a.b=value``."""
    keys = [k for k in PRIMAD if k in metadata] + [k for k in metadata if k not in PRIMAD]
    return {k: _flat(metadata[k]) for k in keys}


def _flat(value: Any, prefix: str = "") -> str:
    if isinstance(value, Mapping):
        return ", ".join(
            _flat(v, f"{prefix}{k}.") if isinstance(v, Mapping) else f"{prefix}{k}={v}"
            for k, v in value.items()
        )
    return f"{prefix.rstrip('.')}{'=' if prefix else ''}{value}"
