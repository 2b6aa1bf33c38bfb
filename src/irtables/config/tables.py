"""Table layouts and table sections: the :data:`LAYOUTS` registry (one record per
layout: description, section keys and what each means, how they are read, its builder)
and the ``[tables.<name>]`` sections, each read into a :class:`TableSpec`.

Three sections are known by name, each the built-in section of its layout (the
layout's :class:`BuiltIn`, :func:`built_in_tables`): ``[tables.main]`` (Table 1) and
``[tables.k_breakdown]`` (a Table S1 per dataset) exist even when the file has no such
section; ``[tables.ablation]`` when it has. Their layout is the one of their name
(``[tables.main]`` may name another, giving Table 1 that shape) and they take the keys of
their layout only. Any other section names its ``layout`` and takes the keys every
configured table has (:data:`CONFIGURED_KEYS`) too. :func:`section_keys` is the one
schema of a section: the parser accepts its keys (and names them when it refuses one),
and the configuration reference describes them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from irtables.base.repro_defaults import DEFAULT_CUTOFFS, DEFAULT_MEASURES, RBO_DEPTH, RBO_P
from irtables.config.reader import TomlReader
from irtables.config.schema import Key, check_types, checked_entries, entry_sections
from irtables.errors import ConfigError

#: Where a table's notes go: all in the caption (``full``); in the caption only those
#: that explain the marks in the cells (``short``: bold, underline, Δ, significance
#: markers); below the table in small type (``footnote``); nowhere (``none``). What the
#: caption leaves out is kept in the supplement's methods.
CAPTION_NOTES = ("full", "short", "footnote", "none")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
DEFAULT_MAIN_METRICS = ("NDCG@10", "MRR@10", "MAP", "P@10", "R@100")
DEFAULT_K_METRICS = ("NDCG", "P", "R", "MRR", "MAP")
DEFAULT_KS = (1, 3, 5, 10, 20, 100, 1000)
DEFAULT_ABLATION_METRICS = ("NDCG@10", "MRR@10", "MAP")


def _layout_names() -> str:
    names = list(LAYOUTS)
    return f"What the table is: {', '.join(names[:-1])} or {names[-1]}."


CAPTION = Key("caption", "Caption text; irtables appends what the numbers are.")
LABEL = Key("label", "LaTeX label.")
SYSTEMS = Key("systems", "System ids shown, in order (default: every system, configured order).")
METRICS = Key("metrics", "Metrics shown, in order.")
AVERAGE = Key(
    "average",
    "main, grid: add an average row (group); dataset_columns: the metrics averaged over the "
    "datasets.",
)
#: The keys of an entry of ``groups`` (a row group) and of ``datasets``.
GROUP_ENTRIES = (
    Key("name", "The group's heading (optional).", type="string"),
    Key("systems", "The system ids of the group, in order.", type="list of strings"),
)
DATASET_ENTRIES = (
    Key("id", "The dataset id.", type="string"),
    Key(
        "metrics",
        "The metrics shown for this dataset (default: the table's).",
        type="list of strings",
    ),
)
#: The keys of a row of an ablation group, and of the group.
ABLATION_ROWS = Key(
    "rows",
    "The rows: tables `{system, name, description}`.",
    type="array of tables",
    entries=(
        Key("system", "The row's system id.", type="string"),
        Key("name", "The row's display name (default: the system's).", type="string"),
        Key(
            "description", "What the variant changes, shown in a column of its own.", type="string"
        ),
    ),
)
ABLATION_GROUP_ENTRIES = (
    Key("name", "The group's heading (optional).", type="string"),
    Key("full", "The system id of the full model (one of the rows).", type="string"),
    ABLATION_ROWS,
)
GROUPS = Key(
    "groups",
    "Row groups: `[[tables.<name>.groups]]` with a name and its systems "
    "(ablation: with a name, its full model and its rows, as `[[tables.ablation.groups]]`).",
    type="array of tables",
    entries=GROUP_ENTRIES,
)
#: An ablation's ``groups``: the same words, entries of their own (its reader's).
ABLATION_GROUPS = Key(
    GROUPS.name, GROUPS.description, type=GROUPS.type, entries=ABLATION_GROUP_ENTRIES
)
DATASET = Key("dataset", "The dataset of a sensitivity or ablation table.")
#: Keys of every table section.
TABLE_KEYS = (
    CAPTION,
    LABEL,
    Key(
        "caption_notes",
        "Where this table's caption notes go (default: `output.caption_notes`).",
    ),
)
#: Keys of every section that names its layout (not a built-in table).
CONFIGURED_KEYS = (
    Key("layout", _layout_names),
    Key(
        "title",
        "What texts and page headings call the table (`Table 2`; default: `Table (<name>)`).",
    ),
    Key("wide", "LaTeX: table* (true) or table (false); default: from the content."),
    SYSTEMS,
    Key(
        "datasets",
        "Dataset ids, or tables `{id, metrics}` with each dataset's own metrics.",
        type="list of dataset ids or tables",
        entries=DATASET_ENTRIES,
    ),
    Key("supplement", "false keeps the table out of `irtables supplement`."),
)


@dataclass(frozen=True)
class DatasetColumns:
    """One dataset's column group: its id and the metrics shown for it (empty: the table's)."""

    id: str
    metrics: tuple[str, ...] = ()


@dataclass(frozen=True)
class SystemGroup:
    """Rows under one group heading (``Sparse``, ``Dense``); ``name`` may be None."""

    name: str | None
    systems: tuple[str, ...]


@dataclass(frozen=True)
class SweepPoint:
    """A system of a sensitivity table and its parameter values, given in the config."""

    system: str
    values: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class AblationRow:
    """One row of an ablation table."""

    system: str
    name: str | None = None
    description: str = ""


@dataclass(frozen=True)
class AblationGroup:
    """Rows of an ablation table compared with one full model."""

    name: str | None
    full: str
    rows: tuple[AblationRow, ...]


@dataclass(frozen=True)
class TableSpec:
    """A ``[tables.<name>]`` section: which layout, over which data, with which words.

    ``name`` is the section name (the file stem of its tables: :attr:`stem`); every other
    field is optional and meaningful for some layouts only (the parser rejects keys a
    layout does not use, and fills in its defaults).
    """

    name: str
    layout: str
    caption: str | None = None
    label: str | None = None
    title: str | None = None
    wide: bool | None = None  # None: decided from the content
    caption_notes: str | None = None  # None: output.caption_notes
    metrics: tuple[str, ...] = ()
    datasets: tuple[DatasetColumns, ...] = ()
    systems: tuple[str, ...] = ()
    # main: the systems of single datasets (over ``systems``)
    dataset_systems: tuple[tuple[str, tuple[str, ...]], ...] = ()
    groups: tuple[SystemGroup, ...] = ()
    average: tuple[str, ...] = ()  # dataset_columns: metrics averaged over the datasets
    average_partial: bool = False  # average a system over the datasets it has
    average_row: bool = True  # grid, main: an average row (group)
    k: tuple[int, ...] = ()
    dataset: str | None = None
    parameters: tuple[str, ...] = ()
    system: str | None = None  # sensitivity: the base name of the swept system ids
    fixed: tuple[tuple[str, str], ...] = ()
    points: tuple[SweepPoint, ...] = ()
    figure: bool = True
    supplement: bool = True
    delta: bool = False  # ablation: each row's difference from its group's full model
    ablation_groups: tuple[AblationGroup, ...] = ()
    # reproduction: the original dataset, its reproductions, (baseline, advanced) pairs,
    # the cutoffs of KTU and RBO and RBO's parameters
    original: str | None = None
    reproductions: tuple[str, ...] = ()
    pairs: tuple[tuple[str, str], ...] = ()
    cutoffs: tuple[int, ...] = ()
    rbo_p: float = RBO_P
    rbo_depth: int = RBO_DEPTH

    @property
    def dataset_ids(self) -> tuple[str, ...]:
        """The configured datasets, in order (empty: every dataset)."""
        return tuple(d.id for d in self.datasets)

    def systems_of(self, dataset: str) -> tuple[str, ...]:
        """The configured systems of ``dataset``, in order (empty: every system)."""
        return dict(self.dataset_systems).get(dataset, self.systems)

    @property
    def per_dataset(self) -> bool:
        """Whether the layout makes one table per dataset (file ``<stem>-<dataset>``)."""
        found = LAYOUTS.get(self.layout)
        return found is not None and found.per_dataset

    @property
    def built_in(self) -> BuiltIn | None:
        """The record of the built-in section this section is (``[tables.main]`` of
        layout ``main``: Table 1), else None."""
        found = LAYOUTS.get(self.layout)
        return found.built_in if found is not None and self.name == self.layout else None

    @property
    def stem(self) -> str:
        """The file stem of the section's table(s): ``table1`` for ``[tables.main]``,
        ``tableS1`` for ``[tables.k_breakdown]``, else the section name."""
        found = built_in_tables().get(self.name)
        return found.stem if found is not None else self.name

    @property
    def default_label(self) -> str:
        """The LaTeX label when the section sets none (``{dataset}``: the dataset's slug)."""
        found = built_in_tables().get(self.name)
        if found is not None and found.label:
            return found.label
        return f"tab:{self.name}" + ("-{dataset}" if self.per_dataset else "")


def parse_table_specs(r: TomlReader, tables: Mapping[str, Any]) -> tuple[TableSpec, ...]:
    """Every table section: Table 1 (``[tables.main]``, by default ``main`` with its
    defaults), Table S1 (``[tables.k_breakdown]``, likewise), then the others in file
    order."""
    made: dict[str, Any] = {name: {} for name, b in built_in_tables().items() if b.always}
    sections = {**made, **tables}
    return tuple(parse_table_spec(r, name, section) for name, section in sections.items())


def default_tables() -> tuple[TableSpec, ...]:
    """The tables of a configuration without ``[tables]``: Table 1 and Table S1."""
    return parse_table_specs(TomlReader("<defaults>"), {})


def section_layout(name: str, t: Mapping[str, Any]) -> object:
    """The layout of a section as written: a built-in table's is the one of its name
    (``[tables.main]`` may name another)."""
    found = built_in_tables().get(name)
    if found is not None and (not found.other_layout or "layout" not in t):
        return name
    return t.get("layout")


def _check_not_builtin(r: TomlReader, name: str) -> None:
    """Refuse a ``[tables.<name>]`` whose files would be those of a built-in output
    (``[tables.table1]`` would replace Table 1), naming both keys."""
    stems = [(b.stem, s) for s, b in built_in_tables().items() if b.stem != s]
    files = [(stem, f"tables.{s}", LAYOUTS[s].per_dataset) for stem, s in stems]
    for stem, key, prefix in [*files, ("significance", "compare", False)]:
        if name.startswith(f"{stem}-") if prefix else name.lower() == stem.lower():
            theirs = f"{stem}-<dataset>.*" if prefix else f"{stem}.*"
            raise ConfigError(
                f"{r.source}: tables.{name}: its files ({name}.*) would clash with those of "
                f"{key} ({theirs}); choose another name"
            )


def parse_table_spec(r: TomlReader, name: str, t: Any) -> TableSpec:
    """One ``[tables.<name>]`` section, read by its layout's record in :data:`LAYOUTS`."""
    w = f"tables.{name}"
    if not _NAME.match(name):
        raise r.error(w, "a name of letters, digits, '-' and '_' (it is the file name)", name)
    _check_not_builtin(r, name)
    if not isinstance(t, dict):
        raise r.error(w, "a table", t)
    built_in = name in built_in_tables() and section_layout(name, t) == name
    layout = name if built_in else r.req_str(t, w, "layout")
    found = LAYOUTS.get(layout)
    if found is None:
        raise r.error(f"{w}.layout", f"one of {', '.join(LAYOUTS)}", layout)
    r.only(t, w, set(section_keys(found, built_in=built_in)))
    common: dict[str, Any] = {
        "name": name,
        "layout": layout,
        "caption": r.text(t, w, "caption"),
        "label": r.opt_label(t, w, "label"),
        "caption_notes": caption_notes(r, t, w),
    }
    if not built_in:
        common |= {
            "title": r.text(t, w, "title"),
            "wide": _wide(r, t, w),
            "datasets": _dataset_columns(r, t, w),
            "supplement": r.bool_(t, w, "supplement", True),
        }
        if SYSTEMS not in found.keys:  # else its layout reads them
            common["systems"] = r.unique_list(t, w, "systems", (), "a system id")
    return TableSpec(**(common | found.options(r, t, w)))


def same_measure(name: str) -> object:
    """What makes two metric names of a list the same: the measure they name (``map``
    and ``AP``), or the name itself when it names none (its error comes later).

    Examples
    --------
    >>> same_measure("map") == same_measure("AP"), same_measure("NDCG") == same_measure("P")
    (True, False)
    """
    from irtables.errors import UnknownNameError
    from irtables.measures import parse_measure

    try:
        return parse_measure(name).name
    except UnknownNameError:
        return name


def _wide(r: TomlReader, t: Mapping[str, Any], w: str) -> bool | None:
    wide = t.get("wide")
    if wide is not None and not isinstance(wide, bool):
        raise r.error(f"{w}.wide", "true or false (default: decided from the content)", wide)
    return wide


def _dataset_columns(r: TomlReader, t: Mapping[str, Any], w: str) -> tuple[DatasetColumns, ...]:
    items = t.get("datasets", [])
    if not isinstance(items, list):
        raise r.error(f"{w}.datasets", "a list of dataset ids or {id, metrics} tables", items)
    out = []
    for i, item in enumerate(items):
        where = f"{w}.datasets[{i}]"
        if isinstance(item, str) and item:
            out.append(DatasetColumns(item))
        elif isinstance(item, dict):
            r.only(item, where, {k.name for k in DATASET_ENTRIES})
            check_types(r, item, where, DATASET_ENTRIES)
            out.append(
                DatasetColumns(
                    r.req_str(item, where, "id"),
                    r.unique_list(item, where, "metrics", (), "a metric", same_measure),
                )
            )
        else:
            raise r.error(where, "a dataset id or a table {id, metrics}", item)
    r.unique(f"{w}.datasets", [d.id for d in out], "a dataset id")
    return tuple(out)


def _main_keys(r: TomlReader, t: Mapping[str, Any], w: str) -> dict[str, Any]:
    every: tuple[str, ...] = ()
    per: list[tuple[str, tuple[str, ...]]] = []
    value = t.get("systems", [])
    if isinstance(value, dict):  # {dataset = [system, ...]}
        for dataset in value:
            ids = r.unique_list(value, f"{w}.systems", dataset, (), "a system id")
            if not ids:
                raise r.error(f"{w}.systems.{dataset}", "a non-empty list of system ids", ids)
            per.append((dataset, ids))
    else:
        every = r.unique_list(t, w, "systems", (), "a system id")
    return {
        "metrics": r.unique_list(t, w, "metrics", (), "a metric", same_measure)
        or DEFAULT_MAIN_METRICS,
        "average_row": r.bool_(t, w, "average", False),
        "systems": every,
        "dataset_systems": tuple(per),
    }


def _k_keys(r: TomlReader, t: Mapping[str, Any], w: str) -> dict[str, Any]:
    return {
        "metrics": r.unique_list(t, w, "metrics", DEFAULT_K_METRICS, "a metric", same_measure),
        "k": r.positive_ints(t, w, "k", DEFAULT_KS, non_empty=True),
    }


def _ablation_keys(r: TomlReader, t: Mapping[str, Any], w: str) -> dict[str, Any]:
    groups = t.get("groups")
    if groups is None:  # a single group written flat: full = ..., rows = [...]
        groups = [{"full": t.get("full"), "rows": t.get("rows")}]
    tables = checked_entries(
        r,
        groups,
        f"{w}.groups",
        ABLATION_GROUPS,
        ("a non-empty array of tables with full and rows", "a table with full and rows"),
        non_empty=True,
    )
    return {
        "dataset": r.req_str(t, w, "dataset"),
        "ablation_groups": tuple(_ablation_group(r, g, where) for where, g in tables),
        "metrics": r.unique_list(
            t, w, "metrics", DEFAULT_ABLATION_METRICS, "a metric", same_measure
        ),
        "delta": r.bool_(t, w, "delta", False),
    }


def _ablation_group(r: TomlReader, g: Mapping[str, Any], w: str) -> AblationGroup:
    parsed = []
    for rw, row in checked_entries(
        r,
        g.get("rows"),
        f"{w}.rows",
        ABLATION_ROWS,
        ("a non-empty array of {system, name, description}", "a table {system, name, description}"),
        non_empty=True,
    ):
        parsed.append(
            AblationRow(
                system=r.req_str(row, rw, "system"),
                name=r.text(row, rw, "name"),
                description=r.text(row, rw, "description") or "",
            )
        )
    systems = [row.system for row in parsed]
    for i, system in enumerate(systems):
        if system in systems[:i]:
            j = systems.index(system)
            expected = f"a system not already given as {w}.rows[{j}].system"
            raise r.error(f"{w}.rows[{i}].system", expected, system)
    full = r.req_str(g, w, "full")
    if full not in {row.system for row in parsed}:
        raise r.error(f"{w}.full", "one of the group's row systems", full)
    return AblationGroup(name=r.text(g, w, "name"), full=full, rows=tuple(parsed))


def _dataset_columns_keys(r: TomlReader, t: Mapping[str, Any], w: str) -> dict[str, Any]:
    average = r.str_or_list(t, w, "average", "a metric or a list of metrics to average")
    r.unique(f"{w}.average", average, "a metric", same_measure)
    return {
        "metrics": r.unique_list(t, w, "metrics", (), "a metric", same_measure),
        "average": tuple(average),
        "average_partial": r.bool_(t, w, "average_partial", False),
        "groups": _groups(r, t, w),
    }


def _groups(r: TomlReader, t: Mapping[str, Any], w: str) -> tuple[SystemGroup, ...]:
    out = []
    for where, g in checked_entries(
        r,
        t.get("groups", []),
        f"{w}.groups",
        GROUPS,
        ("an array of tables {name, systems}", "a table {name, systems}"),
    ):
        systems = r.unique_list(g, where, "systems", (), "a system id")
        if not systems:
            raise r.error(f"{where}.systems", "a non-empty list of system ids", systems)
        out.append(SystemGroup(r.opt_str(g, where, "name"), systems))
    return tuple(out)


def _grid_keys(r: TomlReader, t: Mapping[str, Any], w: str) -> dict[str, Any]:
    metric = r.opt_str(t, w, "metric") or "NDCG@10"
    return {"metrics": (metric,), "average_row": r.bool_(t, w, "average", True)}


def _sensitivity_keys(r: TomlReader, t: Mapping[str, Any], w: str) -> dict[str, Any]:
    parameters = r.unique_list(t, w, "parameters", (), "a parameter name")
    if not 1 <= len(parameters) <= 2:
        raise r.error(f"{w}.parameters", "one or two parameter names", list(parameters))
    metrics = r.unique_list(t, w, "metrics", ("NDCG@10",), "a metric", same_measure)
    if not metrics or (len(parameters) == 2 and len(metrics) != 1):
        raise r.error(
            f"{w}.metrics", "one metric (two parameters) or a non-empty list", list(metrics)
        )
    fixed = t.get("fixed", {})
    if not isinstance(fixed, dict) or not all(
        isinstance(v, str | int | float) and not isinstance(v, bool) for v in fixed.values()
    ):
        raise r.error(f"{w}.fixed", "a table {parameter = value}", fixed)
    return {
        "dataset": r.opt_str(t, w, "dataset"),
        "metrics": metrics,
        "parameters": parameters,
        "system": r.opt_str(t, w, "system"),
        "fixed": tuple((str(k), _value_text(v)) for k, v in fixed.items()),
        "points": _points(r, t, w, parameters),
        "figure": r.bool_(t, w, "figure", True),
    }


def _points(
    r: TomlReader, t: Mapping[str, Any], w: str, parameters: tuple[str, ...]
) -> tuple[SweepPoint, ...]:
    out = []
    for where, p in r.tables(
        t.get("points", []),
        f"{w}.points",
        "an array of tables {system, <parameter> = value}",
        "a table {system, <parameter> = value}",
        {"system", *parameters},
    ):
        missing = [name for name in parameters if name not in p]
        if missing:
            raise r.error(where, f"a value for {', '.join(missing)}", p)
        values = tuple((name, _value_text(p[name])) for name in parameters)
        out.append(SweepPoint(r.req_str(p, where, "system"), values))
    return tuple(out)


def _value_text(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _reproduction_keys(r: TomlReader, t: Mapping[str, Any], w: str) -> dict[str, Any]:
    reproductions = r.unique_list(t, w, "reproductions", (), "a dataset id")
    if not reproductions:
        raise r.error(f"{w}.reproductions", "a non-empty list of dataset ids", reproductions)
    pairs = t.get("pairs", [])
    if not isinstance(pairs, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) and x for x in p)
        for p in pairs
    ):
        raise r.error(f"{w}.pairs", "a list of [baseline, advanced] system ids", pairs)
    r.unique(f"{w}.pairs", pairs, "a pair", tuple)
    rbo_p = t.get("rbo_p", RBO_P)
    if type(rbo_p) not in (int, float) or not 0 < rbo_p < 1:
        raise r.error(f"{w}.rbo_p", "a number between 0 and 1 (exclusive)", rbo_p)
    return {
        "original": r.req_str(t, w, "original"),
        "reproductions": reproductions,
        "pairs": tuple((str(b), str(a)) for b, a in pairs),
        "systems": r.unique_list(t, w, "systems", (), "a system id"),
        "metrics": r.unique_list(t, w, "metrics", DEFAULT_MEASURES, "a metric", same_measure),
        "cutoffs": r.positive_ints(t, w, "cutoffs", DEFAULT_CUTOFFS, non_empty=True),
        "rbo_p": float(rbo_p),
        "rbo_depth": _at_least_one(r, w, "rbo_depth", r.int_(t, w, "rbo_depth", RBO_DEPTH)),
    }


