"""Every configured table of a study, with significance markers and their legend."""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from irtables.config import Config
from irtables.config.tables import (
    LAYOUTS,
    TableSpec,
    built_in_of_table,
    compared_with,
    layout_function,
)
from irtables.errors import DroppedCutoffWarning, DroppedMetricWarning, user_stacklevel
from irtables.model import ResultSet
from irtables.stats import Comparisons, PairedTestResult
from irtables.tables.configured import build_configured
from irtables.tables.intervals import interval_note
from irtables.tables.layouts import (
    Markers,
    Means,
    collect_means,
    dropped_cutoffs,
    missing_policy,
)
from irtables.tables.model import Cell, KeyNote, TableModel
from irtables.tables.sections import table_title
from irtables.tables.significance import (
    Significance,
    legend,
    letters_sentence,
    markers_for,
    run_comparisons,
    with_letters,
)

if TYPE_CHECKING:
    import pandas as pd

    from irtables.stats.memo import Memo

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class TableSet:
    """The tables of a study and the comparisons behind their markers (None: no tests).

    ``comparisons`` holds every comparison once (as the first table that shows it was
    tested); ``by_table`` the comparisons behind each table's markers.
    """

    tables: tuple[TableModel, ...]
    comparisons: Comparisons | None
    #: Each marked table's own comparisons (its families), by table name.
    by_table: Mapping[str, Comparisons] = field(default_factory=dict)
    #: The number of queries of each dataset, as the captions state it.
    queries: Mapping[str, int] = field(default_factory=dict)
    #: The systems of each dataset, in display order.
    systems: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def per_table(self) -> tuple[Comparisons, tuple[str, ...]] | None:
        """Every comparison behind each table's markers, a row per (table, comparison),
        as that table's family corrected it, and the title of the table of each row; the
        tables in order. None without tests.

        Table 1 of chosen systems is tested over the systems it shows, Table S1 over
        all: a comparison both show is a row of each, with its own adjusted p-value.
        """
        if self.comparisons is None:
            return None
        rows: list[PairedTestResult] = []
        titles: list[str] = []
        covered = {id(r) for c in self.by_table.values() for r in c.results}
        rest = tuple(r for r in self.comparisons.results if id(r) not in covered)
        for t in self.tables:
            own = self.by_table.get(t.name)
            if own is None and compared_with(t.layout) != "groups":
                continue  # no markers
            pool = own.results if own is not None else rest  # tested against its groups
            keys = {r.key for g in t.groups for r in g.rows} | {c.key for c in t.columns}
            systems = keys if any(r.system in keys for r in pool) else None
            for r in pool:
                shown = systems is None or (
                    r.system in systems and (own is not None or r.baseline in systems)
                )
                if r.dataset in t.datasets and r.metric in t.metrics and shown:
                    rows.append(r)
                    titles.append(t.title or t.name)
        return replace(self.comparisons, results=tuple(rows)), tuple(titles)

    @property
    def headline(self) -> TableModel | None:
        """The study's headline table (Table 1): the first of a layout whose record says
        so (``headline``); the supplement's per-query and meta-analyses are of its
        metrics."""
        return next((t for t in self.tables if _layout_says(t.layout, "headline")), None)


def _layout_says(layout: str, what: str) -> bool:
    """Whether the record of ``layout`` (if registered) has ``what`` (``headline``, or
    the path of its ``dropped`` function)."""
    found = LAYOUTS.get(layout)
    return found is not None and bool(getattr(found, what))


