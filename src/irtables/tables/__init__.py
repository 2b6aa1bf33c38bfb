"""Table models built from results: Table 1, Table S1 per dataset, the ablation table."""

from __future__ import annotations

import warnings
from dataclasses import replace
from typing import TYPE_CHECKING

from irtables.base.lazy import lazy_exports
from irtables.config import Config
from irtables.config.reader import TomlReader
from irtables.config.tables import LAYOUTS as LAYOUT_RECORDS
from irtables.config.tables import TableSpec, parse_table_spec
from irtables.errors import (
    ConfigError,
    DroppedMetricWarning,
    IrtablesError,
    UnknownNameError,
    unknown_name_message,
)

if TYPE_CHECKING:
    from irtables.model import ResultSet
    from irtables.tables.build import TableSet, build_all
    from irtables.tables.layouts import Markers
    from irtables.tables.model import Cell, Column, ColumnGroup, Row, RowGroup, TableModel

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "irtables.tables.build": ("TableSet", "build_all"),
        "irtables.tables.layouts": ("Markers",),
        "irtables.tables.model": ("Cell", "Column", "ColumnGroup", "Row", "RowGroup", "TableModel"),
    },
)

#: Layout name -> what it shows (the records: :data:`irtables.config.tables.LAYOUTS`).
LAYOUTS: dict[str, str] = {name: layout.description for name, layout in LAYOUT_RECORDS.items()}


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
    output options (``decimals``, ``second_best``, ``seeds``) and the caption notes.
    ``render(table, fmt)`` is the file the command writes; for LaTeX, whose placement
    (``wide``, ``resize``) is an option of the output and not of the table, with
    ``latex=latex_options(config, table)`` (:mod:`irtables.render.latex`).

    Parameters
    ----------
    results
        Per-query results.
    layout
        ``"main"`` (Table 1), ``"k_breakdown"`` (Table S1 of ``dataset``, default the
        first), ``"ablation"`` (needs ``[tables.ablation]``), the name of a
        ``[tables.<name>]`` section, or another layout of :data:`LAYOUTS`: the first
        section with that layout, else one with its defaults (built as if configured).
    config
        The study configuration (default: :class:`Config` defaults).
    dataset
        The dataset of a table made per dataset (``k_breakdown``).

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
    from irtables.tables.build import build_all

    cfg = config or Config()
    spec = cfg.table(layout) or next((s for s in cfg.tables if s.layout == layout), None)
    if spec is None:  # a layout no section has: as if configured, with its defaults
        spec = _unconfigured(layout, cfg)
        cfg = replace(cfg, tables=(*cfg.tables, spec))
    datasets = results.datasets()
    target = dataset or (datasets[0] if datasets else "")
    if dataset is not None and dataset not in datasets:
        raise UnknownNameError(unknown_name_message("dataset", dataset, datasets))
    with warnings.catch_warnings():
        record = LAYOUT_RECORDS.get(spec.layout)
        if record is None or not record.dropped:  # Table 1 is built too (its tests share
            warnings.simplefilter("ignore", DroppedMetricWarning)  # corrections), not shown
        tables = build_all(results, cfg).tables
    found = [t for t in tables if cfg.spec_of(t.name) is spec]
    if spec.per_dataset:  # one table per dataset: the one of ``dataset``
        found = [t for t in found if t.datasets == (target,)]
    if not found:
        raise IrtablesError(
            f"no table {layout!r} for dataset {target}: it has no measure to show"
            if spec.per_dataset or dataset is not None
            else f"no table {layout!r} was built from these results"
        )
    return found[0]


def _unconfigured(layout: str, config: Config) -> TableSpec:
    """A section of ``layout`` with its defaults, named after it, for a layout the
    configuration has no section of."""
    if layout not in LAYOUT_RECORDS:
        known = [*LAYOUT_RECORDS, *(s.name for s in config.tables)]
        raise UnknownNameError(
            f"{unknown_name_message('table or layout', layout, known)}; "
            f"the configuration has {configured_tables(config)}"
        )
    try:
        return parse_table_spec(TomlReader("<defaults>"), layout, {"layout": layout})
    except ConfigError as e:  # a layout without defaults for a required key
        raise IrtablesError(
            f"no {layout} table is configured ([tables.{layout}]); "
            f"the configuration has {configured_tables(config)}"
        ) from e


def configured_tables(config: Config) -> str:
    """The tables a configuration makes, as sections: ``[tables.main] (main), ...``.

    Examples
    --------
    >>> configured_tables(Config())
    '[tables.main] (layout main), [tables.k_breakdown] (layout k_breakdown)'
    """
    return ", ".join(f"[tables.{s.name}] (layout {s.layout})" for s in config.tables)


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
