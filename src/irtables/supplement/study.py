"""Where a study's configuration and input files are, without reading the results."""

from __future__ import annotations

from pathlib import Path

from irtables.config import Config, find_config
from irtables.loaders.discover import result_files
from irtables.study.runsets import configured_inputs

DEFAULT_DIR = "supplement"


def locate(results_path: str | Path, config_path: str | Path | None = None) -> tuple[Config, Path]:
    """The configuration and the base folder of its relative paths (as ``resolve_study``)."""
    path = Path(results_path)
    folder = path if path.is_dir() else path.parent
    config = find_config(folder, config_path)
    file = config_file(config)
    return config, file.parent if file is not None else folder


def config_file(config: Config) -> Path | None:
    """The file the configuration was read from (None for the defaults)."""
    return Path(config.path) if config.path and config.path != "<config>" else None


def default_outdir(base: Path) -> Path:
    """Where the supplement goes without ``-o``: ``supplement/`` beside the tables' folder."""
    return base / DEFAULT_DIR


def input_files(results_path: str | Path, config: Config, base: Path) -> list[Path]:
    """Every file the supplement is computed from: result files, qrels and runs."""
    configured = configured_inputs(config, base)
    return sorted({*result_files(results_path, exclude=configured), *configured})
