"""`irtables tables` and `irtables compare`."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import cast

import click

from irtables.base.names import ALL_TEST_NAMES, CORRECTION_NAMES, FAMILY_NAMES
from irtables.cli.common import (
    CONFIG_OPT,
    INPUT_FORMAT_OPT,
    JOBS_OPT,
    MISSING_OPT,
    NO_CACHE_OPT,
    RESULTS_ARG,
    handle_errors,
    main,
    printable,
    progress_bar,
    resolve_for_command,
    study_progress,
)
from irtables.config import CompareSettings, baseline_overrides
from irtables.model.policy import MissingPolicy
from irtables.render import FORMATS


@main.command()
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
@click.option("--force", is_flag=True, help="Overwrite files that irtables did not generate.")
@JOBS_OPT
@NO_CACHE_OPT
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
    force: bool,
    jobs: int,
    no_cache: bool,
) -> None:
    """Write Table 1, Table S1 per dataset, the ablation and every [tables.<name>] table.

    Writes table1.*, tableS1-<dataset>.*, ablation.* and <name>.* for each configured
    [tables.<name>] (layouts: dataset_columns, grid, sensitivity, ...) in LaTeX, Markdown
    and CSV (or the -f formats, html included), and prints what it wrote. Best values are
    bold, decided on the displayed (rounded) numbers. Datasets given as qrels + runs are
    evaluated on every core; a run whose file, qrels and options did not change since the
    last time comes from the cache.
    """
    from irtables.base.preload import preload
    from irtables.study.pipeline import TABLE_MODULES, template_dirs_for, write_tables

    preload(TABLE_MODULES)  # while the results are read
    evaluated, tested, finish = study_progress()
    try:
        rs, config, base = resolve_for_command(
            results,
            config_path=config_path,
            input_format=input_format,
            missing=missing,
            jobs=jobs,
            no_cache=no_cache,
            progress=evaluated,
        )
        if baselines:
            config = replace(config, compare=baseline_option(config.compare, baselines))
        target = outdir or base / config.output.dir
        extra = [template_dir] if template_dir else []
        written = write_tables(
            rs,
            config,
            target,
            formats=formats or None,
            template_dirs=template_dirs_for(config, base, extra),
            force=force,
            progress=tested,
        )
    finally:
        finish()
    for item in written:
        click.echo(f"{item.status:>9}  {printable(str(item.path))}")


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
@click.option("--all-pairs", is_flag=True, help="Test every pair of systems instead.")
@click.option(
    "--test",
    type=click.Choice(ALL_TEST_NAMES),
    help="Paired test, an all-pairs procedure: tukey (Tukey HSD on the system x topic "
    "design) or randomized-tukey, or dunnett (each system against the baseline on the same "
    "design) (default: compare.test, else t).",
)
@click.option(
    "--correction",
    type=click.Choice(CORRECTION_NAMES),
    help="Multiple-testing correction of the paired tests (default: compare.correction, "
    "else holm; tukey, randomized-tukey and dunnett adjust for their family themselves).",
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
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path))
@INPUT_FORMAT_OPT
@MISSING_OPT
@click.option("--force", is_flag=True, help="Overwrite a file that irtables did not generate.")
@JOBS_OPT
@NO_CACHE_OPT
@handle_errors
def compare(
    results: Path,
    config_path: Path | None,
    baselines: tuple[str, ...],
    all_pairs: bool,
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
    no_cache: bool,
) -> None:
    """Significance tests of every system against the baseline(s), or of all pairs, per metric.

    Paired tests (t, wilcoxon, sign, randomization, bootstrap) with a multiple-testing
    correction, the all-pairs procedures tukey and randomized-tukey, which compare every
    system of a dataset at once on the system x topic design, or dunnett (each system
    against the baseline on that design). --anova shows the two-way ANOVA tables instead.
    """
    from irtables.output.writers import check_destination, write_atomic
    from irtables.stats import compare as run
    from irtables.stats.report import format_comparisons
    from irtables.study.pipeline import with_overrides

    if fmt == "latex" and not anova:
        from irtables.errors import InputError

        raise InputError("--format latex is for the ANOVA tables (--anova)")
    if output is not None:
        check_destination(output, force=force)
    evaluated, _, finish = study_progress()
    try:
        rs, config, _ = resolve_for_command(
            results,
            config_path=config_path,
            input_format=input_format,
            missing=missing,
            jobs=jobs,
            no_cache=no_cache,
            progress=evaluated,
        )
    finally:
        finish()
    if anova:
        from irtables.render.anova import format_anova
        from irtables.stats.anova import anova_tables

        found = anova_tables(rs, missing=cast(MissingPolicy, config.output.missing))
        click.echo(format_anova(found, "terminal"), nl=False)
        if output is not None:
            status = write_atomic(output, format_anova(found, fmt), by="compare", force=force)
            click.echo(f"{status:>9}  {output}")
        return
    base = baseline_option(config.compare, baselines) if baselines else config.compare
    s = with_overrides(
        base,
        all_pairs=all_pairs or None,
        test=test,
        correction=correction,
        family=family,
        alternative=alternative,
        alpha=alpha,
        resamples=resamples,
        seed=seed,
    )
    update, finish = progress_bar(f"{s.test} tests")
    from irtables.base.names import RESAMPLED_TEST_NAMES

    opts: dict[str, object] = {"n_resamples": s.resamples} if s.test in RESAMPLED_TEST_NAMES else {}
    if s.test == "wilcoxon":
        opts["zero_method"] = s.zero_method
    comps = run(
        rs,
        baseline=s.baseline_spec(rs.datasets()) or None,
        test=s.test,
        pairs="all" if s.all_pairs else "baseline",
        correction=s.correction,
        family=s.family,
        alternative=s.alternative,
        alpha=s.alpha,
        missing=cast(MissingPolicy, config.output.missing),
        rng=s.seed,
        options=opts,
        progress=update,
    )
    finish()
    click.echo(format_comparisons(comps, "terminal"), nl=False)
    if output is not None:
        status = write_atomic(output, format_comparisons(comps, fmt), by="compare", force=force)
        click.echo(f"{status:>9}  {output}")


def baseline_option(settings: CompareSettings, values: tuple[str, ...]) -> CompareSettings:
    """``--baseline`` values over the configured ones: ``none`` turns markers off,
    ``DATASET=SYSTEM`` names one dataset's baseline, anything else every dataset's."""
    if tuple(v.lower() for v in values) == ("none",):
        return replace(settings, baseline=(), dataset_baselines=(), all_pairs=False, markers=False)
    every, per = baseline_overrides(values)
    return replace(settings, baseline=every, dataset_baselines=per)