def _at_least_one(r: TomlReader, w: str, key: str, value: int) -> int:
    if value < 1:
        raise r.error(f"{w}.{key}", "an integer of at least 1", value)
    return value


Options = Callable[[TomlReader, Mapping[str, Any], str], dict[str, Any]]


@dataclass(frozen=True)
class BuiltIn:
    """The section of a layout known by the layout's name (``[tables.main]``).

    ``always``: it exists even when the file has no such section (with its defaults);
    ``stem``: the file stem of its table(s); ``title``: its title (empty: numbered among
    the study's tables); ``label``: its default LaTeX label (empty: ``tab:<name>``);
    ``keys``: keys of the layout as this section describes them (``Table 1``'s metrics),
    and ``layout`` when the section may name another layout (Table 1 of that shape);
    ``chosen_systems`` (``module:function`` of ``(means, config, spec, dataset)``): the
    systems the section shows when it names its ``systems``, whose tests (and letters)
    are then of those alone (Table 1; other sections are tested over what they show and
    their baselines); ``numbering``: how its tables are numbered when they have no
    ``title``: among the paper's tables (``paper``: Table 2, 3, ... after Table 1) or
    among the supplement's (``supplementary``: Table S1, S2, ... in order; Table S1 per
    dataset). ``k_figure``: the supplement draws, per dataset, the section's metric
    families against its cutoffs ``k`` (the metric vs K figure of Table S1).
    """

    always: bool
    stem: str
    title: str = ""
    label: str = ""
    keys: tuple[Key, ...] = ()
    chosen_systems: str = ""
    numbering: Literal["paper", "supplementary"] = "paper"
    k_figure: bool = False

    @property
    def other_layout(self) -> bool:
        """Whether the section may name another layout (``[tables.main]``: Table 1 of
        that shape)."""
        return any(k.name == "layout" for k in self.keys)


