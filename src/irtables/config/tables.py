"""Table layouts and configured tables: the :data:`LAYOUTS` registry (one record per
layout: description, section keys, how they are read, its builder) and ``[tables.<name>]``
sections with a ``layout`` key.

``[tables.main]``, ``[tables.k_breakdown]`` and ``[tables.ablation]`` keep their own
records (:mod:`irtables.config`); any other ``[tables.<name>]`` (and ``[tables.main]`` with
a ``layout`` other than ``main``) becomes a :class:`TableSpec`, read here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from irtables.config.reader import TomlReader
from irtables.errors import ConfigError

#: Where a table's notes go: all in the caption (``full``); in the caption only those
#: that explain the marks in the cells (``short``: bold, underline, Δ, significance
#: markers); below the table in small type (``footnote``); nowhere (``none``). What the
#: caption leaves out is kept in the supplement's methods.
CAPTION_NOTES = ("full", "short", "footnote", "none")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
_SHARED_KEYS = {
    "layout", "caption", "label", "title", "wide", "systems", "datasets", "supplement",
    "caption_notes",
}  # fmt: skip


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
class TableSpec:
    """A ``[tables.<name>]`` section: which layout, over which data, with which words.

    ``name`` is the section name and the file stem; every other field is optional and
    meaningful for some layouts only (the parser rejects keys a layout does not use).
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

    @property
    def dataset_ids(self) -> tuple[str, ...]:
        """The configured datasets, in order (empty: every dataset)."""
        return tuple(d.id for d in self.datasets)


def parse_table_specs(r: TomlReader, tables: Mapping[str, Any]) -> tuple[TableSpec, ...]:
    """Every ``[tables.<name>]`` that is not one of the built-in three, in file order.

    ``[tables.main]`` is included when it names a ``layout`` other than ``main``.
    """
    out = []
    for name, section in tables.items():
        if name in ("k_breakdown", "ablation"):
            continue
        _check_not_builtin(r, name)
        builtin = not isinstance(section, dict) or section.get("layout", "main") == "main"
        if name == "main" and builtin:
            continue
        out.append(parse_table_spec(r, name, section))
    return tuple(out)


#: File names of the built-in outputs of ``irtables tables``: a configured table with
#: one of them would replace it. (name or prefix, the key that writes it)
BUILT_IN_FILES = (
    ("table1", "tables.main"),
    ("tableS1-", "tables.k_breakdown"),
    ("significance", "compare"),
)


def _check_not_builtin(r: TomlReader, name: str) -> None:
    """Refuse a ``[tables.<name>]`` whose files would be those of a built-in output
    (``[tables.table1]`` would replace Table 1), naming both keys."""
    for stem, key in BUILT_IN_FILES:
        prefix = stem.endswith("-")
        if name.startswith(stem) if prefix else name.lower() == stem.lower():
            theirs = f"{stem}<dataset>.*" if prefix else f"{stem}.*"
            raise ConfigError(
                f"{r.source}: tables.{name}: its files ({name}.*) would clash with those of "
                f"{key} ({theirs}); choose another name"
            )


def parse_table_spec(r: TomlReader, name: str, t: Any) -> TableSpec:
    """One ``[tables.<name>]`` section."""
    w = f"tables.{name}"
    if not _NAME.match(name):
        raise r.error(w, "a name of letters, digits, '-' and '_' (it is the file name)", name)
    if not isinstance(t, dict):
        raise r.error(w, "a table", t)
    layout = r.req_str(t, w, "layout") if name != "main" else r.opt_str(t, w, "layout") or "main"
    found = LAYOUTS.get(layout)
    if found is None or found.options is None:
        known = [k for k, v in LAYOUTS.items() if v.options is not None]
        raise r.error(f"{w}.layout", f"one of {', '.join(known)}", layout)
    r.only(t, w, _SHARED_KEYS | found.keys)
    wide = t.get("wide")
    if wide is not None and not isinstance(wide, bool):
        raise r.error(f"{w}.wide", "true or false (default: decided from the content)", wide)
    common: dict[str, Any] = {
        "name": name,
        "layout": layout,
        "caption": r.text(t, w, "caption"),
        "label": r.opt_label(t, w, "label"),
        "title": r.text(t, w, "title"),
        "wide": wide,
        "systems": r.str_list(t, w, "systems", ()),
        "datasets": _dataset_columns(r, t, w),
        "supplement": r.bool_(t, w, "supplement", True),
        "caption_notes": caption_notes(r, t, w),
    }
    return TableSpec(**common, **found.options(r, t, w))


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
            r.only(item, where, {"id", "metrics"})
            out.append(
                DatasetColumns(r.req_str(item, where, "id"), r.str_list(item, where, "metrics", ()))
            )
        else:
            raise r.error(where, "a dataset id or a table {id, metrics}", item)
    return tuple(out)


def _main_keys(r: TomlReader, t: Mapping[str, Any], w: str) -> dict[str, Any]:
    return {
        "metrics": r.str_list(t, w, "metrics", ()),
        "average_row": r.bool_(t, w, "average", False),
    }


def _k_keys(r: TomlReader, t: Mapping[str, Any], w: str) -> dict[str, Any]:
    ks = r.positive_ints(t, w, "k", ())
    return {"metrics": r.str_list(t, w, "metrics", ()), "k": ks}


