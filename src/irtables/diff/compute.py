"""Diff two runs of a study: what changed in the numbers and in the paper's tables.

Pure: takes two :class:`~irtables.model.ResultSet` (and their configurations) and returns
a :class:`DiffReport`; :mod:`irtables.diff.report` renders it, the CLI loads the inputs.

* Means: for every (dataset, system, metric) on both sides, the old and new mean, their
  difference, a paired test over the queries present on both sides (is the change real
  or noise?) and the queries whose value moved most.
* Presence: datasets, systems, metrics and queries that appeared or disappeared (a
  system is listed once, not with all its metrics and queries).
* Tables: every configured table is built on both sides; a cell whose displayed text,
  bold (best), underline (second best) or significance markers differ is listed.

``tolerance`` hides mean changes of at most that size and displayed values whose
underlying mean moved by at most that much; 0 lists every change, even a per-query change
that leaves the mean unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Literal

import numpy as np
import pandas as pd

from irtables.config import Config
from irtables.config.tables import LAYOUTS
from irtables.diff.metadata import MetadataChange
from irtables.errors import UnknownNameError
from irtables.measures import parse_measure
from irtables.model import KEY, ResultSet
from irtables.model.names import DisplayNames
from irtables.render.numbers import typeset
from irtables.stats.paired import get_test
from irtables.tables import TableModel, build_all
from irtables.tables.citable import cite_table_set
from irtables.tables.model import BLANK, Cell

Change = Literal["added", "removed"]


@dataclass(frozen=True, slots=True)
class QueryChange:
    """One query's old and new value."""

    query: str
    old: float
    new: float

    @property
    def delta(self) -> float:
        """``new - old``."""
        return self.new - self.old


@dataclass(frozen=True, slots=True)
class MeanChange:
    """The change of one (dataset, system, metric) mean, with a paired test.

    ``n`` is the number of queries on both sides (the test's sample), ``n_changed`` how
    many of them changed value; ``pvalue`` is None when no test ran (nothing changed on
    the shared queries, or fewer than two of them).
    """

    dataset: str
    system: str
    metric: str
    old: float
    new: float
    n: int
    n_changed: int
    test: str
    method: str
    pvalue: float | None
    significant: bool
    higher_is_better: bool = True
    queries: tuple[QueryChange, ...] = ()

    @property
    def delta(self) -> float:
        """``new - old``."""
        return self.new - self.old

    @property
    def relative(self) -> float | None:
        """``(new - old) / |old|``; None when the old mean is 0."""
        return None if self.old == 0 else self.delta / abs(self.old)

    @property
    def worse(self) -> bool:
        """Whether the mean moved in the bad direction of its metric."""
        return self.delta < 0 if self.higher_is_better else self.delta > 0


@dataclass(frozen=True, slots=True)
class Presence:
    """Something found on one side only: ``kind`` is dataset, system, metric, query or table."""

    kind: str
    item: str
    change: Change


@dataclass(frozen=True, slots=True)
class CellChange:
    """A displayed cell that differs: its text with bold/underline/markers on each side."""

    table: str  # the file stem (table1, tableS1-dl19)
    group: str
    row: str
    column: str
    old: str
    new: str
    what: tuple[str, ...]  # among "value", "best", "second", "markers"
    title: str = ""  # the table's title as the paper shows it (Table 1, Table S2)


@dataclass(frozen=True, slots=True)
class NumberChange:
    """A citable number (a key of ``numbers.json``) whose displayed text changed; ``old``
    or ``new`` is empty when the key is on one side only."""

    key: str
    old: str
    new: str


