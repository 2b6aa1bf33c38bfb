"""Means over queries, checked for paired query sets within each dataset."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pandas as pd

from irtables.model import MissingPolicy, ResultSet, distinct_keys


def dataset_means(results: ResultSet, *, missing: MissingPolicy = "error") -> pd.DataFrame:
    """Mean of every (dataset, system, metric) over the queries of its dataset.

    Systems of one dataset must cover the same queries for a metric, so that the means in
    a table row are comparable. When they do not, ``missing`` decides: ``error`` raises
    :class:`~irtables.errors.QueryMismatchError` naming the queries; ``intersect`` and
    ``zero`` recompute those means over the common queries or with missing values scored
    0, and warn with what they did.

    Returns a frame with columns ``dataset, system, metric, mean, n``, in code order.

    Examples
    --------
    >>> rs = ResultSet.from_frame(pd.DataFrame({"dataset": "d", "system": ["a", "a"],
    ...     "query": ["1", "2"], "metric": "AP", "value": [0.25, 0.5]}))
    >>> dataset_means(rs).to_dict("records")
    [{'dataset': 'd', 'system': 'a', 'metric': 'AP', 'mean': 0.375, 'n': 2}]
    """
    frame = results.frame
    cats = {c: frame[c].cat.categories for c in ("dataset", "system", "metric", "query")}
    nd, ns, nm = (max(len(cats[c]), 1) for c in ("dataset", "system", "metric"))
    n_queries = max(len(cats["query"]), 1)
    dsm, _ = results.key("dataset", "system", "metric")
    count = np.bincount(dsm, minlength=nd * ns * nm)
    total = np.bincount(dsm, weights=frame["value"].to_numpy(), minlength=nd * ns * nm)
    del dsm
    union = _union_sizes(results, nd * nm, n_queries)
    cells = np.flatnonzero(count)
    dd, rest = np.divmod(cells, ns * nm)
    ss, mm = np.divmod(rest, nm)
    out = pd.DataFrame(
        {
            "dataset": np.asarray(cats["dataset"], dtype=object)[dd],
            "system": np.asarray(cats["system"], dtype=object)[ss],
            "metric": np.asarray(cats["metric"], dtype=object)[mm],
            "mean": total[cells] / count[cells],
            "n": count[cells],
        }
    )
    ragged = out.loc[count[cells] != union[dd * nm + mm], ["dataset", "metric"]]
    for dataset, metric in ragged.drop_duplicates().itertuples(index=False):
        _fix_ragged(results, out, str(dataset), str(metric), missing)
    return out


def seed_spread(
    seeds: pd.DataFrame | None,
) -> tuple[dict[tuple[str, str, str], tuple[float, int]], dict[tuple[str, str], int]]:
    """Standard deviation (ddof=1) of the per-seed means, and the seed count of each system.

    ``seeds`` has the columns ``dataset, system, seed, metric, mean``
    (:data:`~irtables.loaders.seeds.SEED_COLUMNS`). Returns ``{(dataset, system, metric):
    (std, n_seeds)}`` and ``{(dataset, system): n_seeds}``.

    Examples
    --------
    >>> seeds = pd.DataFrame({"dataset": "d", "system": "s", "seed": ["1", "2"],
    ...     "metric": "AP", "mean": [0.5, 0.7]})
    >>> spread, runs = seed_spread(seeds)
    >>> round(spread["d", "s", "AP"][0], 4), runs
    (0.1414, {('d', 's'): 2})
    """
    if seeds is None or seeds.empty:
        return {}, {}
    stats = seeds.groupby(["dataset", "system", "metric"], sort=False)["mean"].agg(["std", "count"])
    spread = {
        (str(d), str(s), str(m)): (float(std), int(n))
        for (d, s, m), std, n in zip(stats.index, stats["std"], stats["count"], strict=True)
    }
    per_system = seeds.groupby(["dataset", "system"], sort=False)["seed"].nunique()
    runs = {
        (str(key[0]), str(key[1])): int(n)
        for key, n in zip(per_system.index, per_system.to_numpy(), strict=True)
    }
    return spread, runs


def _union_sizes(results: ResultSet, n_groups: int, n_queries: int) -> npt.NDArray[np.int64]:
    """Number of distinct queries in each (dataset, metric) group."""
    key, space = results.key("dataset", "metric", "query")
    distinct = distinct_keys(key, space) // n_queries
    return np.bincount(distinct, minlength=n_groups).astype(np.int64)


def _fix_ragged(
    results: ResultSet, stats: pd.DataFrame, dataset: str, metric: str, missing: MissingPolicy
) -> None:
    where = (stats["dataset"] == dataset) & (stats["metric"] == metric)
    systems = [str(x) for x in stats.loc[where, "system"]]
    aligned = results.aligned(dataset, metric, systems, missing=missing)
    empty = not aligned.queries
    means = np.full(len(systems), np.nan) if empty else aligned.values.mean(axis=0)
    for system, mean in zip(systems, means, strict=True):
        row = where & (stats["system"] == system)
        stats.loc[row, "mean"] = float(mean)
        stats.loc[row, "n"] = len(aligned.queries)
