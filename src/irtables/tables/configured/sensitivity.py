"""Sensitivity: a metric against one or two parameters of a system.

One parameter: a row per value, a column per metric, best per column. Two parameters:
a row per value of the first, a column per value of the second (under a spanned header
naming it), one metric, best over the whole grid. The figure (line plot or heat map) is
drawn from the same model by :mod:`irtables.supplement.sensitivity`.
"""

from __future__ import annotations

from irtables.config import Config
from irtables.config.tables import TableSpec
from irtables.errors import IrtablesError
from irtables.measures import Measure, parse_measure
from irtables.tables.captions import describe_numbers
from irtables.tables.configured.common import transpose
from irtables.tables.configured.params import SystemParams, sort_key, sweep
from irtables.tables.layouts import Markers, Means, flagged, spot
from irtables.tables.model import Cell, Column, ColumnGroup, Row, RowGroup, TableModel
from irtables.tables.sections import table_title


def build_sensitivity(
    config: Config, spec: TableSpec, m: Means, *, markers: Markers | None = None
) -> TableModel:
    """The sensitivity table of ``spec`` on its dataset (the only one when not named)."""
    where = f"tables.{spec.name}"
    dataset = _dataset(spec, m, where)
    points = sweep(spec, m.systems[dataset])
    measures = [parse_measure(name) for name in spec.metrics]
    measures = m.metrics.columns(measures, strict=True, table=where, dataset=dataset)
    first = spec.parameters[0]
    row_values = sorted({p.values[first] for p in points}, key=sort_key)
    if len(spec.parameters) == 1:
        by_value = {p.values[first]: p for p in points}
        systems = [by_value[v].system for v in row_values]
        per_column = [
            flagged(config, m, [spot(m, dataset, s, c) for s in systems], c, markers)
            for c in measures
        ]
        rows = _rows(row_values, systems, transpose(per_column))
        columns = tuple(Column(c.name, c.label, c.higher_is_better) for c in measures)
        heads: tuple[ColumnGroup, ...] = ()
    else:
        rows, columns, heads = _two_parameters(
            config, spec, m, dataset, points, measures[0], row_values, markers
        )
    used = [k for c in measures if (k := m.metrics.resolve(dataset, c))]
    notes = describe_numbers(
        m.queries,
        config,
        (dataset,),
        {dataset: used},
        groups=[RowGroup(None, tuple(rows))],
        highlight="Best value "
        + ("per column" if len(spec.parameters) == 1 else "of the grid")
        + " in bold",
    )
    swept = " and ".join(spec.parameters)
    base = spec.system or _common_base(points)
    about = (
        f"{base} with {swept} as in the system ids" if not spec.points else f"{swept} as configured"
    )
    fixed = "; ".join(f"{k} = {v}" for k, v in spec.fixed)
    notes += (f"Systems: {about}" + (f"; {fixed}" if fixed else "") + ".",)
    return TableModel(
        layout="sensitivity",
        name=spec.name,
        title=table_title(spec),
        stub=(first,),
        columns=columns,
        groups=(RowGroup(None, tuple(rows)),),
        caption=spec.caption
        or f"Sensitivity of {', '.join(c.label for c in measures)} to {swept} on "
        f"{config.dataset_name(dataset)}.",
        label=spec.label or f"tab:{spec.name}",
        notes=notes,
        metrics=tuple(used),
        datasets=(dataset,),
        column_groups=heads,
    )


def _dataset(spec: TableSpec, m: Means, where: str) -> str:
    if spec.dataset is not None:
        if spec.dataset not in m.datasets:
            raise IrtablesError(
                f"{where}.dataset: unknown dataset {spec.dataset!r} "
                f"(known: {', '.join(m.datasets)})"
            )
        return spec.dataset
    if len(m.datasets) != 1:
        raise IrtablesError(f"{where}.dataset: name one of {', '.join(m.datasets)}")
    return m.datasets[0]


def _rows(values: list[str], systems: list[str], cells: list[tuple[Cell, ...]]) -> list[Row]:
    return [
        Row(system, value, row) for value, system, row in zip(values, systems, cells, strict=True)
    ]


def _two_parameters(
    config: Config,
    spec: TableSpec,
    m: Means,
    dataset: str,
    points: list[SystemParams],
    measure: Measure,
    row_values: list[str],
    markers: Markers | None,
) -> tuple[list[Row], tuple[Column, ...], tuple[ColumnGroup, ...]]:
    """A row per value of the first parameter (``row_values``, sorted), a column per
    value of the second, ``measure`` in the cells."""
    first, second = spec.parameters
    col_values = sorted({p.values[second] for p in points}, key=sort_key)
    at = {(p.values[first], p.values[second]): p.system for p in points}
    grid = [
        spot(m, dataset, at[r, c], measure) if (r, c) in at else None
        for r in row_values
        for c in col_values
    ]
    present = [s for s in grid if s is not None]
    flat = iter(flagged(config, m, present, measure, markers))
    cells = [next(flat) if s is not None else Cell(None, "–") for s in grid]
    width = len(col_values)
    rows = [
        Row(
            f"{first}={r}",
            r,
            tuple(cells[i * width : (i + 1) * width]),
        )
        for i, r in enumerate(row_values)
    ]
    columns = tuple(Column(f"{second}={c}", c, measure.higher_is_better) for c in col_values)
    return rows, columns, (ColumnGroup(second, width),)


def _common_base(points: list[SystemParams]) -> str:
    bases = sorted({p.base for p in points})
    return bases[0] if len(bases) == 1 else "the systems"