def built_in_tables() -> dict[str, BuiltIn]:
    """The sections known by name: each layout's built-in section, by layout name.

    Examples
    --------
    >>> {name: b.stem for name, b in built_in_tables().items()}
    {'main': 'table1', 'k_breakdown': 'tableS1', 'ablation': 'ablation'}
    """
    return {name: layout.built_in for name, layout in LAYOUTS.items() if layout.built_in}


def shown_metrics(spec: TableSpec) -> tuple[str, ...]:
    """The measures a table shows: its ``metrics``."""
    return spec.metrics


def column_metrics(spec: TableSpec) -> tuple[str, ...]:
    """The measures of a ``dataset_columns`` table: each dataset's own, and the table's
    (Table 1's defaults when it names none) where a dataset has none of its own."""
    default = spec.metrics or DEFAULT_MAIN_METRICS
    own = [name for d in spec.datasets for name in d.metrics]
    if not spec.datasets or any(not d.metrics for d in spec.datasets):
        own = [*default, *own]
    return tuple(dict.fromkeys([*own, *spec.average]))


def metrics_at_cutoffs(spec: TableSpec) -> tuple[str, ...]:
    """The measures of a ``k_breakdown`` table: each family at each cutoff ``spec.k``, a
    measure without cutoff once."""
    from irtables.errors import UnknownNameError
    from irtables.measures import FAMILIES, parse_measure

    names = []
    for family in spec.metrics:
        try:
            m = parse_measure(family)
        except UnknownNameError:
            m = parse_measure(f"{family}@1")
        if FAMILIES[m.family].cutoff == "none" or (m.k is None and family.upper() == "MAP"):
            names.append(family)
            continue
        names.extend(f"{m.family}@{k}" for k in spec.k)
    return tuple(names)