def build_all(
    results: ResultSet,
    config: Config,
    *,
    progress: Progress | None = None,
    seeds: pd.DataFrame | None = None,
    memo: Memo | None = None,
) -> TableSet:
    """The tables of every section of ``config.tables`` (Table 1, a Table S1 per dataset,
    the configured tables, the ablation last: the sections whose layout is tested
    against its groups), with markers.

    A dataset without any measure at a cutoff of ``tables.k_breakdown.k`` has no Table S1.
    Markers appear when ``[compare]`` names a baseline (or ``all_pairs``): the tables
    compare with the baseline, the ablation rows with their group's full model.
    ``seeds`` (default: ``results.seeds``, set by the loaders) are the per-seed means of
    systems with several runs (dataset, system, seed, metric, mean): the captions say
    that seeds were averaged and, with ``output.seeds = "mean_std"``, cells show ± std.
    ``memo`` keeps the results of the tests of each dataset and metric by recipe: a
    rerun runs only those whose inputs changed (:mod:`irtables.stats.memo`).
    """
    missing = missing_policy(config)
    means = collect_means(results, config, missing=missing, seeds=seeds)
    _warn_dropped(means, config)
    own = dict(config.table_compares)  # [tables.<name>.compare]: tested on their own
    for spec in config.tables:  # Table 1 of chosen systems: its tests (and letters) are
        if _shown_means(config, means, spec) is not means:  # of those alone
            own.setdefault(spec.name, config.compare)
    found: list[Significance] = []
    by_table: dict[str, Comparisons] = {}
    units: dict[str, list[TableModel]] = {}
    shared = [u for u in _units(config) if u not in own]
    if shared:
        built, sigs, tested = _marked_units(results, config, means, shared, progress, memo)
        units.update(built)
        found.extend(sigs)
        by_table.update(tested)
    for unit, settings in own.items():
        cfg = replace(config, compare=settings)
        shown = _shown_means(cfg, means, config.table(unit))
        built, sigs, tested = _marked_units(results, cfg, shown, [unit], None, memo)
        units.update(built)
        found.extend(sigs)
        by_table.update(tested)
    tables = [t for unit in _units(config) for t in units.get(unit, [])]
    for spec in config.tables:
        if compared_with(spec.layout) == "groups":
            ablation, sigs = _ablation(results, config, spec, means, memo)
            found.extend(sigs)
            tables.append(ablation)
    if config.compare.interval != "none":
        tables = [_with_legend(t, interval_note(config.compare.interval)) for t in tables]
    out = config.output
    tables = [
        replace(t, caption_notes=config.caption_notes_of(t.name) or out.caption_notes)
        for t in tables
    ]
    tables = number_tables(tables)
    for t in tables:  # two rows shown as "BM25" in one group: which is which?
        for g in t.groups:
            where = f"{t.title}" + (f" ({g.label})" if g.label else "")
            config.check_distinct_names([(r.key, r.label) for r in g.rows], where)
    return TableSet(tuple(tables), _merged(found), by_table, means.queries, means.systems)


def number_tables(tables: Sequence[TableModel]) -> list[TableModel]:
    """Titles as the paper shows them: the tables of a built-in section numbered among
    the supplement's (its record's ``numbering``: Table S1 per dataset) numbered S1, S2,
    ... in order; a table without a title (a configured one) takes the next free number
    after Table 1 and the ablation's Table 2.

    Examples
    --------
    >>> t = TableModel("grid", "grid", "", ("System",), (), (), "", "")
    >>> s1 = replace(t, layout="k_breakdown", name="tableS1-b", title="Table S2")
    >>> [x.title for x in number_tables([replace(t, title="Table 1"), s1, t, t])]
    ['Table 1', 'Table S1', 'Table 2', 'Table 3']
    """
    taken = {t.title for t in tables if t.title}
    numbers = (f"Table {n}" for n in itertools.count(2) if f"Table {n}" not in taken)
    supplementary = (f"Table S{n}" for n in itertools.count(1))
    out = []
    for t in tables:
        built_in = built_in_of_table(t.name)
        if built_in is not None and built_in.numbering == "supplementary":
            t = replace(t, title=next(supplementary))
        elif not t.title:
            t = replace(t, title=next(numbers))
        out.append(t)
    return out


def _warn_dropped(means: Means, config: Config) -> None:
    """Warn about the default metrics a section leaves out because no results hold them,
    for each section whose layout's record can tell (``dropped``: Table 1), and about
    the configured cutoffs a K breakdown leaves out (:func:`dropped_cutoffs`)."""
    for spec in config.tables:
        dropped: list[str] = []
        if _layout_says(spec.layout, "dropped"):
            dropped = layout_function(LAYOUTS[spec.layout].dropped)(means, spec)
        if dropped:
            warnings.warn(
                f"{table_title(spec) or f'tables.{spec.name}'} leaves out {', '.join(dropped)}: "
                f"no dataset's results hold {'it' if len(dropped) == 1 else 'them'} "
                f"(set tables.{spec.name}.metrics to choose the columns)",
                DroppedMetricWarning,
                stacklevel=user_stacklevel(),
            )
        cutoffs = dropped_cutoffs(means, spec)
        if cutoffs is not None:
            warnings.warn(cutoffs, DroppedCutoffWarning, stacklevel=user_stacklevel())


