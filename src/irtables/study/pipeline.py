"""The `irtables tables` job: results folder + config -> table files. I/O lives here."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from irtables.config import CompareSettings, Config, find_config
from irtables.errors import InputError
from irtables.loaders import load_results
from irtables.model import ResultSet
from irtables.study.runsets import configured_inputs, evaluate_datasets

if TYPE_CHECKING:  # imported where used: reading a study does not wait for the tables' code
    from irtables.lint import LintReport
    from irtables.output.writers import Written

#: What :func:`write_tables` imports, for a command to import while it reads the results.
TABLE_MODULES = (
    "irtables.tables.build",
    "irtables.render",
    "irtables.output.writers",
    "irtables.stats.report",
    "irtables.lint.report",
    "scipy.special",
    "jinja2",
    "irtables.render.env",
)


def resolve_study(
    results_path: str | Path,
    *,
    config_path: str | Path | None = None,
    input_format: str | None = None,
    missing: str | None = None,
    jobs: int | None = 1,
    cache: bool = True,
    progress: Callable[[str, int, int], None] | None = None,
    scheduler: str | None = None,
) -> tuple[ResultSet, Config, Path]:
    """Load the configuration and the results of a study; returns (results, config, base dir).

    The base dir is where relative paths of the configuration are resolved (the folder of
    the configuration file, else the results folder). Datasets given as qrels + runs are
    evaluated with ``jobs`` processes (None: as many as pay), or on the Dask cluster of
    ``scheduler`` (else ``[compute] scheduler`` of the configuration; see
    :mod:`irtables.base.cluster`), reusing the values cached in
    the base dir unless ``cache`` is false (see :func:`~irtables.study.runsets.evaluate_datasets`).
    """
    path = Path(results_path)
    config, base = study_config(path, config_path)
    if missing is not None:
        config = replace(config, output=replace(config.output, missing=missing))
    evaluated = evaluate_datasets(
        config,
        base,
        progress=progress,
        jobs=jobs,
        cache=cache,
        scheduler=scheduler or config.scheduler,
    )
    if evaluated is None:
        return load_results(path, input_format=input_format), config, base
    inputs = configured_inputs(config, base)
    dumps = load_results(path, input_format=input_format, allow_empty=True, exclude=inputs)
    both = sorted(set(dumps.datasets()) & set(evaluated.datasets()))
    if both:
        raise InputError(
            f"dataset {both[0]} has per-query files and qrels + runs in the configuration; "
            "keep one of them",
            path=str(path),
        )
    return ResultSet.concat([dumps, evaluated]), config, base


def study_config(results_path: Path, config_path: str | Path | None) -> tuple[Config, Path]:
    """The configuration of a study and its base dir (see :func:`resolve_study`)."""
    path = Path(results_path)
    config = find_config(path if path.is_dir() else path.parent, config_path)
    base = (
        Path(config.path).parent
        if config.path and config.path != "<config>"
        else (path if path.is_dir() else path.parent)
    )
    return config, base


def write_tables(
    results: ResultSet,
    config: Config,
    outdir: str | Path,
    *,
    formats: Sequence[str] | None = None,
    template_dirs: Sequence[str | Path] = (),
    force: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> list[Written]:
    """Build every configured table and write it in each format into ``outdir``.

    With significance markers, the comparisons behind them are written too, as
    ``significance.csv`` (every field) and ``significance.md``. Every file is checked
    before any is written (:func:`~irtables.output.writers.write_files`).
    """
    from concurrent.futures import ThreadPoolExecutor

    from irtables.base.preload import short_switch_interval
    from irtables.lint import lint
    from irtables.output.writers import write_files

    _ = results.layout  # built once, here: the lint checks and the tables' tests read it
    held: list[warnings.WarningMessage] = []
    # The lint thread needs the GIL back between numpy calls; by default the tables'
    # Python code would keep it up to 5 ms each time.
    with short_switch_interval(), ThreadPoolExecutor(max_workers=1) as pool:
        # The lint checks (numpy over the whole layout) run beside the tables; their
        # warning still comes first: the tables' warnings are held until it is given.
        checked = pool.submit(lint, results, limit=1)
        try:
            with warnings.catch_warnings(record=True) as held:
                files = _table_files(results, config, formats, template_dirs, progress)
        finally:
            warn_lint(results, report=checked.result())
            for w in held:
                warnings.showwarning(w.message, w.category, w.filename, w.lineno, w.file, w.line)
    return write_files(outdir, files, by="tables", force=force)


def _table_files(
    results: ResultSet,
    config: Config,
    formats: Sequence[str] | None,
    template_dirs: Sequence[str | Path],
    progress: Callable[[int, int], None] | None,
) -> dict[str, str]:
    """Every table in every format, and the significance report: file name -> text."""
    from irtables.base.filenames import file_stems
    from irtables.render import FORMATS, render
    from irtables.stats.report import format_comparisons
    from irtables.tables import build_all

    built = build_all(results, config, progress=progress)
    files: dict[str, str] = {}
    stems = file_stems(t.name for t in built.tables)
    for fmt in formats or config.output.formats:
        ext = FORMATS[fmt].extension
        for model in built.tables:
            files[f"{stems[model.name]}.{ext}"] = render(model, fmt, template_dirs=template_dirs)
    if built.comparisons is not None:
        for fmt, ext in (("csv", "csv"), ("markdown", "md")):
            files[f"significance.{ext}"] = format_comparisons(built.comparisons, fmt)
    return files


def warn_lint(results: ResultSet, *, report: LintReport | None = None) -> None:
    """Emit one :class:`~irtables.errors.DataWarning` if ``irtables lint`` would complain
    (``report``: its report, if already made)."""
    from irtables.errors import DataWarning
    from irtables.lint import lint

    report = lint(results, limit=1) if report is None else report
    if not report.ok:
        first = report.violations[0].format()
        warnings.warn(
            f"lint: {report.summary()} (run `irtables lint` on the results for all); "
            f"first: {first}",
            DataWarning,
            stacklevel=3,
        )


def with_overrides(settings: CompareSettings, **changes: Any) -> CompareSettings:
    """``settings`` with every change that is not None (command-line options win)."""
    return replace(settings, **{k: v for k, v in changes.items() if v is not None})


def template_dirs_for(config: Config, base: Path, extra: Sequence[str | Path] = ()) -> list[Path]:
    """User template folders: ``--templates`` first, then the configured one."""
    dirs = [Path(d) for d in extra]
    if config.output.templates:
        dirs.append(base / config.output.templates)
    return dirs
