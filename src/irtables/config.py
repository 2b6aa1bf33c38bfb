"""The study configuration (``irtables.toml``), read into frozen dataclasses.

Every key is optional: with no file at all, irtables uses folder and file names as
display names and the defaults below. A bad value names the file, the key and what was
expected.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from irtables.config_reader import TomlReader
from irtables.config_tables import TableSpec, parse_table_specs
from irtables.errors import ConfigError

FORMATS = ("latex", "markdown", "csv", "html")
DEFAULT_FORMATS = ("latex", "markdown", "csv")
#: How the tables show systems with several runs (seeds or folds).
SEED_DISPLAYS = ("mean", "mean_std")
DEFAULT_MAIN_METRICS = ("NDCG@10", "MRR@10", "MAP", "P@10", "R@100")
DEFAULT_K_METRICS = ("NDCG", "P", "R", "MRR", "MAP")
DEFAULT_KS = (1, 3, 5, 10, 20, 100, 1000)
CONFIG_NAME = "irtables.toml"


@dataclass(frozen=True)
class Named:
    """An id as it appears in the data, and its display name."""

    id: str
    name: str


@dataclass(frozen=True)
class DatasetSpec(Named):
    """A dataset: display name and, optionally, the qrels and runs to evaluate for it.

    With ``qrels`` and ``runs`` (paths relative to the config file; runs may be glob
    patterns), irtables evaluates the runs itself with trec_eval's semantics:
    ``relevance`` is trec_eval's ``-l``, ``depth`` its ``-M``, ``complete`` its ``-c``,
    ``measures`` the measures (default: what the tables show).
    """

    qrels: str | None = None
    runs: tuple[str, ...] = ()
    relevance: int = 1
    depth: int | None = None
    complete: bool = False
    measures: tuple[str, ...] = ()

    @property
    def evaluated(self) -> bool:
        """Whether irtables evaluates runs for this dataset."""
        return self.qrels is not None


@dataclass(frozen=True)
class Output:
    """Where and how tables are written."""

    dir: str = "tables"
    formats: tuple[str, ...] = DEFAULT_FORMATS
    decimals: int = 3
    leading_zero: bool = True
    second_best: bool = False
    templates: str | None = None
    missing: str = "error"
    lower_is_better: tuple[str, ...] = ()
    # LaTeX: table* (spanning both columns of a two-column paper); None ("auto"): a table
    # that fits a column is a table, a wider one a table* (irtables.render.fit)
    wide: bool | None = None
    resize: bool = False  # LaTeX: scale the tabular to the line width (needs graphicx)
    seeds: str = "mean"  # systems with several runs: "mean" or "mean_std" (mean ± std)


@dataclass(frozen=True)
class CompareSettings:
    """Significance tests behind the markers in the tables (``[compare]``)."""

    baseline: tuple[str, ...] = ()
    all_pairs: bool = False
    test: str = "t"
    correction: str = "holm"
    family: str = "metric"
    alpha: float = 0.05
    alternative: str = "two-sided"
    resamples: int = 10_000
    seed: int = 0
    markers: bool = True
    better: str = "†"
    worse: str = "‡"

    @property
    def enabled(self) -> bool:
        """Markers are shown when there is something to compare with."""
        return self.markers and (bool(self.baseline) or self.all_pairs)


@dataclass(frozen=True)
class MainTable:
    """Table 1: datasets x systems, one column per metric."""

    metrics: tuple[str, ...] = DEFAULT_MAIN_METRICS
    average: bool = False
    caption: str | None = None
    label: str = "tab:main"


@dataclass(frozen=True)
class KBreakdownTable:
    """Table S1: for one dataset, metric x system rows, one column per K."""

    metrics: tuple[str, ...] = DEFAULT_K_METRICS
    k: tuple[int, ...] = DEFAULT_KS
    caption: str | None = None
    label: str = "tab:s1-{dataset}"


@dataclass(frozen=True)
class AblationRow:
    """One row of the ablation table."""

    system: str
    name: str | None = None
    description: str = ""


@dataclass(frozen=True)
class AblationGroup:
    """Rows compared with one full model."""

    name: str | None
    full: str
    rows: tuple[AblationRow, ...]


@dataclass(frozen=True)
class AblationTable:
    """The ablation table: rows are methods, metrics as columns, plus a description."""

    dataset: str
    groups: tuple[AblationGroup, ...]
    metrics: tuple[str, ...] = ("NDCG@10", "MRR@10", "MAP")
    delta: bool = False
    caption: str | None = None
    label: str = "tab:ablation"


@dataclass(frozen=True)
class Config:
    """Everything ``irtables tables`` needs besides the results themselves."""

    path: str | None = None
    datasets: tuple[DatasetSpec, ...] = ()
    systems: tuple[Named, ...] = ()
    compare: CompareSettings = field(default_factory=CompareSettings)
    output: Output = field(default_factory=Output)
    main: MainTable = field(default_factory=MainTable)
    k_breakdown: KBreakdownTable = field(default_factory=KBreakdownTable)
    ablation: AblationTable | None = None
    tables: tuple[TableSpec, ...] = ()  # [tables.<name>] with a layout key
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def baseline(self) -> str | None:
        """The first configured baseline, if any."""
        return self.compare.baseline[0] if self.compare.baseline else None

    def dataset_name(self, dataset_id: str) -> str:
        """Display name of a dataset (its id when none is configured)."""
        return next((d.name for d in self.datasets if d.id == dataset_id), dataset_id)

    def system_name(self, system_id: str) -> str:
        """Display name of a system (its id when none is configured)."""
        return next((s.name for s in self.systems if s.id == system_id), system_id)


def find_config(results_dir: str | Path, explicit: str | Path | None = None) -> Config:
    """Load ``explicit`` if given, else ``results_dir/irtables.toml`` if present, else defaults."""
    if explicit is not None:
        return load_config(explicit)
    candidate = Path(results_dir) / CONFIG_NAME
    return (
        load_config(candidate) if Path(results_dir).is_dir() and candidate.is_file() else Config()
    )


def load_config(path: str | Path) -> Config:
    """Read and validate a TOML configuration file."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8-sig"))
    except FileNotFoundError:
        raise ConfigError(f"{p}: configuration file not found") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{p}: not valid TOML: {e}") from None
    return parse_config(data, source=str(p))


