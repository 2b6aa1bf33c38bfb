"""Means over queries, checked for paired query sets within each dataset."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from irtables.model import MissingPolicy, ResultSet, distinct_keys
from irtables.model.layout import Layout

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class MeanCells:
    """The mean and query count of every (dataset, system, metric) present, in code order."""

    keys: list[tuple[str, str, str]]
    means: npt.NDArray[np.float64]
    counts: npt.NDArray[np.int64]


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
    >>> import pandas as pd
    >>> rs = ResultSet.from_frame(pd.DataFrame({"dataset": "d", "system": ["a", "a"],
    ...     "query": ["1", "2"], "metric": "AP", "value": [0.25, 0.5]}))
    >>> dataset_means(rs).to_dict("records")
    [{'dataset': 'd', 'system': 'a', 'metric': 'AP', 'mean': 0.375, 'n': 2}]
    """
    import pandas as pd

    cells = mean_cells(results, missing=missing)
    columns = [list(c) for c in zip(*cells.keys, strict=True)] or [[], [], []]
    return pd.DataFrame(
        {
            "dataset": np.asarray(columns[0], dtype=object),
            "system": np.asarray(columns[1], dtype=object),
            "metric": np.asarray(columns[2], dtype=object),
            "mean": cells.means,
            "n": cells.counts,
        }
    )


def mean_cells(results: ResultSet, *, missing: MissingPolicy = "error") -> MeanCells:
    """As :func:`dataset_means`, without a frame."""
    cats = {c: results.categories(c) for c in ("dataset", "system", "metric")}
    ns, nm = results.size("system"), results.size("metric")
    count3, total3 = results.cell_sums()
    count, total = count3.ravel(), total3.ravel()
    cells = np.flatnonzero(count)
    dd, rest = np.divmod(cells, ns * nm)
    ss, mm = np.divmod(rest, nm)
    keys = [
        (cats["dataset"][d], cats["system"][s], cats["metric"][m])
        for d, s, m in zip(dd.tolist(), ss.tolist(), mm.tolist(), strict=True)
    ]
    means = total[cells] / count[cells]
    counts = count[cells].astype(np.int64)
    ragged = _ragged_groups(results, count3)
    if ragged:
        where: dict[tuple[int, int], list[int]] = {}
        for i, (d, m) in enumerate(zip(dd.tolist(), mm.tolist(), strict=True)):
            if (d, m) in ragged:
                where.setdefault((d, m), []).append(i)
        for rows in sorted(where.values(), key=lambda rows: rows[0]):
            _fix_ragged(results, keys, means, counts, rows, missing)
    return MeanCells(keys, means, counts)


def _ragged_groups(results: ResultSet, count: npt.NDArray[np.int64]) -> set[tuple[int, int]]:
    """The (dataset, metric) codes whose systems hold different queries.

    When every system of a dataset holds the same queries and has either all or none of
    them for each metric, nothing is ragged (checked on the layout's blocks); otherwise
    the distinct queries of each (dataset, metric) are counted.
    """
    layout = results.layout
    nd, _, nm = count.shape
    if all(_complete(layout, count[d], d) for d in range(nd)):
        return set()
    n_queries = results.size("query")
    key, space = results.key("dataset", "metric", "query")
    union = np.bincount(distinct_keys(key, space) // n_queries, minlength=nd * nm)
    union = union.reshape(nd, nm)
    bad = ((count != union[:, None, :]) & (count > 0)).any(axis=1)
    return {(int(d), int(m)) for d, m in zip(*np.nonzero(bad), strict=True)}


def _complete(layout: Layout, count: npt.NDArray[np.int64], dataset: int) -> bool:
    """Whether the systems of one dataset (``count``: systems x metrics) hold the same
    queries, each metric for all of them or none."""
    ns = count.shape[0]
    spans = [
        (int(layout.block_start[b]), int(layout.block_start[b + 1]))
        for b in range(dataset * ns, dataset * ns + ns)
        if b + 1 < len(layout.block_start)
    ]
    spans = [(lo, hi) for lo, hi in spans if hi > lo]
    if not spans:
        return True
    first = layout.row_query[spans[0][0] : spans[0][1]]
    if not all(np.array_equal(layout.row_query[lo:hi], first) for lo, hi in spans[1:]):
        return False
    return bool(np.isin(count, (0, len(first))).all())


def _fix_ragged(
    results: ResultSet,
    keys: list[tuple[str, str, str]],
    means: npt.NDArray[np.float64],
    counts: npt.NDArray[np.int64],
    rows: list[int],
    missing: MissingPolicy,
) -> None:
    dataset, _, metric = keys[rows[0]]
    systems = [keys[i][1] for i in rows]
    aligned = results.aligned(dataset, metric, systems, missing=missing)
    empty = not aligned.queries
    values = np.full(len(systems), np.nan) if empty else aligned.values.mean(axis=0)
    for i, mean in zip(rows, values, strict=True):
        means[i] = float(mean)
        counts[i] = len(aligned.queries)


def seed_spread(
    seeds: pd.DataFrame | None,
) -> tuple[dict[tuple[str, str, str], tuple[float, int]], dict[tuple[str, str], int]]:
    """Standard deviation (ddof=1) of the per-seed means, and the seed count of each system.

    ``seeds`` has the columns ``dataset, system, seed, metric, mean``
    (:data:`~irtables.loaders.seeds.SEED_COLUMNS`). Returns ``{(dataset, system, metric):
    (std, n_seeds)}`` and ``{(dataset, system): n_seeds}``.

    Examples
    --------
    >>> import pandas as pd
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