def _dataset_columns_keys(r: TomlReader, t: Mapping[str, Any], w: str) -> dict[str, Any]:
    average = r.str_or_list(t, w, "average", "a metric or a list of metrics to average")
    return {
        "metrics": r.str_list(t, w, "metrics", ()),
        "average": tuple(average),
        "average_partial": r.bool_(t, w, "average_partial", False),
        "groups": _groups(r, t, w),
    }


def _groups(r: TomlReader, t: Mapping[str, Any], w: str) -> tuple[SystemGroup, ...]:
    items = t.get("groups", [])
    if not isinstance(items, list):
        raise r.error(f"{w}.groups", "an array of tables {name, systems}", items)
    out = []
    for i, g in enumerate(items):
        where = f"{w}.groups[{i}]"
        if not isinstance(g, dict):
            raise r.error(where, "a table {name, systems}", g)
        r.only(g, where, {"name", "systems"})
        systems = r.str_list(g, where, "systems", ())
        if not systems:
            raise r.error(f"{where}.systems", "a non-empty list of system ids", systems)
        out.append(SystemGroup(r.opt_str(g, where, "name"), systems))
    return tuple(out)


def _grid_keys(r: TomlReader, t: Mapping[str, Any], w: str) -> dict[str, Any]:
    metric = r.opt_str(t, w, "metric") or "NDCG@10"
    return {"metrics": (metric,), "average_row": r.bool_(t, w, "average", True)}


def _sensitivity_keys(r: TomlReader, t: Mapping[str, Any], w: str) -> dict[str, Any]:
    parameters = r.str_list(t, w, "parameters", ())
    if not 1 <= len(parameters) <= 2:
        raise r.error(f"{w}.parameters", "one or two parameter names", list(parameters))
    metrics = r.str_list(t, w, "metrics", ("NDCG@10",))
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
    items = t.get("points", [])
    if not isinstance(items, list):
        raise r.error(f"{w}.points", "an array of tables {system, <parameter> = value}", items)
    out = []
    for i, p in enumerate(items):
        where = f"{w}.points[{i}]"
        if not isinstance(p, dict):
            raise r.error(where, "a table {system, <parameter> = value}", p)
        r.only(p, where, {"system", *parameters})
        missing = [name for name in parameters if name not in p]
        if missing:
            raise r.error(where, f"a value for {', '.join(missing)}", p)
        values = tuple((name, _value_text(p[name])) for name in parameters)
        out.append(SweepPoint(r.req_str(p, where, "system"), values))
    return tuple(out)


def _value_text(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


Options = Callable[[TomlReader, Mapping[str, Any], str], dict[str, Any]]


@dataclass(frozen=True)
class Layout:
    """A table layout: what it shows, the keys of its ``[tables.<name>]`` section, how
    they are read, and the function that builds it (``module:function``, imported when
    a table is built, so reading a configuration imports no table code)."""

    name: str
    description: str
    builder: str
    keys: frozenset[str] = frozenset()  # beyond the keys every section has
    options: Options | None = None  # None: not a layout of [tables.<name>]


#: Every table layout, by name: the one record the configuration, ``build_table``, the
#: command-line help and README's list read.
LAYOUTS: dict[str, Layout] = {
    layout.name: layout
    for layout in (
        Layout(
            "main",
            "Table 1: rows grouped by dataset, one row per system, one column per metric",
            "irtables.tables.layouts:build_main",
            frozenset({"metrics", "average"}),
            _main_keys,
        ),
        Layout(
            "k_breakdown",
            "Table S1: for one dataset, rows metric x system, one column per K",
            "irtables.tables.layouts:build_k_breakdown",
            frozenset({"metrics", "k"}),
            _k_keys,
        ),
        Layout(
            "ablation",
            "methods as rows, metrics as columns, a description column, optional Δ",
            "irtables.tables.layouts:build_ablation",
        ),
        Layout(
            "dataset_columns",
            "one row per system, a column group per dataset with its own metrics",
            "irtables.tables.configured.columns:build_dataset_columns",
            frozenset({"metrics", "average", "average_partial", "groups"}),
            _dataset_columns_keys,
        ),
        Layout(
            "grid",
            "BEIR style: one row per dataset, one column per system, one metric, an average row",
            "irtables.tables.configured.grid:build_grid",
            frozenset({"metric", "average"}),
            _grid_keys,
        ),
        Layout(
            "sensitivity",
            "one metric against one or two parameters of a system (table and figure)",
            "irtables.tables.configured.sensitivity:build_sensitivity",
            frozenset({"dataset", "metrics", "parameters", "system", "fixed", "points", "figure"}),
            _sensitivity_keys,
        ),
    )
}


def caption_notes(r: TomlReader, t: Mapping[str, Any], w: str) -> str | None:
    """A table's own ``caption_notes`` (None: ``output.caption_notes`` applies)."""
    if "caption_notes" not in t:
        return None
    return r.choice(t, w, "caption_notes", CAPTION_NOTES, "full")


def layout_builder(name: str) -> Callable[..., Any]:
    """The function that builds layout ``name`` (imported now)."""
    import importlib

    module, function = LAYOUTS[name].builder.split(":")
    return getattr(importlib.import_module(module), function)  # type: ignore[no-any-return]
