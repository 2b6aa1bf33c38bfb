"""Results from Python objects: pandas frames and per-query dicts, no files.

A tidy frame (``query, metric, value`` and optional ``system``, ``dataset``, ``seed``;
also spelled ``qid``, ``measure``, ...), PyTerrier's ``pt.Experiment(..., perquery=True)``
frame (``name, qid, measure, value``), pytrec_eval's ``{query: {metric: value}}`` and
ranx's ``{metric: {query: value}}``. Metric names are resolved and values checked as
for files; ``dataset`` and ``system`` fill in what the object does not say.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from irtables.base.numbers import numbers_from_column
from irtables.errors import InputError
from irtables.loaders.base import Parsed
from irtables.loaders.columns import is_index, tidy_roles
from irtables.loaders.json_dict import nested_frame
from irtables.loaders.normalize import finish
from irtables.loaders.seeds import average_seeds
from irtables.model import ResultSet
from irtables.model.factor import Factor, factors_frame


def results_from_object(
    data: pd.DataFrame | Mapping[str, object],
    *,
    dataset: str | None = None,
    system: str | None = None,
    source: str | None = None,
) -> ResultSet:
    """A :class:`ResultSet` from a frame or a per-query dict.

    Parameters
    ----------
    data
        A tidy or PyTerrier per-query frame, or a nested dict in pytrec_eval's or ranx's
        orientation.
    dataset, system
        Used where ``data`` has no such column (a dict never has).
    source
        How errors name the object (default ``<DataFrame>`` or ``<dict>``).

    Examples
    --------
    >>> rs = results_from_object({"q1": {"ndcg_cut_10": 0.5}, "q2": {"ndcg_cut_10": 0.25}},
    ...                          dataset="dl19", system="bm25")
    >>> rs.frame.values.tolist()
    [['dl19', 'bm25', 'q1', 'nDCG@10', 0.5], ['dl19', 'bm25', 'q2', 'nDCG@10', 0.25]]
    """
    if isinstance(data, pd.DataFrame):
        where = source or "<DataFrame>"
        frame = _tidy(data, where)
    elif isinstance(data, Mapping):
        where = source or "<dict>"
        frame = nested_frame(dict(data), where)
    else:
        raise InputError(
            f"expected a pandas DataFrame or a dict of per-query values, got {type(data).__name__}",
            path=source,
        )
    loaded = finish(Parsed(frame=frame), where, "frame")
    factors = dict(loaded.factors)
    for column, given in (("dataset", dataset), ("system", system)):
        if column not in factors:
            if given is None:
                raise InputError(
                    f"no {column} column: pass {column}=... for these results", path=where
                )
            factors[column] = Factor.constant(given, len(loaded.values))
    if "seed" in factors:
        out, seeds = average_seeds(factors_frame(factors, loaded.values), paths={})
        return _with_seeds(ResultSet.from_frame(out, source=where), seeds)
    # finish() checked that the file's key is unique; a constant column keeps it so
    return ResultSet.from_factors(factors, loaded.values, source=where, key_checked=True)


def _tidy(data: pd.DataFrame, where: str) -> pd.DataFrame:
    frame = data.reset_index(drop=True)
    roles = tidy_roles([str(c) for c in frame.columns], where, None)
    keep = {
        str(col): role
        for i, (col, role) in enumerate(zip(frame.columns, roles, strict=True))
        if role is not None and not is_index(str(col), i)
    }
    out = frame.loc[:, list(keep)].rename(columns=keep)
    for column in out.columns:
        if column != "value":
            out[column] = out[column].astype(str)
    # strings are read as every loader reads numbers ("0.2_5" is not one); finish()
    # names the query and metric of a value that is not finite
    out["value"] = numbers_from_column(
        out["value"], where, lambda row: None, "a number as value", finite=False
    )
    return out


def _with_seeds(results: ResultSet, seeds: pd.DataFrame) -> ResultSet:
    from dataclasses import replace

    return replace(results, seeds=seeds) if not seeds.empty else results
