"""Text outputs of ``irtables evaluate``: a tidy TSV, or trec_eval's own layout.

:func:`format_tsv` and :func:`format_trec_eval` write the per-query values of runs
(:class:`~irtables.evaluator.values.RunValues`) without building a frame: this is what
the command line prints. :func:`to_trec_eval` writes trec_eval's layout from a
:class:`~irtables.model.ResultSet`.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from irtables.measures import FAMILIES, parse_measure

if TYPE_CHECKING:
    import pandas as pd

    from irtables.evaluator.values import RunValues
    from irtables.model import ResultSet

TSV_HEADER = ("system", "query", "metric", "value")
#: The query of the rows that hold a mean over the queries.
MEAN_QUERY = "mean"


def trec_eval_name(metric: str, relevance: int = 1) -> str:
    """trec_eval's spelling of a canonical measure name, when trec_eval has the measure.

    ``relevance`` is the threshold trec_eval is told (``-l``): a name stating that
    threshold gets trec_eval's name, one stating another keeps its own.

    Examples
    --------
    >>> [trec_eval_name(m) for m in ("nDCG@10", "AP", "R@100", "IPrec@0.1", "RR@10")]
    ['ndcg_cut_10', 'map', 'recall_100', 'iprec_at_recall_0.10', 'RR@10']
    >>> trec_eval_name("AP(rel=2)", relevance=2), trec_eval_name("AP(rel=2)")
    ('map', 'AP(rel=2)')
    """
    m = parse_measure(metric)
    if m.rel is not None and m.rel != relevance:
        return m.name
    fam = FAMILIES.get(m.family)
    name = fam.trec_eval_name(m) if fam is not None and m.extra is None else None
    return name or m.name


def is_count(metric: str) -> bool:
    """Whether a metric's values are counts (summed over queries in the ``all`` line).

    Examples
    --------
    >>> is_count("num_rel_ret"), is_count("AP")
    (True, False)
    """
    m = parse_measure(metric)
    return m.extra is None and FAMILIES[m.family].count


def summary_values(
    results: ResultSet, *, complete_num_rel: dict[str, int] | None = None
) -> pd.DataFrame:
    """trec_eval's ``all`` line per (system, metric): sums for counts, means otherwise.

    ``complete_num_rel`` reproduces a quirk of trec_eval 9.0.8 with ``-c``: its ``all``
    value of ``num_rel`` counts the grades >= 1 of every judged query, whatever ``-l``.
    """
    import pandas as pd

    frame = results.frame
    rows = []
    for (system, metric), group in frame.groupby(["system", "metric"], observed=True, sort=False):
        values = group["value"].to_numpy(dtype=np.float64)
        total = 0.0
        for v in values:  # in query order, as trec_eval accumulates
            total += float(v)
        family = parse_measure(str(metric)).family
        if family == "NumRel" and complete_num_rel is not None:
            total = float(complete_num_rel[str(system)])
        value = total if is_count(str(metric)) else total / max(len(values), 1)
        rows.append((str(system), str(metric), value, len(values)))
    return pd.DataFrame(rows, columns=["system", "metric", "value", "n"])


def to_trec_eval(
    results: ResultSet,
    *,
    per_query: bool,
    runids: dict[str, str] | None = None,
    complete_num_rel: dict[str, int] | None = None,
) -> str:
    """trec_eval's layout: ``name<TAB>query<TAB>value``, per query (``-q``) then ``all``."""
    out = io.StringIO()
    summary = summary_values(results, complete_num_rel=complete_num_rel)
    frame = results.frame
    for system in results.systems():
        sub = frame[frame["system"] == system]
        if per_query:
            for query, qgroup in sub.groupby("query", observed=True, sort=False):
                for metric, value in zip(qgroup["metric"], qgroup["value"], strict=True):
                    out.write(_line(str(metric), str(query), float(value)))
        if runids is not None:
            out.write(f"{'runid':<22}\tall\t{runids.get(system, system)}\n")
        rows = summary[summary["system"] == system]
        if len(rows):
            out.write(f"{'num_q':<22}\tall\t{int(rows['n'].max())}\n")
        for metric, value in zip(rows["metric"], rows["value"], strict=True):
            out.write(_line(str(metric), "all", float(value)))
    return out.getvalue()


