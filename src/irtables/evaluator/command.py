"""What ``irtables evaluate`` does, minus the command-line parsing (see :mod:`irtables.cli`)."""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

import click
import numpy as np
import pandas as pd

from irtables.errors import DataWarning, InputError
from irtables.evaluator.api import Average, evaluate, means
from irtables.evaluator.output import to_trec_eval, to_tsv
from irtables.evaluator.versions import DEFAULT_TREC_EVAL, TrecEvalVersion
from irtables.loaders.qrels import read_qrels
from irtables.loaders.trec_run import read_run, system_name
from irtables.measures import parse_measure
from irtables.model import ResultSet

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
    progress: Callable[[str, int, int], None] | None = None,
) -> str:
    """Evaluate run files against a qrels file and format the result.

    The qrels are read and indexed once for all runs; the runs are read one at a time
    (only one is in memory). ``fmt="tsv"`` gives the tidy table ``system query metric
    value``: one row per query with ``per_query``, else one per run and measure, query
    ``mean``, holding the mean over the queries (counts too); ``fmt="trec_eval"`` gives
    trec_eval's layout (``-q`` when ``per_query``), whose ``all`` line sums the counts.
    ``average="micro"`` pools P@K and R@K counts over queries (tsv only). ``trec_eval``
    chooses the semantics (``"9.0.8"`` or ``"10"``), also of the trec_eval layout:
    ``runid`` is the tag of the run's last line, and with ``complete`` only 10 prints
    per-query lines for judged queries a run lacks. ``progress`` is passed to
    :func:`~irtables.evaluator.api.evaluate`.
    """
    if average == "micro" and (per_query or fmt != "tsv"):
        raise InputError("--average micro gives one value per run: use it without -q, in tsv")
    qrels = read_qrels(qrels_path)
    names = [system_name(p) for p in run_paths]
    if len(set(names)) != len(names):  # bm25.dl19 and bm25.dl20: keep the suffixes
        names = [p.name[:-3] if p.name.lower().endswith(".gz") else p.name for p in run_paths]
    if len(set(names)) != len(names):
        raise InputError(f"two runs have the same name: {', '.join(names)}")
    parts: list[pd.DataFrame] = []
    runids: dict[str, str] = {}
    retrieved: dict[str, set[str]] = {}
    for done, (path, name) in enumerate(zip(run_paths, names, strict=True), start=1):
        run = read_run(path, name=name, progress=progress)
        runids[name] = run.runid
        retrieved[name] = set(run.qid.dictionary.to_pylist())
        part = evaluate(
            qrels,
            run,
            list(measures),
            relevance=relevance,
            depth=depth,
            missing_queries="zero" if complete else "ignore",
            per_query=average == "macro",
            average=average,
            trec_eval=trec_eval,
        )
        del run
        parts.append(part.frame)
        if progress is not None:
            progress("evaluate", done, len(run_paths))
    results = ResultSet.from_frame(pd.concat(parts, ignore_index=True))
    if fmt == "tsv":
        return to_tsv(results if per_query or average == "micro" else means(results))
    quirk = unprinted = None
    if complete:  # trec_eval -c prints num_rel "all" over grades >= 1, ignoring -l
        total = int(np.count_nonzero(qrels.grade >= 1))
        quirk = dict.fromkeys(names, total)
        _warn_num_rel_quirk(results, relevance, total)
        if trec_eval == "9.0.8":  # no per-query lines for judged queries the run lacks
            unprinted = {n: set(qrels.queries) - retrieved[n] for n in names}
    return to_trec_eval(
        results,
        per_query=per_query,
        runids=runids,
        complete_num_rel=quirk,
        unprinted=unprinted,
        relevance=relevance,
    )


def _warn_num_rel_quirk(results: ResultSet, relevance: int, total: int) -> None:
    """Under ``-c -l N`` (N != 1), trec_eval's ``num_rel`` ``all`` line counts grade >= 1."""
    frame = results.frame
    rows = frame[[parse_measure(str(m)).family == "NumRel" for m in frame["metric"]]]
    if relevance == 1 or rows.empty:
        return
    per_query = int(rows.groupby("system", observed=True)["value"].sum().iloc[0])
    warnings.warn(
        f"num_rel 'all' is {total}: under -c, trec_eval counts there the documents judged "
        f">= 1 of every judged query, whatever -l; the per-query num_rel lines (and the "
        f"TSV's NumRel(rel={relevance})) count grade >= {relevance}: {per_query} in all",
        DataWarning,
        stacklevel=3,
    )


LONG_INPUT_BYTES = 50 * 2**20  # about a million TREC run lines
LONG_INPUT_RUNS = 3


@contextmanager
def progress_display(
    run_paths: Sequence[Path], *, force: bool | None = None
) -> Iterator[Callable[[str, int, int], None] | None]:
    """A progress callback drawing a bar on standard error, or ``None``.

    The bar is shown only when standard error is a terminal (``force`` overrides that
    test) and the work is long: run files of more than ``LONG_INPUT_BYTES`` in total, or
    ``LONG_INPUT_RUNS`` runs or more. It shows the bytes read of each run file.
    """
    tty = sys.stderr.isatty() if force is None else force
    size = sum(p.stat().st_size for p in run_paths if p.exists())
    if not tty or (size <= LONG_INPUT_BYTES and len(run_paths) < LONG_INPUT_RUNS):
        yield None
        return
    with click.progressbar(
        length=max(size, 1), label="evaluate", file=sys.stderr, show_pos=False
    ) as bar:
        read: dict[str, int] = {}  # bytes read, per run file ("read <name>")

        def update(stage: str, done: int, total: int) -> None:
            if stage == "evaluate":
                return
            read[stage] = done
            bar.label = stage
            bar.update(sum(read.values()) - bar.pos)

        yield update
