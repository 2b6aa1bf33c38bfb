"""Table models built from results: Table 1, Table S1 per dataset, the ablation table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from irtables._lazy import lazy_exports
from irtables.errors import UnknownNameError, unknown_name_message

if TYPE_CHECKING:
    from irtables.config import Config
    from irtables.model import ResultSet
    from irtables.tables.build import TableSet, build_all
    from irtables.tables.layouts import Markers
    from irtables.tables.model import Cell, Column, Row, RowGroup, TableModel

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "irtables.tables.build": ("TableSet", "build_all"),
        "irtables.tables.layouts": ("Markers",),
        "irtables.tables.model": ("Cell", "Column", "Row", "RowGroup", "TableModel"),
    },
)

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
    markers: Markers | None = None,
) -> TableModel:
    """Build one table model.

    Examples
    --------
    >>> import pandas as pd
    >>> from irtables.model import ResultSet
    >>> rs = ResultSet.from_frame(pd.DataFrame({
    ...     "dataset": "d", "system": ["a", "a", "b", "b"], "query": ["1", "2", "1", "2"],
    ...     "metric": "AP", "value": [0.2, 0.4, 0.5, 0.5]}))
    >>> model = build_table(rs, "main")
    >>> [(r.label, r.cells[0].text, r.cells[0].best) for r in model.groups[0].rows]
    [('a', '0.300', False), ('b', '0.500', True)]
    """
    from irtables.config import Config
    from irtables.tables.layouts import build_ablation, build_k_breakdown, build_main

    cfg = config or Config()
    if layout == "main":
        return build_main(results, cfg, markers=markers)
    if layout == "k_breakdown":
        return build_k_breakdown(results, cfg, dataset or results.datasets()[0], markers=markers)
    if layout == "ablation":
        return build_ablation(results, cfg, markers=markers)
    raise UnknownNameError(unknown_name_message("layout", layout, LAYOUTS))


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
