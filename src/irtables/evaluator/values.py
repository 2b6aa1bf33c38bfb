"""The per-query values of one run: what the evaluation of one (run, qrels) pair returns.

:func:`measure_run` computes them from a :class:`~irtables.evaluator.trec.Ranking`;
:class:`RunValues` holds them as plain arrays (no pandas: the command line formats them
directly, and a worker process sends them back cheaply). Warnings are returned as
``notes``, for the caller to emit: a worker's warnings would otherwise be lost.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from irtables.errors import InputError
from irtables.evaluator.ranking import FloatArray, Judged
from irtables.evaluator.trec import IntArray, JudgementIndex, Ranking, rank_run
from irtables.evaluator.versions import DEFAULT_TREC_EVAL, TrecEvalVersion
from irtables.measures import FAMILIES, Measure, at_threshold, compute_function, parse_measure
from irtables.model.runs import Run

MissingQueries = Literal["ignore", "zero"]
Average = Literal["macro", "micro"]
MICRO_FAMILIES = ("P", "R")


def _k(m: Measure) -> int:
    if m.k is None:
        raise InputError(f"measure {m.name} needs a cutoff")
    return m.k


def supported_families() -> tuple[str, ...]:
    """The measure families irtables evaluate computes (those whose record names a function)."""
    return tuple(name for name, f in FAMILIES.items() if f.compute is not None)


#: The families computed when this module was imported (the built-in ones); the records
#: decide: see :func:`supported_families`.
SUPPORTED_FAMILIES = supported_families()


def _compute(m: Measure) -> Callable[[Judged, Measure], FloatArray]:
    function = compute_function(m.family)
    if function is None:
        raise InputError(f"measure {m.name} is not computed by irtables evaluate")
    return function


@dataclass(frozen=True)
class Options:
    """How runs are evaluated: the measures and trec_eval's options.

    Built by :func:`check_options`, which validates everything once for all runs.
    """

    measures: tuple[Measure, ...]
    relevance: int = 1
    depth: int | None = None
    missing_queries: MissingQueries = "ignore"
    average: Average = "macro"
    trec_eval: TrecEvalVersion = DEFAULT_TREC_EVAL

    def describe(self) -> str:
        """A canonical one-line text of the options (part of a cache key)."""
        names = ",".join(m.name for m in self.measures)
        return (
            f"measures={names};l={self.relevance};M={self.depth};"
            f"missing={self.missing_queries};average={self.average};trec_eval={self.trec_eval}"
        )


@dataclass(frozen=True, eq=False)
class RunValues:
    """Per-query values of one run.

    ``values[i, j]`` is metric ``metrics[i]`` of query ``query_index[j]`` (an index into
    the qrels' sorted query list; -1 stands for ``all`` under micro averaging).
    ``retrieved[j]`` says whether the run has that query (with ``-c``, judged queries the
    run lacks are scored 0). ``relevant_total`` counts the grades >= 1 of the whole qrels
    (trec_eval's ``num_rel`` line under ``-c``); ``notes`` are the warnings to emit.
    """

    system: str
    runid: str
    query_index: IntArray
    retrieved: npt.NDArray[np.bool_]
    metrics: tuple[str, ...]
    values: npt.NDArray[np.float64]
    relevant_total: int
    notes: tuple[str, ...] = ()


def check_options(
    measures: str | Measure | Sequence[str | Measure],
    *,
    relevance: int = 1,
    depth: int | None = None,
    missing_queries: str = "ignore",
    average: str = "macro",
    per_query: bool = True,
    trec_eval: str = DEFAULT_TREC_EVAL,
) -> Options:
    """Validate the options of an evaluation; :class:`InputError` names what is wrong."""
    from irtables.evaluator.versions import trec_eval_version

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
    return Options(
        tuple(parsed),
        relevance,
        depth,
        "zero" if missing_queries == "zero" else "ignore",
        "micro" if average == "micro" else "macro",
        version,
    )


def measure_run(index: JudgementIndex, run: Run, options: Options) -> RunValues:
    """Rank one run as trec_eval does and compute every measure for every query."""
    ranking = rank_run(index, run, depth=options.depth, version=options.trec_eval)
    levels = sorted({options.relevance if m.rel is None else m.rel for m in options.measures})
    notes = _notes(run, index, ranking, options.missing_queries, levels)
    if options.average == "micro":
        return _micro(index, run, ranking, options, notes)
    views: dict[int, Judged] = {}
    rows = []
    queries = ranking.queries
    retrieved = np.ones(len(queries), dtype=np.bool_)
    absent = np.zeros(0, dtype=np.int64)
    if options.missing_queries == "zero":
        absent = np.setdiff1d(np.arange(index.n_queries), queries)
    for m in options.measures:
        level = options.relevance if m.rel is None else m.rel
        if level not in views:
            views[level] = Judged(ranking, index, level, options.trec_eval)
        rows.append(_compute(m)(views[level], m))
        if len(absent):
            rows[-1] = np.concatenate([rows[-1], _filled(index, level, m, absent)])
    if len(absent):
        order = np.argsort(np.concatenate([queries, absent]), kind="stable")
        queries = np.concatenate([queries, absent])[order]
        retrieved = np.concatenate([retrieved, np.zeros(len(absent), np.bool_)])[order]
        rows = [r[order] for r in rows]
    return RunValues(
        system=run.name,
        runid=run.runid,
        query_index=queries.astype(np.int64),
        retrieved=retrieved,
        metrics=tuple(m.name for m in options.measures),
        values=np.vstack(rows) if rows else np.zeros((0, len(queries))),
        relevant_total=index.relevant_total,
        notes=notes,
    )


def _micro(
    index: JudgementIndex, run: Run, ranking: Ranking, options: Options, notes: tuple[str, ...]
) -> RunValues:
    """Micro-averaged P@K and R@K of one run (query ``all``): pooled counts."""
    names, values = [], []
    missing = options.missing_queries
    for m in options.measures:
        level = options.relevance if m.rel is None else m.rel
        view = Judged(ranking, index, level, options.trec_eval)
        k = _k(m)
        found = int(view.count_at(k).sum())
        n_queries = index.n_queries if missing == "zero" else len(ranking.queries)
        if m.family == "P":
            den = k * n_queries
        else:
            judged_rows = index.grade >= max(view.level, 0)
            per_query = np.bincount(index.row_query[judged_rows], minlength=index.n_queries)
            den = int(per_query.sum() if missing == "zero" else per_query[ranking.queries].sum())
        names.append(f"{m.name} (micro)")
        values.append(found / den if den > 0 else 0.0)
    return RunValues(
        system=run.name,
        runid=run.runid,
        query_index=np.array([-1], dtype=np.int64),
        retrieved=np.ones(1, dtype=np.bool_),
        metrics=tuple(names),
        values=np.array(values, dtype=np.float64).reshape(len(values), 1),
        relevant_total=index.relevant_total,
        notes=notes,
    )


def _filled(index: JudgementIndex, level: int, m: Measure, absent: IntArray) -> FloatArray:
    """Values of judged queries the run lacks (``-c``): 0, except their relevant count."""
    if m.family != "NumRel":
        return np.zeros(len(absent))
    counts = np.bincount(index.row_query[index.grade >= level], minlength=index.n_queries)
    return counts[absent].astype(np.float64)


def _notes(
    run: Run, index: JudgementIndex, ranking: Ranking, missing: str, levels: Sequence[int]
) -> tuple[str, ...]:
    """The run's warnings, then the qrels' (the same for every run: emitted once)."""
    absent = index.n_queries - len(ranking.queries)
    notes = []
    if ranking.n_run_only:
        notes.append(f"{ranking.n_run_only} run queries are not in the qrels and are ignored")
    if absent and missing != "zero" and not len(ranking.queries):
        # Nothing is left to average: the run is in no mean, no table and no output.
        notes.append(
            f"none of the {absent} judged queries is in the run: it has no values and is "
            "left out of every mean and table (-c, complete = true: scored 0)"
        )
    elif absent:
        action = "scored 0 (-c)" if missing == "zero" else "left out of the mean"
        notes.append(f"{absent} judged queries are not in the run: {action}")
    top = index.top_grade
    of_qrels = tuple(
        f"no judgement in the qrels reaches relevance {level} (the highest grade is {top}): "
        "every measure that counts relevant documents at that level is 0"
        for level in levels
        if level > top
    )
    return ((f"{run.name}: " + "; ".join(notes),) if notes else ()) + of_qrels


def _measures(measures: str | Measure | Sequence[str | Measure], relevance: int) -> list[Measure]:
    """Parsed measures at the relevance threshold, which joins the names it changes."""
    items = [measures] if isinstance(measures, str | Measure) else list(measures)
    out: dict[Measure, None] = {}  # in order of first mention, each once
    for item in items:
        m = at_threshold(item if isinstance(item, Measure) else parse_measure(item), relevance)
        _compute(m)
        out.setdefault(m)
    if not out:
        raise InputError("no measure given")
    return list(out)