@dataclass(frozen=True)
class DiffReport:
    """Everything that differs between two runs, in a stable order."""

    old_label: str
    new_label: str
    means: tuple[MeanChange, ...] = ()
    presence: tuple[Presence, ...] = ()
    cells: tuple[CellChange, ...] = ()
    tolerance: float = 0.0
    test: str = "t"
    alpha: float = 0.05
    compared: int = field(default=0)  # (dataset, system, metric) triples on both sides
    names: DisplayNames = field(default_factory=DisplayNames)  # how the paper shows the ids
    metadata: tuple[MetadataChange, ...] = ()  # runs' ir_metadata blocks that changed
    numbers: tuple[NumberChange, ...] = ()  # cited numbers whose text changed

    @property
    def identical(self) -> bool:
        """Whether no difference is listed."""
        return not (self.means or self.presence or self.cells or self.metadata or self.numbers)

    @property
    def regressions(self) -> tuple[MeanChange, ...]:
        """Listed mean changes in the bad direction of their metric."""
        return tuple(m for m in self.means if m.worse)

    def fails(self, on: str | None) -> bool:
        """Whether ``--fail-on on`` should make the exit status 1."""
        if on == "change":
            return not self.identical
        if on == "regression":
            return bool(self.regressions)
        return False


def diff(
    old: ResultSet,
    new: ResultSet,
    *,
    old_config: Config | None = None,
    new_config: Config | None = None,
    tolerance: float = 0.0,
    test: str = "t",
    alpha: float = 0.05,
    top: int = 3,
    labels: tuple[str, str] = ("old", "new"),
) -> DiffReport:
    """Compare two result sets (and the tables their configurations build).

    Examples
    --------
    >>> import pandas as pd
    >>> def rs(values):
    ...     return ResultSet.from_frame(pd.DataFrame({"dataset": "d", "system": "s",
    ...         "query": ["1", "2", "3"], "metric": "AP", "value": values}))
    >>> report = diff(rs([0.2, 0.4, 0.6]), rs([0.3, 0.5, 0.6]))
    >>> m = report.means[0]
    >>> (m.metric, round(m.delta, 4), m.n_changed, m.queries[0].query)
    ('AP', 0.0667, 2, '1')
    >>> diff(rs([0.2, 0.4, 0.6]), rs([0.2, 0.4, 0.6])).identical
    True
    """
    get_test(test)  # an unknown name fails before any work
    old_cfg, new_cfg = old_config or Config(), new_config or Config()
    merged = _merge(old.frame, new.frame)
    lower = set(new_cfg.output.lower_is_better)
    means, compared = _mean_changes(merged, tolerance, test, alpha, top, lower)
    cells, tables, numbers = _cell_changes(old, new, old_cfg, new_cfg, means, tolerance)
    presence = (*_presence(merged), *tables)
    names = DisplayNames(
        {**old_cfg.display_names().datasets, **new_cfg.display_names().datasets},
        {**old_cfg.display_names().systems, **new_cfg.display_names().systems},
    )
    return DiffReport(
        labels[0],
        labels[1],
        means,
        presence,
        cells,
        tolerance,
        test,
        alpha,
        compared,
        names,
        numbers=numbers,
    )


def _merge(old: pd.DataFrame, new: pd.DataFrame) -> pd.DataFrame:
    def plain(frame: pd.DataFrame) -> pd.DataFrame:
        return frame.astype(dict.fromkeys(KEY, str))

    merged = plain(old).merge(
        plain(new), on=list(KEY), how="outer", suffixes=("_old", "_new"), sort=True
    )
    return merged


def _mean_changes(
    merged: pd.DataFrame, tolerance: float, test: str, alpha: float, top: int, lower: set[str]
) -> tuple[tuple[MeanChange, ...], int]:
    out, compared = [], 0
    run = get_test(test)
    for (dataset, system, metric), g in merged.groupby(
        ["dataset", "system", "metric"], sort=True, observed=True
    ):
        old, new = g["value_old"].to_numpy(), g["value_new"].to_numpy()
        if np.isnan(old).all() or np.isnan(new).all():
            continue  # on one side only: a presence change
        compared += 1
        both = ~np.isnan(old) & ~np.isnan(new)
        moved = both & (old != new)
        delta = float(np.nanmean(new) - np.nanmean(old))
        if not (abs(delta) > tolerance or (tolerance == 0 and moved.any())):
            continue
        pvalue, method = None, "no test: no paired query changed"
        if moved.any() and both.sum() >= 2:
            result = run(new[both], old[both])
            pvalue, method = float(result.pvalue), result.method
        order = np.argsort(-np.abs(new - old)[moved], kind="stable")[:top]
        queries = g["query"].to_numpy()[moved][order]
        out.append(
            MeanChange(
                dataset=str(dataset),
                system=str(system),
                metric=str(metric),
                old=float(np.nanmean(old)),
                new=float(np.nanmean(new)),
                n=int(both.sum()),
                n_changed=int(moved.sum()),
                test=test,
                method=method,
                pvalue=pvalue,
                significant=pvalue is not None and pvalue < alpha,
                higher_is_better=_label(str(metric)) not in lower,
                queries=tuple(
                    QueryChange(str(q), float(o), float(n))
                    for q, o, n in zip(queries, old[moved][order], new[moved][order], strict=True)
                ),
            )
        )
    return tuple(out), compared


