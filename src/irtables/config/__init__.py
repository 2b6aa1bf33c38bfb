"""The study configuration (``irtables.toml``), read into frozen dataclasses.

Every key is optional: with no file at all, irtables uses folder and file names as
display names and the defaults below. A bad value names the file, the key and what was
expected. ``[compare]`` is read by :mod:`irtables.config.compare`, the ``[tables.<name>]``
sections by :mod:`irtables.config.tables` (their layouts' records).
"""

from __future__ import annotations

import functools
import stat
import tomllib
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from irtables.base.formats import DEFAULT_FORMATS, FORMATS
from irtables.config.compare import (
    CompareSettings,
    parse_compare,
    parse_table_compares,
    without_compare,
)
from irtables.config.reader import TomlReader
from irtables.config.tables import (
    CAPTION_NOTES,
    TableSpec,
    default_tables,
    parse_table_specs,
)
from irtables.errors import ConfigError, InputError
from irtables.evaluator.versions import TREC_EVAL_VERSIONS
from irtables.model.names import DisplayNames
from irtables.workers.cluster import check_address

#: How the tables show systems with several runs (seeds or folds).
SEED_DISPLAYS = ("mean", "mean_std")
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
    relative_decimals: int = 1  # \\irtrel and numbers.json: a relative improvement, in %


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
        return self._dataset_names.get(dataset_id, dataset_id)

    def system_name(self, system_id: str) -> str:
        """Display name of a system (its id when none is configured)."""
        return self._system_names.get(system_id, system_id)

    @functools.cached_property
    def _dataset_names(self) -> dict[str, str]:
        """The display name of each configured dataset id (the first, if listed twice)."""
        return _names_by_id(self.datasets)

    @functools.cached_property
    def _system_names(self) -> dict[str, str]:
        """The display name of each configured system id (the first, if listed twice)."""
        return _names_by_id(self.systems)

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
            # Canonically equivalent spellings (NFC 'café', NFD 'cafe' + U+0301) look alike.
            other = seen.setdefault(unicodedata.normalize("NFC", shown), system)
            if other != system:
                pair = (other, system)
                keys = [f"systems[{i}].name" for i, s in enumerate(self.systems) if s.id in pair]
                ids = f"{other!r} and {system!r}"
                if unicodedata.normalize("NFC", other) == unicodedata.normalize("NFC", system):
                    ids = f"{other!a} and {system!a} (one name in two Unicode spellings)"
                raise ConfigError(
                    f"{self.path or '<config>'}: {', '.join(keys) or '[[systems]] name'}: "
                    f"systems {ids} are both shown as {shown!r} in {where}; "
                    "give them distinct names"
                )


def _names_by_id(named: Sequence[Named]) -> dict[str, str]:
    """Each id's display name, the first one given for an id listed twice."""
    out: dict[str, str] = {}
    for n in named:
        out.setdefault(n.id, n.name)
    return out


def _ordered(present: Sequence[str], preferred: Sequence[str]) -> tuple[str, ...]:
    """Configured ids first (in their order), then the rest in order of appearance."""
    here = set(present)
    first = [p for p in preferred if p in here]
    taken = set(first)
    return tuple(first + [p for p in present if p not in taken])


def find_config(results_dir: str | Path, explicit: str | Path | None = None) -> Config:
    """Load ``explicit`` if given, else ``results_dir/irtables.toml`` if present, else
    defaults (an ``irtables.toml`` that is not a file, a folder say, is an error)."""
    if explicit is not None:
        return load_config(explicit)
    candidate = Path(results_dir) / CONFIG_NAME
    there = candidate.exists() or candidate.is_symlink()  # a folder or a FIFO is refused
    return load_config(candidate) if Path(results_dir).is_dir() and there else Config()


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


def check_config_file(path: Path) -> Path:
    """``path`` if it is a regular file (or a symlink to one): a folder, a FIFO (which
    would block the read) or a device is refused, as a missing file is, naming it."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise ConfigError(f"{path}: configuration file not found") from None
    except OSError as e:
        raise ConfigError(f"{path}: cannot read the configuration: {e.strerror or e}") from None
    if not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else None
        got = kind or "not a regular file"
        raise ConfigError(f"{path}: expected a configuration file (TOML), got {got}")
    return path


def read_config_bytes(path: Path) -> bytes:
    """The bytes of a configuration file (at most :data:`MAX_CONFIG_BYTES`)."""
    check_config_file(path)
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
    table_compares = parse_table_compares(r, tables, r.table(data, "compare"))
    specs = parse_table_specs(r, without_compare(tables))
    compare = parse_compare(r, r.table(data, "compare"))
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
        scheduler=_scheduler(r, compute),
        raw=dict(data),
    )


def _scheduler(r: TomlReader, compute: Mapping[str, Any]) -> str | None:
    """``[compute] scheduler``, checked as ``--scheduler`` is (:func:`check_address`)."""
    address = r.opt_str(compute, "compute", "scheduler") or None
    if address is not None:
        try:
            check_address(address)
        except InputError:
            expected = "a Dask scheduler's address SCHEME://HOST:PORT (tcp://10.0.0.5:8786)"
            raise r.error("compute.scheduler", expected, address) from None
    return address


def _datasets(r: TomlReader, data: Mapping[str, Any]) -> tuple[DatasetSpec, ...]:
    keys = {"id", "name", "qrels", "runs", "relevance", "depth", "complete", "measures"}
    out = []
    for w, item in r.tables(
        data.get("datasets", []),
        "datasets",
        "an array of tables ([[datasets]]) with id and name",
        "a table with id and name",
        keys | {"trec_eval"},
    ):
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
                name=_display_name(r, item, w, ident),
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


def _display_name(r: TomlReader, item: Mapping[str, Any], where: str, ident: str) -> str:
    """The ``name`` of a dataset or system, else its id; a name of blanks would show an
    empty row or column label."""
    name = r.text(item, where, "name")
    if name and not name.strip():
        raise r.error(f"{where}.name", "a name with visible characters (or none: the id)", name)
    return name or ident


def _check_unique_ids(r: TomlReader, key: str, items: Sequence[Named]) -> None:
    """Two entries with one id: which name or setting is meant? An error naming both."""
    first: dict[str, int] = {}
    for i, item in enumerate(items):
        j = first.setdefault(item.id, i)
        if j != i:
            raise r.error(f"{key}[{i}].id", f"an id not already used by {key}[{j}]", item.id)


def _named_list(r: TomlReader, data: Mapping[str, Any], key: str) -> tuple[Named, ...]:
    out = []
    for where, item in r.tables(
        data.get(key, []),
        key,
        "an array of tables ([[...]]) with id and name",
        "a table with id and name",
        {"id", "name"},
    ):
        ident = r.ident(item, where, "id")
        out.append(Named(ident, _display_name(r, item, where, ident)))
    _check_unique_ids(r, key, out)
    return tuple(out)


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
            "relative_decimals",
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
    relative = r.int_(t, w, "relative_decimals", 1)
    if not 0 <= relative <= 4:
        raise r.error(f"{w}.relative_decimals", "an integer from 0 to 4", relative)
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
        relative_decimals=relative,
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