def _units(config: Config) -> list[str]:
    """The sections whose tables share the tests of ``[compare]``, in the order the
    tables come: ``main`` (Table 1), ``k_breakdown`` (a Table S1 per dataset), then every
    other section but those whose layout is tested against its groups (the ablations,
    compared with their full models)."""
    return [s.name for s in config.tables if compared_with(s.layout) == "baselines"]


def _shown_means(config: Config, means: Means, spec: TableSpec | None) -> Means:
    """``means`` of the systems ``spec`` shows when it names them and its built-in
    record says its tests are of those alone (``chosen_systems``: Table 1's
    ``systems``); else ``means``."""
    built_in = spec.built_in if spec is not None else None
    if spec is None or built_in is None or not built_in.chosen_systems:
        return means
    if not (spec.systems or spec.dataset_systems):
        return means
    chosen = layout_function(built_in.chosen_systems)
    return replace(means, systems={d: chosen(means, config, spec, d) for d in means.datasets})


def _unit_tables(
    config: Config, means: Means, markers: Markers | None, unit: str
) -> list[TableModel]:
    """The tables of one section of :func:`_units`, built with ``markers``."""
    spec = config.table(unit)
    return [] if spec is None else build_configured(config, spec, means, markers=markers)


def _marked_units(
    results: ResultSet,
    config: Config,
    means: Means,
    units: Sequence[str],
    progress: Progress | None,
    memo: Memo | None = None,
) -> tuple[dict[str, list[TableModel]], list[Significance], dict[str, Comparisons]]:
    """The tables of ``units`` (by unit) with the markers of ``config.compare`` and their
    legends, each table tested over what it shows (:func:`_significances`); the runs of
    tests, and each marked table's comparisons by table name."""
    built = {u: _unit_tables(config, means, None, u) for u in units}
    if not (config.compare.enabled and any(len(s) > 1 for s in means.systems.values())):
        return built, [], {}
    flat = [(u, i) for u in units for i in range(len(built[u]))]
    out = {u: list(ts) for u, ts in built.items()}
    sigs: list[Significance] = []
    by_table: dict[str, Comparisons] = {}
    every = [built[u][i] for u, i in flat]
    for members, sig in _significances(results, config, means, every, progress, memo):
        sigs.append(sig)
        marks = markers_for(sig)
        needed = dict.fromkeys(flat[k][0] for k in members)
        rebuilt = {u: _unit_tables(config, means, marks, u) for u in needed}
        for k in members:
            u, i = flat[k]
            out[u][i] = _marked(rebuilt[u][i], sig, config)
            by_table[out[u][i].name] = sig.comparisons
    return out, sigs, by_table


def shown_systems(table: TableModel, means: Means, config: Config) -> dict[str, tuple[str, ...]]:
    """The systems ``table`` compares on each of its datasets, in display order.

    Those it shows as rows or columns, with their baselines (a marker compares with the
    baseline whether it is shown or not); a table whose rows and columns are not systems
    (a sensitivity grid: parameter values) compares every system of its datasets.
    """
    keys = {r.key for g in table.groups for r in g.rows} | {c.key for c in table.columns}
    everything = {d: means.systems.get(d, ()) for d in table.datasets}
    if not any(s in keys for found in everything.values() for s in found):
        return everything
    s = config.compare
    out = {}
    for d, found in everything.items():
        wanted = keys if s.all_pairs else keys | set(s.baselines_of(d))
        out[d] = tuple(x for x in found if x in wanted)
    return out


