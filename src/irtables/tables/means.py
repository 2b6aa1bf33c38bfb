"""Means over queries, checked for paired query sets within each dataset."""

from __future__ import annotations

import pandas as pd

from irtables.model import MissingPolicy, ResultSet


def dataset_means(results: ResultSet, *, missing: MissingPolicy = "error") -> pd.DataFrame:
    """Mean of every (dataset, system, metric) over the queries of its dataset.

    Systems of one dataset must cover the same queries for a metric, so that the means in
    a table row are comparable. When they do not, ``missing`` decides: ``error`` raises
    :class:`~irtables.errors.QueryMismatchError` naming the queries; ``intersect`` and
    ``zero`` recompute those means over the common queries or with missing values scored
    0, and warn with what they did.

    Returns a frame with columns ``dataset, system, metric, mean, n``.
    """
    frame = results.frame
    stats = (
        frame.groupby(["dataset", "system", "metric"], observed=True, sort=False)["value"]
        .agg(["mean", "count"])
        .rename(columns={"count": "n"})
        .reset_index()
    )
    union = (
        frame.groupby(["dataset", "metric"], observed=True, sort=False)["query"]
        .nunique()
        .rename("n_union")
        .reset_index()
    )
    stats = stats.merge(union, on=["dataset", "metric"], how="left")
    ragged = stats.loc[stats["n"] != stats["n_union"], ["dataset", "metric"]].drop_duplicates()
    for dataset, metric in ragged.itertuples(index=False):
        _fix_ragged(results, stats, str(dataset), str(metric), missing)
    for col in ("dataset", "system", "metric"):
        stats[col] = stats[col].astype(str)
    return stats.drop(columns="n_union")


def _fix_ragged(
    results: ResultSet, stats: pd.DataFrame, dataset: str, metric: str, missing: MissingPolicy
) -> None:
    where = (stats["dataset"].astype(str) == dataset) & (stats["metric"].astype(str) == metric)
    systems = [str(s) for s in stats.loc[where, "system"]]
    aligned = results.aligned(dataset, metric, systems, missing=missing)
    means = aligned.values.mean(axis=0) if len(aligned.queries) else [float("nan")] * len(systems)
    for system, mean in zip(systems, means, strict=True):
        row = where & (stats["system"].astype(str) == system)
        stats.loc[row, "mean"] = float(mean)
        stats.loc[row, "n"] = len(aligned.queries)
