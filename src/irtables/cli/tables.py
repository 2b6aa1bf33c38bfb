"""`irtables tables` and `irtables compare`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import click

from irtables.base.formats import DEFAULT_FORMATS, FORMATS, REPORT_FILE_FORMATS
from irtables.base.names import FAMILY_NAMES
from irtables.base.procedures import (
    correction_names,
    corrections_help,
    help_of_tests,
    names_of_tests,
)
from irtables.cli.common import (
    REBUILD_OPT,
    RESULTS_ARG,
    TABLES_OUT_OPT,
    VERBOSE_OPT,
    LayoutsInHelp,
    RecordChoice,
    RecordOption,
    handle_errors,
    main,
    print_unchanged,
    printable,
    progress_bar,
    resolve_for_command,
    study_progress,
)
from irtables.cli.study_options import study_options
from irtables.model.policy import MissingPolicy

if TYPE_CHECKING:
    from irtables.study.request import StudyRequest


@main.command(
    cls=LayoutsInHelp,
    short_help="Write Table 1, Table S1 per dataset, the ablation and every...",
)
@RESULTS_ARG
@study_options(
    baseline_help="Mark significant differences from this system; repeatable; DATASET=SYSTEM "
    "for one dataset (default: compare.baseline of the config; none: no markers)."
)
@TABLES_OUT_OPT
@click.option(
    "-f",
    "--format",
    "formats",
    multiple=True,
    type=click.Choice(list(FORMATS)),
    help="Output format; repeat for several (default: "
    + ", ".join(DEFAULT_FORMATS[:-1])
    + f" and {DEFAULT_FORMATS[-1]}).",
)
@REBUILD_OPT
@VERBOSE_OPT
@handle_errors
def tables(
    results: Path,
    request: StudyRequest,
    outdir: Path | None,
    formats: tuple[str, ...],
    rebuild: bool,
    verbose: bool,
) -> None:
    """Write Table 1, Table S1 per dataset, the ablation and every [tables.<name>] table.

    Writes table1.*, tableS1-<dataset>.*, ablation.* and <name>.* for each configured
    [tables.<name>] (layouts: {layouts}) in LaTeX, Markdown
    and CSV (or the -f formats, html included), and prints what it wrote. Best values are
    bold, decided on the displayed (rounded) numbers. Datasets given as qrels + runs are
    evaluated in parallel when it pays (--jobs); a run whose file, qrels and options did
    not change since the last time comes from the cache. When no input, option, template
    or output changed since the last run, it only says so (--rebuild builds anyway).
    """
    from irtables.supplement.rerun import kept_warnings, unchanged_request, write_tables_manifest

    options = {"formats": formats, "input_format": request.input_format}
    options |= {"missing": request.missing, "baselines": request.baselines}
    same = unchanged_request(request, outdir, options, rebuild=rebuild, tables=True)
    if same is not None:
        print_unchanged(same.paths, warned=same.warnings)
        return
    from irtables.study.pipeline import READ_MODULES, TABLE_MODULES, write_tables
    from irtables.tables.memo import StoredTests
    from irtables.workers.preload import import_now, preloading

    # warnings kept in the manifest, for a rerun to give again
    with kept_warnings() as warned:
        evaluated, tested, finish = study_progress()
        try:
            # the tables' modules are imported while the results are read, and are all
            # imported before the tables are built: two threads importing at once can
            # deadlock on the modules both need (Python's per-module import locks)
            import_now(READ_MODULES)
            with preloading(TABLE_MODULES):
                study = resolve_for_command(request, progress=evaluated, verbose=verbose)
            rs, config, base = study.results, study.config, study.base
            target = outdir or base / config.output.dir
            memo = StoredTests.of_study(base, cache=request.cache, rebuild=rebuild)
            written = write_tables(
                rs,
                config,
                target,
                formats=formats or None,
                template_dirs=study.template_dirs,
                force=request.force,
                progress=tested,
                base=base,
                own=study.files,
                memo=memo,
            )
        finally:
            finish()
        for item in written:
            click.echo(f"{item.status:>9}  {printable(str(item.path))}")
    made = [w for w in written if w.status != "moved aside"]  # the build's outputs
    write_tables_manifest(
        request.path, study.config, study.base, target, made, options, study.template_dirs,
        warned=warned, force=request.force,
    )  # fmt: skip


@main.command("compare")
@RESULTS_ARG
@study_options(
    "config",
    "baselines",
    "input_format",
    "missing",
    "force",
    "jobs",
    "scheduler",
    "cache",
)
@click.option(
    "--all-pairs/--no-all-pairs",
    default=None,
    help="Test every pair of systems instead (--no-all-pairs: against the baseline(s), "
    "whatever compare.all_pairs says).",
)
@click.option(
    "--test",
    cls=RecordOption,
    type=RecordChoice(names_of_tests),
    describe=help_of_tests,
    help="Default: compare.test, else t.",
)
@click.option(
    "--correction",
    cls=RecordOption,
    type=RecordChoice(correction_names),
    describe=corrections_help,
    help="Default: compare.correction, else holm.",
)
@click.option(
    "--family",
    type=click.Choice(FAMILY_NAMES),
    help="Correct per (dataset, metric), dataset, or all at once (default: metric).",
)
@click.option(
    "--alternative",
    type=click.Choice(["two-sided", "greater", "less"]),
    help="Alternative hypothesis (default: two-sided).",
)
@click.option(
    "--alpha",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    help="Significance level (default: compare.alpha, else 0.05).",
)
@click.option(
    "--resamples",
    type=click.IntRange(min=1),
    help="Permutations or bootstrap resamples (default: 10000).",
)
@click.option(
    "--seed", type=click.IntRange(min=0), help="Seed of the resampling tests (default: 0)."
)
@click.option(
    "--anova",
    is_flag=True,
    help="Show the two-way ANOVA (systems x topics) of each dataset and metric instead.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(REPORT_FILE_FORMATS),
    default="csv",
    show_default=True,
    help="Format of the -o file (latex: with --anova).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the comparisons to this file in --format (default: print them).",
)
@VERBOSE_OPT
@handle_errors
def compare(
    results: Path,
    request: StudyRequest,
    all_pairs: bool | None,
    test: str | None,
    correction: str | None,
    family: str | None,
    alternative: str | None,
    alpha: float | None,
    resamples: int | None,
    seed: int | None,
    anova: bool,
    fmt: str,
    output: Path | None,
    verbose: bool,
) -> None:
    """Significance tests of every system against the baseline(s), or of all pairs, per metric.

    Paired tests (t, wilcoxon, sign, randomization, bootstrap) with a multiple-testing
    correction, the all-pairs procedures tukey and randomized-tukey, which compare every
    system of a dataset at once on the system x topic design, or dunnett (each system
    against the baseline on that design). --anova shows the two-way ANOVA tables instead.
    """
    from irtables.output.writers import check_destination, write_atomic
    from irtables.stats.report import format_comparisons

    if fmt == "latex" and not anova:
        from irtables.errors import InputError

        raise InputError("--format latex is for the ANOVA tables (--anova)")
    if output is not None:
        check_destination(output, force=request.force)
    evaluated, _, finish = study_progress()
    try:
        study = resolve_for_command(request, progress=evaluated, verbose=verbose)
    finally:
        finish()
    if anova:
        from irtables.render.anova import format_anova
        from irtables.stats.anova import anova_tables

        found = anova_tables(
            study.results, missing=cast(MissingPolicy, study.config.output.missing)
        )
        shown = study.config.display_names()
        if output is None:
            click.echo(format_anova(found, "terminal", names=shown), nl=False)
        else:
            text = format_anova(found, fmt, names=shown)
            status = write_atomic(output, text, by="compare", force=request.force)
            click.echo(f"{status:>9}  {output}")
        return
    changes: dict[str, Any] = {
        "all_pairs": all_pairs,
        "test": test,
        "correction": correction,
        "family": family,
        "alternative": alternative,
        "alpha": alpha,
        "resamples": resamples,
        "seed": seed,
    }
    settings = study.compare_settings(**changes)  # the baselines are the request's
    update, finish = progress_bar(f"{settings.test} tests")
    comps = study.compare(settings=settings, progress=update)
    finish()
    names = study.config.display_names()
    if output is None:
        click.echo(format_comparisons(comps, "terminal", names=names), nl=False)
    else:
        status = write_atomic(
            output, format_comparisons(comps, fmt, names=names), by="compare", force=request.force
        )
        click.echo(f"{status:>9}  {output}")
