"""``manifest.json``: what a supplement was built from and what it holds, with SHA-256 hashes.

No timestamps: the same inputs give the same manifest. Paths are relative to the
manifest's folder (POSIX separators), so a paper repository can move or be cloned.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from irtables.base.paths import is_relative_path
from irtables.base.record import file_sha256, is_sha256
from irtables.errors import InputError

MANIFEST = "manifest.json"
SCHEMA = 1


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
            data = json.loads(text)
            config = data["config"]
            manifest = cls(
                version=str(data["irtables"]),
                results=str(data["results"]),
                config=_optional_str(config["path"]),
                config_sha256=_optional_str(config["sha256"]),
                settings=dict(config.get("settings", {})),
                inputs=_hashes(data["inputs"]),
                outputs=_hashes(data["outputs"]),
                notes=tuple(str(n) for n in data.get("notes", ())),
                evaluation=dict(data.get("evaluation", {})),
                run_metadata=dict(data.get("run_metadata", {})),
                options=dict(data.get("options", {})),
                warnings=tuple(str(w) for w in data.get("warnings", ())),
                figures=_hashes(data.get("figures", {})),
                code=str(data.get("code", "")),
            )
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as e:
            raise InputError(f"not an irtables manifest ({e})", path=source) from None
        outside = [p for p in manifest.outputs if not is_relative_path(p)]
        if outside:
            reason = f"not an irtables manifest (output {outside[0]!r} is not inside the folder)"
            raise InputError(reason, path=source)
        return manifest


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