@dataclass(frozen=True)
class Layout:
    """A table layout: what it shows, the keys of its ``[tables.<name>]`` section and
    what each means, how they are read, and the function that builds it
    (``module:function``, imported when a table is built, so reading a configuration
    imports no table code).

    The builder takes ``(config, spec, means, *, markers)`` and returns the
    :class:`~irtables.tables.model.TableModel` of the section (a list of them, one per
    dataset, when ``per_dataset``). ``metrics(spec)`` names the measures the section
    shows: what the runs of a dataset given as qrels + runs are evaluated for.

    ``dropped`` (``module:function`` of ``(means, spec)``) lists the default metrics a
    section of the layout leaves out because no results hold them: the tables command
    warns about them. ``headline``: the first table of the layout is the study's
    headline (Table 1), whose metrics the supplement's per-query and meta-analyses are
    of.

    ``tested_against``: what the rows of its tables are compared with. ``baselines``:
    the baselines of ``[compare]`` (or of the section's own ``compare``), the tables
    sharing their tests in section order. ``groups``: each row with the full model of
    its group (:attr:`TableSpec.ablation_groups`, the ablation), tested on their own, the
    tables after all others; such a section takes no ``compare`` of its own.
    ``figure`` (``module:function`` of ``(table)``): the supplement's figure of each of
    its tables whose section keeps ``figure = true`` (empty: none). ``run_files``
    (``module:function`` of ``(config, spec, base, formats, template_dirs)``, returning
    file name -> text): the files ``irtables tables`` writes for a section whose tables
    need the runs themselves, not the means (the reproduction's; its builder makes none).
    """

    name: str
    description: str
    builder: str
    keys: tuple[Key, ...]  # beyond the keys every section has
    options: Options  # reads those keys into TableSpec fields, with their defaults
    per_dataset: bool = False  # one table per dataset (file <stem>-<dataset>)
    metrics: Callable[[TableSpec], tuple[str, ...]] = shown_metrics
    built_in: BuiltIn | None = None  # the section known by the layout's name, if any
    dropped: str = ""
    headline: bool = False
    tested_against: Literal["baselines", "groups"] = "baselines"
    figure: str = ""
    run_files: str = ""


