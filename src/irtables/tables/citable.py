"""Every number the tables show, under a key a paper can cite it by.

A key is built from ids, never display names::

    <table>/<dataset>/<system>/<metric>

``<table>`` is the table's output file stem (``table1``, ``tableS1-robust03``,
``ablation``, a configured table's name), ``<dataset>`` and ``<system>`` are the ids of the
configuration and the results (``average`` for a mean over datasets), ``<metric>`` the
canonical name of the measure the cell's column shows (``nDCG@10``, ``AP``, ``P@10``).
Counts have keys of their own: ``<dataset>/topics`` and ``<dataset>/systems``. Ids may
hold any character but ``/``, ``{``, ``}``, ``%``, ``#`` and ``\\``; a key is written
verbatim wherever it is cited (``\\irtnum{table1/web/fuse_alpha=0.5_depth=1000/P@10}``).

The text of each number is the cell's own (:func:`irtables.tables.numbers.format_number`
decided it when the table was built), with the ``±`` it shows; the difference from the
baseline and the relative improvement are computed on the displayed values, so that a
cited number never contradicts the table printed beside it. Nothing here reads files.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from irtables.config import Config
from irtables.config.tables import compared_with
from irtables.measures import parse_measure
from irtables.stats import Comparisons, PairedTestResult
from irtables.tables.model import NO_CUTOFF, Cell, CellSource, TableModel
from irtables.tables.numbers import (
    MISSING,
    displayed_difference,
    displayed_value,
    format_number,
    format_pvalue,
)

if TYPE_CHECKING:
    from irtables.tables.build import TableSet

#: Each part of a key and what it holds (the reference page lists them).
KEY_PARTS: dict[str, str] = {
    "<table>": "the table's output file stem: `table1`, `tableS1-<dataset>` (one per "
    "dataset), `ablation`, or the name of a `[tables.<name>]` section",
    "<dataset>": "the dataset id (its folder name, or `id` in `[[datasets]]`); `average` "
    "for a mean over datasets (an Average row)",
    "<system>": "the system id (its file name, or `id` in `[[systems]]`), as written: "
    "`fuse_alpha=0.5_depth=1000`",
    "<metric>": "the canonical name of the measure the cell's column shows (`nDCG@10`, "
    "`AP`, `RR@10`, `P@10`); numbers.tex also accepts its display label "
    "(`NDCG@10`, `MAP`, `MRR@10`)",
}
#: The key grammar, as the docs and ``numbers.json`` state it.
KEY_GRAMMAR = "<table>/<dataset>/<system>/<metric>"
#: The keys of counts.
COUNT_GRAMMAR = "<dataset>/topics, <dataset>/systems"
#: The dataset part of the key of a mean over datasets (an "Average" row).
AVERAGE = "average"


@dataclass(frozen=True)
class Shown:
    """A number as displayed: its ``text`` (plain ASCII, ``-`` for minus) and its
    full-precision ``value``."""

    text: str
    value: float


@dataclass(frozen=True)
class CitedNumber:
    """One displayed number of one table cell, with what a paper may say about it.

    ``number`` is the cell as shown (with its ``± spread``); ``measure`` the canonical
    name of the measure its value is of (``P(rel=2)@10`` in a column of ``P@10`` on a
    dataset with a relevance threshold; None for an average); ``delta`` its difference
    from ``baseline`` on the displayed values, ``relative`` that difference in percent
    of the baseline's displayed value, ``p`` the p-value of the test behind the cell's
    marker; each None when the table has no such thing for the cell.
    """

    key: str
    table: str
    title: str
    dataset: str
    system: str
    metric: str
    dataset_name: str
    system_name: str
    metric_label: str
    row: str
    column: str
    number: Shown
    measure: str | None = None
    group: str | None = None
    column_group: str | None = None
    baseline: str | None = None
    delta: Shown | None = None
    relative: Shown | None = None
    p: Shown | None = None

    @property
    def keys(self) -> tuple[str, ...]:
        """Its key, then the same with the metric's display label (``NDCG@10`` for
        ``nDCG@10``, ``MAP`` for ``AP``) when that differs: a paper may cite either."""
        label = number_key(self.table, self.dataset, self.system, self.metric_label)
        return (self.key,) if label == self.key else (self.key, label)


@dataclass(frozen=True)
class CitedCount:
    """A count a caption or the methods state: ``<dataset>/topics`` or ``/systems``."""

    key: str
    dataset: str
    dataset_name: str
    what: str
    value: int


@dataclass(frozen=True)
class Citable:
    """Every citable number and count of a study, in table order."""

    numbers: tuple[CitedNumber, ...]
    counts: tuple[CitedCount, ...]

    def texts(self) -> dict[str, str]:
        """Each number's key -> its displayed text, in table order."""
        return {n.key: n.number.text for n in self.numbers}

    def by_key(self) -> dict[str, CitedNumber]:
        """Each number by each of its keys (:attr:`CitedNumber.keys`); a label key that
        is another number's own key stays that number's."""
        found = {n.key: n for n in self.numbers}
        for n in self.numbers:
            for key in n.keys[1:]:
                found.setdefault(key, n)
        return found


