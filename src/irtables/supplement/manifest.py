"""``manifest.json``: what a supplement was built from and what it holds, with SHA-256 hashes.

No timestamps: the same inputs give the same manifest. Paths are relative to the
manifest's folder (POSIX separators), so a paper repository can move or be cloned.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, cast

from irtables._version import __version__
from irtables.base.paths import is_relative_path
from irtables.base.record import file_sha256, is_sha256
from irtables.errors import InputError

MANIFEST = "manifest.json"
SCHEMA = 1
T = TypeVar("T")


@dataclass(frozen=True)
class Manifest:
    """The record of one supplement build.

    Examples
    --------
    >>> m = Manifest("0.1.0", ".", None, None, {}, {"../a.tsv": "a" * 64}, {"README.md": "c" * 64})
    >>> Manifest.from_json(m.to_json()) == m
    True
    """

    version: str
    results: str
    config: str | None
    config_sha256: str | None
    settings: Mapping[str, Any]
    inputs: Mapping[str, str]
    outputs: Mapping[str, str]
    notes: tuple[str, ...] = field(default=())
    #: dataset id -> how irtables evaluated its runs (trec_eval version, -l, -M, -c)
    evaluation: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: run file (relative path) -> its ir_metadata block, for runs that have one
    run_metadata: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: the command's options that shape the outputs (:mod:`irtables.supplement.rerun`)
    options: Mapping[str, Any] = field(default_factory=dict)
    #: the warnings the build gave, given again by a rerun that does nothing
    warnings: tuple[str, ...] = field(default=())
    #: figure stem -> the SHA-256 of what it draws (:mod:`irtables.supplement.reuse`)
    figures: Mapping[str, str] = field(default_factory=dict)
    #: the SHA-256 of irtables' own files (:func:`~irtables.base.code.code_digest`)
    code: str = ""

    def to_json(self) -> str:
        """Stable JSON: sorted keys, two-space indent, a final newline."""
        data = {
            "schema": SCHEMA,
            "irtables": self.version,
            "results": self.results,
            "config": {
                "path": self.config,
                "sha256": self.config_sha256,
                "settings": self.settings,
            },
            "inputs": dict(self.inputs),
            "outputs": dict(self.outputs),
            "notes": list(self.notes),
            "evaluation": {k: dict(v) for k, v in self.evaluation.items()},
            "options": dict(self.options),
        }
        if self.run_metadata:  # (absent when no run has a block)
            data["run_metadata"] = {k: dict(v) for k, v in self.run_metadata.items()}
        if self.warnings:  # (absent when the build gave none)
            data["warnings"] = list(self.warnings)
        if self.figures:  # (absent when there are none: ``irtables tables``)
            data["figures"] = dict(self.figures)
        if self.code:
            data["code"] = self.code
        return json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False, default=str) + "\n"

    @classmethod
    def from_json(cls, text: str, *, source: str = MANIFEST) -> Manifest:
        """Read a manifest written by :meth:`to_json`; a bad one is an :class:`InputError`.

        The manifest may have been edited: every hash must be 64 hex digits and every
        output a path inside the folder (:func:`~irtables.base.paths.relative_path`).
        Input paths (``../results/x.tsv``) are only compared, never opened.
        """
        try:
            manifest = cls._from_data(_json_object(text))
        except _Damaged as e:
            raise InputError(f"not an irtables manifest ({e})", path=source) from None
        except _OtherSchema as e:
            raise InputError(str(e), path=source) from None
        outside = [p for p in manifest.outputs if not is_relative_path(p)]
        if outside:
            reason = f"not an irtables manifest (output {outside[0]!r} is not inside the folder)"
            raise InputError(reason, path=source)
        return manifest

    @classmethod
    def _from_data(cls, data: Mapping[str, Any]) -> Manifest:
        schema = _field(data, "schema", _integer)
        if schema != SCHEMA:
            raise _OtherSchema(
                f"manifest schema {schema} is not one irtables {__version__} reads "
                f"(schema {SCHEMA}): it was written by another version of irtables; "
                "rebuild the folder with this one"
            )
        config = _field(data, "config", _table)
        return cls(
            version=_field(data, "irtables", str),
            results=_field(data, "results", _string),
            config=_field(config, "path", _optional_str, where="config."),
            config_sha256=_field(config, "sha256", _optional_str, where="config."),
            settings=_field(config, "settings", _table, {}, where="config."),
            inputs=_field(data, "inputs", _hashes),
            outputs=_field(data, "outputs", _hashes),
            notes=_field(data, "notes", _strings, ()),
            evaluation=_field(data, "evaluation", _table, {}),
            run_metadata=_field(data, "run_metadata", _table, {}),
            options=_field(data, "options", _table, {}),
            warnings=_field(data, "warnings", _strings, ()),
            figures=_field(data, "figures", _hashes, {}),
            code=_field(data, "code", str, ""),
        )


class _Damaged(Exception):
    """What is wrong with a manifest, in words (``no 'config' field``)."""


class _OtherSchema(Exception):
    """A manifest of a schema this irtables does not read (a newer irtables')."""


_REQUIRED: Any = object()


def _json_object(text: str) -> Mapping[str, Any]:
    try:
        data = json.loads(text)
    except RecursionError:
        raise _Damaged("nested too deeply") from None
    except ValueError as e:
        raise _Damaged(f"not JSON: {e}") from None
    if not isinstance(data, dict):
        raise _Damaged(f"a JSON {type(data).__name__}, not an object")
    return data


def _field(
    data: Mapping[str, Any],
    key: str,
    convert: Callable[[Any], T],
    default: Any = _REQUIRED,
    *,
    where: str = "",
) -> T:
    """The field ``key`` of ``data``, converted; a missing or bad one is a :class:`_Damaged`
    naming it (``where``: the table it is in, ``config.``)."""
    if key not in data:
        if default is _REQUIRED:
            raise _Damaged(f"no {where + key!r} field")
        return cast(T, default)
    try:
        return convert(data[key])
    except (ValueError, TypeError, RecursionError) as e:
        raise _Damaged(f"bad {where + key!r} field: {e}") from None


def _integer(value: object) -> int:
    if type(value) is not int:
        raise TypeError(f"expected an integer, got {value!r}")
    return value


def _string(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {value!r}")
    return value


def _table(value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TypeError(f"expected a table, got {type(value).__name__}")
    return dict(value)


def _strings(value: object) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise TypeError(f"expected a list, got {type(value).__name__}")
    return tuple(str(v) for v in value)


def _optional_str(value: object) -> str | None:
    if value is not None and not isinstance(value, str):
        raise TypeError(f"expected a string, got {value!r}")
    return value


def _hashes(value: object) -> dict[str, str]:
    """A mapping of path -> SHA-256, checked."""
    if not isinstance(value, dict):
        raise TypeError(f"expected a table of paths and hashes, got {type(value).__name__}")
    for path, sha in value.items():
        if not is_sha256(sha):
            raise ValueError(f"{path!r}: expected a SHA-256, got {sha!r}")
    return dict(value)


def relative(path: Path, start: Path) -> str:
    """``path`` relative to ``start``, with forward slashes.

    Examples
    --------
    >>> relative(Path("/a/results/x.tsv"), Path("/a/results/supplement"))
    '../x.tsv'
    """
    return Path(os.path.relpath(path.absolute(), start.absolute())).as_posix()


def hash_inputs(paths: list[Path], outdir: Path) -> dict[str, str]:
    """Relative path -> SHA-256 of every input file."""
    return {relative(p, outdir): file_sha256(p) for p in sorted(set(paths))}


def hash_templates(folders: list[Path], outdir: Path) -> dict[str, str]:
    """Relative path -> SHA-256 of every file in the user's template folders (a missing
    folder holds none)."""
    files = [p for d in folders if d.is_dir() for p in d.rglob("*") if p.is_file()]
    return hash_inputs(files, outdir)


def read_manifest(outdir: Path, name: str = MANIFEST) -> Manifest | None:
    """The manifest ``name`` of ``outdir``, or None when there is none (or it is not a
    regular file)."""
    path = outdir / name
    if not path.is_file() or path.is_symlink():
        return None
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("not an irtables manifest (not UTF-8)", path=str(path)) from None
    return Manifest.from_json(text, source=str(path))