def compared_with(layout: str) -> str:
    """What the rows of a table of ``layout`` are compared with (its record's
    ``tested_against``; ``baselines`` for a layout not registered).

    Examples
    --------
    >>> compared_with("main"), compared_with("ablation")
    ('baselines', 'groups')
    """
    found = LAYOUTS.get(layout)
    return found.tested_against if found is not None else "baselines"


def built_in_of_table(name: str) -> BuiltIn | None:
    """The record of the built-in section a table (by file name) comes from: its stem, or
    ``<stem>-<dataset>`` of a layout made per dataset; None for a configured table.

    Examples
    --------
    >>> [b.stem if (b := built_in_of_table(n)) else None for n in ("tableS1-x", "table1", "g")]
    ['tableS1', 'table1', None]
    """
    for section, b in built_in_tables().items():
        per_dataset = LAYOUTS[section].per_dataset
        if name == b.stem or (per_dataset and name.startswith(f"{b.stem}-")):
            return b
    return None


def section_keys(layout: Layout, *, built_in: bool = False) -> dict[str, Key]:
    """The keys of a section of ``layout``, by name, sorted: those of every table, then a
    configured section's (:data:`CONFIGURED_KEYS` and the layout's) or the layout's
    built-in section's (the layout's, as the built-in section describes them).

    Examples
    --------
    >>> list(section_keys(LAYOUTS["grid"]))[:4]
    ['average', 'caption', 'caption_notes', 'datasets']
    >>> section_keys(LAYOUTS["main"], built_in=True)["metrics"].text
    'Metrics of Table 1, in order (any spelling).'
    """
    if built_in and layout.built_in is not None:
        keys = (*TABLE_KEYS, *layout.keys, *layout.built_in.keys)
    else:
        keys = (*TABLE_KEYS, *CONFIGURED_KEYS, *layout.keys)
    found = {k.name: k for k in keys}  # the later one: the built-in section's wording
    return {name: found[name] for name in sorted(found)}