def parse_config(data: Mapping[str, Any], *, source: str = "<config>") -> Config:
    """Validate a parsed TOML document and build a :class:`Config`.

    Examples
    --------
    >>> parse_config({"output": {"decimals": 2}}).output.decimals
    2
    >>> parse_config({"output": {"decimals": "two"}})
    Traceback (most recent call last):
    ...
    irtables.errors.ConfigError: <config>: output.decimals: expected an integer, got 'two'
    """
    r = TomlReader(source)
    r.only(data, "", {"datasets", "systems", "compare", "output", "tables"})
    tables = r.table(data, "tables")
    specs = parse_table_specs(r, tables)
    custom_main = any(s.name == "main" for s in specs)
    compare = r.table(data, "compare")
    return Config(
        path=source,
        datasets=_datasets(r, data),
        systems=_named_list(r, data, "systems"),
        compare=_compare(r, compare),
        output=_output(r, r.table(data, "output")),
        main=MainTable() if custom_main else _main(r, r.table(tables, "tables.main")),
        k_breakdown=_k_breakdown(r, r.table(tables, "tables.k_breakdown")),
        ablation=_ablation(r, tables.get("ablation")),
        tables=specs,
        raw=dict(data),
    )


def _datasets(r: TomlReader, data: Mapping[str, Any]) -> tuple[DatasetSpec, ...]:
    items = data.get("datasets", [])
    if not isinstance(items, list):
        raise r.error("datasets", "an array of tables ([[datasets]]) with id and name", items)
    out = []
    for i, item in enumerate(items):
        w = f"datasets[{i}]"
        if not isinstance(item, dict):
            raise r.error(w, "a table with id and name", item)
        r.only(
            item, w, {"id", "name", "qrels", "runs", "relevance", "depth", "complete", "measures"}
        )
        ident = r.req_str(item, w, "id")
        runs = item.get("runs", [])
        runs = [runs] if isinstance(runs, str) else runs
        if not isinstance(runs, list) or not all(isinstance(x, str) and x for x in runs):
            raise r.error(f"{w}.runs", "a path, a glob pattern or a list of them", runs)
        qrels = r.opt_str(item, w, "qrels")
        if bool(qrels) != bool(runs):
            raise r.error(w, "both qrels and runs, or neither", {"qrels": qrels, "runs": runs})
        depth = item.get("depth")
        if depth is not None and (type(depth) is not int or depth < 1):
            raise r.error(f"{w}.depth", "a positive integer", depth)
        relevance = r.int_(item, w, "relevance", 1)
        if relevance < 0:
            raise r.error(f"{w}.relevance", "a non-negative integer", relevance)
        out.append(
            DatasetSpec(
                id=ident,
                name=r.opt_str(item, w, "name") or ident,
                qrels=qrels,
                runs=tuple(runs),
                relevance=relevance,
                depth=depth,
                complete=r.bool_(item, w, "complete", False),
                measures=r.str_list(item, w, "measures", ()),
            )
        )
    return tuple(out)


