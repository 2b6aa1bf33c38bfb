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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