def table_sections() -> dict[str, dict[str, Key]]:
    """The keys of each kind of table section, as the configuration reference lists
    them: each built-in section (``tables.main``), then ``tables.<name>``, the keys of
    every layout (a key taken by several layouts is described once); each followed by
    the sections of the entries of its arrays of tables (``tables.<name>.groups[]``).

    A key of ``tables.<name>`` has the entries a layout without a built-in section gives
    it when there is one: the ablation's ``groups`` are those of ``tables.ablation``.

    Examples
    --------
    >>> [s for s in table_sections() if s.endswith("[]")][:2]
    ['tables.ablation.groups[]', 'tables.ablation.groups[].rows[]']
    """
    out: dict[str, dict[str, Key]] = {}
    for name in built_in_tables():
        keys = section_keys(LAYOUTS[name], built_in=True)
        out[f"tables.{name}"] = keys
        out |= entry_sections(f"tables.{name}", keys.values())
    every: dict[str, Key] = {}
    for layout in sorted(LAYOUTS.values(), key=lambda found: found.built_in is not None):
        for name, key in section_keys(layout).items():
            every.setdefault(name, key)
    out["tables.<name>"] = {name: every[name] for name in sorted(every)}
    return out | entry_sections("tables.<name>", out["tables.<name>"].values())


