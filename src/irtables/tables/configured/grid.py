"""The grid (BEIR style): one row per dataset, one column per system, one metric, an average row."""

from __future__ import annotations

from irtables.config import Config
from irtables.config.tables import TableSpec
from irtables.errors import IrtablesError
from irtables.measures import parse_measure
from irtables.tables.captions import describe_numbers
from irtables.tables.layouts import Markers, Means, Spot, flagged, mean_of, spot
from irtables.tables.model import Column, Row, RowGroup, TableModel
from irtables.tables.sections import chosen_datasets, chosen_systems, table_title


def build_grid(
    config: Config, spec: TableSpec, m: Means, *, markers: Markers | None = None
) -> TableModel:
    """Datasets as rows, systems as columns, one metric; best per row; an average row.

    The average of a system is the mean of its per-dataset means over the table's
    datasets; a system missing a dataset has none (``–``).
    """
    where = f"tables.{spec.name}"
    measure = parse_measure(spec.metrics[0] if spec.metrics else "NDCG@10")
    if spec.datasets:
        datasets = chosen_datasets(spec, m.datasets, where)
    else:
        datasets = [d for d in m.datasets if m.metrics.resolve(d, measure)]
    if not datasets:
        raise IrtablesError(f"{where}: no dataset has {measure.label}")
    systems = chosen_systems(spec, m.systems, datasets, config)
    rows = []
    for d in datasets:
        cells = flagged(config, m, [spot(m, d, s, measure) for s in systems], measure, markers)
        rows.append(Row(d, config.dataset_name(d), tuple(cells)))
    groups = [RowGroup(None, tuple(rows))]
    if spec.average_row and len(datasets) > 1:
        spots = [
            Spot("", s, None, mean_of([spot(m, d, s, measure).value for d in datasets]))
            for s in systems
        ]
        average = flagged(config, m, spots, measure, None)
        groups.append(RowGroup(None, (Row("average", "Average", tuple(average)),)))
    used = {d: [k] if (k := m.metrics.resolve(d, measure)) else [] for d in datasets}
    notes = describe_numbers(
        m.queries,
        config,
        datasets,
        used,
        groups=groups,
        runs=m.runs_in(datasets, config, systems),
        highlight="Best value per row in bold",
    )
    if len(groups) > 1:
        notes += (
            f"Average: the mean of the per-dataset {measure.label} over the {len(datasets)} "
            "datasets; a system without results on all of them has none.",
        )
    return TableModel(
        layout="grid",
        name=spec.name,
        title=table_title(spec),
        stub=("Dataset",),
        columns=tuple(Column(s, config.system_name(s), measure.higher_is_better) for s in systems),
        groups=tuple(groups),
        caption=spec.caption or f"{measure.label} per dataset.",
        label=spec.label or f"tab:{spec.name}",
        notes=notes,
        metrics=tuple(dict.fromkeys(k for keys in used.values() for k in keys)),
        datasets=tuple(datasets),
    )
