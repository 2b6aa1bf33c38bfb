"""The study configuration (``irtables.toml``), read into frozen dataclasses.

Every key is optional: with no file at all, irtables uses folder and file names as
display names and the defaults below. A bad value names the file, the key and what was
expected.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from irtables.base.names import (
    ALL_TEST_NAMES,
    CORRECTION_NAMES,
    FAMILY_NAMES,
    PROCEDURE_NAMES,
)
from irtables.config.reader import TomlReader
from irtables.config.tables import (
    CAPTION_NOTES,
    TableSpec,
    default_tables,
    parse_table_specs,
    section_layout,
)
from irtables.errors import ConfigError
from irtables.evaluator.versions import TREC_EVAL_VERSIONS
from irtables.model.names import DisplayNames

FORMATS = ("latex", "markdown", "csv", "html")
DEFAULT_FORMATS = ("latex", "markdown", "csv")
#: How the tables show systems with several runs (seeds or folds).
SEED_DISPLAYS = ("mean", "mean_std")
#: How table cells show the 95% interval of a mean (``[compare] interval``).
INTERVALS = ("none", "half-width", "bounds")
#: Differences the topic-set-size table plans for (``[compare] differences``).
DEFAULT_DIFFERENCES = (0.02, 0.05, 0.1)
CONFIG_NAME = "irtables.toml"
MAX_CONFIG_BYTES = 16 << 20


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
    ``measures`` the measures (default: what the tables show), ``trec_eval`` the version
    whose semantics apply (``"9.0.8"``, the default, or ``"10"``).
    """

    qrels: str | None = None
    runs: tuple[str, ...] = ()
    relevance: int = 1
    depth: int | None = None
    complete: bool = False
    measures: tuple[str, ...] = ()
    trec_eval: str = "9.0.8"

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
    caption_notes: str = "full"  # where the caption notes go: one of CAPTION_NOTES
    # p-values below it print as "< 0.001" (the supplement's tests); 0: every p-value
    pvalue_floor: float = 0.001


@dataclass(frozen=True)
class CompareSettings:
    """Significance tests behind the markers in the tables (``[compare]``).

    ``baseline`` applies to every dataset; ``dataset_baselines`` (``baseline = {dataset =
    "system"}`` in the file) names the baseline(s) of single datasets and wins over it.
    ``correction`` None means ``holm`` for the paired tests; the all-pairs tests
    (``tukey``, ``randomized-tukey``) adjust for all pairs themselves. ``interval`` adds
    each mean's 95% interval to the table cells (``half-width``: ``0.512 ± 0.021``;
    ``bounds``: ``0.512 [0.491, 0.533]``) and error bars to the metric-vs-K figure.
    ``power`` and ``differences`` plan the supplement's topic-set-size table.
    """

    baseline: tuple[str, ...] = ()
    dataset_baselines: tuple[tuple[str, tuple[str, ...]], ...] = ()
    all_pairs: bool = False
    test: str = "t"
    correction: str | None = None
    family: str = "metric"
    alpha: float = 0.05
    alternative: str = "two-sided"
    resamples: int = 10_000
    seed: int = 0
    markers: bool = True
    better: str = "†"
    worse: str = "‡"
    interval: str = "none"
    power: float = 0.8
    differences: tuple[float, ...] = DEFAULT_DIFFERENCES
    zero_method: str = "wilcox"  # Wilcoxon's zero differences: wilcox | pratt | zsplit

    @property
    def enabled(self) -> bool:
        """Markers are shown when there is something to compare with."""
        return self.markers and (
            bool(self.baseline) or bool(self.dataset_baselines) or self.all_pairs
        )

    def baselines_of(self, dataset: str) -> tuple[str, ...]:
        """The baseline(s) of ``dataset``: its own if configured, else the global ones."""
        own = dict(self.dataset_baselines)
        return own.get(dataset, self.baseline)

    def with_baselines(self, values: Sequence[str]) -> CompareSettings:
        """These settings with ``values`` as the baselines (``--baseline``, or the
        ``baseline`` of the file): ``none`` alone turns the markers off, ``DATASET=SYSTEM``
        names one dataset's baseline, anything else every dataset's.

        Examples
        --------
        >>> s = CompareSettings(baseline=("bm25",))
        >>> s.with_baselines(["none"]).enabled
        False
        >>> s.with_baselines(["dl19=dense"]).baselines_of("dl19")
        ('dense',)
        """
        if tuple(v.lower() for v in values) == ("none",):
            return replace(self, baseline=(), dataset_baselines=(), all_pairs=False, markers=False)
        every, per = baseline_overrides(values)
        return replace(self, baseline=every, dataset_baselines=per)

    def overridden(self, **changes: Any) -> CompareSettings:
        """These settings with every change that is not None (command-line options win).

        A test changed to an all-pairs procedure (``tukey``) without a correction drops
        the configured correction: the procedure adjusts for all pairs itself.

        Examples
        --------
        >>> s = CompareSettings(correction="holm")
        >>> s.overridden(test="tukey", all_pairs=True).correction is None
        True
        >>> s.overridden(alpha=0.01, test=None).alpha, s.overridden(all_pairs=False).all_pairs
        (0.01, False)
        """
        given = {k: v for k, v in changes.items() if v is not None}
        unknown = sorted(set(given) - set(self.__dataclass_fields__))
        if unknown:
            raise TypeError(f"unknown compare setting {unknown[0]!r}")
        if given.get("test") in PROCEDURE_NAMES and "correction" not in given:
            given["correction"] = None
        return replace(self, **given)

    def baseline_spec(self, datasets: Sequence[str]) -> list[str] | dict[str, tuple[str, ...]]:
        """What :func:`~irtables.stats.compare` takes as ``baseline``: a list, or per dataset.

        Per-dataset keys are kept even when they name no dataset, so a typo is reported.
        """
        if not self.dataset_baselines:
            return list(self.baseline)
        spec = {d: self.baseline for d in datasets if self.baseline}
        spec.update(dict(self.dataset_baselines))
        return spec


