"""Several runs per system (seeds or folds): the per-query mean over the runs.

A system's runs come from a system folder (``<dataset>/<system>/<seed>.<ext>``) or from
a ``seed`` (or ``fold``) column. Every run of a system must hold the same queries and
metrics; the system's value for a query is then the mean over its runs, and the mean
over queries of each run is kept (:data:`SEED_COLUMNS`) for the spread in the tables.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt
import pandas as pd

from irtables.errors import InputError
from irtables.model import COLUMNS

#: Columns of the per-run means: the mean over queries of each run with >= 2 runs.
SEED_COLUMNS = ("dataset", "system", "seed", "metric", "mean")
_KEYS = ("dataset", "system", "query", "metric")


def no_seeds() -> pd.DataFrame:
    """An empty frame of per-run means.

    Examples
    --------
    >>> list(no_seeds().columns)
    ['dataset', 'system', 'seed', 'metric', 'mean']
    """
    return pd.DataFrame(
        {c: pd.Series([], dtype=float if c == "mean" else object) for c in SEED_COLUMNS}
    )


def average_seeds(
    frame: pd.DataFrame, *, paths: Mapping[tuple[str, str, str], str] | None = None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Replace the runs of each system by their per-query mean.

    Parameters
    ----------
    frame
        Categorical ``dataset, system, seed, query, metric`` and float ``value``; a row
        without a seed (missing ``seed``) belongs to a system with a single run.
    paths
        The file of each (dataset, system, seed), to name it in errors.

    Returns
    -------
    tidy, seeds
        The tidy frame (:data:`~irtables.model.COLUMNS`, same categories) and, for systems
        with at least two runs, the mean over queries of every run (:data:`SEED_COLUMNS`).

    Raises
    ------
    InputError
        When a run lacks a query or metric that another run of its system has, when a
        (query, metric) repeats within a run, or when a system mixes rows with and
        without a seed.

    Examples
    --------
    >>> f = pd.DataFrame({"dataset": "d", "system": "s", "seed": ["1", "2"],
    ...     "query": "q", "metric": "AP", "value": [0.25, 0.75]}).astype("category")
    >>> f["value"] = f["value"].astype(float)
    >>> tidy, seeds = average_seeds(f)
    >>> tidy["value"].tolist(), seeds["mean"].tolist()
    ([0.5], [0.25, 0.75])
    """
    seed = frame["seed"].cat.codes.to_numpy()
    seeded = seed >= 0
    codes = {c: frame[c].cat.codes.to_numpy().astype(np.int64) for c in _KEYS}
    sizes = {c: max(len(frame[c].cat.categories), 1) for c in (*_KEYS, "seed")}
    group = codes["dataset"] * sizes["system"] + codes["system"]
    _check_not_mixed(frame, group, seeded)
    sub = {c: v[seeded] for c, v in codes.items()}
    run = group[seeded] * sizes["seed"] + seed[seeded]
    cell = (group[seeded] * sizes["query"] + sub["query"]) * sizes["metric"] + sub["metric"]
    values = frame["value"].to_numpy()[seeded]
    _check_unique_in_runs(frame, seeded, cell * sizes["seed"] + seed[seeded], paths)
    unique_runs = np.unique(run)
    runs_per_group = np.bincount(unique_runs // sizes["seed"], minlength=int(group.max()) + 1)
    cells, inverse, counts = np.unique(cell, return_inverse=True, return_counts=True)
    per_cell = sizes["query"] * sizes["metric"]
    short = counts != runs_per_group[cells // per_cell]
    if short.any():
        bad = int(cells[np.argmax(short)] // per_cell)
        raise _missing_error(frame[seeded & (group == bad)], paths)
    means = np.bincount(inverse, weights=values) / counts
    tidy = _tidy(frame, ~seeded, cells, means, sizes)
    seeds = _run_means(frame, run, sub["metric"], values, runs_per_group, sizes)
    return tidy, seeds


def _check_not_mixed(
    frame: pd.DataFrame, group: npt.NDArray[np.int64], seeded: npt.NDArray[np.bool_]
) -> None:
    both = np.intersect1d(group[seeded], group[~seeded])
    if len(both):
        row = frame.iloc[int(np.flatnonzero(group == both[0])[0])]
        raise InputError(
            f"system {row['system']} of dataset {row['dataset']} has rows with and without "
            "a seed; give every run its own seed (a file in the system folder or a seed column)"
        )


def _check_unique_in_runs(
    frame: pd.DataFrame,
    seeded: npt.NDArray[np.bool_],
    key: npt.NDArray[np.int64],
    paths: Mapping[tuple[str, str, str], str] | None,
) -> None:
    order = np.argsort(key, kind="stable")
    repeats = np.flatnonzero(key[order][1:] == key[order][:-1])
    if not len(repeats):
        return
    row = frame.iloc[int(np.flatnonzero(seeded)[order[repeats[0] + 1]])]
    where = (str(row["dataset"]), str(row["system"]), str(row["seed"]))
    raise InputError(
        f"query {row['query']} has metric {row['metric']} more than once in seed {row['seed']} "
        f"(system {row['system']}, dataset {row['dataset']})",
        path=(paths or {}).get(where),
    )


def _missing_error(
    rows: pd.DataFrame, paths: Mapping[tuple[str, str, str], str] | None
) -> InputError:
    """Name the first run of a system that lacks a query or metric of its other runs."""
    rows = rows.astype(dict.fromkeys(("dataset", "system", "seed", "query", "metric"), str))
    pairs = set(zip(rows["query"], rows["metric"], strict=True))
    metrics = set(rows["metric"])
    dataset, system = rows["dataset"].iloc[0], rows["system"].iloc[0]
    for seed, own in rows.groupby("seed", sort=True):
        lacking = pairs - set(zip(own["query"], own["metric"], strict=True))
        if not lacking:
            continue
        gone = sorted(metrics - set(own["metric"]))
        if gone:
            what = f"metric(s) {', '.join(gone)}"
        else:
            queries = sorted({q for q, _ in lacking})
            shown = ", ".join(queries[:5]) + (
                f", ... ({len(queries) - 5} more)" if len(queries) > 5 else ""
            )
            what = f"{len(queries)} {'query' if len(queries) == 1 else 'queries'}: {shown}"
        return InputError(
            f"seed {seed} of system {system} (dataset {dataset}) lacks {what} that other seeds "
            "have; every seed must cover the same queries and metrics",
            path=(paths or {}).get((dataset, system, str(seed))),
        )
    return InputError(f"the seeds of system {system} (dataset {dataset}) differ in queries")


def _tidy(
    frame: pd.DataFrame,
    plain: npt.NDArray[np.bool_],
    cells: npt.NDArray[np.int64],
    means: npt.NDArray[np.float64],
    sizes: Mapping[str, int],
) -> pd.DataFrame:
    """Rows without seeds followed by the averaged cells, on the frame's categories."""
    group, rest = np.divmod(cells, sizes["query"] * sizes["metric"])
    decoded = dict(zip(("dataset", "system"), np.divmod(group, sizes["system"]), strict=True))
    decoded.update(zip(("query", "metric"), np.divmod(rest, sizes["metric"]), strict=True))
    columns: dict[str, object] = {}
    for c in _KEYS:
        own = frame[c].cat.codes.to_numpy()[plain]
        joined = np.concatenate([own.astype(np.int64), decoded[c]])
        columns[c] = pd.Categorical.from_codes(joined, categories=frame[c].cat.categories)
    columns["value"] = np.concatenate([frame["value"].to_numpy()[plain], means])
    return pd.DataFrame(columns)[list(COLUMNS)]


def _run_means(
    frame: pd.DataFrame,
    run: npt.NDArray[np.int64],
    metric: npt.NDArray[np.int64],
    values: npt.NDArray[np.float64],
    runs_per_group: npt.NDArray[np.int64],
    sizes: Mapping[str, int],
) -> pd.DataFrame:
    """Mean over queries of every run of the systems with at least two runs."""
    keys, inverse, counts = np.unique(
        run * sizes["metric"] + metric, return_inverse=True, return_counts=True
    )
    means = np.bincount(inverse, weights=values) / counts
    run_of, metric_of = np.divmod(keys, sizes["metric"])
    group, seed = np.divmod(run_of, sizes["seed"])
    keep = runs_per_group[group] >= 2
    dataset, system = np.divmod(group[keep], sizes["system"])
    names = {c: np.asarray(frame[c].cat.categories, dtype=object) for c in SEED_COLUMNS[:4]}
    return pd.DataFrame(
        {
            "dataset": names["dataset"][dataset],
            "system": names["system"][system],
            "seed": names["seed"][seed[keep]],
            "metric": names["metric"][metric_of[keep]],
            "mean": means[keep],
        }
    )
