"""One study, seen the same way by every command and by Python: :func:`load_study`.

A study is a results folder (or an ``irtables.toml``): its configuration, its results
(per-query files, and datasets given as qrels + runs evaluated through the cache), the
display names and the order. ``irtables tables``, ``compare``, ``lint``, ``diff``,
``supplement`` and ``check`` all read it through :func:`load_study`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from irtables.config import CONFIG_NAME, Config, check_config_file, find_config
from irtables.config.compare import CompareSettings
from irtables.errors import ConfigError, InputError, unknown_name_message
from irtables.study.request import StudyRequest, study_request

if TYPE_CHECKING:
    from irtables.lint import LintReport
    from irtables.loaders.discover import Study as Files
    from irtables.model import ResultSet
    from irtables.stats import Comparisons
    from irtables.tables import TableModel, TableSet


@dataclass(frozen=True)
class Study:
    """A study as the commands see it.

    Attributes
    ----------
    config
        The configuration (defaults when the study has no ``irtables.toml``).
    results
        Every per-query value: the result files' and the evaluated runs'.
    base
        Where the configuration's relative paths start (the folder of the configuration
        file, else the results folder); the cache and default outputs live there.
    path
        The results folder (or file) the study was read from.
    files
        What discovery read (the files and their own means, for ``lint``) and skipped.
    request
        The options the study was read with (:class:`~irtables.study.request.StudyRequest`).
    """

    config: Config
    results: ResultSet
    base: Path
    path: Path
    files: Files
    request: StudyRequest = field(default_factory=StudyRequest)

    @property
    def skipped(self) -> tuple[Path, ...]:
        """Files and folders in the results folder that hold no results (not read)."""
        return self.files.skipped

    @property
    def datasets(self) -> tuple[str, ...]:
        """The dataset ids in display order (``[[datasets]]`` first), as the tables show them."""
        return self.config.datasets_in_order(self.results.datasets())

    def systems(self, dataset: str | None = None) -> tuple[str, ...]:
        """The system ids (of ``dataset``, or of any) in display order (``[[systems]]`` first)."""
        return self.config.systems_in_order(self.results.systems(dataset))

    def dataset_name(self, dataset: str) -> str:
        """The display name of a dataset id (``robust03`` -> ``TREC Robust 2003``)."""
        return self.config.dataset_name(dataset)

    def system_name(self, system: str) -> str:
        """The display name of a system id."""
        return self.config.system_name(system)

    @property
    def template_dirs(self) -> list[Path]:
        """The user template folders: the request's ``templates``, then the configured one."""
        from irtables.render.configured import template_dirs_for

        extra = [self.request.templates] if self.request.templates is not None else []
        return template_dirs_for(self.config, self.base, extra)

    def tables(self, *, progress: Callable[[int, int], None] | None = None) -> TableSet:
        """Every table ``irtables tables`` writes, with the comparisons behind the markers."""
        from irtables.tables import build_all

        return build_all(self.results, self.config, progress=progress)

    def table(self, name: str = "main", *, dataset: str | None = None) -> TableModel:
        """One table as ``irtables tables`` builds it (:meth:`render` gives its file):
        ``main`` (Table 1), ``k_breakdown`` (Table S1 of ``dataset``), ``ablation`` or
        the name of a ``[tables.<name>]`` section."""
        from irtables.tables import build_table

        return build_table(self.results, name, config=self.config, dataset=dataset)

    def render(
        self, table: TableModel | str = "main", fmt: str = "latex", *, dataset: str | None = None
    ) -> str:
        """The file ``irtables tables`` writes for ``table`` (a model, or a name as
        :meth:`table` takes) in ``fmt``: with the configuration's LaTeX placement
        (``output.wide``, ``output.resize``, a section's ``wide``) and templates."""
        from irtables.render.configured import render_configured

        model = self.table(table, dataset=dataset) if isinstance(table, str) else table
        return render_configured(model, fmt, self.config, self.template_dirs)

    def compare_settings(
        self, *, baseline: str | Sequence[str] | None = None, **changes: Any
    ) -> CompareSettings:
        """``[compare]`` with ``changes`` over it, as the command-line options override it
        (None keeps the configured value; ``baseline="none"``: no baseline)."""
        settings = self.config.compare
        if baseline is not None:
            values = [baseline] if isinstance(baseline, str) else list(baseline)
            settings = settings.with_baselines(values)
        return settings.overridden(**changes)

    def compare(
        self,
        *,
        baseline: str | Sequence[str] | None = None,
        progress: Callable[[int, int], None] | None = None,
        settings: CompareSettings | None = None,
        **changes: Any,
    ) -> Comparisons:
        """What ``irtables compare`` tests and prints: every system against the baseline(s)
        of ``[compare]`` (else the first system of each dataset), or all pairs.

        Keyword arguments override ``[compare]`` as the command's options do: ``baseline``
        (a system id, ``DATASET=SYSTEM`` entries, ``"none"``), ``all_pairs``, ``test``,
        ``correction``, ``family``, ``alternative``, ``alpha``, ``resamples``, ``seed``;
        or ``settings`` as :meth:`compare_settings` made them, instead of those.
        """
        from irtables.model import MissingPolicy
        from irtables.tables.significance import compare_with

        if settings is None:
            settings = self.compare_settings(baseline=baseline, **changes)
        elif baseline is not None or changes:
            raise TypeError("compare() takes settings or their changes, not both")
        missing = cast(MissingPolicy, self.config.output.missing)
        found = compare_with(self.results, settings, missing=missing, progress=progress)
        return replace(found, names=self.config.display_names())  # a notebook shows them

    def lint(self, *, tolerance: float | None = None, limit: int | None = None) -> LintReport:
        """What ``irtables lint`` reports: every per-query value (result files and evaluated
        runs) and the files' own means against the metric invariants."""
        from irtables.lint import lint

        return lint(replace(self.files, results=self.results), tolerance=tolerance, limit=limit)


