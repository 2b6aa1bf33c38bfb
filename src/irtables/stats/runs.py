"""Several runs per system (seeds, folds): average them per query before testing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from irtables.errors import QueryMismatchError, UnknownNameError, unknown_name_message
from irtables.model import COLUMNS, ResultSet


def average_runs(results: ResultSet, runs: Mapping[str, Sequence[str]]) -> ResultSet:
    """Replace each group of runs by one system whose value is the per-query mean.

    ``runs`` maps the new system name to its runs; other systems are kept. Every run of a
    group must cover the same queries, else :class:`QueryMismatchError` names one.

    Examples
    --------
    >>> rs = ResultSet.from_frame(pd.DataFrame({
    ...     "dataset": "d", "metric": "AP", "query": ["1", "1", "1"],
    ...     "system": ["bm25", "dense-s1", "dense-s2"], "value": [0.2, 0.4, 0.6]}))
    >>> avg = average_runs(rs, {"dense": ["dense-s1", "dense-s2"]})
    >>> avg.systems(), round(float(avg.frame["value"].iloc[1]), 4)
    (('bm25', 'dense'), 0.5)
    """
    frame = results.frame.astype(dict.fromkeys(COLUMNS[:4], str))
    known = set(frame["system"])
    rename = {}
    for group, members in runs.items():
        for run in members:
            if run not in known:
                raise UnknownNameError(unknown_name_message(f"run of {group}", run, known))
            rename[run] = group
    grouped = frame["system"].isin(list(rename))
    part = frame[grouped].assign(system=frame.loc[grouped, "system"].map(rename))
    keys = ["dataset", "system", "query", "metric"]
    agg = part.groupby(keys, sort=False)["value"].agg(["mean", "count"]).reset_index()
    sizes = agg["system"].map({g: len(m) for g, m in runs.items()})
    short = agg[agg["count"] != sizes]
    if len(short):
        row = short.iloc[0]
        raise QueryMismatchError(
            f"runs of {row['system']} differ in queries: {row['query']} ({row['metric']}, "
            f"{row['dataset']}) is in {row['count']} of {len(runs[row['system']])} runs"
        )
    merged = agg.drop(columns="count").rename(columns={"mean": "value"})
    return ResultSet.from_frame(pd.concat([frame[~grouped], merged], ignore_index=True))