def number_key(table: str, dataset: str, system: str, metric: str) -> str:
    """The key of one displayed number.

    Examples
    --------
    >>> number_key("table1", "web", "fuse_alpha=0.5_depth=1000", "P@10")
    'table1/web/fuse_alpha=0.5_depth=1000/P@10'
    """
    return "/".join((table, dataset or AVERAGE, system, metric))


def cell_text(cell: Cell) -> str:
    """A cell's number as displayed, with its ``±`` and without bold or markers
    (plain ASCII; each output typesets it as it typesets the cell).

    Examples
    --------
    >>> cell_text(Cell(0.5, "0.500", spread="± 0.010")), cell_text(Cell(0.5, "0.500"))
    ('0.500 ± 0.010', '0.500')
    """
    return f"{cell.text} {cell.spread}" if cell.spread else cell.text


def cite_tables(
    tables: Sequence[TableModel],
    config: Config,
    *,
    comparisons: Comparisons | None = None,
    by_table: Mapping[str, Comparisons] | None = None,
    queries: Mapping[str, int] | None = None,
    systems: Mapping[str, Sequence[str]] | None = None,
) -> Citable:
    """The citable numbers of ``tables`` and the counts of ``queries`` and ``systems``
    per dataset.

    The p-values are those of each table's comparisons in ``by_table``; an ablation's
    are among ``comparisons`` (against the full model of each row's group).

    A key shown twice (a system in two ablation groups) is cited as it is shown first.
    """
    found: dict[str, CitedNumber] = {}
    for table in tables:
        own = (by_table or {}).get(table.name)
        groups = compared_with(table.layout) == "groups"  # the ablation's: its own tests
        tested = own or (comparisons if groups else None)
        cells = list(_cells(table))
        shown = {number_key(table.name, *_ids(s)): c.text for c, s, _ in cells}
        for cell, source, place in cells:
            key = number_key(table.name, *_ids(source))
            if key in found or cell.text == MISSING:
                continue
            test = _test_of(tested, source, table.name, shown, shown_only=own is None)
            found[key] = _cited(config, table, key, cell, source, place, shown, test)
    counts = []
    for dataset, n in (queries or {}).items():
        name = config.dataset_name(dataset)
        counts.append(CitedCount(f"{dataset}/topics", dataset, name, "topics", n))
        n_systems = len((systems or {}).get(dataset, ()))
        counts.append(CitedCount(f"{dataset}/systems", dataset, name, "systems", n_systems))
    return Citable(tuple(found.values()), tuple(counts))


def cite_table_set(built: TableSet, config: Config) -> Citable:
    """The citable numbers of every table of ``built`` (:func:`cite_tables`)."""
    return cite_tables(
        built.tables,
        config,
        comparisons=built.comparisons,
        by_table=built.by_table,
        queries=built.queries,
        systems=built.systems,
    )


def _ids(source: CellSource) -> tuple[str, str, str]:
    return source.dataset, source.system, source.column


@dataclass(frozen=True)
class _Place:
    """Where a cell is: its row group's and row's labels, its column's and column group's."""

    group: str | None
    row: str
    column: str
    column_group: str | None