def load_study(
    path: str | Path = ".",
    *,
    config: str | Path | None = None,
    input_format: str | None = None,
    missing: str | None = None,
    jobs: int | None = 1,
    cache: bool = True,
    progress: Callable[[str, int, int], None] | None = None,
    bounds: bool = True,
    scheduler: str | None = None,
    baseline: str | Sequence[str] | None = None,
    templates: str | Path | None = None,
) -> Study:
    """Read a study: a results folder (with its ``irtables.toml``) or a configuration file.

    The options are checked, and kept as :attr:`Study.request`, as the commands' are
    (:class:`~irtables.study.request.StudyRequest`).

    Parameters
    ----------
    path
        A results folder, a result file, or an ``irtables.toml`` (its folder holds the
        results).
    config
        A configuration file other than ``<folder>/irtables.toml``.
    input_format
        Read every result file in this format (a :data:`~irtables.loaders.LOADERS` key).
    missing
        ``output.missing`` over the configured one: error, intersect or zero.
    jobs
        Processes that evaluate runs given as qrels + runs (None: as many as the work
        pays for).
    cache
        Read and write the evaluated values in the study's cache (``.irtables-cache``).
    progress
        Called as ``progress("evaluate", done, total)`` while runs are evaluated.
    bounds
        Refuse values outside a measure's range (P@10 = 1.2); false keeps them, for
        :meth:`Study.lint` to report.
    scheduler
        Evaluate on the Dask cluster of this scheduler address (else ``[compute]
        scheduler`` of the configuration, if any; :mod:`irtables.workers.cluster`).
    baseline
        Baseline(s) over ``compare.baseline`` and every ``[tables.<name>.compare]``: a
        system id, ``DATASET=SYSTEM`` entries, or ``"none"`` (no markers).
    templates
        A folder of templates that override the built-in ones by name (:meth:`Study.render`).


    Examples
    --------
    >>> study = load_study("results")
    >>> [study.dataset_name(d) for d in study.datasets]
    ['TREC CAsT 2021', 'CACM']
    """
    request = study_request(
        path,
        config=config,
        input_format=input_format,
        missing=missing,
        jobs=jobs,
        scheduler=scheduler,
        cache=cache,
        baseline=baseline,
        templates=templates,
    )
    return open_study(request, progress=progress, bounds=bounds)


