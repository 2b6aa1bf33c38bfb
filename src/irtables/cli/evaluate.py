"""`irtables evaluate`: TREC runs and qrels to per-query values."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import click

from irtables.cli.common import (
    FORCE_OPT,
    JOBS_OPT,
    OUTPUT_FILE_OPT,
    RELEVANCE_OPT,
    SCHEDULER_OPT,
    handle_errors,
    main,
)
from irtables.evaluator.versions import DEFAULT_TREC_EVAL, TREC_EVAL_VERSIONS


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
@click.option(
    "-q",
    "--per-query",
    is_flag=True,
    help="One row per query (the TSV irtables tables reads) instead of one row per run and "
    "measure, query 'mean', holding the mean over the queries (counts too; trec_eval's "
    "'all' line sums NumRet, NumRel and NumRelRet: see --format trec_eval).",
)
@click.option(
    "-c",
    "complete",
    is_flag=True,
    help="Average over all judged queries; those not in a run score 0 (trec_eval -c).",
)
@RELEVANCE_OPT
@click.option(
    "-M",
    "depth",
    type=click.IntRange(min=1),
    help="Evaluate only the top N documents of each query (trec_eval -M).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["tsv", "trec_eval"]),
    default="tsv",
    show_default=True,
    help="tsv: tidy rows that irtables tables reads; trec_eval: trec_eval's own layout.",
)
@OUTPUT_FILE_OPT
@FORCE_OPT
@click.option(
    "--average",
    type=click.Choice(["macro", "micro"]),
    default="macro",
    show_default=True,
    help="macro: mean of per-query values; micro: pooled counts (P@K and R@K only).",
)
@click.option(
    "--trec-eval",
    "trec_eval",
    type=click.Choice(TREC_EVAL_VERSIONS),
    default=DEFAULT_TREC_EVAL,
    show_default=True,
    help="Whose semantics: 9.0.8 holds scores as 32-bit floats (scores equal in single "
    "precision tie, broken by document id descending), as pytrec_eval does; 10 holds "
    "doubles and rounds recall levels to ranks differently (iprec_at_recall, 11pt_avg). "
    "With --format trec_eval and -c, 10 also prints per-query lines for judged queries "
    "a run lacks.",
)
@JOBS_OPT
@SCHEDULER_OPT
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
    trec_eval: str,
    jobs: int,
    scheduler: str | None,
) -> None:
    """Evaluate TREC runs against QRELS with trec_eval's semantics (tidy TSV out).

    The semantics are trec_eval 9.0.8's unless --trec-eval 10 is given.

    Runs are evaluated in worker processes when the work pays for them (see --jobs),
    else in this one. A progress bar is shown on standard error when it is a terminal and the
    work is long (run files over 50 MB, about a million lines, or three runs or more).
    """
    from irtables.workers.preload import without_blas_threads

    without_blas_threads()  # before numpy is imported: evaluating does no linear algebra
    from irtables.base.arrow import skip_pandas_checks
    from irtables.evaluator.command import evaluate_files, progress_display

    skip_pandas_checks()  # TREC runs and qrels are read and evaluated without pandas

    if output is not None:  # checked before the evaluation, not after it
        from irtables.output.writers import check_destination

        check_destination(output, force=force)
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
            trec_eval=cast(Any, trec_eval),
            jobs=jobs or None,
            progress=progress,
            scheduler=scheduler or None,
        )
    if output is None:
        click.echo(text, nl=False)
    else:
        from irtables.output.writers import write_atomic

        status = write_atomic(output, text, by="evaluate", force=force)
        click.echo(f"{status:>9}  {output}", err=True)
