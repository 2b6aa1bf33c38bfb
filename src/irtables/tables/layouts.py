"""The table layouts: Table 1 (main), Table S1 (K breakdown) and the ablation table,
and what every layout shares (:class:`Means`, :func:`flagged`).

Each builder takes the configuration, its section (a
:class:`~irtables.config.tables.TableSpec`), the means and optional significance
markers, and returns its :class:`~irtables.tables.model.TableModel` (Table S1: one per
dataset). Nothing here reads files.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

from irtables.base.filenames import file_slugs
from irtables.config import Config
from irtables.config.tables import DEFAULT_KS, DEFAULT_MAIN_METRICS, TableSpec
from irtables.errors import ConfigError, IrtablesError, unknown_name_message
from irtables.measures import Measure, parse_measure
from irtables.model import MissingPolicy, ResultSet
from irtables.tables.captions import describe_numbers
from irtables.tables.metrics import MetricIndex, family_of
from irtables.tables.model import (
    BLANK,
    NO_CUTOFF,
    Cell,
    CellSource,
    Column,
    Row,
    RowGroup,
    TableModel,
)
from irtables.tables.numbers import MISSING, displayed_difference, format_number, rank_flags
from irtables.tables.sections import chosen_datasets, chosen_systems, table_title

if TYPE_CHECKING:
    import pandas as pd

# (dataset, system, canonical metric) -> marker text, e.g. "†"
Markers = Callable[[str, str, str], str]


@dataclass(frozen=True)
class Means:
    """Means indexed for lookup, with the ordered datasets and systems to show."""

    table: dict[tuple[str, str, str], float]
    counts: dict[tuple[str, str, str], int]
    queries: dict[str, int]  # number of queries per dataset
    datasets: tuple[str, ...]
    systems: dict[str, tuple[str, ...]]
    metrics: MetricIndex
    # systems with several runs: (dataset, system, metric) -> (std over seeds, n seeds)
    spread: dict[tuple[str, str, str], tuple[float, int]] = field(default_factory=dict)
    runs: dict[tuple[str, str], int] = field(default_factory=dict)  # (dataset, system) -> n
    # [compare] interval: (dataset, system, metric) -> 95% interval (low, high) of the mean
    intervals: dict[tuple[str, str, str], tuple[float, float]] = field(default_factory=dict)

    def runs_in(
        self, datasets: Sequence[str], config: Config, systems: Collection[str] | None = None
    ) -> dict[str, int]:
        """Seed counts of the systems of ``datasets`` with several runs, by display name
        (only those of ``systems`` when given: the systems a table shows)."""
        wanted = None if systems is None else set(systems)
        return {
            config.system_name(s): n
            for d in datasets
            for s in self.systems.get(d, ())
            if (wanted is None or s in wanted) and (n := self.runs.get((d, s), 0)) > 1
        }

    def get(self, dataset: str, system: str, metric: str | None) -> float | None:
        if metric is None:
            return None
        return self.table.get((dataset, system, metric))


def collect_means(
    results: ResultSet,
    config: Config,
    *,
    missing: MissingPolicy,
    seeds: pd.DataFrame | None = None,
) -> Means:
    """Means of every (dataset, system, metric), in the configured display order.

    ``seeds`` (default: ``results.seeds``) are the per-seed means of systems with several
    runs, for the ± of ``output.seeds = "mean_std"`` and the caption.
    """
    from irtables.tables.means import mean_cells, seed_spread

    cells = mean_cells(results, missing=missing)
    table = dict(zip(cells.keys, cells.means.tolist(), strict=True))
    counts = dict(zip(cells.keys, cells.counts.tolist(), strict=True))
    queries: dict[str, int] = {}
    for (dataset, _, _), n in counts.items():
        queries[dataset] = max(queries.get(dataset, 0), n)
    datasets = config.datasets_in_order(results.datasets())
    systems = {d: config.systems_in_order(results.systems(d)) for d in datasets}
    spread, runs = seed_spread(results.seeds if seeds is None else seeds)
    index = MetricIndex.from_results(results)
    intervals = {}
    if config.compare.interval != "none":
        from irtables.tables.intervals import mean_intervals

        intervals = mean_intervals(results, missing=missing)
    return Means(table, counts, queries, datasets, systems, index, spread, runs, intervals)


def build_main(
    config: Config, spec: TableSpec, means: Means, *, markers: Markers | None = None
) -> TableModel:
    """Table 1: one row group per dataset, one row per system, one column per metric."""
    datasets = chosen_datasets(spec, means.datasets, f"tables.{spec.name}")
    shown = replace(means, datasets=tuple(datasets))
    m = replace(shown, systems={d: main_systems(shown, config, spec, d) for d in datasets})
    columns = main_columns(m, spec)
    groups = []
    for dataset in m.datasets:
        rows = [
            (system, [m.get(dataset, system, m.metrics.resolve(dataset, c)) for c in columns])
            for system in m.systems[dataset]
        ]
        name = config.dataset_name(dataset)
        groups.append(
            replace(_group(config, name, rows, columns, dataset, markers, m), key=dataset)
        )
    if spec.average_row and len(m.datasets) > 1:
        groups.append(_average_group(config, spec, m, columns))
    used = {d: [r for c in columns if (r := m.metrics.resolve(d, c))] for d in m.datasets}
    return measure_table(
        config, spec, m, ("main", "Main results."), ("Dataset", "System"), columns, groups, used
    )


def measure_table(
    config: Config,
    spec: TableSpec,
    m: Means,
    kind: tuple[str, str],
    stub: tuple[str, ...],
    columns: Sequence[Measure],
    groups: Sequence[RowGroup],
    used: Mapping[str, Sequence[str]],
    *,
    description_header: str | None = None,
) -> TableModel:
    """The table of a section whose columns are ``columns`` (measures) over the datasets
    of ``used`` (each with the result keys its cells show): ``kind`` is the layout and
    the caption when the section sets none; its name, title, label, caption notes and
    metrics follow from the section and the means as for every such table."""
    layout, caption = kind
    datasets = tuple(used)
    return TableModel(
        layout=layout,
        name=spec.stem,
        title=table_title(spec),
        stub=stub,
        columns=tuple(Column(c.name, c.label, c.higher_is_better) for c in columns),
        groups=tuple(groups),
        caption=spec.caption or caption,
        label=spec.label or spec.default_label,
        notes=describe_numbers(
            m.queries,
            config,
            datasets,
            used,
            groups=groups,
            runs=m.runs_in(datasets, config),
        ),
        description_header=description_header,
        metrics=tuple(dict.fromkeys(k for keys in used.values() for k in keys)),
        datasets=datasets,
    )


def main_systems(m: Means, config: Config, spec: TableSpec, dataset: str) -> tuple[str, ...]:
    """The systems of ``dataset`` in a ``main`` table, in order: those of its ``systems``
    that the dataset has (every system when none are configured).

    Raises
    ------
    ConfigError
        For a configured system or dataset id that the results do not have.
    """
    where = f"{config.path or '<config>'}: tables.{spec.name}.systems"
    for named, _ in spec.dataset_systems:
        if named not in m.datasets:
            raise ConfigError(f"{where}: {unknown_name_message('dataset', named, m.datasets)}")
    chosen = spec.systems_of(dataset)
    if not chosen:
        return m.systems[dataset]
    every = dict.fromkeys(s for d in m.datasets for s in m.systems[d])
    for system in chosen:
        if system not in every:
            raise ConfigError(f"{where}: {unknown_name_message('system', system, every)}")
    here = set(m.systems[dataset])
    return tuple(s for s in chosen if s in here)


def main_columns(m: Means, spec: TableSpec) -> list[Measure]:
    """The columns of a ``main`` table: the configured metrics (each must be present), or
    those of the default metrics that the results hold (see :func:`dropped_main_metrics`)."""
    explicit = spec.metrics != DEFAULT_MAIN_METRICS
    requested = [parse_measure(name) for name in spec.metrics]
    return m.metrics.columns(requested, strict=explicit, table=f"tables.{spec.name}")


def dropped_main_metrics(m: Means, spec: TableSpec) -> list[str]:
    """Labels of the default metrics of a ``main`` table that the results lack (left out
    silently by :func:`main_columns`); empty when its ``metrics`` are configured."""
    if spec.metrics != DEFAULT_MAIN_METRICS:
        return []
    shown = {c.name for c in main_columns(m, spec)}
    return [label for label in spec.metrics if parse_measure(label).name not in shown]


def build_k_breakdown(
    config: Config, spec: TableSpec, means: Means, *, markers: Markers | None = None
) -> list[TableModel]:
    """Table S1: for each dataset with a measure at one of the cutoffs ``spec.k``, rows
    metric x system, one column per K.

    Measures without a cutoff (MAP) are shown once, spanning the K columns; with a
    single K, in a column of their own (``no cutoff``), where they cannot read as MAP@K.
    """
    datasets = chosen_datasets(spec, means.datasets, f"tables.{spec.name}")
    systems = set(chosen_systems(spec, means.systems, datasets, config))
    m = replace(
        means,
        datasets=tuple(datasets),
        systems={d: tuple(s for s in means.systems[d] if s in systems) for d in datasets},
    )
    return [
        _k_table(config, spec, m, d, markers)
        for d in datasets
        if any(m.metrics.has_k(d, k) for k in spec.k)
    ]


def dropped_cutoffs(means: Means, spec: TableSpec) -> str | None:
    """What a K breakdown leaves out of the cutoffs its section configures (``k``): those
    no dataset it shows holds a measure at, said in a sentence naming the key, the
    cutoffs asked and those the results hold (None when it shows them all, or when ``k``
    is the default, whose cutoffs are shown as far as the results hold them)."""
    if spec.k == DEFAULT_KS:
        return None
    datasets = [d for d in (spec.dataset_ids or means.datasets) if d in means.datasets]
    held = sorted(set().union(*(means.metrics.cutoffs(d) for d in datasets)))
    missing = [k for k in spec.k if k not in held]
    if not missing:
        return None
    key = f"tables.{spec.name}.k"
    holds = f"the results hold {_cutoff_list(held)}" if held else "no result has a cutoff"
    if len(missing) == len(spec.k):
        table = "Table S1" if spec.built_in is not None else f"table of tables.{spec.name}"
        return f"{key} asks for {_cutoff_list(missing)}, but {holds}: no {table} is written"
    title = "Table S1" if spec.built_in is not None else f"tables.{spec.name}"
    return f"{title} leaves out {_cutoff_list(missing)}: {key} asks for them, but {holds}"


def _cutoff_list(ks: Sequence[int]) -> str:
    return ", ".join(f"K={k}" for k in ks)


def _k_table(
    config: Config, spec: TableSpec, m: Means, dataset: str, markers: Markers | None
) -> TableModel:
    ks = [k for k in spec.k if m.metrics.has_k(dataset, k)]
    groups: list[RowGroup] = []
    whole_groups: set[int] = set()  # the groups of a measure without cutoff
    used: list[str] = []
    for name in spec.metrics:
        family = family_of(name)
        at_k = [
            m.metrics.resolve(dataset, Measure(family.family, k, None, family.param)) for k in ks
        ]
        whole = not any(at_k)
        keys = [m.metrics.resolve(dataset, family)] if whole else at_k
        if keys[0] is None and whole:
            continue
        used.extend(k for k in keys if k)
        rows = [(s, [m.get(dataset, s, key) for key in keys]) for s in m.systems[dataset]]
        # the measures as requested (P@10, not P(rel=2)@10): what each column shows
        cols = [family] if whole else [Measure(family.family, k, None, family.param) for k in ks]
        span = len(ks) if whole else 1
        group = _group(config, family.base_label, rows, cols, dataset, markers, m, span=span)
        if whole:
            whole_groups.add(len(groups))
        groups.append(replace(group, key=family.name))
    columns = [Column(f"K={k}", f"K={k}") for k in ks]
    if len(ks) == 1 and whole_groups:  # under the one K, MAP would read as MAP@K
        columns.append(Column(NO_CUTOFF, NO_CUTOFF))
        groups = [_own_column(g, i in whole_groups) for i, g in enumerate(groups)]
    caption = spec.caption or "All measures at every cutoff K on {dataset}."
    name = config.dataset_name(dataset)
    slug = file_slugs([*m.datasets, dataset])[dataset]  # names data: never raw in a path
    return TableModel(
        layout="k_breakdown",
        name=f"{spec.stem}-{slug}",
        title=table_title(spec),
        stub=("Metric", "System"),
        columns=tuple(columns),
        groups=tuple(groups),
        caption=caption.replace("{dataset}", name),
        label=(spec.label or spec.default_label).replace("{dataset}", slug),
        notes=describe_numbers(
            m.queries,
            config,
            (dataset,),
            {dataset: used},
            groups=groups,
            runs=m.runs_in((dataset,), config),
        ),
        metrics=tuple(dict.fromkeys(used)),
        datasets=(dataset,),
    )


def _own_column(group: RowGroup, whole: bool) -> RowGroup:
    """A group of a K breakdown with one K and a column of its own for the measures
    without cutoff: theirs move to it, the others leave it blank."""
    rows = tuple(
        replace(r, cells=(BLANK, *r.cells) if whole else (*r.cells, BLANK)) for r in group.rows
    )
    return replace(group, rows=rows)


def build_ablation(
    config: Config, spec: TableSpec, m: Means, *, markers: Markers | None = None
) -> TableModel:
    """The ablation table: methods as rows, metrics as columns, a description column."""
    where = f"tables.{spec.name}"
    dataset = spec.dataset or ""
    if dataset not in m.datasets:
        raise IrtablesError(
            f"{where}.dataset: unknown dataset {dataset!r} (known: {', '.join(m.datasets)})"
        )
    requested = [parse_measure(name) for name in spec.metrics]
    columns = m.metrics.columns(requested, strict=True, table=where, dataset=dataset)
    groups = [
        _ablation_group(config, spec, g_index, columns, m, markers)
        for g_index in range(len(spec.ablation_groups))
    ]
    used = {dataset: [k for c in columns if (k := m.metrics.resolve(dataset, c))]}
    kind = ("ablation", "Ablation study.")
    return measure_table(
        config, spec, m, kind, ("Method",), columns, groups, used, description_header="Description"
    )


def _ablation_group(
    config: Config,
    spec: TableSpec,
    index: int,
    columns: Sequence[Measure],
    m: Means,
    markers: Markers | None,
) -> RowGroup:
    group = spec.ablation_groups[index]
    dataset = spec.dataset or ""
    keys = [m.metrics.resolve(dataset, c) for c in columns]
    for row in group.rows:
        if row.system not in m.systems[dataset]:
            raise IrtablesError(
                f"tables.{spec.name}.groups[{index}]: system {row.system!r} has no results on "
                f"{dataset} (known: {', '.join(m.systems[dataset])})"
            )
    rows = [(r.system, [m.get(dataset, r.system, k) for k in keys]) for r in group.rows]
    built = _group(config, group.name, rows, columns, dataset, markers, m)
    full = next(
        b.cells for r, b in zip(group.rows, built.rows, strict=True) if r.system == group.full
    )
    out = []
    for spec_row, built_row in zip(group.rows, built.rows, strict=True):
        cells = built_row.cells
        if spec.delta and spec_row.system != group.full:
            cells = tuple(
                _with_delta(cell, full_cell, config)
                for cell, full_cell in zip(cells, full, strict=True)
            )
        label = spec_row.name or config.system_name(spec_row.system)
        out.append(Row(built_row.key, label, cells, spec_row.description))
    return RowGroup(group.name, tuple(out))


def _with_delta(cell: Cell, full: Cell, config: Config) -> Cell:
    """The difference from the full model, from the values as displayed.

    ``0.710`` beside a full model shown as ``0.676`` gets ``+0.034``, whatever the
    unrounded means: a Δ never contradicts the numbers printed next to it.
    """
    delta = displayed_difference(cell.text, full.text)
    if delta is None:
        return cell
    text = format_number(
        delta, config.output.decimals, leading_zero=config.output.leading_zero, sign=True
    )
    return replace(cell, delta=text)


def _group(
    config: Config,
    label: str | None,
    rows: Sequence[tuple[str, Sequence[float | None]]],
    columns: Sequence[Measure],
    dataset: str,
    markers: Markers | None,
    m: Means,
    *,
    span: int = 1,
) -> RowGroup:
    """Format a block of rows and flag best / second best per column."""
    per_column = []
    for j, col in enumerate(columns):
        key = m.metrics.resolve(dataset, col)
        spots = [Spot(dataset, system, key, values[j]) for system, values in rows]
        per_column.append(flagged(config, m, spots, col, markers, span=span))
    built = [
        Row(system, config.system_name(system), tuple(cells[i] for cells in per_column))
        for i, (system, _) in enumerate(rows)
    ]
    return RowGroup(label, tuple(built))


@dataclass(frozen=True)
class Spot:
    """Where a cell's value comes from; ``metric`` is None for a derived value (an average)."""

    dataset: str
    system: str
    metric: str | None
    value: float | None


