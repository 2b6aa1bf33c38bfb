"""Table models built from results: Table 1, Table S1 per dataset, the ablation table."""

from __future__ import annotations

import warnings
from dataclasses import replace
from typing import TYPE_CHECKING

from irtables.base.lazy import lazy_exports
from irtables.config import Config
from irtables.config.tables import LAYOUTS as LAYOUT_RECORDS
from irtables.config.tables import TableSpec
from irtables.errors import (
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
BUILT_IN = ("main", "k_breakdown", "ablation")


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
    named = next((s for s in cfg.tables if s.name == layout), None)
    if named is None and layout not in LAYOUTS:
        known = [*LAYOUTS, *(s.name for s in cfg.tables)]
        raise UnknownNameError(
            f"{unknown_name_message('table or layout', layout, known)}; "
            f"the configuration has {configured_tables(cfg)}"
        )
    if layout == "ablation" and cfg.ablation is None:
        raise IrtablesError(
            "no ablation table is configured ([tables.ablation]); "
            f"the configuration has {configured_tables(cfg)}"
        )
    datasets = results.datasets()
    target = dataset or (datasets[0] if datasets else "")
    if dataset is not None and dataset not in datasets:
        raise UnknownNameError(unknown_name_message("dataset", dataset, datasets))
    if named is None and layout not in BUILT_IN:
        named = next((s for s in cfg.tables if s.layout == layout), None)
        if named is None:  # not configured: as if it were, with its defaults
            named = TableSpec(layout, layout)
            cfg = replace(cfg, tables=(*cfg.tables, named))
    if named is not None:  # one table named after the section, or one per dataset
        stem = "table1" if named.name == "main" else named.name
    else:
        stem = {"main": "table1", "k_breakdown": "tableS1"}.get(layout, "ablation")
    with warnings.catch_warnings():
        if stem != "table1":  # Table 1 is built (its tests share corrections), not shown
            warnings.simplefilter("ignore", DroppedMetricWarning)
        tables = build_all(results, cfg).tables
    if named is None and layout == "k_breakdown":  # its file name holds the dataset's slug
        found = [t for t in tables if _is_table_s1(t, target)]
    else:
        found = [t for t in tables if t.name == stem or _of_dataset(t.name, stem, dataset)]
    if not found:
        raise IrtablesError(
            f"no table {layout!r} for dataset {target}: it has no measure to show"
            if layout == "k_breakdown" or dataset is not None
            else f"no table {layout!r} was built from these results"
        )
    return found[0]


def configured_tables(config: Config) -> str:
    """The tables a configuration makes, as sections: ``[tables.main] (main), ...``.

    Examples
    --------
    >>> configured_tables(Config())
    '[tables.main] (layout main), [tables.k_breakdown] (layout k_breakdown)'
    """
    out = [] if config.custom_main else [("main", "main")]
    out.append(("k_breakdown", "k_breakdown"))
    if config.ablation is not None:
        out.append(("ablation", "ablation"))
    out.extend((s.name, s.layout) for s in config.tables)
    return ", ".join(f"[tables.{name}] (layout {layout})" for name, layout in out)


def _is_table_s1(table: TableModel, dataset: str) -> bool:
    """Whether ``table`` is the built-in Table S1 of ``dataset``."""
    return (
        table.layout == "k_breakdown"
        and table.datasets == (dataset,)
        and table.name.startswith("tableS1-")
    )


def _of_dataset(name: str, stem: str, dataset: str | None) -> bool:
    """Whether ``name`` is the per-dataset table ``<stem>-<dataset>`` (any, for None)."""
    return name == f"{stem}-{dataset}" if dataset is not None else name.startswith(f"{stem}-")


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
