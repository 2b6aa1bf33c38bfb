"""Text outputs of ``irtables evaluate``: a tidy TSV, or trec_eval's own layout."""

from __future__ import annotations

import io
from collections.abc import Callable, Collection, Mapping

import numpy as np
import pandas as pd

from irtables.measures import Measure, parse_measure
from irtables.model import ResultSet

TSV_HEADER = ("system", "query", "metric", "value")
COUNT_FAMILIES = frozenset({"NumRet", "NumRel", "NumRelRet"})


def to_tsv(results: ResultSet) -> str:
    """Tidy TSV with a header line ``system query metric value`` (full float precision).

    Examples
    --------
    >>> import pandas as pd
    >>> rs = ResultSet.from_frame(pd.DataFrame({"dataset": [""], "system": ["bm25"],
    ...     "query": ["1"], "metric": ["P@10"], "value": [0.3]}))
    >>> print(to_tsv(rs).replace("\\t", " | "), end="")
    system | query | metric | value
    bm25 | 1 | P@10 | 0.3
    """
    frame = results.frame
    out = io.StringIO()
    out.write("\t".join(TSV_HEADER) + "\n")
    for system, query, metric, value in zip(
        frame["system"].astype(str),
        frame["query"].astype(str),
        frame["metric"].astype(str),
        frame["value"],
        strict=True,
    ):
        out.write(f"{system}\t{query}\t{metric}\t{float(value)!r}\n")
    return out.getvalue()


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
    return _TREC_NAMES.get(m.family, _no_name)(m) or m.name


def _no_name(m: Measure) -> str | None:
    return None


_TREC_NAMES: dict[str, Callable[[Measure], str | None]] = {
    "P": lambda m: f"P_{m.k}",
    "R": lambda m: f"recall_{m.k}",
    "nDCG": lambda m: "ndcg" if m.k is None else f"ndcg_cut_{m.k}",
    "AP": lambda m: "map" if m.k is None else f"map_cut_{m.k}",
    "RR": lambda m: "recip_rank" if m.k is None else None,
    "Rprec": lambda m: "Rprec",
    "Bpref": lambda m: "bpref",
    "Success": lambda m: f"success_{m.k}",
    "IPrec": lambda m: f"iprec_at_recall_{m.param or 0.0:.2f}",
    "11pt": lambda m: "11pt_avg",
    "NumRet": lambda m: "num_ret",
    "NumRel": lambda m: "num_rel",
    "NumRelRet": lambda m: "num_rel_ret",
}


def summary_values(
    results: ResultSet, *, complete_num_rel: dict[str, int] | None = None
) -> pd.DataFrame:
    """trec_eval's ``all`` line per (system, metric): sums for counts, means otherwise.

    ``complete_num_rel`` reproduces a quirk of trec_eval 9.0.8 with ``-c``: its ``all``
    value of ``num_rel`` counts the grades >= 1 of every judged query, whatever ``-l``.
    """
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
        value = total if family in COUNT_FAMILIES else total / max(len(values), 1)
        rows.append((str(system), str(metric), value, len(values)))
    return pd.DataFrame(rows, columns=["system", "metric", "value", "n"])


def to_trec_eval(
    results: ResultSet,
    *,
    per_query: bool,
    runids: dict[str, str] | None = None,
    complete_num_rel: dict[str, int] | None = None,
    unprinted: Mapping[str, Collection[str]] | None = None,
    relevance: int = 1,
) -> str:
    """trec_eval's layout: ``name<TAB>query<TAB>value``, per query (``-q``) then ``all``.

    ``unprinted`` names, per system, queries that count in ``all`` but get no per-query
    lines: trec_eval 9.0.8 with ``-c`` prints none for a judged query the run lacks.
    ``relevance`` is trec_eval's ``-l``: measures at that threshold get trec_eval's names.
    """
    out = io.StringIO()
    summary = summary_values(results, complete_num_rel=complete_num_rel)
    frame = results.frame
    for system in results.systems():
        sub = frame[frame["system"] == system]
        hidden = set(unprinted.get(system, ())) if unprinted is not None else set()
        if per_query:
            for query, qgroup in sub.groupby("query", observed=True, sort=False):
                if query in hidden:
                    continue
                for metric, value in zip(qgroup["metric"], qgroup["value"], strict=True):
                    out.write(_line(str(metric), str(query), float(value), relevance))
        if runids is not None:
            out.write(f"{'runid':<22}\tall\t{runids.get(system, system)}\n")
        rows = summary[summary["system"] == system]
        if len(rows):
            out.write(f"{'num_q':<22}\tall\t{int(rows['n'].max())}\n")
        for metric, value in zip(rows["metric"], rows["value"], strict=True):
            out.write(_line(str(metric), "all", float(value), relevance))
    return out.getvalue()


def _line(metric: str, query: str, value: float, relevance: int) -> str:
    name = trec_eval_name(metric, relevance)
    family = parse_measure(metric).family
    text = str(round(value)) if family in COUNT_FAMILIES else f"{value:.4f}"
    return f"{name:<22}\t{query}\t{text}\n"
