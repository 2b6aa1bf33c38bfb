"""The command line: one short function per command. The only module that exits.

Errors of irtables (:class:`~irtables.errors.IrtablesError`) become a one-line message on
standard error and exit status 2; warnings are printed as ``Warning: ...`` lines.
"""

from __future__ import annotations

import functools
import sys
import warnings
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar, cast

import click

from irtables import __version__
from irtables.errors import IrtablesError
from irtables.loaders import LOADERS
from irtables.model import MISSING_POLICIES, MissingPolicy
from irtables.render import FORMATS
from irtables.stats import CORRECTIONS, FAMILIES, TESTS

F = TypeVar("F", bound=Callable[..., Any])


class _CliError(click.ClickException):
    """An irtables error shown to the user: ``Error: <message>``, exit status 2."""

    exit_code = 2


def handle_errors(func: F) -> F:
    """Turn irtables errors into exit status 2 and print warnings without tracebacks."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                return func(*args, **kwargs)
            except IrtablesError as e:
                raise _CliError(str(e)) from e
            finally:
                for w in caught:
                    click.echo(f"Warning: {w.message}", err=True)

    return wrapper  # type: ignore[return-value]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="irtables")
def main() -> None:
    """irtables: paper tables, significance tests and supplements from IR results.

    Point it at a folder of per-query results laid out as DIR/<dataset>/<system>.<ext>
    (trec_eval -q output, tidy or wide CSV/TSV/Parquet/JSONL, pytrec_eval JSON, PyTerrier
    CSV) and optionally an irtables.toml; see README.md for the formats and config keys.
    """


RESULTS_ARG = click.argument(
    "results", default=".", type=click.Path(exists=True, path_type=Path), metavar="[DIR]"
)
CONFIG_OPT = click.option(
    "--config",
    "config_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Configuration file (default: DIR/irtables.toml if present).",
)
INPUT_FORMAT_OPT = click.option(
    "--input-format",
    type=click.Choice(sorted(LOADERS)),
    help="Read every result file in this format instead of detecting it.",
)
MISSING_OPT = click.option(
    "--missing",
    type=click.Choice(MISSING_POLICIES),
    help="When systems of a dataset cover different queries: error (default), intersect "
    "(keep common queries) or zero (score missing queries 0).",
)


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
    """Write Table 1, Table S1 per dataset and the ablation table (LaTeX, Markdown, CSV).

    Writes table1.*, tableS1-<dataset>.* and, when configured, ablation.* and prints what
    it wrote. Best values per column are bold, decided on the displayed (rounded) numbers.
    """
    from irtables.pipeline import resolve_study, template_dirs_for, with_overrides, write_tables

    rs, config, base = resolve_study(
        results, config_path=config_path, input_format=input_format, missing=missing
    )
    if baselines:
        config = replace(config, compare=with_overrides(config.compare, baseline=baselines))
    update, finish = _progress_bar("significance tests")
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


def _progress_bar(label: str) -> tuple[Callable[[int, int], None], Callable[[], None]]:
    """A click progress bar on stderr, opened on the first ``update(done, total)``."""
    bars: list[Any] = []

    def update(done: int, total: int) -> None:
        if not sys.stderr.isatty():
            return
        if not bars:
            bars.append(click.progressbar(length=total, label=label, file=sys.stderr))
        bars[0].update(done - bars[0].pos)

    def finish() -> None:
        for bar in bars:
            bar.render_finish()

    return update, finish


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
    from irtables.pipeline import resolve_study, with_overrides
    from irtables.stats import compare as run
    from irtables.stats.report import format_comparisons
    from irtables.writers import write_atomic

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
    update, finish = _progress_bar(f"{s.test} tests")
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


@main.command("evaluate")
@click.argument("qrels", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument(
    "runs", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option(
    "-m",
    "--measure",
    "measures",
    multiple=True,
    required=True,
    help="Measure (trec_eval, ir_measures or ranx spelling); repeatable.",
)
@click.option("-q", "--per-query", is_flag=True, help="Per-query values, not only means.")
@click.option(
    "-c",
    "complete",
    is_flag=True,
    help="Average over all judged queries; those not in a run score 0 (trec_eval -c).",
)
@click.option(
    "-l",
    "relevance",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
    help="Lowest relevant grade for binary measures (trec_eval -l).",
)
@click.option(
    "-M",
    "depth",
    type=click.IntRange(min=1),
    help="Evaluate only the top N documents of each query (trec_eval -M).",
)
@click.option(
    "--format", "fmt", type=click.Choice(["tsv", "trec_eval"]), default="tsv", show_default=True
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Output file (default: standard output).",
)
@click.option("--force", is_flag=True, help="Overwrite a file that irtables did not generate.")
@click.option(
    "--average",
    type=click.Choice(["macro", "micro"]),
    default="macro",
    show_default=True,
    help="macro: mean of per-query values; micro: pooled counts (P@K and R@K only).",
)
@handle_errors
def evaluate_cmd(
    qrels: Path,
    runs: tuple[Path, ...],
    measures: tuple[str, ...],
    per_query: bool,
    complete: bool,
    relevance: int,
    depth: int | None,
    fmt: str,
    output: Path | None,
    force: bool,
    average: str,
) -> None:
    """Evaluate TREC runs against QRELS with trec_eval 9.0.8 semantics (tidy TSV out).

    A progress bar is shown on standard error when it is a terminal and the work is
    long (run files over 50 MB, about a million lines, or three runs or more).
    """
    from irtables.evaluator.command import evaluate_files, progress_display
    from irtables.writers import write_atomic

    with progress_display(runs) as progress:
        text = evaluate_files(
            qrels,
            runs,
            measures,
            per_query=per_query,
            complete=complete,
            relevance=relevance,
            depth=depth,
            fmt=cast(Any, fmt),
            average=cast(Any, average),
            progress=progress,
        )
    if output is None:
        click.echo(text, nl=False)
    else:
        click.echo(f"{write_atomic(output, text, force=force):>9}  {output}", err=True)


@main.command("lint")
@RESULTS_ARG
@INPUT_FORMAT_OPT
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
@handle_errors
def lint_cmd(
    results: Path, input_format: str | None, tolerance: float | None, limit: int | None
) -> None:
    """Report numbers that cannot all be true; exit status 1 if any.

    Checks every per-query value, and the files' own means (trec_eval `all` rows), for:
    bounds in [0, 1]; counts that are whole and non-negative; R@K, Success@K, RR@K and
    relevant retrieved (P@K·K) non-decreasing in K; P@K·K = R@K·num_rel (num_rel from
    NumRel, or implied by P@K·K / R@K at every K); P@1 = Success@1 = RR@1; AP = 1 with
    P@K = 1 or R@K = 1 at every K; RR@K >= 1/K when Success@K = 1; and the mean of the
    per-query values against the `all` row. Measures are compared only with measures
    of the same relevance threshold. Each violation names file, dataset/system, query
    and the numbers involved.
    """
    from irtables.lint import lint
    from irtables.loaders.discover import load_study

    report = lint(load_study(results, input_format=input_format), tolerance=tolerance, limit=limit)
    click.echo(report.format(), nl=False)
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
    type=click.Choice(list(TESTS)),
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
@INPUT_FORMAT_OPT
@MISSING_OPT
@click.option("--force", is_flag=True, help="Overwrite an -o file that irtables did not generate.")
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
    input_format: str | None,
    missing: str | None,
    force: bool,
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
    from irtables.diff_report import format_diff
    from irtables.gitsource import open_operand
    from irtables.pipeline import resolve_study
    from irtables.writers import write_atomic

    sides = []
    for spec in (old, new):
        with open_operand(spec) as where:
            sides.append(
                resolve_study(
                    where.results,
                    config_path=where.config,
                    input_format=input_format,
                    missing=missing,
                )
            )
    (old_rs, old_cfg, _), (new_rs, new_cfg, _) = sides
    report = diff(
        old_rs,
        new_rs,
        old_config=old_cfg,
        new_config=new_cfg,
        tolerance=tolerance,
        test=test,
        alpha=alpha,
        top=top,
        labels=(old, new),
    )
    if output is None:
        color = fmt == "terminal" and sys.stdout.isatty()
        click.echo(format_diff(report, fmt, color=color), nl=False)
    else:
        status = write_atomic(output, format_diff(report, fmt, header=True), force=force)
        click.echo(f"{status:>9}  {output}", err=True)
    if report.fails(fail_on):
        click.get_current_context().exit(1)


SUPPLEMENT_OUT_OPT = click.option(
    "-o",
    "--output",
    "outdir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Supplement folder (default: supplement/ beside the configuration, else in DIR).",
)


@main.command("supplement")
@RESULTS_ARG
@CONFIG_OPT
@SUPPLEMENT_OUT_OPT
@click.option(
    "--templates",
    "template_dir",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Folder of templates that override the built-in ones by name.",
)
@click.option("--no-pdf", is_flag=True, help="Do not compile supplement.pdf.")
@click.option("--force", is_flag=True, help="Overwrite files that irtables did not generate.")
@handle_errors
def supplement_cmd(
    results: Path,
    config_path: Path | None,
    outdir: Path | None,
    template_dir: Path | None,
    no_pdf: bool,
    force: bool,
) -> None:
    """Write the supplementary material: tables, tests, per-query analysis, figures,
    methods text with references.bib, supplement.tex (and .pdf) and manifest.json.

    Deterministic: a rerun on the same inputs rewrites nothing. `irtables check` tells
    whether the folder is still current.
    """
    from irtables.supplement.run import make_supplement

    update, finish = _stage_progress()
    try:
        done = make_supplement(
            results,
            config_path=config_path,
            outdir=outdir,
            force=force,
            template_dirs=[template_dir] if template_dir else [],
            pdf=not no_pdf,
            progress=update,
        )
    finally:
        finish()
    for item in done.written:
        click.echo(f"{item.status:>9}  {item.path}")
    for note in done.notes:
        click.echo(f"Note: {note}", err=True)


def _stage_progress() -> tuple[Callable[[str, int, int], None], Callable[[], None]]:
    """Progress bars on stderr (a terminal only), one per stage: ``update(stage, done, total)``."""
    bars: dict[str, Any] = {}

    def update(stage: str, done: int, total: int) -> None:
        if not sys.stderr.isatty() or total <= 0:
            return
        if stage not in bars:
            for bar in bars.values():
                bar.render_finish()
            bars[stage] = click.progressbar(length=total, label=stage, file=sys.stderr)
        bars[stage].update(done - bars[stage].pos)

    def finish() -> None:
        for bar in bars.values():
            bar.render_finish()
        bars.clear()

    return update, finish


@main.command("check")
@RESULTS_ARG
@CONFIG_OPT
@SUPPLEMENT_OUT_OPT
@handle_errors
def check_cmd(results: Path, config_path: Path | None, outdir: Path | None) -> None:
    """Check that the supplement is current; exit status 1 naming what is stale.

    Stale: an input file or the configuration changed, was added or removed, irtables'
    version differs, or an output was edited by hand (all against manifest.json).
    """
    from irtables.supplement.check import check_supplement

    target, stale = check_supplement(results, config_path=config_path, outdir=outdir)
    for item in stale:
        click.echo(f"stale  {item}")
    if stale:
        click.echo(f"{target} is stale; rerun irtables supplement", err=True)
        click.get_current_context().exit(1)
    click.echo(f"{target} is current")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
