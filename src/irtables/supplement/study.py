"""Where a study's configuration and input files are, without reading the results."""

from __future__ import annotations

from pathlib import Path

from irtables.config import Config
from irtables.loaders.discover import result_files
from irtables.study.runsets import configured_inputs

DEFAULT_DIR = "supplement"


def locate(results_path: str | Path, config_path: str | Path | None = None) -> tuple[Config, Path]:
    """The configuration and the base folder of its relative paths, as
    :func:`~irtables.study.load_study` finds them (without reading the results)."""
    from irtables.study.load import study_config, study_path

    root, config = study_path(Path(results_path), config_path)
    return study_config(root, config)


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