@dataclass(frozen=True)
class Config:
    """Everything ``irtables tables`` needs besides the results themselves."""

    path: str | None = None
    datasets: tuple[DatasetSpec, ...] = ()
    systems: tuple[Named, ...] = ()
    compare: CompareSettings = field(default_factory=CompareSettings)
    output: Output = field(default_factory=Output)
    # every [tables.<name>]: Table 1 ("main") and Table S1 ("k_breakdown") first
    tables: tuple[TableSpec, ...] = field(default_factory=default_tables)
    # [tables.<name>.compare] over [compare]: (section name, its settings)
    table_compares: tuple[tuple[str, CompareSettings], ...] = ()
    scheduler: str | None = None  # [compute] scheduler: a Dask scheduler's address
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

    def table(self, name: str) -> TableSpec | None:
        """The section ``[tables.<name>]`` (``main``: Table 1), if the tables have it."""
        return next((s for s in self.tables if s.name == name), None)

    def spec_of(self, table: str) -> TableSpec | None:
        """The section that makes the table named ``table``: ``table1`` is made by
        ``[tables.main]``, ``tableS1-<dataset>`` by ``[tables.k_breakdown]``, any other
        by the section of its name (or of its name before ``-<dataset>``).

        Examples
        --------
        >>> config = Config()
        >>> config.spec_of("table1").name, config.spec_of("tableS1-robust04").name
        ('main', 'k_breakdown')
        """
        named = next((s for s in self.tables if s.stem == table), None)
        per_dataset = (s for s in self.tables if s.per_dataset and table.startswith(f"{s.stem}-"))
        return named or next(per_dataset, None)

    def caption_notes_of(self, table: str) -> str | None:
        """The ``caption_notes`` of the section that makes the table named ``table``
        (``table1``, ``tableS1-<dataset>``, ``ablation`` or a ``[tables.<name>]``), or
        None when the section does not set it."""
        spec = self.spec_of(table)
        return spec.caption_notes if spec is not None else None

    def datasets_in_order(self, present: Sequence[str]) -> tuple[str, ...]:
        """``present`` dataset ids in display order: configured ones first, in the order
        of ``[[datasets]]``, then the others as they come."""
        return _ordered(present, [d.id for d in self.datasets])

    def systems_in_order(self, present: Sequence[str]) -> tuple[str, ...]:
        """``present`` system ids in display order (``[[systems]]`` first)."""
        return _ordered(present, [s.id for s in self.systems])

    def display_names(self) -> DisplayNames:
        """The display names of the configured datasets and systems."""
        return DisplayNames(
            {d.id: d.name for d in self.datasets}, {s.id: s.name for s in self.systems}
        )

    def check_distinct_names(self, rows: Sequence[tuple[str, str]], where: str) -> None:
        """Refuse two systems shown under one name in one part of a table.

        ``rows`` are (system id, name shown) of one row group: ``BM25`` twice would
        leave a reader guessing which row is which.
        """
        seen: dict[str, str] = {}
        for system, shown in rows:
            other = seen.setdefault(shown, system)
            if other != system:
                pair = (other, system)
                keys = [f"systems[{i}].name" for i, s in enumerate(self.systems) if s.id in pair]
                raise ConfigError(
                    f"{self.path or '<config>'}: {', '.join(keys) or '[[systems]] name'}: "
                    f"systems {other!r} and {system!r} are both shown as {shown!r} in {where}; "
                    "give them distinct names"
                )