def _label(metric: str) -> str:
    try:
        return parse_measure(metric).label
    except Exception:  # a name the loaders kept as it was
        return metric


def _presence(merged: pd.DataFrame) -> Iterator[Presence]:
    """What is on one side only, reported at the highest level that explains it."""
    has_old, has_new = merged["value_old"].notna(), merged["value_new"].notna()
    levels = (
        ("dataset", ["dataset"]),
        ("system", ["dataset", "system"]),
        ("metric", ["dataset", "metric"]),
        ("query", ["dataset", "query"]),
    )
    both = set(merged.loc[has_old, "dataset"]) & set(merged.loc[has_new, "dataset"])
    for kind, cols in levels:
        old = set(merged.loc[has_old, cols].itertuples(index=False, name=None))
        new = set(merged.loc[has_new, cols].itertuples(index=False, name=None))
        for change, items in (("removed", old - new), ("added", new - old)):
            for item in sorted(items):
                if kind != "dataset" and item[0] not in both:
                    continue  # its dataset appeared or disappeared: said already
                yield Presence(kind, "/".join(item), change)  # type: ignore[arg-type]


def _cell_changes(
    old: ResultSet,
    new: ResultSet,
    old_cfg: Config,
    new_cfg: Config,
    means: tuple[MeanChange, ...],
    tolerance: float,
) -> tuple[tuple[CellChange, ...], list[Presence], tuple[NumberChange, ...]]:
    old_built, new_built = build_all(old, old_cfg), build_all(new, new_cfg)
    old_tables = {t.name: t for t in old_built.tables}
    new_tables = {t.name: t for t in new_built.tables}
    listed = {m.system for m in means}
    moved = _moved_thresholds(old, new)
    out: list[CellChange] = []
    for name in sorted(old_tables.keys() & new_tables.keys()):
        table = new_tables[name]
        skip = _other_measures(table, moved, new_cfg.dataset_name)
        title = table.title
        found = LAYOUTS.get(table.layout)  # a table per dataset (Table S1): say which
        if found is not None and found.per_dataset and len(table.datasets) == 1:
            title = f"{title} ({new_cfg.dataset_name(table.datasets[0])})"
        changes = _table_changes(old_tables[name], table, listed, tolerance, skip)
        out += [replace(c, title=title) for c in changes]
    numbers = number_changes(
        cite_table_set(old_built, old_cfg).texts(), cite_table_set(new_built, new_cfg).texts()
    )
    if tolerance > 0:  # as for the cells: a rounding flip of a change below the tolerance
        numbers = tuple(n for n in numbers if n.key.split("/")[2] in listed)
    return tuple(out), table_presence(list(old_tables), list(new_tables)), numbers


def number_changes(old: dict[str, str], new: dict[str, str]) -> tuple[NumberChange, ...]:
    """The keys whose displayed text differs (or that one side lacks), in the new order
    then the old keys gone.

    Examples
    --------
    >>> number_changes({"t/d/a/AP": "0.412", "t/d/b/AP": "0.300"}, {"t/d/a/AP": "0.405",
    ...     "t/d/b/AP": "0.300"})
    (NumberChange(key='t/d/a/AP', old='0.412', new='0.405'),)
    """
    keys = [*new, *(k for k in old if k not in new)]
    return tuple(
        NumberChange(k, old.get(k, ""), new.get(k, "")) for k in keys if old.get(k) != new.get(k)
    )


