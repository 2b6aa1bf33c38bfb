"""95% confidence intervals of the means in table cells (``[compare] interval``).

Each cell's interval is the t interval of the mean over the queries of its dataset:
``mean ± t_{0.975, n-1} s / sqrt(n)``, with the queries the table's means use (the
missing-query policy applies). Shown as a half-width (``0.512 ± 0.021``) or as bounds
(``0.512 [0.491, 0.533]``).
"""

from __future__ import annotations

import math

import numpy as np

from irtables.model import MissingPolicy, ResultSet
from irtables.stats.effect import t_interval
from irtables.tables.numbers import format_number

LEVEL = 0.95
Key = tuple[str, str, str]  # (dataset, system, metric)


def mean_intervals(
    results: ResultSet, *, missing: MissingPolicy = "error", level: float = LEVEL
) -> dict[Key, tuple[float, float]]:
    """The t interval (low, high) of every (dataset, system, metric) mean with n >= 2.

    Examples
    --------
    >>> import pandas as pd
    >>> rs = ResultSet.from_frame(pd.DataFrame({"dataset": "d", "system": "a",
    ...     "query": ["1", "2", "3"], "metric": "AP", "value": [0.1, 0.3, 0.2]}))
    >>> low, high = mean_intervals(rs)["d", "a", "AP"]
    >>> round(low, 4), round(high, 4)
    (-0.0484, 0.4484)
    """
    out: dict[Key, tuple[float, float]] = {}
    count, _ = results.cell_sums()  # rows per (dataset, system, metric) code
    for dataset in results.datasets():
        d = results.code_of("dataset", dataset)
        systems = results.systems(dataset)
        codes = [results.code_of("system", s) for s in systems]
        for metric in results.metrics(dataset):
            rows = count[d, :, results.code_of("metric", metric)]
            have = [s for s, c in zip(systems, codes, strict=True) if rows[c]]
            aligned = results.aligned(dataset, metric, have, missing=missing)
            for j, system in enumerate(aligned.systems):
                ci = t_interval(np.asarray(aligned.values[:, j]), level)
                if ci is not None:
                    out[(dataset, system, metric)] = (ci.low, ci.high)
    return out


def interval_text(
    bounds: tuple[float, float], style: str, decimals: int, leading_zero: bool
) -> str:
    """``± 0.021`` (half-width) or ``[0.491, 0.533]`` (bounds), formatted like the means.

    Examples
    --------
    >>> interval_text((0.491, 0.533), "half-width", 3, True)
    '± 0.021'
    >>> interval_text((0.491, 0.533), "bounds", 3, False)
    '[.491, .533]'
    """
    if style == "half-width":
        half = (bounds[1] - bounds[0]) / 2
        return "± " + format_number(half, decimals, leading_zero=leading_zero)
    low, high = (format_number(b, decimals, leading_zero=leading_zero) for b in bounds)
    return f"[{low}, {high}]"


def interval_note(style: str) -> str:
    """The caption sentence that says what the interval in each cell is."""
    what = "± half-width of" if style == "half-width" else "Brackets:"
    percent = f"{math.floor(LEVEL * 100)}%"
    return (
        f"{what} the {percent} confidence interval of each mean over the queries (t distribution)."
    )