def spot(m: Means, dataset: str, system: str, measure: Measure) -> Spot:
    """The mean of ``measure`` (resolved on ``dataset``) for ``system``, or a missing value."""
    key = m.metrics.resolve(dataset, measure)
    return Spot(dataset, system, key, m.get(dataset, system, key))


def flagged(
    config: Config,
    m: Means,
    spots: Sequence[Spot],
    measure: Measure,
    markers: Markers | None,
    *,
    span: int = 1,
) -> list[Cell]:
    """Cells for ``spots`` compared with one another: formatted, best and second best
    among them (the shared rules: :func:`~irtables.tables.numbers.rank_flags` on the
    displayed values, ``output.second_best``, ``output.lower_is_better``), marked.

    A layout compares whichever cells it shows together: a column, a row, a whole grid.
    """
    out = config.output
    texts = [format_number(s.value, out.decimals, leading_zero=out.leading_zero) for s in spots]
    best, second = rank_flags(texts, higher_is_better=_higher(config, measure))
    cells = []
    for s, text, b, sec in zip(spots, texts, best, second, strict=True):
        present = s.value is not None and s.metric is not None
        mark = markers(s.dataset, s.system, s.metric) if markers and present and s.metric else ""
        spread = _spread_text(m, config, s.dataset, s.system, s.metric) if present else ""
        source = CellSource(s.dataset, s.system, s.metric, measure.name)
        cells.append(
            Cell(
                s.value,
                text,
                b,
                sec and out.second_best,
                mark,
                span=span,
                spread=spread,
                source=source,
            )
        )
    return cells


