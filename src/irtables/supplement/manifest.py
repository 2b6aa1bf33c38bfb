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

from irtables.errors import InputError
from irtables.output.writers import sha256_hex

MANIFEST = "manifest.json"
SCHEMA = 1


@dataclass(frozen=True)
class Manifest:
    """The record of one supplement build.

    Examples
    --------
    >>> m = Manifest("0.1.0", ".", None, None, {}, {"../a.tsv": "ab"}, {"README.md": "cd"})
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
        }
        return json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False, default=str) + "\n"

    @classmethod
    def from_json(cls, text: str, *, source: str = MANIFEST) -> Manifest:
        """Read a manifest written by :meth:`to_json`; a bad one is an :class:`InputError`."""
        try:
            data = json.loads(text)
            config = data["config"]
            return cls(
                version=str(data["irtables"]),
                results=str(data["results"]),
                config=config["path"],
                config_sha256=config["sha256"],
                settings=config.get("settings", {}),
                inputs=dict(data["inputs"]),
                outputs=dict(data["outputs"]),
                notes=tuple(data.get("notes", ())),
                evaluation=dict(data.get("evaluation", {})),
            )
        except (ValueError, KeyError, TypeError) as e:
            raise InputError(f"not an irtables manifest ({e})", path=source) from None


def file_sha256(path: Path) -> str:
    """SHA-256 of a file's bytes."""
    return sha256_hex(path.read_bytes())


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


def read_manifest(outdir: Path) -> Manifest | None:
    """The manifest of ``outdir``, or None when there is none."""
    path = outdir / MANIFEST
    if not path.is_file():
        return None
    return Manifest.from_json(path.read_text(encoding="utf-8"), source=str(path))