def _significances(
    results: ResultSet,
    config: Config,
    means: Means,
    tables: Sequence[TableModel],
    progress: Progress | None,
    memo: Memo | None = None,
) -> list[tuple[list[int], Significance]]:
    """The comparisons of each table over the systems, datasets and metrics it shows.

    Tables are tested together when that changes no family: with ``family = "metric"``
    every table that shows the same systems on the datasets they share; with
    ``"dataset"`` also the same metrics; with ``"table"`` (or ``"all"``) each table alone.
    Returns the indices of the tables each run serves, and its comparisons.
    """
    family = config.compare.family
    runs: list[tuple[list[int], dict[str, tuple[str, ...]], tuple[str, ...]]] = []
    for i, t in enumerate(tables):
        shown = {d: s for d, s in shown_systems(t, means, config).items() if len(s) > 1}
        if not shown:
            continue
        for members, systems, shown_metrics in runs:
            if family in ("table", "all"):
                continue
            if family == "dataset" and shown_metrics != t.metrics:
                continue
            if all(systems.get(d, s) == s for d, s in shown.items()):
                members.append(i)
                systems.update(shown)
                break
        else:
            runs.append(([i], dict(shown), t.metrics))
    out = []
    for members, systems, _ in runs:
        metrics = list(dict.fromkeys(m for i in members for m in tables[i].metrics))
        sig = run_comparisons(
            results,
            config,
            metrics=metrics,
            datasets=[d for d in means.datasets if d in systems],
            systems=systems,
            missing=missing_policy(config),
            progress=progress,
            memo=memo,
        )
        out.append((members, sig))
    return out


def _marked(table: TableModel, sig: Significance, config: Config) -> TableModel:
    """``table`` (built with the markers of ``sig``) with its legend and letters."""
    if not _tested(table, sig):
        return table
    names = [config.system_name(b) for b in sig.baselines]
    table = _with_legend(table, legend(sig, names, datasets=table.datasets, config=config))
    if not sig.uses_letters:
        return table
    return _with_legend(with_letters(table, sig, config), letters_sentence(table, sig, config))


def _ablation(
    results: ResultSet, config: Config, spec: TableSpec, means: Means, memo: Memo | None = None
) -> tuple[TableModel, list[Significance]]:
    """An ablation table with its markers (each row compared with its group's full
    model) and their legend, and the runs of tests behind them."""
    ablation = build_configured(config, spec, means)[0]
    if not config.compare.markers:
        return ablation, []
    sigs = _ablation_significance(results, config, spec, ablation, memo)
    marks = [markers_for(s) for s in sigs]
    ablation = build_configured(config, spec, means, markers=_first_of(marks))[0]
    return _with_legend(ablation, _ablation_legend(sigs, config)), sigs


def _ablation_significance(
    results: ResultSet,
    config: Config,
    spec: TableSpec,
    ablation: TableModel,
    memo: Memo | None = None,
) -> list[Significance]:
    dataset = spec.dataset or ""
    return [
        run_comparisons(
            results,
            config,
            metrics=list(ablation.metrics),
            datasets=[dataset],
            systems={dataset: tuple(r.system for r in group.rows)},
            baselines=[group.full],
            missing=missing_policy(config),
            memo=memo,
        )
        for group in spec.ablation_groups
        if len(group.rows) > 1
    ]


def _ablation_legend(sigs: Sequence[Significance], config: Config) -> str:
    if not sigs:
        return ""
    text = legend(sigs[0], ["the full model of its group"])
    return text


def _first_of(marks: Sequence[Markers]) -> Markers:
    def marker(dataset: str, system: str, metric: str) -> str:
        return next((t for m in marks if (t := m(dataset, system, metric))), "")

    return marker


def _merged(found: Sequence[Significance]) -> Comparisons | None:
    if not found:
        return None
    first = found[0].comparisons
    seen: dict[tuple[str, ...], PairedTestResult] = {}
    for s in found:  # a comparison that two tables show: as the first one tested it
        for r in s.comparisons.results:  # (tables of their own settings keep their tests)
            key = (r.dataset, r.metric, r.system, r.baseline, r.test, str(r.correction))
            seen.setdefault(key, r)
    rows = tuple(seen.values())
    return replace(first, results=rows)


def _tested(table: TableModel, sig: Significance) -> bool:
    """Whether a comparison ran on the table's data, or was meant to and could not (a
    dataset without its baseline). Else the caption has no legend: Table S1 of a dataset
    with a single system does not explain markers it cannot have."""
    lacking = dict(sig.comparisons.without_baseline)
    return any(d in lacking for d in table.datasets) or any(
        r.dataset in table.datasets and r.metric in table.metrics for r in sig.comparisons.results
    )


def _with_legend(table: TableModel, text: str) -> TableModel:
    """The table with ``text`` (what its marks mean) as its last caption note."""
    return replace(table, notes=(*table.notes, KeyNote(text))) if text else table


__all__ = ["Cell", "TableSet", "build_all"]
