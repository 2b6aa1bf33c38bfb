"""What ``irtables evaluate`` does, minus the command-line parsing (see :mod:`irtables.cli`).

No pandas here: runs are evaluated into plain arrays and formatted directly, so that a
small evaluation is a fast process.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

import click

from irtables.errors import DataWarning, InputError, user_stacklevel
from irtables.evaluator.jobs import check_run_names
from irtables.evaluator.output import format_trec_eval, format_tsv
from irtables.evaluator.plan import LONG_INPUT_BYTES, Batch, evaluate_batches
from irtables.evaluator.values import Average, RunValues, check_options
from irtables.evaluator.versions import DEFAULT_TREC_EVAL, TrecEvalVersion
from irtables.loaders.source import without_compression
from irtables.loaders.trec_run import system_name
from irtables.measures import parse_measure
from irtables.model.runs import Run

OutputFormat = Literal["tsv", "trec_eval"]


def evaluate_files(
    qrels_path: Path,
    run_paths: Sequence[Path],
    measures: Sequence[str],
    *,
    per_query: bool = False,
    complete: bool = False,
    relevance: int = 1,
    depth: int | None = None,
    fmt: OutputFormat = "tsv",
    average: Average = "macro",
    trec_eval: TrecEvalVersion = DEFAULT_TREC_EVAL,
    jobs: int | None = 1,
    progress: Callable[[str, int, int], None] | None = None,
    scheduler: str | None = None,
) -> str:
    """Evaluate run files against a qrels file and format the result.

    The qrels are read and indexed once; each run is one job (``jobs`` processes at a
    time, None: as many as pay for themselves), read by the job, so that one run per
    worker is in memory (see :mod:`irtables.evaluator.plan`).
    ``fmt="tsv"`` gives the tidy table ``system query metric value`` (query ``all``
    holds the mean unless ``per_query``); ``fmt="trec_eval"`` gives trec_eval's layout
    (``-q`` when ``per_query``), whose ``all`` line sums the counts; the TSV without
    ``per_query`` has one row per run and measure, query ``mean``, holding the mean over
    the queries (counts too). ``average="micro"`` pools P@K and R@K counts over
    queries (tsv only). ``trec_eval`` chooses the semantics (``"9.0.8"`` or ``"10"``),
    also of the trec_eval layout: ``runid`` is the tag of the run's last line, and with
    ``complete`` only 10 prints per-query lines for judged queries a run lacks.
    ``progress`` and ``scheduler`` (a Dask cluster's) are passed to
    :func:`~irtables.evaluator.plan.evaluate_batches`.
    """
    if average == "micro" and (per_query or fmt != "tsv"):
        raise InputError("--average micro gives one value per run: use it without -q, in tsv")
    options = check_options(
        list(measures),
        relevance=relevance,
        depth=depth,
        missing_queries="zero" if complete else "ignore",
        average=average,
        per_query=average == "macro",
        trec_eval=trec_eval,
    )
    names = [system_name(p) for p in run_paths]
    if len(set(names)) != len(names):  # bm25.dl19 and bm25.dl20: keep the suffixes
        names = [without_compression(p.name) for p in run_paths]
    check_run_names(names, paths=run_paths)
    runs: list[tuple[Path | Run, str]] = list(zip(run_paths, names, strict=True))
    batch = Batch(qrels_path, runs, options)
    (done,) = evaluate_batches([batch], jobs=jobs, progress=progress, scheduler=scheduler)
    values, queries = done.values, done.queries
    if fmt == "tsv":
        return format_tsv(values, queries, per_query=per_query or average == "micro")
    if complete:
        _warn_num_rel_quirk(values, relevance)
    return format_trec_eval(
        values,
        queries,
        per_query=per_query,
        complete=complete,
        per_query_missing=trec_eval == "10",
        relevance=relevance,
    )


def _warn_num_rel_quirk(values: Sequence[RunValues], relevance: int) -> None:
    """Under ``-c -l N`` (N != 1), trec_eval's ``num_rel`` ``all`` line counts grade >= 1."""
    for v in values[:1]:
        rows = [i for i, m in enumerate(v.metrics) if parse_measure(m).family == "NumRel"]
        if relevance == 1 or not rows:
            return
        per_query = int(v.values[rows[0]].sum())
        warnings.warn(
            f"num_rel 'all' is {v.relevant_total}: under -c, trec_eval counts there the "
            "documents judged >= 1 of every judged query, whatever -l; the per-query "
            f"num_rel lines (and the TSV's NumRel(rel={relevance})) count grade >= "
            f"{relevance}: {per_query} in all",
            DataWarning,
            stacklevel=user_stacklevel(),
        )


LONG_INPUT_RUNS = 3


@contextmanager
def progress_display(
    run_paths: Sequence[Path], *, force: bool | None = None
) -> Iterator[Callable[[str, int, int], None] | None]:
    """A progress callback drawing a bar on standard error, or ``None``.

    The bar is shown only when standard error is a terminal (``force`` overrides that
    test) and the work is long: run files of more than ``LONG_INPUT_BYTES`` in total, or
    ``LONG_INPUT_RUNS`` runs or more. It counts the runs evaluated, or for a single run
    the bytes of its file read.
    """
    tty = sys.stderr.isatty() if force is None else force
    size = sum(p.stat().st_size for p in run_paths if p.exists())
    if not tty or (size <= LONG_INPUT_BYTES and len(run_paths) < LONG_INPUT_RUNS):
        yield None
        return
    several = len(run_paths) > 1
    length = len(run_paths) if several else max(size, 1)
    with click.progressbar(
        length=length, label="evaluate", file=sys.stderr, show_pos=several
    ) as bar:

        def update(stage: str, done: int, total: int) -> None:
            if (stage == "evaluate") == several:
                bar.update(done - bar.pos)

        yield update