def _ordered(present: Sequence[str], preferred: Sequence[str]) -> tuple[str, ...]:
    """Configured ids first (in their order), then the rest in order of appearance."""
    first = [p for p in preferred if p in present]
    return tuple(first + [p for p in present if p not in first])


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
    raw = read_config_bytes(p)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise ConfigError(
            f"{p}:{line}: expected UTF-8 text, got byte 0x{raw[e.start]:02x}"
        ) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{p}: not valid TOML: {e}") from None
    return parse_config(data, source=str(p))


def read_config_bytes(path: Path) -> bytes:
    """The bytes of a configuration file (at most :data:`MAX_CONFIG_BYTES`)."""
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_CONFIG_BYTES + 1)
    except FileNotFoundError:
        raise ConfigError(f"{path}: configuration file not found") from None
    except OSError as e:
        raise ConfigError(f"{path}: cannot read the configuration: {e.strerror or e}") from None
    if len(raw) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{path}: larger than {MAX_CONFIG_BYTES >> 20} MiB: not a configuration")
    return raw


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
    r.only(data, "", {"datasets", "systems", "compare", "output", "tables", "compute"})
    compute = r.table(data, "compute")
    r.only(compute, "compute", {"scheduler"})
    tables = r.table(data, "tables")
    table_compares = _table_compares(r, tables, r.table(data, "compare"))
    specs = parse_table_specs(r, _without_compare(tables))
    compare = _compare(r, r.table(data, "compare"))
    output = _output(r, r.table(data, "output"))
    if compare.interval != "none" and output.seeds == "mean_std":
        raise r.error(
            "compare.interval",
            'none with output.seeds = "mean_std" (both put ± in the cells)',
            compare.interval,
        )
    return Config(
        path=source,
        datasets=_datasets(r, data),
        systems=_named_list(r, data, "systems"),
        compare=compare,
        output=output,
        tables=specs,
        table_compares=table_compares,
        scheduler=r.opt_str(compute, "compute", "scheduler") or None,
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
            item,
            w,
            {"id", "name", "qrels", "runs", "relevance", "depth", "complete", "measures"}
            | {"trec_eval"},
        )
        ident = r.ident(item, w, "id")
        runs = r.str_or_list(item, w, "runs", "a path, a glob pattern or a list of them")
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
                name=r.text(item, w, "name") or ident,
                qrels=qrels,
                runs=tuple(runs),
                relevance=relevance,
                depth=depth,
                complete=r.bool_(item, w, "complete", False),
                measures=r.str_list(item, w, "measures", ()),
                trec_eval=r.choice(item, w, "trec_eval", TREC_EVAL_VERSIONS, "9.0.8"),
            )
        )
    _check_unique_ids(r, "datasets", out)
    return tuple(out)


