"""A run's ``ir_metadata`` block (TIRA / ir_metadata, the PRIMAD model).

A run file may start with YAML in comment lines::

    # ir_metadata.start
    # platform:
    #   software: {libraries: {pyserini: 0.22}}
    # implementation: {source: {repository: https://github.com/x/y, commit: 1a2b3c}}
    # ir_metadata.end
    301 Q0 doc1 1 12.5 bm25

The run reader skips comment lines; :func:`read_ir_metadata` reads the block: the lines
between the two markers, each without its leading ``#`` and one space, as YAML (a
mapping). A block that starts and never ends, or does not parse, is an
:class:`~irtables.errors.InputError` naming the file and line. Reading stops at the
first line that is neither blank nor a comment: only a block at the top counts.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from irtables.errors import InputError
from irtables.loaders.source import content_lines

START = "# ir_metadata.start"
END = "# ir_metadata.end"
#: The PRIMAD components of ir_metadata, in the order texts list them.
PRIMAD: tuple[str, ...] = ("platform", "research goal", "implementation", "method", "actor", "data")


def read_ir_metadata(path: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The ``ir_metadata`` block at the top of a run file, or None when it has none.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "r.run"
    >>> _ = p.write_text("# ir_metadata.start\\n# tag: bm25\\n# method: {retrieval: bm25}\\n"
    ...                  "# ir_metadata.end\\n1 Q0 d 1 1.0 bm25\\n")
    >>> read_ir_metadata(p)
    {'tag': 'bm25', 'method': {'retrieval': 'bm25'}}
    """
    name = os.fspath(path)
    start: int | None = None
    body: list[str] = []
    for number, line in content_lines(name):
        text = line.rstrip()
        if start is None:
            if text.strip() == START:
                start = number
                continue
            if text.lstrip().startswith("#"):
                continue
            return None  # the ranking starts: no block at the top
        if text.strip() == END:
            return _parse(name, start, body)
        if not text.lstrip().startswith("#"):
            break
        body.append((number, _uncomment(text)))  # type: ignore[arg-type]
    if start is None:
        return None
    raise InputError(
        f"the ir_metadata block that starts here has no '{END}' line before the ranking; "
        f"expected the YAML between '{START}' and '{END}' comment lines",
        path=name,
        line=start,
    )


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