def open_study(
    request: StudyRequest,
    *,
    progress: Callable[[str, int, int], None] | None = None,
    bounds: bool = True,
) -> Study:
    """Read the study of ``request`` (:func:`load_study` of its options; ``progress``
    and ``bounds`` as there)."""
    root, config_path = study_path(request.path, request.config)
    cfg, base = study_config(root, config_path)
    if request.missing is not None:
        cfg = replace(cfg, output=replace(cfg.output, missing=request.missing))
    if request.baselines:
        cfg = with_baselines(cfg, request.baselines)
    input_format, jobs, cache = request.input_format, request.jobs, request.cache
    scheduler = request.scheduler
    from irtables.loaders.discover import load_study as read_files
    from irtables.model import ResultSet
    from irtables.study.runsets import configured_inputs, evaluate_datasets

    evaluated = evaluate_datasets(
        cfg, base, progress=progress, jobs=jobs, cache=cache, scheduler=scheduler or cfg.scheduler
    )
    if evaluated is None:
        files = read_files(root, input_format=input_format, bounds=bounds)
        _check_names(cfg, files.results, request)
        return Study(cfg, files.results, base, root, files, request)
    inputs = configured_inputs(cfg, base)
    files = read_files(
        root, input_format=input_format, allow_empty=True, exclude=inputs, bounds=bounds
    )
    both = sorted(set(files.results.datasets()) & set(evaluated.datasets()))
    if both:
        raise InputError(
            f"dataset {both[0]} has per-query files and qrels + runs in the configuration; "
            "keep one of them",
            path=str(root),
        )
    results = ResultSet.concat([files.results, evaluated])
    _check_names(cfg, results, request)
    return Study(cfg, results, base, root, files, request)


def _check_names(config: Config, results: ResultSet, request: StudyRequest) -> None:
    """The configured ids and baselines name what the results hold (``--baseline``, which
    replaces the configured baselines, is checked where the tests run)."""
    check_ids(config, results)
    if not request.baselines:
        check_baselines(config, results)


def with_baselines(config: Config, baselines: Sequence[str]) -> Config:
    """``config`` with ``baselines`` (``--baseline`` values) over ``[compare]`` and over
    every ``[tables.<name>.compare]``."""
    own = tuple((name, s.with_baselines(baselines)) for name, s in config.table_compares)
    return replace(config, compare=config.compare.with_baselines(baselines), table_compares=own)


def check_ids(config: Config, results: ResultSet) -> None:
    """Refuse a ``[[datasets]]`` or ``[[systems]]`` id that names nothing in the results:
    a typo would silently lose its display name (and a dataset its place in the order).

    Raises
    ------
    ConfigError
        Naming the key, the id and the closest id of the results.
    """
    for key, entries, known in (
        ("datasets", config.datasets, results.datasets()),
        ("systems", config.systems, results.systems()),
    ):
        present = set(known)
        for i, entry in enumerate(entries):
            if entry.id not in present:
                what = unknown_name_message(key[:-1], entry.id, known)
                raise ConfigError(f"{config.path or '<config>'}: {key}[{i}].id: {what}")


def check_baselines(config: Config, results: ResultSet) -> None:
    """Refuse a configured baseline (``compare.baseline``, a table's own) that names no
    system of the results, or a dataset key of one that names no dataset.

    Raises
    ------
    ConfigError
        Naming the key, the name and the closest one of the results.
    """
    own = [(f"tables.{name}.compare", settings) for name, settings in config.table_compares]
    sections = [("compare", config.compare), *own]
    for key, settings in sections:
        if settings.all_pairs:
            continue  # the test compares every pair: no baseline is used
        for dataset, _ in settings.dataset_baselines:
            if dataset not in results.datasets():
                what = unknown_name_message("dataset", dataset, results.datasets())
                raise ConfigError(f"{config.path or '<config>'}: {key}.baseline: {what}")
        named = settings.baseline + tuple(b for _, bs in settings.dataset_baselines for b in bs)
        for name in named:
            if name not in results.systems():
                what = unknown_name_message("baseline", name, results.systems())
                raise ConfigError(f"{config.path or '<config>'}: {key}.baseline: {what}")


def study_path(path: Path, config: str | Path | None) -> tuple[Path, Path | None]:
    """(results path, configuration file): a configuration file stands for its folder.

    Raises
    ------
    InputError
        If ``path`` does not exist.
    """
    if not path.exists():
        raise InputError("no such file or directory", path=str(path))
    if path.name == CONFIG_NAME or (path.suffix.lower() == ".toml" and not path.is_dir()):
        check_config_file(path)  # a folder named irtables.toml, a FIFO: refused
        return path.parent, Path(config) if config is not None else path
    return path, Path(config) if config is not None else None


def study_config(results_path: Path, config_path: str | Path | None) -> tuple[Config, Path]:
    """The configuration of a study and its base dir (see :class:`Study`)."""
    path = Path(results_path)
    cfg = find_config(path if path.is_dir() else path.parent, config_path)
    base = (
        Path(cfg.path).parent
        if cfg.path and cfg.path != "<config>"
        else (path if path.is_dir() else path.parent)
    )
    return cfg, base