def mean_of(values: Sequence[float | None], *, partial: bool = False) -> float | None:
    """The mean of per-dataset means; None unless every one has a value (with ``partial``,
    unless at least one has), or when there are none.

    Examples
    --------
    >>> mean_of([0.25, 0.75]), mean_of([0.25, None]), mean_of([0.25, None], partial=True)
    (0.5, None, 0.25)
    """
    found = [v for v in values if v is not None]
    if not found or (len(found) < len(values) and not partial):
        return None
    return float(np.mean(found))


def _spread_text(m: Means, config: Config, dataset: str, system: str, key: str | None) -> str:
    """``± 0.010`` for a system with several seeds when ``output.seeds = "mean_std"``;
    the mean's 95% interval instead when ``compare.interval`` asks for it."""
    out = config.output
    bounds = m.intervals.get((dataset, system, key)) if key else None
    if bounds is not None:
        from irtables.tables.intervals import interval_text

        return interval_text(bounds, config.compare.interval, out.decimals, out.leading_zero)
    found = m.spread.get((dataset, system, key)) if key and out.seeds == "mean_std" else None
    if found is None or found[1] < 2:
        return ""
    return "± " + format_number(found[0], out.decimals, leading_zero=out.leading_zero)


def _average_group(
    config: Config, spec: TableSpec, m: Means, columns: Sequence[Measure]
) -> RowGroup:
    shown = (s for d in m.datasets for s in m.systems[d])
    systems = config.systems_in_order(tuple(dict.fromkeys(shown)))
    if spec.systems and not spec.dataset_systems:
        present = set(systems)
        systems = tuple(s for s in spec.systems if s in present)
    rows = []
    for system in systems:
        values = [
            mean_of([m.get(d, system, m.metrics.resolve(d, c)) for d in m.datasets])
            for c in columns
        ]
        rows.append((system, values))
    return _group(config, "Average", rows, columns, "", None, m)


def _higher(config: Config, measure: Measure) -> bool:
    if (
        measure.name in config.output.lower_is_better
        or measure.label in config.output.lower_is_better
    ):
        return False
    return measure.higher_is_better


def missing_policy(config: Config) -> MissingPolicy:
    """The configured policy for systems that miss queries of their dataset."""
    policy = config.output.missing
    return "intersect" if policy == "intersect" else "zero" if policy == "zero" else "error"


__all__ = [
    "MISSING",
    "Markers",
    "Means",
    "Spot",
    "build_ablation",
    "build_k_breakdown",
    "build_main",
    "collect_means",
    "dropped_cutoffs",
    "dropped_main_metrics",
    "flagged",
    "main_columns",
    "mean_of",
    "spot",
]
