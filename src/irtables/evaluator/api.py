"""``evaluate``: runs and qrels in, a :class:`ResultSet` of per-query values out."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Literal

import numpy as np
import pandas as pd

from irtables.errors import DataWarning, InputError
from irtables.evaluator.ranking import (
    FloatArray,
    Judged,
    average_precision,
    bpref,
    eleven_point,
    err,
    interpolated_precision,
    judged,
    ndcg,
    precision,
    r_precision,
    rbp,
    recall,
    reciprocal_rank,
    success,
)
from irtables.evaluator.trec import JudgementIndex, Ranking, index_qrels, rank_run
from irtables.evaluator.versions import DEFAULT_TREC_EVAL, TrecEvalVersion, trec_eval_version
from irtables.measures import Measure, at_threshold, parse_measure
from irtables.model import ResultSet
from irtables.model.runs import Qrels, Run, qrels_from_frame, run_from_frame

MissingQueries = Literal["ignore", "zero"]
Average = Literal["macro", "micro"]
Progress = Callable[[str, int, int], None]
MICRO_FAMILIES = ("P", "R")
QrelsLike = Qrels | pd.DataFrame | str | Path
RunLike = Run | pd.DataFrame | str | Path

_FAMILIES: dict[str, Callable[[Judged, Measure], FloatArray]] = {
    "P": lambda j, m: precision(j, _k(m)),
    "R": lambda j, m: recall(j, _k(m)),
    "Success": lambda j, m: success(j, _k(m)),
    "AP": lambda j, m: average_precision(j, m.k),
    "RR": lambda j, m: reciprocal_rank(j, m.k),
    "Rprec": lambda j, m: r_precision(j),
    "Bpref": lambda j, m: bpref(j),
    "nDCG": lambda j, m: ndcg(j, m.k),
    "nDCG_exp": lambda j, m: ndcg(j, m.k, exponential=True),
    "ERR": lambda j, m: err(j, _k(m), int(j.index.grade.max(initial=1))),
    "RBP": lambda j, m: rbp(j, 0.8 if m.param is None else m.param),
    "IPrec": lambda j, m: interpolated_precision(j, (m.param or 0.0,))[0],
    "11pt": lambda j, m: eleven_point(j),
    "Judged": lambda j, m: judged(j, _k(m)),
    "NumRet": lambda j, m: j.ranking.lengths.astype(np.float64),
    "NumRel": lambda j, m: j.num_rel.astype(np.float64),
    "NumRelRet": lambda j, m: j.num_rel_ret.astype(np.float64),
}
SUPPORTED_FAMILIES = tuple(_FAMILIES)


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
    progress: Progress | None = None,
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
    progress
        Called as ``progress(stage, done, total)``: ``("read <run>", bytes, bytes)``
        while a run file is read, ``("evaluate", runs done, runs)`` after each run.

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
    if relevance < 0:
        raise InputError(f"relevance threshold must be >= 0, got {relevance}")
    if depth is not None and depth < 1:
        raise InputError(f"depth must be >= 1, got {depth}")
    if missing_queries not in ("ignore", "zero"):
        raise InputError(f"missing_queries must be 'ignore' or 'zero', got {missing_queries!r}")
    if average not in ("macro", "micro"):
        raise InputError(f"average must be 'macro' or 'micro', got {average!r}")
    version = trec_eval_version(trec_eval)
    parsed = _measures(measures, relevance)
    if average == "micro":
        if per_query:
            raise InputError("micro averaging pools all queries: use per_query=False")
        other = [m.name for m in parsed if m.family not in MICRO_FAMILIES or m.k is None]
        if other:
            raise InputError(
                f"micro averaging is defined for P@K and R@K only, not {', '.join(other)}"
            )
    index = index_qrels(_as_qrels(qrels))  # parsed and indexed once for every run
    sources = _run_sources(runs)
    parts = []
    for done, load in enumerate(sources, start=1):
        run = load(progress)
        if average == "micro":
            parts.append(_micro_run(index, run, parsed, relevance, depth, missing_queries, version))
        else:
            parts.append(
                _evaluate_run(index, run, parsed, relevance, depth, missing_queries, version)
            )
        del run  # one run in memory at a time when runs are paths
        if progress is not None:
            progress("evaluate", done, len(sources))
    frame = pd.concat(parts, ignore_index=True) if parts else _empty()
    frame.insert(0, "dataset", dataset)
    result = ResultSet.from_frame(frame)
    return result if per_query or average == "micro" else means(result)


MEAN_QUERY = "mean"


def means(results: ResultSet) -> ResultSet:
    """Macro average: one mean per (dataset, system, metric), query ``mean``."""
    table = results.means().reset_index()
    table = table.rename(columns={"mean": "value"}).drop(columns="n")
    table["query"] = MEAN_QUERY
    return ResultSet.from_frame(table)


def _evaluate_run(
    index: JudgementIndex,
    run: Run,
    measures: list[Measure],
    relevance: int,
    depth: int | None,
    missing: MissingQueries,
    version: TrecEvalVersion,
) -> pd.DataFrame:
    ranking = rank_run(index, run, depth=depth, version=version)
    _report(run, index, ranking, missing)
    views: dict[int, Judged] = {}
    frames = []
    for m in measures:
        level = relevance if m.rel is None else m.rel
        if level not in views:
            views[level] = Judged(ranking, index, level, version)
        values = _FAMILIES[m.family](views[level], m)
        queries = ranking.queries
        if missing == "zero":
            queries, values = _fill_missing(index, views[level], m, queries, values)
        frames.append(
            pd.DataFrame(
                {
                    "system": run.name,
                    "query": np.asarray(index.queries, dtype=object)[queries],
                    "metric": m.name,
                    "value": values,
                }
            )
        )
    return pd.concat(frames, ignore_index=True) if frames else _empty()


def _micro_run(
    index: JudgementIndex,
    run: Run,
    measures: list[Measure],
    relevance: int,
    depth: int | None,
    missing: MissingQueries,
    version: TrecEvalVersion,
) -> pd.DataFrame:
    """Micro-averaged P@K and R@K of one run (query ``all``): pooled counts."""
    ranking = rank_run(index, run, depth=depth, version=version)
    _report(run, index, ranking, missing)
    names, values = [], []
    for m in measures:
        view = Judged(ranking, index, relevance if m.rel is None else m.rel, version)
        k = _k(m)
        found = int(view.count_at(k).sum())
        n_queries = index.n_queries if missing == "zero" else len(ranking.queries)
        if m.family == "P":
            den = k * n_queries
        else:
            judged = index.grade >= max(view.level, 0)
            per_query = np.bincount(index.row_query[judged], minlength=index.n_queries)
            den = int(per_query.sum() if missing == "zero" else per_query[ranking.queries].sum())
        names.append(f"{m.name} (micro)")
        values.append(found / den if den > 0 else 0.0)
    return pd.DataFrame({"system": run.name, "query": "all", "metric": names, "value": values})


def _fill_missing(
    index: JudgementIndex, view: Judged, m: Measure, queries: np.ndarray, values: FloatArray
) -> tuple[np.ndarray, FloatArray]:
    absent = np.setdiff1d(np.arange(index.n_queries), queries)
    if not len(absent):
        return queries, values
    fill = np.zeros(len(absent))
    if m.family == "NumRel":
        counts = np.bincount(index.row_query[index.grade >= view.level], minlength=index.n_queries)
        fill = counts[absent].astype(np.float64)
    all_q = np.concatenate([queries, absent])
    all_v = np.concatenate([values, fill])
    order = np.argsort(all_q, kind="stable")
    return all_q[order], all_v[order]


def _report(run: Run, index: JudgementIndex, ranking: Ranking, missing: str) -> None:
    absent = index.n_queries - len(ranking.queries)
    notes = []
    if ranking.n_run_only:
        notes.append(f"{ranking.n_run_only} run queries are not in the qrels and are ignored")
    if absent:
        action = "scored 0 (-c)" if missing == "zero" else "left out of the mean"
        notes.append(f"{absent} judged queries are not in the run: {action}")
    if notes:
        warnings.warn(f"{run.name}: " + "; ".join(notes), DataWarning, stacklevel=4)


def _measures(measures: str | Measure | Sequence[str | Measure], relevance: int) -> list[Measure]:
    """Parsed measures at the relevance threshold, which joins the names it changes."""
    items = [measures] if isinstance(measures, str | Measure) else list(measures)
    out: list[Measure] = []
    for item in items:
        m = at_threshold(item if isinstance(item, Measure) else parse_measure(item), relevance)
        if m.family not in _FAMILIES:
            raise InputError(f"measure {m.name} is not computed by irtables evaluate")
        if m not in out:
            out.append(m)
    if not out:
        raise InputError("no measure given")
    return out


def _k(m: Measure) -> int:
    if m.k is None:
        raise InputError(f"measure {m.name} needs a cutoff")
    return m.k


def _as_qrels(qrels: QrelsLike) -> Qrels:
    if isinstance(qrels, Qrels):
        return qrels
    if isinstance(qrels, pd.DataFrame):
        return qrels_from_frame(qrels)
    from irtables.loaders.qrels import read_qrels

    return read_qrels(qrels)


def _run_sources(runs: RunLike | Sequence[RunLike]) -> list[Callable[[Progress | None], Run]]:
    """One loader per run; files are read only when their turn comes."""
    items = [runs] if isinstance(runs, Run | pd.DataFrame | str | Path) else list(runs)
    names: list[str] = []
    out: list[Callable[[Progress | None], Run]] = []
    for i, item in enumerate(items):
        if isinstance(item, Run):
            names.append(item.name)
            out.append(partial(_given, item))
        elif isinstance(item, pd.DataFrame):
            name = str(item.attrs.get("system", f"run{i}" if len(items) > 1 else "run"))
            names.append(name)
            out.append(partial(_from_frame, item, name))
        else:
            from irtables.loaders.trec_run import system_name

            names.append(system_name(Path(item)))
            out.append(partial(_from_file, Path(item)))
    if len(set(names)) != len(names):
        raise InputError(f"two runs have the same name: {', '.join(names)}")
    return out


def _given(run: Run, progress: Progress | None) -> Run:
    return run


def _from_frame(frame: pd.DataFrame, name: str, progress: Progress | None) -> Run:
    return run_from_frame(frame, name=name)


def _from_file(path: Path, progress: Progress | None) -> Run:
    from irtables.loaders.trec_run import read_run

    return read_run(path, progress=progress)


def _empty() -> pd.DataFrame:
    return pd.DataFrame({"system": [], "query": [], "metric": [], "value": []})
