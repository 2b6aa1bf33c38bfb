"""`irtables lint` and `irtables diff`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from irtables.base.procedures import names_of_tests
from irtables.cli.common import (
    RESULTS_ARG,
    VERBOSE_OPT,
    RecordChoice,
    handle_errors,
    main,
    resolve_for_command,
)
from irtables.cli.study_options import study_options

if TYPE_CHECKING:
    from irtables.study.request import StudyRequest


def _paired_tests() -> tuple[str, ...]:
    return names_of_tests("paired")


@main.command("lint")
@RESULTS_ARG
@study_options("config", "input_format", "jobs", "cache")
@click.option(
    "--tolerance",
    type=click.FloatRange(min=0),
    help="Rounding tolerance of every value (default: half a unit of the last printed "
    "decimal, guessed per file: 0.00005 for trec_eval's 4 decimals).",
)
@click.option(
    "--max",
    "limit",
    type=click.IntRange(min=0),
    help="Print at most this many violations (default: all); the summary counts all.",
)
@VERBOSE_OPT
@handle_errors
def lint_cmd(
    results: Path,
    request: StudyRequest,
    tolerance: float | None,
    limit: int | None,
    verbose: bool,
) -> None:
    """Report numbers that cannot all be true; exit status 1 if any.

    Checks every per-query value, and the files' own means (trec_eval `all` rows), for:
    bounds in [0, 1]; counts that are whole and non-negative; R@K, Success@K, RR@K and
    relevant retrieved (P@K·K) non-decreasing in K; P@K·K = R@K·num_rel (num_rel from
    NumRel, or implied by P@K·K / R@K at every K); P@1 = Success@1 = RR@1; AP = 1 with
    P@K = 1 or R@K = 1 at every K; RR@K >= 1/K when Success@K = 1; and the mean of the
    per-query values against the `all` row. Measures are compared only with measures
    of the same relevance threshold. Each violation names file, dataset/system, query
    and the numbers involved. Datasets given as qrels + runs in the configuration are
    evaluated (through the cache) and checked too.
    """
    study = resolve_for_command(request, progress=None, verbose=verbose, bounds=False)
    report = study.lint(tolerance=tolerance, limit=limit)
    click.echo(report.format(study.config.display_names()), nl=False)
    if not report.ok:
        click.get_current_context().exit(1)


@main.command("diff")
@click.argument("old")
@click.argument("new")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["terminal", "markdown", "json"]),
    default="terminal",
    show_default=True,
    help="terminal: aligned tables, colours on a terminal; markdown: a pull-request "
    "comment; json: every field, byte-stable.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the report to this file instead of standard output.",
)
@click.option(
    "--tolerance",
    type=click.FloatRange(min=0),
    default=0.0,
    show_default=True,
    help="Hide mean changes of at most X (and displayed values they flip).",
)
@click.option(
    "--fail-on",
    type=click.Choice(["regression", "change"]),
    help="Exit status 1 when a mean got worse (regression) or anything differs (change).",
)
@click.option(
    "--test",
    type=RecordChoice(_paired_tests),
    default="t",
    show_default=True,
    help="Paired test of new vs old per-query values.",
)
@click.option(
    "--alpha",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help="Significance level of that test.",
)
@click.option(
    "--top",
    type=click.IntRange(min=0),
    default=3,
    show_default=True,
    help="Queries listed per changed mean (those that changed most).",
)
@study_options("input_format", "missing", "force", "jobs", "scheduler", "cache")
@VERBOSE_OPT
@handle_errors
def diff_cmd(
    old: str,
    new: str,
    fmt: str,
    output: Path | None,
    tolerance: float,
    fail_on: str | None,
    test: str,
    alpha: float,
    top: int,
    request: StudyRequest,
    verbose: bool,
) -> None:
    """Show what changed from OLD to NEW: means, queries, systems and table cells.

    OLD and NEW are results folders, config files (their folder holds the results) or
    git revisions of one, REV:path (e.g. HEAD~1:results), read with git without touching
    the working tree. For each (dataset, system, metric): old and new mean, difference,
    relative difference, a paired test over the shared queries and the queries that
    changed most; then datasets, systems, metrics and queries that appeared or
    disappeared; then table cells whose displayed value, bold/underline or significance
    markers change. Identical inputs print "no differences" and exit 0.
    """
    from irtables.diff import diff
    from irtables.diff.gitsource import open_operand
    from irtables.diff.report import format_diff
    from irtables.output.writers import check_destination, write_atomic

    if output is not None:
        check_destination(output, force=request.force)
    from dataclasses import replace

    from irtables.diff.metadata import metadata_changes
    from irtables.study.run_metadata import configured_run_metadata

    sides = []
    metadata = []
    for spec in (old, new):
        with open_operand(spec) as where:
            asked = replace(request, path=Path(where.results), config=where.config)
            side = resolve_for_command(asked, progress=None, verbose=verbose)
            sides.append(side)
            found = configured_run_metadata(side.config, side.base)  # read while it exists
            metadata.append({key: data for key, (_, data) in found.items()})
    old_study, new_study = sides
    report = diff(
        old_study.results,
        new_study.results,
        old_config=old_study.config,
        new_config=new_study.config,
        tolerance=tolerance,
        test=test,
        alpha=alpha,
        top=top,
        labels=(old, new),
    )
    report = replace(report, metadata=metadata_changes(*metadata))
    if output is None:
        color = fmt == "terminal" and sys.stdout.isatty()
        click.echo(format_diff(report, fmt, color=color), nl=False)
    else:
        text = format_diff(report, fmt, header=True)
        status = write_atomic(output, text, by="diff", force=request.force)
        click.echo(f"{status:>9}  {output}", err=True)
    if report.fails(fail_on):
        click.get_current_context().exit(1)