def _named_list(r: TomlReader, data: Mapping[str, Any], key: str) -> tuple[Named, ...]:
    items = data.get(key, [])
    if not isinstance(items, list):
        raise r.error(key, "an array of tables ([[...]]) with id and name", items)
    out = []
    for i, item in enumerate(items):
        where = f"{key}[{i}]"
        if not isinstance(item, dict):
            raise r.error(where, "a table with id and name", item)
        r.only(item, where, {"id", "name"})
        ident = r.req_str(item, where, "id")
        out.append(Named(ident, r.opt_str(item, where, "name") or ident))
    return tuple(out)


def _compare(r: TomlReader, t: Mapping[str, Any]) -> CompareSettings:
    from irtables.stats import CORRECTIONS, FAMILIES, TESTS

    w = "compare"
    d = CompareSettings()
    r.only(t, w, set(CompareSettings.__dataclass_fields__))
    baseline = t.get("baseline", [])
    baselines = [baseline] if isinstance(baseline, str) else baseline
    if not isinstance(baselines, list) or not all(isinstance(b, str) and b for b in baselines):
        raise r.error(f"{w}.baseline", "a system id or a list of them", baseline)
    alpha = t.get("alpha", d.alpha)
    if not isinstance(alpha, float | int) or isinstance(alpha, bool) or not 0 < alpha < 1:
        raise r.error(f"{w}.alpha", "a number between 0 and 1", alpha)
    resamples = r.int_(t, w, "resamples", d.resamples)
    if resamples < 1:
        raise r.error(f"{w}.resamples", "a positive integer", resamples)
    return CompareSettings(
        baseline=tuple(baselines),
        all_pairs=r.bool_(t, w, "all_pairs", d.all_pairs),
        test=r.choice(t, w, "test", TESTS, d.test),
        correction=r.choice(t, w, "correction", CORRECTIONS, d.correction),
        family=r.choice(t, w, "family", FAMILIES, d.family),
        alpha=float(alpha),
        alternative=r.choice(t, w, "alternative", ("two-sided", "greater", "less"), d.alternative),
        resamples=resamples,
        seed=r.int_(t, w, "seed", d.seed),
        markers=r.bool_(t, w, "markers", d.markers),
        better=r.opt_str(t, w, "better") or d.better,
        worse=r.opt_str(t, w, "worse") or d.worse,
    )


def _output(r: TomlReader, t: Mapping[str, Any]) -> Output:
    w = "output"
    r.only(
        t,
        w,
        {
            "dir",
            "formats",
            "decimals",
            "leading_zero",
            "second_best",
            "templates",
            "missing",
            "lower_is_better",
            "wide",
            "resize",
            "seeds",
        },
    )
    formats = r.str_list(t, w, "formats", Output.formats)
    for f in formats:
        if f not in FORMATS:
            raise r.error(f"{w}.formats", f"one of {', '.join(FORMATS)}", f)
    missing = r.opt_str(t, w, "missing") or "error"
    if missing not in ("error", "intersect", "zero"):
        raise r.error(f"{w}.missing", "one of error, intersect, zero", missing)
    decimals = r.int_(t, w, "decimals", 3)
    if not 0 <= decimals <= 8:
        raise r.error(f"{w}.decimals", "an integer from 0 to 8", decimals)
    return Output(
        dir=r.opt_str(t, w, "dir") or "tables",
        formats=formats,
        decimals=decimals,
        leading_zero=r.bool_(t, w, "leading_zero", True),
        second_best=r.bool_(t, w, "second_best", False),
        templates=r.opt_str(t, w, "templates"),
        missing=missing,
        lower_is_better=r.str_list(t, w, "lower_is_better", ()),
        wide=_wide(r, t, w),
        resize=r.bool_(t, w, "resize", False),
        seeds=r.choice(t, w, "seeds", SEED_DISPLAYS, "mean"),
    )


