"""`irtables tables` and `irtables compare`."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import cast

import click

from irtables.cli.common import (
    CONFIG_OPT,
    INPUT_FORMAT_OPT,
    MISSING_OPT,
    RESULTS_ARG,
    handle_errors,
    main,
    progress_bar,
)
from irtables.model import MissingPolicy
from irtables.render import FORMATS
from irtables.stats import CORRECTIONS, FAMILIES, TESTS


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
    help="Mark significant differences from this system; repeatable "
    "(default: compare.baseline of the config; none: no markers).",
)
@click.option("--force", is_flag=True, help="Overwrite files that irtables did not generate.")
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
) -> None:
    """Write Table 1, Table S1 per dataset, the ablation and every [tables.<name>] table.

    Writes table1.*, tableS1-<dataset>.*, ablation.* and <name>.* for each configured
    [tables.<name>] (layouts: dataset_columns, grid, sensitivity, ...) in LaTeX, Markdown
    and CSV (or the -f formats, html included), and prints what it wrote. Best values are
    bold, decided on the displayed (rounded) numbers.
    """
    from irtables.study.pipeline import (
        resolve_study,
        template_dirs_for,
        with_overrides,
        write_tables,
    )

    rs, config, base = resolve_study(
        results, config_path=config_path, input_format=input_format, missing=missing
    )
    if baselines:
        config = replace(config, compare=with_overrides(config.compare, baseline=baselines))
    update, finish = progress_bar("significance tests")
    target = outdir or base / config.output.dir
    extra = [template_dir] if template_dir else []
    written = write_tables(
        rs,
        config,
        target,
        formats=formats or None,
        template_dirs=template_dirs_for(config, base, extra),
        force=force,
        progress=update,
    )
    finish()
    for item in written:
        click.echo(f"{item.status:>9}  {item.path}")


@main.command("compare")
@RESULTS_ARG
@CONFIG_OPT
@click.option(
    "--baseline",
    "baselines",
    multiple=True,
    help="Baseline system; repeatable "
    "(default: compare.baseline of the config, else the first system).",
)
@click.option("--all-pairs", is_flag=True, help="Test every pair of systems instead.")
@click.option(
    "--test", type=click.Choice(list(TESTS)), help="Paired test (default: compare.test, else t)."
)
@click.option(
    "--correction",
    type=click.Choice(list(CORRECTIONS)),
    help="Multiple-testing correction (default: compare.correction, else holm).",
)
@click.option(
    "--family",
    type=click.Choice(list(FAMILIES)),
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
    "--format",
    "fmt",
    type=click.Choice(["csv", "markdown"]),
    default="csv",
    show_default=True,
    help="Format of the -o file.",
)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path))
@INPUT_FORMAT_OPT
@MISSING_OPT
@click.option("--force", is_flag=True, help="Overwrite a file that irtables did not generate.")
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
    fmt: str,
    output: Path | None,
    input_format: str | None,
    missing: str | None,
    force: bool,
) -> None:
    """Paired significance tests of every system against the baseline(s), per metric."""
    from irtables.output.writers import write_atomic
    from irtables.stats import compare as run
    from irtables.stats.report import format_comparisons
    from irtables.study.pipeline import resolve_study, with_overrides

    rs, config, _ = resolve_study(
        results, config_path=config_path, input_format=input_format, missing=missing
    )
    s = with_overrides(
        config.compare,
        baseline=baselines or None,
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
    opts = {"n_resamples": s.resamples} if s.test in ("randomization", "bootstrap") else {}
    comps = run(
        rs,
        baseline=list(s.baseline) or None,
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
        status = write_atomic(output, format_comparisons(comps, fmt), force=force)
        click.echo(f"{status:>9}  {output}")
