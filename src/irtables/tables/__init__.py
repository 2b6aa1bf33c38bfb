"""Table models built from results: Table 1, Table S1 per dataset, the ablation table."""

from __future__ import annotations

from irtables.config import Config
from irtables.config_tables import TABLE_LAYOUTS, TableSpec
from irtables.errors import UnknownNameError, unknown_name_message
from irtables.model import ResultSet
from irtables.tables.build import TableSet, build_all
from irtables.tables.configured import build_configured
from irtables.tables.layouts import (
    Markers,
    build_ablation,
    build_k_breakdown,
    build_main,
    collect_means,
    missing_policy,
)
from irtables.tables.model import Cell, Column, ColumnGroup, Row, RowGroup, TableModel

LAYOUTS: dict[str, str] = dict(TABLE_LAYOUTS)


def build_table(
    results: ResultSet,
    layout: str = "main",
    *,
    config: Config | None = None,
    dataset: str | None = None,
    markers: Markers | None = None,
) -> TableModel:
    """Build one table model: of a layout, or of a ``[tables.<name>]`` section by its name.

    For a layout of :data:`LAYOUTS` other than main, k_breakdown and ablation, the first
    configured section with that layout is used (else its defaults).

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
    if layout == "main":
        return build_main(results, cfg, markers=markers)
    if layout == "k_breakdown":
        return build_k_breakdown(results, cfg, dataset or results.datasets()[0], markers=markers)
    if layout == "ablation":
        return build_ablation(results, cfg, markers=markers)
    named = next((s for s in cfg.tables if s.name == layout), None)
    if layout in LAYOUTS or named is not None:
        spec = named or next(
            (s for s in cfg.tables if s.layout == layout), TableSpec(layout, layout)
        )
        means = collect_means(results, cfg, missing=missing_policy(cfg))
        built = build_configured(results, cfg, spec, means, markers=markers)
        if dataset is not None:
            built = [t for t in built if t.name.endswith(f"-{dataset}")] or built
        return built[0]
    raise UnknownNameError(unknown_name_message("layout", layout, LAYOUTS))


__all__ = [
    "LAYOUTS",
    "Cell",
    "Column",
    "ColumnGroup",
    "Markers",
    "Row",
    "RowGroup",
    "TableModel",
    "TableSet",
    "build_all",
    "build_table",
]
