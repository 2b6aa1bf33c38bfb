"""Dataset column groups: one row per system, a column group per dataset with its own metrics.

The shape of most recent IR papers' main table (MS MARCO dev: MRR@10, R@1000; TREC DL:
nDCG@10, R@1000), with optional group rows and an optional average column group.
"""

from __future__ import annotations

from collections.abc import Sequence

from irtables.base.text import join_and
from irtables.config import Config
from irtables.config.tables import DEFAULT_MAIN_METRICS, SystemGroup, TableSpec
from irtables.errors import IrtablesError
from irtables.measures import Measure, parse_measure
from irtables.tables.captions import describe_numbers
from irtables.tables.configured.common import transpose
from irtables.tables.layouts import Markers, Means, Spot, flagged, mean_of, spot
from irtables.tables.model import Column, ColumnGroup, Row, RowGroup, TableModel
from irtables.tables.sections import chosen_datasets, chosen_systems, table_title


def build_dataset_columns(
    config: Config, spec: TableSpec, m: Means, *, markers: Markers | None = None
) -> TableModel:
    """One row per system, a column group per dataset; best per column within each group.

    A system without results on a dataset shows ``–`` there. ``spec.average`` adds an
    Average column group: for each metric named, the mean of a system's per-dataset
    means over the datasets that have that metric (a system missing one of them gets
    none unless ``spec.average_partial``).
    """
    where = f"tables.{spec.name}"
    datasets = chosen_datasets(spec, m.datasets, where)
    columns_of = _dataset_metrics(spec, m, datasets, where)
    groups = spec.groups or (SystemGroup(None, chosen_systems(spec, m.systems, datasets, config)),)
    _check_systems(groups, m, datasets, where)
    averages = [parse_measure(a) for a in spec.average]
    columns, heads = [], []
    for d in datasets:
        columns += [Column(f"{d}/{c.name}", c.label, c.higher_is_better) for c in columns_of[d]]
        heads.append(ColumnGroup(config.dataset_name(d), len(columns_of[d])))
    if averages:
        columns += [Column(f"average/{a.name}", a.label, a.higher_is_better) for a in averages]
        heads.append(ColumnGroup("Average", len(averages)))
    row_groups = []
    for group in groups:
        per_column = [
            flagged(config, m, [spot(m, d, s, c) for s in group.systems], c, markers)
            for d in datasets
            for c in columns_of[d]
        ]
        per_column += [
            flagged(config, m, _averages(m, group.systems, a, datasets, spec), a, None)
            for a in averages
        ]
        rows = [
            Row(s, config.system_name(s), cells)
            for s, cells in zip(group.systems, transpose(per_column), strict=True)
        ]
        row_groups.append(RowGroup(group.name, tuple(rows)))
    used = {d: [k for c in columns_of[d] if (k := m.metrics.resolve(d, c))] for d in datasets}
    shown = [s for g in groups for s in g.systems]
    notes = describe_numbers(
        m.queries,
        config,
        datasets,
        used,
        groups=row_groups,
        runs=m.runs_in(datasets, config, set(shown)),
        highlight="Best value per column"
        + (" within each group" if len(groups) > 1 else "")
        + " in bold",
    )
    notes += tuple(_average_notes(config, m, averages, datasets, spec))
    return TableModel(
        layout="dataset_columns",
        name=spec.name,
        title=table_title(spec),
        stub=("System",),
        columns=tuple(columns),
        groups=tuple(row_groups),
        caption=spec.caption or "Results per dataset.",
        label=spec.label or f"tab:{spec.name}",
        notes=notes,
        metrics=tuple(dict.fromkeys(k for keys in used.values() for k in keys)),
        datasets=tuple(datasets),
        column_groups=tuple(heads),
    )


def _dataset_metrics(
    spec: TableSpec, m: Means, datasets: Sequence[str], where: str
) -> dict[str, list[Measure]]:
    default = spec.metrics or DEFAULT_MAIN_METRICS
    own = {d.id: d.metrics for d in spec.datasets}
    out = {}
    for d in datasets:
        names = own.get(d) or default
        explicit = bool(own.get(d) or spec.metrics)
        requested = [parse_measure(n) for n in names]
        out[d] = m.metrics.columns(requested, strict=explicit, table=where, dataset=d)
    return out


def _check_systems(
    groups: Sequence[SystemGroup], m: Means, datasets: Sequence[str], where: str
) -> None:
    present = {s for d in datasets for s in m.systems.get(d, ())}
    for i, g in enumerate(groups):
        for s in g.systems:
            if s not in present:
                raise IrtablesError(
                    f"{where}.groups[{i}]: system {s!r} has no results on "
                    f"{', '.join(datasets)} (known: {', '.join(sorted(present))})"
                )


def _averages(
    m: Means, systems: Sequence[str], measure: Measure, datasets: Sequence[str], spec: TableSpec
) -> list[Spot]:
    having = [d for d in datasets if m.metrics.resolve(d, measure)]

    def mean(system: str) -> float | None:
        values = [spot(m, d, system, measure).value for d in having]
        return mean_of(values, partial=spec.average_partial)

    return [Spot("", s, None, mean(s)) for s in systems]


def _average_notes(
    config: Config, m: Means, averages: Sequence[Measure], datasets: Sequence[str], spec: TableSpec
) -> list[str]:
    notes = []
    for a in averages:
        having = [config.dataset_name(d) for d in datasets if m.metrics.resolve(d, a)]
        if not having:
            raise IrtablesError(
                f"tables.{spec.name}.average: no dataset of the table has {a.label}"
            )
        notes.append(
            f"Average {a.label}: the mean of the per-dataset means over {join_and(having)}"
            + (
                "; a system is averaged over those it has results on."
                if spec.average_partial
                else "; a system without results on all of them has none."
            )
        )
    return notes