def _wide(r: TomlReader, t: Mapping[str, Any], w: str) -> bool | None:
    value = t.get("wide", "auto")
    if value == "auto":
        return None
    if not isinstance(value, bool):
        raise r.error(f"{w}.wide", 'true, false or "auto"', value)
    return value


def _main(r: TomlReader, t: Mapping[str, Any]) -> MainTable:
    w = "tables.main"
    r.only(t, w, {"layout", "metrics", "average", "caption", "label"})
    return MainTable(
        metrics=r.str_list(t, w, "metrics", DEFAULT_MAIN_METRICS),
        average=r.bool_(t, w, "average", False),
        caption=r.opt_str(t, w, "caption"),
        label=r.opt_str(t, w, "label") or MainTable.label,
    )


def _k_breakdown(r: TomlReader, t: Mapping[str, Any]) -> KBreakdownTable:
    w = "tables.k_breakdown"
    r.only(t, w, {"metrics", "k", "caption", "label"})
    ks = t.get("k", list(DEFAULT_KS))
    if not isinstance(ks, list) or not all(type(k) is int and k > 0 for k in ks) or not ks:
        raise r.error(f"{w}.k", "a non-empty list of positive integers", ks)
    return KBreakdownTable(
        metrics=r.str_list(t, w, "metrics", DEFAULT_K_METRICS),
        k=tuple(ks),
        caption=r.opt_str(t, w, "caption"),
        label=r.opt_str(t, w, "label") or KBreakdownTable.label,
    )


def _ablation(r: TomlReader, t: Any) -> AblationTable | None:
    if t is None:
        return None
    w = "tables.ablation"
    if not isinstance(t, dict):
        raise r.error(w, "a table", t)
    r.only(t, w, {"dataset", "metrics", "delta", "caption", "label", "groups", "full", "rows"})
    groups = t.get("groups")
    if groups is None:  # a single group written flat: full = ..., rows = [...]
        groups = [{"full": t.get("full"), "rows": t.get("rows")}]
    if not isinstance(groups, list) or not groups:
        raise r.error(f"{w}.groups", "a non-empty array of tables with full and rows", groups)
    return AblationTable(
        dataset=r.req_str(t, w, "dataset"),
        groups=tuple(_ablation_group(r, g, f"{w}.groups[{i}]") for i, g in enumerate(groups)),
        metrics=r.str_list(t, w, "metrics", AblationTable.metrics),
        delta=r.bool_(t, w, "delta", False),
        caption=r.opt_str(t, w, "caption"),
        label=r.opt_str(t, w, "label") or AblationTable.label,
    )


def _ablation_group(r: TomlReader, g: Any, w: str) -> AblationGroup:
    if not isinstance(g, dict):
        raise r.error(w, "a table with full and rows", g)
    r.only(g, w, {"name", "full", "rows"})
    rows = g.get("rows")
    if not isinstance(rows, list) or not rows:
        raise r.error(f"{w}.rows", "a non-empty array of {system, name, description}", rows)
    parsed = []
    for i, row in enumerate(rows):
        rw = f"{w}.rows[{i}]"
        if not isinstance(row, dict):
            raise r.error(rw, "a table {system, name, description}", row)
        r.only(row, rw, {"system", "name", "description"})
        parsed.append(
            AblationRow(
                system=r.req_str(row, rw, "system"),
                name=r.opt_str(row, rw, "name"),
                description=r.opt_str(row, rw, "description") or "",
            )
        )
    full = r.req_str(g, w, "full")
    if full not in {row.system for row in parsed}:
        raise r.error(f"{w}.full", "one of the group's row systems", full)
    return AblationGroup(name=r.opt_str(g, w, "name"), full=full, rows=tuple(parsed))
