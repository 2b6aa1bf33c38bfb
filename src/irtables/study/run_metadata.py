"""The ``ir_metadata`` blocks of the runs a configuration evaluates, by dataset and system."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from irtables.config import Config
from irtables.loaders.ir_metadata import read_ir_metadata
from irtables.loaders.trec_run import system_name
from irtables.study.runsets import run_paths


def configured_run_metadata(
    config: Config, base: Path
) -> dict[tuple[str, str], tuple[Path, dict[str, Any]]]:
    """(dataset, system) -> (run file, its ir_metadata) for every run that has a block.

    A malformed block is an :class:`~irtables.errors.InputError` naming file and line.
    """
    out: dict[tuple[str, str], tuple[Path, dict[str, Any]]] = {}
    for spec in config.datasets:
        if not spec.evaluated:
            continue
        for path in run_paths(spec, base):
            found = read_ir_metadata(path)
            if found is not None:
                out[(spec.id, system_name(path))] = (path, found)
    return out
