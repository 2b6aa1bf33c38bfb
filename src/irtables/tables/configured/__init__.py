"""Tables configured as ``[tables.<name>]`` with a ``layout``: any number, any layout.

:func:`build_configured` turns one :class:`~irtables.config.tables.TableSpec` into its
table models (one per dataset for ``k_breakdown``, else one).
"""

from __future__ import annotations

from dataclasses import replace

from irtables.config import (
    DEFAULT_K_METRICS,
    DEFAULT_KS,
    DEFAULT_MAIN_METRICS,
    Config,
    KBreakdownTable,
    MainTable,
)
from irtables.config.tables import TableSpec, layout_builder
from irtables.model import ResultSet
from irtables.tables.configured.common import chosen_datasets, chosen_systems, table_title
from irtables.tables.layouts import Markers, Means, build_k_breakdown, build_main
from irtables.tables.model import TableModel


def build_configured(
    results: ResultSet,
    config: Config,
    spec: TableSpec,
    means: Means,
    *,
    markers: Markers | None = None,
) -> list[TableModel]:
    """The table models of one ``[tables.<name>]`` section.

    ``[tables.main]`` with another layout is Table 1 (file ``table1``).
    """
    if spec.layout not in ("main", "k_breakdown"):  # a layout of its own: built by its record
        model = layout_builder(spec.layout)(config, spec, means, markers=markers)
        return [replace(model, name="table1") if spec.name == "main" else model]
    where = f"tables.{spec.name}"
    datasets = chosen_datasets(spec, means, where)
    systems = chosen_systems(spec, means, datasets, config)
    narrowed = replace(
        means,
        datasets=tuple(datasets),
        systems={d: tuple(s for s in means.systems[d] if s in systems) for d in datasets},
    )
    if spec.layout == "main":
        main = MainTable(
            metrics=spec.metrics or DEFAULT_MAIN_METRICS,
            average=spec.average_row,
            caption=spec.caption,
            label=spec.label or f"tab:{spec.name}",
        )
        model = build_main(results, replace(config, main=main), markers=markers, means=narrowed)
        name = "table1" if spec.name == "main" else spec.name
        return [replace(model, name=name, title=table_title(spec))]
    k_config = KBreakdownTable(
        metrics=spec.metrics or DEFAULT_K_METRICS,
        k=spec.k or DEFAULT_KS,
        caption=spec.caption,
        label=spec.label or f"tab:{spec.name}-{{dataset}}",
    )
    cfg = replace(config, k_breakdown=k_config)
    return [
        replace(
            build_k_breakdown(results, cfg, d, markers=markers, means=narrowed),
            name=f"{spec.name}-{d}",
            title=spec.title or "",
        )
        for d in datasets
        if any(narrowed.metrics.has_k(d, k) for k in k_config.k)
    ]


__all__ = ["build_configured"]