def _check_unique_ids(r: TomlReader, key: str, items: Sequence[Named]) -> None:
    """Two entries with one id: which name or setting is meant? An error naming both."""
    first: dict[str, int] = {}
    for i, item in enumerate(items):
        j = first.setdefault(item.id, i)
        if j != i:
            raise r.error(f"{key}[{i}].id", f"an id not already used by {key}[{j}]", item.id)


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
        ident = r.ident(item, where, "id")
        out.append(Named(ident, r.text(item, where, "name") or ident))
    _check_unique_ids(r, key, out)
    return tuple(out)


def _compare(r: TomlReader, t: Mapping[str, Any], w: str = "compare") -> CompareSettings:
    d = CompareSettings()
    r.only(t, w, set(CompareSettings.__dataclass_fields__) - {"dataset_baselines"})
    baselines, per_dataset = _baselines(r, t, w)
    no_markers = tuple(b.lower() for b in baselines) == ("none",)
    if no_markers:
        baselines = ()
    alpha = _fraction(r, t, "alpha", d.alpha, w)
    resamples = r.int_(t, w, "resamples", d.resamples)
    if resamples < 1:
        raise r.error(f"{w}.resamples", "a positive integer", resamples)
    test = r.choice(t, w, "test", ALL_TEST_NAMES, d.test)
    correction = None
    if "correction" in t:
        correction = r.choice(t, w, "correction", CORRECTION_NAMES, "holm")
        if test in PROCEDURE_NAMES and correction != "none":
            raise r.error(
                f"{w}.correction",
                f"no correction with test {test} (it adjusts for all pairs itself)",
                correction,
            )
    differences = t.get("differences", list(d.differences))
    if (
        not isinstance(differences, list)
        or not differences
        or not all(
            isinstance(x, float | int) and not isinstance(x, bool) and x > 0 for x in differences
        )
    ):
        raise r.error(f"{w}.differences", "a non-empty list of positive numbers", differences)
    return CompareSettings(
        baseline=baselines,
        dataset_baselines=per_dataset,
        all_pairs=r.bool_(t, w, "all_pairs", d.all_pairs),
        test=test,
        correction=correction,
        family=r.choice(t, w, "family", FAMILY_NAMES, d.family),
        alpha=alpha,
        alternative=r.choice(t, w, "alternative", ("two-sided", "greater", "less"), d.alternative),
        resamples=resamples,
        seed=r.int_(t, w, "seed", d.seed),
        markers=r.bool_(t, w, "markers", d.markers) and not no_markers,
        better=r.text(t, w, "better") or d.better,
        worse=r.text(t, w, "worse") or d.worse,
        interval=r.choice(t, w, "interval", INTERVALS, d.interval),
        power=_fraction(r, t, "power", d.power, w),
        differences=tuple(float(x) for x in differences),
        zero_method=r.choice(t, w, "zero_method", ("wilcox", "pratt", "zsplit"), d.zero_method),
    )


def _fraction(
    r: TomlReader, t: Mapping[str, Any], key: str, default: float, w: str = "compare"
) -> float:
    value = t.get(key, default)
    if not isinstance(value, float | int) or isinstance(value, bool) or not 0 < value < 1:
        raise r.error(f"{w}.{key}", "a number between 0 and 1", value)
    return float(value)


def _baselines(
    r: TomlReader, t: Mapping[str, Any], w: str = "compare"
) -> tuple[tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...]]:
    """``compare.baseline``: a system id, a list of them, or a table ``{dataset = id(s)}``."""
    value = t.get("baseline", [])
    if isinstance(value, dict):
        per = []
        for dataset in value:
            ids = r.str_or_list(value, f"{w}.baseline", dataset, "a system id or a list of them")
            per.append((dataset, tuple(ids)))
        return (), tuple(per)
    expected = "a system id, a list of them, or a table {dataset = system id}"
    return tuple(r.str_or_list(t, w, "baseline", expected)), ()


