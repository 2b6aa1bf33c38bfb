"""``evaluate``: runs and qrels in, a :class:`ResultSet` of per-query values out."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from irtables.evaluator.jobs import check_run_names
from irtables.evaluator.output import MEAN_QUERY
from irtables.evaluator.plan import Batch, evaluate_batches
from irtables.evaluator.values import (
    SUPPORTED_FAMILIES,
    Average,
    MissingQueries,
    RunValues,
    check_options,
)
from irtables.evaluator.versions import DEFAULT_TREC_EVAL, TrecEvalVersion
from irtables.measures import Measure
from irtables.model import ResultSet
from irtables.model.runs import Qrels, Run, qrels_from_frame, run_from_frame

Progress = Callable[[str, int, int], None]
QrelsLike = Qrels | pd.DataFrame | str | Path
RunLike = Run | pd.DataFrame | str | Path

__all__ = ["SUPPORTED_FAMILIES", "Average", "MissingQueries", "evaluate", "means", "to_results"]


def evaluate(
    qrels: QrelsLike,
    runs: RunLike | Sequence[RunLike],
    measures: str | Measure | Sequence[str | Measure],
    *,
    relevance: int = 1,
    depth: int | None = None,
    missing_queries: MissingQueries = "ignore",
    per_query: bool = True,
    dataset: str = "",
    average: Average = "macro",
    trec_eval: TrecEvalVersion = DEFAULT_TREC_EVAL,
    jobs: int | None = 1,
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> ResultSet:
    """Evaluate runs against qrels with trec_eval's semantics (9.0.8 unless asked).

    Parameters
    ----------
    qrels
        Judgements: a :class:`Qrels`, a frame (query, docid, relevance) or a path.
    runs
        One run or several: :class:`Run`, frames (query, docid, score; named by a
        ``system`` attribute in ``frame.attrs`` or ``run<i>``) or paths (named by stem).
    measures
        Names in trec_eval, ir_measures or ranx spelling (``ndcg_cut_10``, ``nDCG@10``).
    relevance
        Lowest grade that counts as relevant for binary measures (trec_eval ``-l``).
        A threshold other than 1 joins the names of the measures it changes
        (``AP(rel=2)``, ``P(rel=2)@10``; nDCG, whose gain is the grade, stays ``nDCG@10``),
        so that tables, captions and methods built from the values state it. A name
        that states its own threshold (``AP(rel=3)``) keeps it.
    depth
        Keep only the top ``depth`` documents of each query (trec_eval ``-M``).
    missing_queries
        ``"ignore"``: queries judged but not retrieved are left out (trec_eval 9.x);
        ``"zero"``: they are scored on an empty ranking, 0 (trec_eval ``-c``).
    per_query
        Per-query values, or one mean per system and metric (query ``mean``): the
        mean over the queries for every measure, counts included (trec_eval's ``all``
        line sums NumRet, NumRel and NumRelRet; see
        :func:`~irtables.evaluator.output.summary_values`).
    dataset
        The dataset column of the result.
    average
        With ``per_query=False``: ``"macro"``, the mean of the per-query values, or
        ``"micro"`` (Keen & Salton), for P@K and R@K only, pooling the counts of all
        queries: micro-P@K = relevant retrieved in the top K of all queries / (K x number
        of queries), micro-R@K = relevant retrieved in the top K of all queries /
        relevant documents of all queries. Since P@K always divides by K, micro-P@K
        equals the macro mean; micro-R@K weights queries by their relevant documents.
        Micro metrics are named ``"<name> (micro)"`` (``"R@100 (micro)"``).
    trec_eval
        ``"9.0.8"`` (default): scores held in single precision, as trec_eval 9.0.8 and
        pytrec_eval do (scores equal as float32 tie, broken by document id descending),
        and 9.0.8's interpolated-precision cutoffs; ``"10"``: trec_eval 10's doubles and
        cutoffs. See :mod:`irtables.evaluator.versions`.
    jobs
        Processes evaluating runs at the same time (None: as many as the work pays
        for, see :func:`~irtables.workers.executor.pool_size`); each run is one unit of
        work (see :mod:`irtables.evaluator.plan`). The result does not depend on it.
    scheduler
        The address of a Dask scheduler (``tcp://host:8786``): the runs are evaluated
        on its cluster, whose workers read files at the same paths
        (:mod:`irtables.workers.cluster`; needs ``irtables[dask]``).
    progress
        Called as ``progress(stage, done, total)``: ``("evaluate", runs done, runs)``
        after each run and, with one job, ``("read <run>", bytes, bytes)`` while a run
        file is read.

    Returns
    -------
    ResultSet
        Metric names are canonical (``nDCG@10``, ``AP(rel=2)``); queries are strings.

    Examples
    --------
    >>> import pandas as pd
    >>> qrels = pd.DataFrame({"query": ["1", "1"], "docid": ["a", "b"], "rel": [1, 2]})
    >>> run = pd.DataFrame({"query": ["1", "1"], "docid": ["b", "c"], "score": [2, 1]})
    >>> evaluate(qrels, run, ["P_1", "recip_rank"]).frame[["metric", "value"]].to_numpy().tolist()
    [['P@1', 1.0], ['RR', 1.0]]
    """
    options = check_options(
        measures,
        relevance=relevance,
        depth=depth,
        missing_queries=missing_queries,
        average=average,
        per_query=per_query,
        trec_eval=trec_eval,
    )
    items = [runs] if isinstance(runs, Run | pd.DataFrame | str | Path) else list(runs)
    source = Path(qrels) if isinstance(qrels, str | Path) else _as_qrels(qrels)
    batch = Batch(source, _run_sources(items), options)
    (done,) = evaluate_batches([batch], jobs=jobs, progress=progress, scheduler=scheduler)
    result = to_results(done.values, done.queries, dataset=dataset)
    return result if per_query or average == "micro" else means(result)


def to_results(
    runs: Sequence[RunValues], queries: Sequence[str], *, dataset: str = ""
) -> ResultSet:
    """The per-query values of runs as a :class:`ResultSet` (``queries``: the qrels')."""
    names = np.asarray([*queries, "all"], dtype=object)  # index -1: "all" (micro)
    frames = []
    for v in runs:
        n_metrics, n_queries = v.values.shape
        frames.append(
            pd.DataFrame(
                {
                    "system": v.system,
                    "query": np.tile(names[v.query_index], n_metrics),
                    "metric": np.repeat(np.asarray(v.metrics, dtype=object), n_queries),
                    "value": v.values.reshape(-1),
                }
            )
        )
    frame = pd.concat(frames, ignore_index=True) if frames else _empty()
    frame.insert(0, "dataset", dataset)
    return ResultSet.from_frame(frame)


def means(results: ResultSet) -> ResultSet:
    """Macro average: one mean per (dataset, system, metric), query ``mean``."""
    table = results.means().reset_index()
    table = table.rename(columns={"mean": "value"}).drop(columns="n")
    table["query"] = MEAN_QUERY
    return ResultSet.from_frame(table)


def _as_qrels(qrels: Qrels | pd.DataFrame) -> Qrels:
    return qrels if isinstance(qrels, Qrels) else qrels_from_frame(qrels)


def _run_sources(items: Sequence[RunLike]) -> list[tuple[Path | Run, str]]:
    """Each run with its name; files are read by the job that evaluates them."""
    out: list[tuple[Path | Run, str]] = []
    for i, item in enumerate(items):
        if isinstance(item, Run):
            out.append((item, item.name))
        elif isinstance(item, pd.DataFrame):
            name = str(item.attrs.get("system", f"run{i}" if len(items) > 1 else "run"))
            out.append((run_from_frame(item, name=name), name))
        else:
            from irtables.loaders.trec_run import system_name

            out.append((Path(item), system_name(Path(item))))
    paths = [p if isinstance(p, Path) else f"the run object {n!r}" for p, n in out]
    check_run_names([name for _, name in out], paths=paths)
    return out


def _empty() -> pd.DataFrame:
    return pd.DataFrame({"system": [], "query": [], "metric": [], "value": []})
