"""Table models built from results: Table 1, Table S1 per dataset, the ablation table."""

from __future__ import annotations

import warnings

from irtables.config import Config
from irtables.errors import (
    DroppedMetricWarning,
    IrtablesError,
    UnknownNameError,
    unknown_name_message,
)
from irtables.model import ResultSet
from irtables.tables.build import TableSet, build_all
from irtables.tables.layouts import Markers
from irtables.tables.model import Cell, Column, Row, RowGroup, TableModel

LAYOUTS: dict[str, str] = {
    "main": "Table 1: datasets x systems, one column per metric",
    "k_breakdown": "Table S1: for one dataset, metric x system rows, one column per K",
    "ablation": "ablation: methods as rows, metrics as columns, a description column",
}


def build_table(
    results: ResultSet,
    layout: str = "main",
    *,
    config: Config | None = None,
    dataset: str | None = None,
) -> TableModel:
    """One table, exactly as ``irtables tables`` builds it.

    The table comes from :func:`build_all`, the code path of the command line: with the
    significance markers and their legend when ``[compare]`` names a baseline, the
    output options (``decimals``, ``second_best``, ``wide``, ``resize``, ``seeds``) and
    the caption notes. ``render(build_table(...), fmt)`` is the file the command writes.

    Parameters
    ----------
    results
        Per-query results.
    layout
        ``"main"`` (Table 1), ``"k_breakdown"`` (Table S1 of ``dataset``, default the
        first) or ``"ablation"`` (needs ``[tables.ablation]``).
    config
        The study configuration (default: :class:`Config` defaults).
    dataset
        The dataset of a ``k_breakdown`` table.

    Examples
    --------
    >>> import pandas as pd
    >>> rs = ResultSet.from_frame(pd.DataFrame({
    ...     "dataset": "d", "system": ["a", "a", "b", "b"], "query": ["1", "2", "1", "2"],
    ...     "metric": "AP", "value": [0.2, 0.4, 0.5, 0.5]}))
    >>> model = build_table(rs, "main")
    >>> [(r.label, r.cells[0].text, r.cells[0].best) for r in model.groups[0].rows]
    [('a', '0.300', False), ('b', '0.500', True)]
    """
    cfg = config or Config()
    if layout not in LAYOUTS:
        raise UnknownNameError(unknown_name_message("layout", layout, LAYOUTS))
    if layout == "ablation" and cfg.ablation is None:
        raise IrtablesError("no ablation table is configured ([tables.ablation])")
    datasets = results.datasets()
    target = dataset or (datasets[0] if datasets else "")
    if layout == "k_breakdown" and target not in datasets:
        raise UnknownNameError(unknown_name_message("dataset", target, datasets))
    name = {"main": "table1", "k_breakdown": f"tableS1-{target}", "ablation": "ablation"}
    with warnings.catch_warnings():
        if layout != "main":  # Table 1 is built (its tests share corrections), not shown
            warnings.simplefilter("ignore", DroppedMetricWarning)
        tables = build_all(results, cfg).tables
    for table in tables:
        if table.name == name[layout]:
            return table
    raise IrtablesError(f"dataset {target} has no measure at any K of tables.k_breakdown.k")


__all__ = [
    "LAYOUTS",
    "Cell",
    "Column",
    "Markers",
    "Row",
    "RowGroup",
    "TableModel",
    "TableSet",
    "build_all",
    "build_table",
]