def _table_compares(
    r: TomlReader, tables: Mapping[str, Any], base: Mapping[str, Any]
) -> tuple[tuple[str, CompareSettings], ...]:
    """``[tables.<name>.compare]`` of every table that has one: its keys over ``[compare]``
    (``base``). An all-pairs test there without a correction drops the global one."""
    out = []
    for name, section in tables.items():
        if not _has_compare(name, section) or "compare" not in section:
            continue
        own = section["compare"]
        w = f"tables.{name}.compare"
        if not isinstance(own, dict):
            raise r.error(w, "a table of [compare] keys", own)
        merged = {**base, **own}
        if own.get("test") in PROCEDURE_NAMES and "correction" not in own:
            merged.pop("correction", None)
        out.append((name, _compare(r, merged, w)))
    return tuple(out)


def _without_compare(tables: Mapping[str, Any]) -> dict[str, Any]:
    """The table sections without their ``compare`` tables (read by :func:`_table_compares`)."""
    return {
        name: {k: v for k, v in section.items() if k != "compare"}
        if _has_compare(name, section)
        else section
        for name, section in tables.items()
    }


def _has_compare(name: str, section: Any) -> bool:
    """Whether a section may have ``compare`` settings of its own: an ablation compares
    each row with its group's full model."""
    return isinstance(section, dict) and section_layout(name, section) != "ablation"


def baseline_overrides(
    values: Sequence[str],
) -> tuple[tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...]]:
    """Command-line ``--baseline`` values: ``SYSTEM`` for every dataset, ``DATASET=SYSTEM``
    for one (repeatable), as (global baselines, per-dataset baselines).

    Examples
    --------
    >>> baseline_overrides(["bm25", "cacm=bm25-anserini"])
    (('bm25',), (('cacm', ('bm25-anserini',)),))
    """
    every: list[str] = []
    per: dict[str, list[str]] = {}
    for v in values:
        dataset, sep, system = v.partition("=")
        if sep and dataset and system:
            per.setdefault(dataset, []).append(system)
        else:
            every.append(v)
    return tuple(every), tuple((d, tuple(s)) for d, s in per.items())


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
            "caption_notes",
            "pvalue_floor",
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
        lower_is_better=_metric_labels(r, t, w, "lower_is_better"),
        wide=_wide(r, t, w),
        resize=r.bool_(t, w, "resize", False),
        seeds=r.choice(t, w, "seeds", SEED_DISPLAYS, "mean"),
        caption_notes=r.choice(t, w, "caption_notes", CAPTION_NOTES, "full"),
        pvalue_floor=_pvalue_floor(r, t),
    )


def _pvalue_floor(r: TomlReader, t: Mapping[str, Any]) -> float:
    value = t.get("pvalue_floor", Output.pvalue_floor)
    if not isinstance(value, float | int) or isinstance(value, bool) or not 0 <= value < 0.5:
        raise r.error("output.pvalue_floor", "a number from 0 (off) to 0.5, as 0.001", value)
    return float(value)


def _metric_labels(r: TomlReader, t: Mapping[str, Any], where: str, key: str) -> tuple[str, ...]:
    """Metric names in any spelling, as the labels tables show (``ndcg_cut_10`` -> NDCG@10).

    A name that is no metric is an error: silently ignoring it would leave a column's
    best value decided the wrong way round.
    """
    from irtables.errors import UnknownNameError
    from irtables.measures import parse_measure

    labels = []
    for i, name in enumerate(r.str_list(t, where, key, ())):
        try:
            labels.append(parse_measure(name).label)
        except UnknownNameError as e:
            raise ConfigError(f"{r.source}: {where}.{key}[{i}]: {e.reason}") from None
    return tuple(labels)


def _wide(r: TomlReader, t: Mapping[str, Any], w: str) -> bool | None:
    value = t.get("wide", "auto")
    if value == "auto":
        return None
    if not isinstance(value, bool):
        raise r.error(f"{w}.wide", 'true, false or "auto"', value)
    return value