def _cells(table: TableModel) -> Iterator[tuple[Cell, CellSource, _Place]]:
    """Each cell with a source, and where it is."""
    heads: list[str | None] = []
    for head in table.column_groups:
        heads += [head.label] * head.span
    heads += [None] * (len(table.columns) - len(heads))
    for group in table.groups:
        for row in group.rows:
            j = 0
            for cell in row.cells:
                k = min(j, len(table.columns) - 1)
                j += cell.span
                if cell.source is None:
                    continue
                label = table.columns[k].label
                if cell.span > 1 or table.columns[k].key == NO_CUTOFF:
                    label = parse_measure(cell.source.column).label
                yield cell, cell.source, _Place(group.label, row.label, label, heads[k])


def _cited(
    config: Config,
    table: TableModel,
    key: str,
    cell: Cell,
    source: CellSource,
    place: _Place,
    shown: Mapping[str, str],
    test: PairedTestResult | None,
) -> CitedNumber:
    dataset, system, metric = _ids(source)
    baseline = test.baseline if test is not None else _baseline(config, table, dataset)
    base_text = None
    if baseline is not None:
        base_text = shown.get(number_key(table.name, dataset, baseline, metric))
    if base_text is None and cell.delta:  # an ablation row without tests: its Δ as shown
        base_text, baseline = _minus(config, cell.text, cell.delta), None
    delta, relative = _changes(config, cell.text, base_text)
    p = None
    if test is not None:
        value = test.pvalue_adjusted if test.pvalue_adjusted is not None else test.pvalue
        p = Shown(format_pvalue(value, config.output.pvalue_floor), value)
    return CitedNumber(
        key=key,
        table=table.name,
        title=table.title,
        dataset=dataset or AVERAGE,
        system=system,
        metric=metric,
        dataset_name=config.dataset_name(dataset) if dataset else "Average",
        system_name=config.system_name(system),
        metric_label=parse_measure(metric).label,
        measure=source.metric,
        row=place.row,
        column=place.column,
        group=place.group,
        column_group=place.column_group,
        number=Shown(cell_text(cell), cell.value if cell.value is not None else float("nan")),
        baseline=None if base_text is None else baseline,
        delta=delta,
        relative=relative,
        p=p,
    )


def _minus(config: Config, text: str, delta: str) -> str | None:
    """The displayed number ``delta`` below ``text``: an ablation row's full model."""
    full = displayed_difference(text, delta)
    out = config.output
    if full is None:
        return None
    return format_number(full, out.decimals, leading_zero=out.leading_zero)


def _changes(config: Config, text: str, base: str | None) -> tuple[Shown | None, Shown | None]:
    """The difference from ``base`` and the relative improvement, on the displayed values."""
    if base is None or MISSING in (text, base):
        return None, None
    out = config.output
    diff = displayed_difference(text, base)
    if diff is None:
        return None, None
    delta = Shown(format_number(diff, out.decimals, leading_zero=out.leading_zero, sign=True), diff)
    reference = displayed_value(base)
    if not reference:
        return delta, None
    rel = 100.0 * diff / reference
    return delta, Shown(format_number(rel, out.relative_decimals, sign=True) + "%", rel)


def _test_of(
    tested: Comparisons | None,
    source: CellSource,
    table: str,
    shown: Mapping[str, str],
    *,
    shown_only: bool = False,
) -> PairedTestResult | None:
    """The comparison behind a cell's marker: of its system on its dataset and metric,
    against the first of its baselines that the table shows (else, unless
    ``shown_only``, the first)."""
    if tested is None or source.metric is None:
        return None
    found = [
        r
        for r in tested.results
        if r.dataset == source.dataset and r.system == source.system and r.metric == source.metric
    ]
    here = [r for r in found if number_key(table, r.dataset, r.baseline, source.column) in shown]
    chosen = here or ([] if shown_only else found)
    return chosen[0] if chosen else None


def _baseline(config: Config, table: TableModel, dataset: str) -> str | None:
    """The first baseline of the table's comparisons on ``dataset``, if any."""
    settings = dict(config.table_compares).get(table.name, config.compare)
    found = settings.baselines_of(dataset) if dataset else settings.baseline
    return found[0] if found else None


__all__ = [
    "AVERAGE",
    "COUNT_GRAMMAR",
    "KEY_GRAMMAR",
    "KEY_PARTS",
    "Citable",
    "CitedCount",
    "CitedNumber",
    "Shown",
    "cell_text",
    "cite_table_set",
    "cite_tables",
    "number_key",
]