def _line(metric: str, query: str, value: float, relevance: int = 1) -> str:
    name, count = _trec_eval_label(metric, relevance)
    text = str(round(value)) if count else f"{value:.4f}"
    return f"{name}\t{query}\t{text}\n"


@lru_cache(maxsize=1024)
def _trec_eval_label(metric: str, relevance: int) -> tuple[str, bool]:
    """trec_eval's padded name of a metric, and whether its values are counts."""
    name = trec_eval_name(metric, relevance)
    return f"{name:<22}", is_count(metric)


def format_tsv(runs: Sequence[RunValues], queries: Sequence[str], *, per_query: bool) -> str:
    """Tidy TSV of the runs' values, with a header line ``system query metric value``
    (full float precision; ``per_query=False``: each metric's mean over
    queries, counts too, summed in query order as trec_eval does, as query ``mean``).

    ``queries`` are the qrels' queries, which ``RunValues.query_index`` points into.
    """
    names = [*queries, "all"]
    out = io.StringIO()
    out.write("\t".join(TSV_HEADER) + "\n")
    for v in runs:
        if per_query:
            labels = [names[i] for i in v.query_index.tolist()]
            for metric, row in zip(v.metrics, v.values.tolist(), strict=True):
                head = f"{v.system}\t"
                tail = f"\t{metric}\t"
                out.writelines(f"{head}{q}{tail}{x!r}\n" for q, x in zip(labels, row, strict=True))
            continue
        if not v.values.shape[1]:
            continue  # no query: no mean
        means = (_sums(v.values) / v.values.shape[1]).tolist()
        for metric, mean in zip(v.metrics, means, strict=True):
            out.write(f"{v.system}\t{MEAN_QUERY}\t{metric}\t{float(mean)!r}\n")
    return out.getvalue()


def format_trec_eval(
    runs: Sequence[RunValues],
    queries: Sequence[str],
    *,
    per_query: bool,
    complete: bool = False,
    per_query_missing: bool = False,
    relevance: int = 1,
) -> str:
    """:func:`to_trec_eval` of the runs' values: per-query lines (``-q``), then ``runid``,
    ``num_q`` and each metric's ``all`` line (sums for counts, means otherwise).

    With ``complete`` (``-c``), ``num_rel``'s ``all`` line counts the grades >= 1 of the
    whole qrels, and judged queries a run lacks get per-query lines only with
    ``per_query_missing`` (trec_eval 10; 9.0.8 prints none). ``relevance`` is trec_eval's
    ``-l``: measures at that threshold get trec_eval's names.
    """
    out = io.StringIO()
    for v in runs:
        n_queries = v.values.shape[1]
        if per_query:
            shown = v.retrieved | (per_query_missing or not complete)
            for j in np.flatnonzero(shown).tolist():
                query = queries[int(v.query_index[j])]
                for metric, value in zip(v.metrics, v.values[:, j].tolist(), strict=True):
                    out.write(_line(metric, query, value, relevance))
        out.write(f"{'runid':<22}\tall\t{v.runid}\n")
        if not n_queries or not v.metrics:
            continue
        out.write(f"{'num_q':<22}\tall\t{n_queries}\n")
        for metric, total in zip(v.metrics, _sums(v.values).tolist(), strict=True):
            family = parse_measure(metric).family
            if family == "NumRel" and complete:
                total = float(v.relevant_total)
            value = total if is_count(metric) else total / max(n_queries, 1)
            out.write(_line(metric, "all", value, relevance))
    return out.getvalue()


def _sums(values: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Each row's sum, added in column (query) order as trec_eval does (not pairwise)."""
    if values.shape[1] == 0:
        return np.zeros(values.shape[0])
    totals: npt.NDArray[np.float64] = np.cumsum(values, axis=1)[:, -1]
    return totals
