"""`irtables tables` and `irtables compare`."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import cast

import click

from irtables.base.names import ALL_TEST_NAMES, CORRECTION_NAMES, FAMILY_NAMES
from irtables.cli.common import (
    CONFIG_OPT,
    FORCE_OPT,
    INPUT_FORMAT_OPT,
    JOBS_OPT,
    MISSING_OPT,
    NO_CACHE_OPT,
    REBUILD_OPT,
    RESULTS_ARG,
    SCHEDULER_OPT,
    VERBOSE_OPT,
    LayoutsInHelp,
    handle_errors,
    main,
    print_unchanged,
    printable,
    progress_bar,
    resolve_for_command,
    study_progress,
)
from irtables.model.policy import MissingPolicy
from irtables.render import FORMATS


@main.command(
    cls=LayoutsInHelp,
    short_help="Write Table 1, Table S1 per dataset, the ablation and every...",
)
@RESULTS_ARG
@CONFIG_OPT
@click.option(
    "-o",
    "--output",
    "outdir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Output folder (default: output.dir of the config, else DIR/tables).",
)
@click.option(
    "-f",
    "--format",
    "formats",
    multiple=True,
    type=click.Choice(list(FORMATS)),
    help="Output format; repeat for several (default: latex, markdown and csv).",
)
@INPUT_FORMAT_OPT
@MISSING_OPT
@click.option(
    "--templates",
    "template_dir",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Folder of templates that override the built-in ones by name.",
)
@click.option(
    "--baseline",
    "baselines",
    multiple=True,
    help="Mark significant differences from this system; repeatable; DATASET=SYSTEM for "
    "one dataset (default: compare.baseline of the config; none: no markers).",
)
@REBUILD_OPT
@FORCE_OPT
@JOBS_OPT
@SCHEDULER_OPT
@NO_CACHE_OPT
@VERBOSE_OPT
@handle_errors
def tables(
    results: Path,
    config_path: Path | None,
    outdir: Path | None,
    formats: tuple[str, ...],
    input_format: str | None,
    missing: str | None,
    template_dir: Path | None,
    baselines: tuple[str, ...],
    rebuild: bool,
    force: bool,
    jobs: int,
    scheduler: str | None,
    no_cache: bool,
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
    from irtables.supplement.rerun import kept_warnings, unchanged_build, write_tables_manifest

    extra = [template_dir] if template_dir else []
    options = {"formats": formats, "input_format": input_format, "missing": missing}
    options["baselines"] = baselines
    same = (
        None
        if rebuild
        else unchanged_build(
            results,
            config_path=config_path,
            outdir=outdir,
            options=options,
            template_dirs=extra,
            tables=True,
        )
    )
    if same is not None:
        print_unchanged(same.paths, warned=same.warnings)
        return
    from irtables.base.preload import preload
    from irtables.render.configured import template_dirs_for
    from irtables.study.pipeline import TABLE_MODULES, write_tables

    with kept_warnings() as warned:  # kept in the manifest, for a rerun to give again
        preload(TABLE_MODULES)  # while the results are read
        evaluated, tested, finish = study_progress()
        try:
            study = resolve_for_command(
                results,
                config_path=config_path,
                input_format=input_format,
                missing=missing,
                jobs=jobs,
                no_cache=no_cache,
                progress=evaluated,
                verbose=verbose,
                scheduler=scheduler,
            )
            rs, config, base = study.results, study.config, study.base
            if baselines:  # over [compare] and every [tables.<name>.compare]
                own = tuple((n, s.with_baselines(baselines)) for n, s in config.table_compares)
                config = replace(
                    config, compare=config.compare.with_baselines(baselines), table_compares=own
                )
            target = outdir or base / config.output.dir
            dirs = template_dirs_for(config, base, extra)
            written = write_tables(
                rs,
                config,
                target,
                formats=formats or None,
                template_dirs=dirs,
                force=force,
                progress=tested,
            )
        finally:
            finish()
        for item in written:
            click.echo(f"{item.status:>9}  {printable(str(item.path))}")
    write_tables_manifest(
        results, study.config, base, target, written, options, dirs, warned=warned, force=force
    )


@main.command("compare")
@RESULTS_ARG
@CONFIG_OPT
@click.option(
    "--baseline",
    "baselines",
    multiple=True,
    help="Baseline system; repeatable; DATASET=SYSTEM for one dataset "
    "(default: compare.baseline of the config, else the first system).",
)
@click.option(
    "--all-pairs/--no-all-pairs",
    default=None,
    help="Test every pair of systems instead (--no-all-pairs: against the baseline(s), "
    "whatever compare.all_pairs says).",
)
@click.option(
    "--test",
    type=click.Choice(ALL_TEST_NAMES),
    help="Paired test, or an all-pairs procedure: tukey (Tukey HSD on the system x topic "
    "design) or randomized-tukey (default: compare.test, else t).",
)
@click.option(
    "--correction",
    type=click.Choice(CORRECTION_NAMES),
    help="Multiple-testing correction of the paired tests (default: compare.correction, "
    "else holm; tukey and randomized-tukey adjust for all pairs themselves).",
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
@click.option("--seed", type=int, help="Seed of the resampling tests (default: 0).")
@click.option(
    "--anova",
    is_flag=True,
    help="Show the two-way ANOVA (systems x topics) of each dataset and metric instead.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["csv", "markdown", "latex"]),
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
@INPUT_FORMAT_OPT
@MISSING_OPT
@FORCE_OPT
@JOBS_OPT
@SCHEDULER_OPT
@NO_CACHE_OPT
@VERBOSE_OPT
@handle_errors
def compare(
    results: Path,
    config_path: Path | None,
    baselines: tuple[str, ...],
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
    input_format: str | None,
    missing: str | None,
    force: bool,
    jobs: int,
    scheduler: str | None,
    no_cache: bool,
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
        check_destination(output, force=force)
    evaluated, _, finish = study_progress()
    try:
        study = resolve_for_command(
            results,
            config_path=config_path,
            input_format=input_format,
            missing=missing,
            jobs=jobs,
            no_cache=no_cache,
            progress=evaluated,
            verbose=verbose,
            scheduler=scheduler,
        )
    finally:
        finish()
    if anova:
        from irtables.render.anova import format_anova
        from irtables.stats.anova import anova_tables

        found = anova_tables(
            study.results, missing=cast(MissingPolicy, study.config.output.missing)
        )
        click.echo(format_anova(found, "terminal"), nl=False)
        if output is not None:
            status = write_atomic(output, format_anova(found, fmt), by="compare", force=force)
            click.echo(f"{status:>9}  {output}")
        return
    changes = {
        "all_pairs": all_pairs,
        "test": test,
        "correction": correction,
        "family": family,
        "alternative": alternative,
        "alpha": alpha,
        "resamples": resamples,
        "seed": seed,
    }
    s = study.compare_settings(baseline=baselines or None, **changes)
    update, finish = progress_bar(f"{s.test} tests")
    comps = study.compare(baseline=baselines or None, progress=update, **changes)
    finish()
    names = study.config.display_names()
    click.echo(format_comparisons(comps, "terminal", names=names), nl=False)
    if output is not None:
        status = write_atomic(
            output, format_comparisons(comps, fmt, names=names), by="compare", force=force
        )
        click.echo(f"{status:>9}  {output}")