def _bases(results: ResultSet) -> dict[tuple[str, str], int]:
    """(dataset, measure without its relevance threshold) -> the threshold of its values."""
    out = {}
    for dataset in results.datasets():
        for metric in results.metrics(dataset):
            try:
                m = parse_measure(metric)
            except UnknownNameError:
                continue
            out[(dataset, replace(m, rel=None).name)] = m.rel or 1
    return out


def _moved_thresholds(old: ResultSet, new: ResultSet) -> set[tuple[str, str]]:
    """(dataset, measure) shown in the tables at one relevance threshold on one side and
    another on the other (``AP`` -> ``AP(rel=2)``): different measures, not a change."""
    before, after = _bases(old), _bases(new)
    return {k for k in before.keys() & after.keys() if before[k] != after[k]}


def _other_measures(
    table: TableModel, moved: set[tuple[str, str]], name: Callable[[str], str]
) -> Callable[[tuple[str, str, str]], bool]:
    """Whether a cell (group, row, column keys) shows a measure whose threshold moved: a
    column of that measure in the group of its dataset, or any cell of a table of that
    dataset alone (Table S1)."""
    if not moved:
        return lambda key: False
    alone = len(table.datasets) == 1 and any(d == table.datasets[0] for d, _ in moved)
    by_group = {(name(d), base) for d, base in moved}

    def skip(key: tuple[str, str, str]) -> bool:
        group, _, columns = key
        return alone or any((group, c) in by_group for c in columns.split("+"))

    return skip


def table_presence(old: list[str], new: list[str]) -> list[Presence]:
    """Tables built on one side only.

    Examples
    --------
    >>> [p.item for p in table_presence(["table1", "ablation"], ["table1"])]
    ['ablation']
    """
    removed = [Presence("table", n, "removed") for n in sorted(set(old) - set(new))]
    return removed + [Presence("table", n, "added") for n in sorted(set(new) - set(old))]


def _cells(table: TableModel) -> dict[tuple[str, str, str], tuple[str, str, Cell]]:
    """Every cell by (group, row key, column key), with its row and column labels; a cell
    spanning columns (MAP across the K columns of Table S1) is labelled with its span."""
    out = {}
    for group in table.groups:
        for row in group.rows:
            j = 0
            for cell in row.cells:
                spanned = table.columns[j : j + max(cell.span, 1)]
                if not spanned:
                    break
                if cell == BLANK:  # no number: the place of a row in a column not its
                    j += 1
                    continue
                label = spanned[0].label
                if len(spanned) > 1:
                    label = f"{spanned[0].label}…{spanned[-1].label}"
                key = (group.label or "", row.key, "+".join(c.key for c in spanned))
                out[key] = (row.label, label, cell)
                j += len(spanned)
    return out


def _table_changes(
    old: TableModel,
    new: TableModel,
    listed: set[str],
    tolerance: float,
    skip: Callable[[tuple[str, str, str]], bool] = lambda key: False,
) -> list[CellChange]:
    """Cells whose text, bold, underline or markers differ (but those ``skip`` says show
    another measure on each side).

    With a tolerance, a value-only change in the row of a system without any listed mean
    change is a rounding flip of a change below the tolerance: not listed.
    """
    before, after = _cells(old), _cells(new)
    out = []
    for key in (k for k in before if k in after and not skip(k)):  # in table order
        (row, column, a), (_, _, b) = before[key], after[key]
        what = tuple(
            w
            for w, differs in (
                ("value", a.text != b.text),
                ("best", a.best != b.best),
                ("second", a.second != b.second),
                ("markers", a.markers != b.markers),
            )
            if differs
        )
        if what == ("value",) and tolerance > 0 and key[1] not in listed:
            continue
        if what:
            change = CellChange(new.name, key[0], row, column, show(a), show(b), what, new.title)
            out.append(change)
    return out


def show(cell: Cell) -> str:
    """A cell as Markdown-ish text: ``**0.512**`` best, ``_0.498_`` second, then markers;
    a typographic minus, as the tables show it.

    Examples
    --------
    >>> show(Cell(0.5, "0.500", best=True, markers="†")), show(Cell(-0.5, "-0.500"))
    ('**0.500**†', '−0.500')
    """
    number = typeset(cell.text)
    text = f"**{number}**" if cell.best else f"_{number}_" if cell.second else number
    return text + cell.markers
