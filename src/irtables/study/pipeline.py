"""The `irtables tables` job: results folder + config -> table files. I/O lives here."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from irtables.config import Config
from irtables.errors import LatexError
from irtables.model import ResultSet
from irtables.study.load import load_study

if TYPE_CHECKING:  # imported where used: reading a study does not wait for the tables' code
    from irtables.config.tables import TableSpec
    from irtables.lint import LintReport
    from irtables.loaders.discover import Study as Files
    from irtables.model.names import DisplayNames
    from irtables.output.writers import Written
    from irtables.stats.memo import Memo
    from irtables.tables.build import TableSet

#: What reading a study imports (its loaders, the evaluator, the cache; pandas,
#: pyarrow's pandas bridge): every module of these packages, and these modules, are
#: imported before :data:`TABLE_MODULES` start importing in a background thread, so that
#: no two threads import at once (Python's per-module import locks can deadlock on a
#: package both import, such as ``importlib.resources``).
READ_MODULES = (
    "irtables.loaders.*",
    "irtables.evaluator.*",
    "irtables.cache.*",
    "irtables.model.*",
    "pyarrow.pandas_compat",
    "pyarrow.vendored.version",
    "encodings.ascii",
)

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


def resolve_study(results_path: str | Path) -> tuple[ResultSet, Config, Path]:
    """(results, config, base dir) of :func:`~irtables.study.load.load_study` with its
    default options (a study with other options: ``load_study`` itself)."""
    study = load_study(results_path)
    return study.results, study.config, study.base


def write_tables(
    results: ResultSet,
    config: Config,
    outdir: str | Path,
    *,
    formats: Sequence[str] | None = None,
    template_dirs: Sequence[str | Path] = (),
    force: bool = False,
    progress: Callable[[int, int], None] | None = None,
    base: Path | None = None,
    own: Files | None = None,
    memo: Memo | None = None,
) -> list[Written]:
    """Build every configured table and write it in each format into ``outdir``.

    Tables of layout ``reproduction`` are built from the runs of the datasets they name
    (paths relative to ``base``, the configuration's folder).

    With significance markers, the comparisons behind them are written too, as
    ``significance.csv`` (every field) and ``significance.md``. Every file is checked
    before any is written (:func:`~irtables.output.writers.write_files`). The lint checks
    of ``irtables lint`` run beside the tables, on the results and on the own means
    (trec_eval ``all`` rows) of the study's files ``own``, if given; a violation is a warning.
    ``memo`` keeps the tests' results by recipe (:mod:`irtables.stats.memo`): a rerun
    tests only the datasets and metrics whose values changed.
    """
    from concurrent.futures import ThreadPoolExecutor
    from dataclasses import replace

    from irtables.lint import lint
    from irtables.output.writers import write_files
    from irtables.workers.preload import short_switch_interval

    _ = results.layout  # built once, here: the lint checks and the tables' tests read it
    held: list[warnings.WarningMessage] = []
    # The lint thread needs the GIL back between numpy calls; by default the tables'
    # Python code would keep it up to 5 ms each time.
    with short_switch_interval(), ThreadPoolExecutor(max_workers=1) as pool:
        # The lint checks (numpy over the whole layout) run beside the tables; their
        # warning still comes first: the tables' warnings are held until it is given.
        source = replace(own, results=results) if own is not None else results
        checked = pool.submit(lint, source, limit=1)
        try:
            with warnings.catch_warnings(record=True) as held:
                files = _table_files(results, config, formats, template_dirs, progress, memo)
                files |= run_table_files(config, base, formats, template_dirs)
        finally:
            warn_lint(results, report=checked.result(), names=config.display_names())
            for w in held:
                warnings.showwarning(w.message, w.category, w.filename, w.lineno, w.file, w.line)
    _check_latex(files)
    if "numbers.json" in files:  # the numbers it replaces, for `irtables check --paper`
        from irtables.output.history import history_files

        files.update(history_files(outdir, files["numbers.json"]))
    made = _suffixes(formats or config.output.formats)
    return write_files(outdir, files, by="tables", force=force, remove_dropped=made)


def _suffixes(formats: Sequence[str]) -> Callable[[str], bool]:
    """Whether an output an earlier run wrote is of a kind this run writes: a table in
    one of ``formats`` or the significance files. Those no longer made are moved aside
    (a dropped dataset's Table S1); the other formats' files stay (``-f latex`` after
    ``-f markdown`` keeps the Markdown tables)."""
    from irtables.render import FORMATS

    suffixes = {f".{FORMATS[f].suffix}" for f in formats}
    return lambda rel: Path(rel).suffix in suffixes or Path(rel).stem == "significance"


def _check_latex(files: Mapping[str, str]) -> None:
    """Refuse LaTeX tables holding a character pdflatex cannot typeset in the preamble
    they need (an emoji in a system name): a paper would stop compiling on them.

    Raises
    ------
    LatexError
        Naming the character, the string around it and the table file.
    """
    from irtables.output.typeset import TABLE_PREAMBLE, first_untypesettable
    from irtables.render.citable import NUMBERS_TEX

    # numbers.tex typesets only numbers: its keys are ids, names of macros, not text
    tex = {n: text for n, text in files.items() if n.endswith(".tex") and n != NUMBERS_TEX}
    found = first_untypesettable(tex, TABLE_PREAMBLE) if tex else None
    if found is not None:
        raise LatexError(
            f"{found}; give it a display name pdflatex can typeset (name = ... in "
            "irtables.toml) or leave latex out of the formats (-f, [output] formats)"
        )


def _table_files(
    results: ResultSet,
    config: Config,
    formats: Sequence[str] | None,
    template_dirs: Sequence[str | Path],
    progress: Callable[[int, int], None] | None,
    memo: Memo | None = None,
) -> dict[str, str]:
    """Every table in every format, and the significance report: file name -> text."""
    from irtables.base.filenames import file_stems
    from irtables.render import FORMATS
    from irtables.render.configured import render_configured
    from irtables.study.citable import numbers_of
    from irtables.tables import build_all

    built = build_all(results, config, progress=progress, memo=memo)
    files: dict[str, str] = {}
    stems = file_stems(t.name for t in built.tables)
    for fmt in formats or config.output.formats:
        ext = FORMATS[fmt].suffix
        for model in built.tables:
            text = render_configured(model, fmt, config, template_dirs)
            files[f"{stems[model.name]}.{ext}"] = text
    files.update(significance_files(built, config))
    files.update(numbers_of(built, config, formats or config.output.formats, taken=files))
    return files


def run_table_files(
    config: Config,
    base: Path | None,
    formats: Sequence[str] | None,
    template_dirs: Sequence[str | Path] = (),
) -> dict[str, str]:
    """The files of every section whose layout's record builds its tables from the runs
    themselves rather than the means (``run_files``: the reproduction tables), in every
    format: file name -> text."""
    from irtables.config.tables import LAYOUTS, layout_function

    files: dict[str, str] = {}
    for spec in config.tables:
        found = LAYOUTS.get(spec.layout)
        if found is not None and found.run_files:
            write = layout_function(found.run_files)
            files |= write(config, spec, base or Path("."), formats, template_dirs)
    return files


def reproduction_table_files(
    config: Config,
    spec: TableSpec,
    base: Path,
    formats: Sequence[str] | None,
    template_dirs: Sequence[str | Path] = (),
) -> dict[str, str]:
    """A ``reproduction`` section's table in every format (its record's ``run_files``):
    file name -> text."""
    from irtables.render import FORMATS
    from irtables.render.reproduction import render_reproduction
    from irtables.study.reproduction import configured_rows
    from irtables.tables.reproduction import reproduction_table

    files: dict[str, str] = {}
    rows = configured_rows(config, spec, base)
    table = reproduction_table(
        rows,
        original=config.dataset_name(spec.original or ""),
        label=spec.label or spec.default_label,
        rbo_p=spec.rbo_p,
        rbo_depth=spec.rbo_depth,
        caption=spec.caption,
    )
    for fmt in formats or config.output.formats:
        text = render_reproduction(table, rows, fmt, template_dirs)
        files[f"{spec.stem}.{FORMATS[fmt].suffix}"] = text
    return files


def significance_files(built: TableSet, config: Config) -> dict[str, str]:
    """``significance.csv`` (every field) and ``significance.md``: a row per table and
    comparison behind its markers (:meth:`~irtables.tables.build.TableSet.per_table`);
    none without tests."""
    from irtables.stats.report import format_comparisons

    per_table = built.per_table()
    if per_table is None:
        return {}
    comparisons, titles = per_table
    names = config.display_names()
    return {
        f"significance.{ext}": format_comparisons(comparisons, fmt, names=names, tables=titles)
        for fmt, ext in (("csv", "csv"), ("markdown", "md"))
    }


def warn_lint(
    results: ResultSet, *, report: LintReport | None = None, names: DisplayNames | None = None
) -> None:
    """Emit one :class:`~irtables.errors.DataWarning` if ``irtables lint`` would complain
    (``report``: its report, if already made)."""
    from irtables.errors import DataWarning, user_stacklevel
    from irtables.lint import lint

    report = lint(results, limit=1) if report is None else report
    if not report.ok:
        first = report.violations[0].format(names)
        warnings.warn(
            f"lint: {report.summary()} (run `irtables lint` on the results for all); "
            f"first: {first}",
            DataWarning,
            stacklevel=user_stacklevel(),
        )