#: Every table layout, by name: the one record the configuration, its reference,
#: ``build_table``, the command-line help and README's list read.
LAYOUTS: dict[str, Layout] = {
    layout.name: layout
    for layout in (
        Layout(
            "main",
            "Table 1: rows grouped by dataset, one row per system, one column per metric",
            "irtables.tables.layouts:build_main",
            (METRICS, AVERAGE, SYSTEMS),
            _main_keys,
            built_in=BuiltIn(
                True,
                "table1",
                "Table 1",
                keys=(
                    Key(
                        "layout",
                        "main (default), or another layout to give Table 1 that shape "
                        "(see `tables.<name>`).",
                    ),
                    Key("metrics", "Metrics of Table 1, in order (any spelling).", "metrics"),
                    Key("average", "Add an average-over-datasets row group.", "average_row"),
                    Key("label", "LaTeX label (letters, digits and `: . _ / -`)."),
                    Key(
                        "systems",
                        "System ids shown, in order (default: every system, configured "
                        'order), or a table `{dataset = ["system", ...]}` choosing them per '
                        "dataset (a dataset it does not name shows every system).",
                    ),
                ),
                chosen_systems="irtables.tables.layouts:main_systems",
            ),
            dropped="irtables.tables.layouts:dropped_main_metrics",
            headline=True,
        ),
        Layout(
            "k_breakdown",
            "Table S1: for one dataset, rows metric x system, one column per K",
            "irtables.tables.layouts:build_k_breakdown",
            (METRICS, Key("k", "Cutoffs shown (k_breakdown).")),
            _k_keys,
            per_dataset=True,
            metrics=metrics_at_cutoffs,
            built_in=BuiltIn(
                True,
                "tableS1",
                label="tab:s1-{dataset}",
                keys=(
                    Key(
                        "metrics",
                        "Metric families of Table S1 (a measure without cutoff spans the K "
                        "columns; with one K it has a column of its own, `no cutoff`).",
                        "metrics",
                    ),
                    Key(
                        "k",
                        "Cutoffs shown (only those present in the data; a configured cutoff "
                        "no dataset holds is named in a warning).",
                        "k",
                    ),
                    Key("caption", "Caption text (`{dataset}` stands for the dataset's name)."),
                    Key("label", "LaTeX label (`{dataset}` stands for the dataset's slug)."),
                ),
                numbering="supplementary",
                k_figure=True,
            ),
        ),
        Layout(
            "ablation",
            "methods as rows, metrics as columns, a description column, optional Δ",
            "irtables.tables.layouts:build_ablation",
            (
                DATASET,
                METRICS,
                Key(
                    "delta",
                    "Show each row's difference from the full model (of the values shown).",
                ),
                ABLATION_GROUPS,
                Key("full", "A single group written flat: the full model's system id."),
                Key(
                    "rows",
                    "A single group written flat: its rows.",
                    type=ABLATION_ROWS.type,
                    entries=ABLATION_ROWS.entries,
                ),
            ),
            _ablation_keys,
            tested_against="groups",
            built_in=BuiltIn(
                False,
                "ablation",
                "Table 2",
                keys=(
                    Key("dataset", "The dataset of the ablation."),
                    Key(
                        "groups",
                        "Groups of rows, each compared with its own full model "
                        "(`[[tables.ablation.groups]]`).",
                        type=ABLATION_GROUPS.type,
                        entries=ABLATION_GROUP_ENTRIES,
                    ),
                ),
            ),
        ),
        Layout(
            "dataset_columns",
            "one row per system, a column group per dataset with its own metrics",
            "irtables.tables.configured.columns:build_dataset_columns",
            (
                METRICS,
                AVERAGE,
                Key(
                    "average_partial",
                    "Average a system over the datasets it has (the caption says so).",
                ),
                GROUPS,
            ),
            _dataset_columns_keys,
            metrics=column_metrics,
        ),
        Layout(
            "grid",
            "BEIR style: one row per dataset, one column per system, one metric, an average row",
            "irtables.tables.configured.grid:build_grid",
            (Key("metric", "The one metric of the grid (default NDCG@10)."), AVERAGE),
            _grid_keys,
        ),
        Layout(
            "sensitivity",
            "one metric against one or two parameters of a system (table and figure)",
            "irtables.tables.configured.sensitivity:build_sensitivity",
            (
                DATASET,
                METRICS,
                Key(
                    "parameters",
                    "One or two parameters read from system ids such as `bm25_k1=0.9_b=0.4`.",
                ),
                Key("system", "The base name of the swept system ids (`bm25`)."),
                Key("fixed", "Values of the other parameters, `{b = 0.7}`."),
                Key(
                    "points",
                    "Parameter values of systems whose ids carry none: tables "
                    "`{system = ..., <parameter> = value}`.",
                ),
                Key("figure", "Draw the sensitivity figure in the supplement."),
            ),
            _sensitivity_keys,
            figure="irtables.supplement.sensitivity:sensitivity_figure",
        ),
        Layout(
            "reproduction",
            "an original's runs against their reproductions and replications (repro_eval's "
            "KTU, RBO, RMSE, ER, ΔRI, t-test)",
            "irtables.tables.reproduction:build_in_study",
            (
                Key(
                    "original",
                    "reproduction: the dataset id of the original runs (a dataset with "
                    "qrels and runs).",
                ),
                Key(
                    "reproductions",
                    "reproduction: dataset ids of the reproduced runs; the same qrels "
                    "(by content) as the original make a reproducibility study, others a "
                    "replicability study.",
                ),
                Key(
                    "pairs",
                    "reproduction: `[baseline, advanced]` system ids present in the original "
                    "and each reproduction; ER and ΔRI of the advanced over the baseline.",
                ),
                SYSTEMS,
                METRICS,
                Key(
                    "cutoffs",
                    "reproduction: cutoffs of KTU and RBO (default 5, 10, 20, 50, 100, 1000).",
                ),
                Key("rbo_p", "reproduction: RBO's persistence p (default 0.95, as repro_eval)."),
                Key("rbo_depth", "reproduction: RBO's depth (default 1000, as repro_eval)."),
            ),
            _reproduction_keys,
            run_files="irtables.study.pipeline:reproduction_table_files",
        ),
    )
}


def caption_notes(r: TomlReader, t: Mapping[str, Any], w: str) -> str | None:
    """A table's own ``caption_notes`` (None: ``output.caption_notes`` applies)."""
    if "caption_notes" not in t:
        return None
    return r.choice(t, w, "caption_notes", CAPTION_NOTES, "full")


def layout_function(path: str) -> Callable[..., Any]:
    """The function a layout's record names (``module:function``), imported now."""
    import importlib

    module, function = path.split(":")
    return getattr(importlib.import_module(module), function)  # type: ignore[no-any-return]


def layout_builder(name: str) -> Callable[..., Any]:
    """The function that builds layout ``name`` (imported now)."""
    return layout_function(LAYOUTS[name].builder)
