"""The tidy result table every input is read into, and the matrices derived from it."""

from __future__ import annotations

import functools
import itertools
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from irtables.errors import InputError, PolicyWarning, QueryMismatchError, user_stacklevel
from irtables.model.factor import (
    Factor,
    combine_codes,
    factors_frame,
    first_appearances,
    merge_factors,
    repeated_rows,
)
from irtables.model.factor import distinct_keys as distinct_keys  # re-exported
from irtables.model.layout import Layout
from irtables.model.parts import Part, PartsIndex, layout_blocks
from irtables.model.policy import MissingPolicy

if TYPE_CHECKING:  # pandas is imported where a frame is built
    import pandas as pd

COLUMNS = ("dataset", "system", "query", "metric", "value")
KEY = ("dataset", "system", "query", "metric")


@dataclass(frozen=True, eq=False)
class Columns:
    """Stacked rows: a :class:`~irtables.model.factor.Factor` per key column, and values."""

    factors: Mapping[str, Factor]
    values: npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False, repr=False)
class ResultSet:
    """Per-query results: one row per (dataset, system, query, metric).

    Held as columns (``data`` is :class:`Columns`: a
    :class:`~irtables.model.factor.Factor`, distinct names and an integer code per row,
    for each key column, and a float64 value per row), or as the parts they were read
    from (``data`` is a tuple of :class:`~irtables.model.parts.Part`: one file of one
    dataset and system each), stacked into :attr:`factors` and :attr:`values` on first
    use. The key is unique. :attr:`frame` is the same table as a pandas frame, built on
    first use: exactly the columns ``dataset, system, query, metric, value``, the first
    four categorical strings. Build one with :meth:`from_frame`, :meth:`from_factors`
    or :meth:`from_parts`, which check all of that.

    ``seeds`` is set by the loaders when systems had several runs (seeds or folds) whose
    per-query values were averaged: the mean over queries of every run, columns
    ``dataset, system, seed, metric, mean`` (systems with a single run are not in it).
    It is provenance, not data: it takes no part in comparisons.

    Examples
    --------
    >>> import pandas as pd
    >>> rs = ResultSet.from_frame(pd.DataFrame({
    ...     "dataset": ["d", "d"], "system": ["a", "b"], "query": ["1", "1"],
    ...     "metric": ["AP", "AP"], "value": [0.5, 0.25]}))
    >>> rs.systems("d")
    ('a', 'b')
    """

    data: Columns | tuple[Part, ...]
    seeds: pd.DataFrame | None = field(default=None)

    def __repr__(self) -> str:
        return (
            f"ResultSet({self.n_rows:,} rows: {len(self.datasets())} dataset(s), "
            f"{len(self.systems())} system(s), {len(self.metrics())} metric(s))"
        )

    # --- the rows ------------------------------------------------------------------------
    @property
    def parts(self) -> tuple[Part, ...] | None:
        """The parts the rows were read from, or None for stacked columns."""
        return self.data if isinstance(self.data, tuple) else None

    @functools.cached_property
    def factors(self) -> Mapping[str, Factor]:
        """The key columns, one :class:`~irtables.model.factor.Factor` each."""
        if isinstance(self.data, Columns):
            return self.data.factors
        return {c: self._index.stacked_codes(self.data, c) for c in KEY}

    @functools.cached_property
    def values(self) -> npt.NDArray[np.float64]:
        """The value of every row (float64)."""
        if isinstance(self.data, Columns):
            return self.data.values
        if len(self.data) == 1:
            return self.data[0].values
        if not self.data:
            return np.zeros(0, dtype=np.float64)
        return np.concatenate([p.values for p in self.data])

    @property
    def n_rows(self) -> int:
        """The number of rows."""
        if isinstance(self.data, Columns):
            return len(self.data.values)
        return sum(len(p) for p in self.data)

    def categories(self, column: str) -> tuple[str, ...]:
        """The distinct names of a key column (in code order)."""
        if isinstance(self.data, Columns) or "factors" in self.__dict__:
            return self.factors[column].categories
        return self._index.categories[column]

    def code_of(self, column: str, name: str) -> int:
        """The code of ``name`` in a key column, or -1 when it has none."""
        cache = self.__dict__.setdefault("_code_cache", {})
        if column not in cache:
            cache[column] = {n: i for i, n in enumerate(self.categories(column))}
        where: dict[str, int] = cache[column]
        return where.get(name, -1)

    @functools.cached_property
    def _index(self) -> PartsIndex:
        assert isinstance(self.data, tuple)
        return PartsIndex.of(self.data)

    @functools.cached_property
    def frame(self) -> pd.DataFrame:
        """The rows as a pandas frame (categorical key columns, float64 ``value``)."""
        return factors_frame({c: self.factors[c] for c in KEY}, self.values)

    # --- construction --------------------------------------------------------------------
    @classmethod
    def from_frame(
        cls, df: pd.DataFrame, *, source: str = "<frame>", key_checked: bool = False
    ) -> ResultSet:
        """Check and normalise a tidy frame (column order, dtypes, unique key).

        ``key_checked`` skips the uniqueness check of the key, for callers that have
        proved it themselves (the loaders check each file and that no two files hold the
        same dataset and system).
        """
        import pandas as pd

        missing = [c for c in COLUMNS if c not in df.columns]
        if missing:
            raise InputError(f"missing column(s) {', '.join(missing)}", path=source)
        out = df.loc[:, list(COLUMNS)]
        for col in KEY:
            converted = _as_category(out[col])
            if converted is not out[col]:  # already a categorical of strings: kept as is
                out[col] = converted
        if out["value"].dtype != np.float64:
            out["value"] = pd.to_numeric(out["value"], errors="raise").astype("float64")
        out = out.reset_index(drop=True)
        factors = {c: Factor.from_series(out[c]) for c in KEY}
        made = cls.from_factors(
            factors, out["value"].to_numpy(), source=source, key_checked=key_checked
        )
        made.__dict__["frame"] = out  # the frame given, normalised: not built again
        return made

    @classmethod
    def from_factors(
        cls,
        factors: Mapping[str, Factor],
        values: npt.NDArray[np.float64],
        *,
        source: str = "<results>",
        key_checked: bool = False,
    ) -> ResultSet:
        """Build from a factor per key column and the values; the key must be unique.

        ``key_checked`` skips the uniqueness check (see :meth:`from_frame`).
        """
        missing = [c for c in KEY if c not in factors]
        if missing:
            raise InputError(f"missing column(s) {', '.join(missing)}", path=source)
        lengths = {len(factors[c]) for c in KEY} | {len(values)}
        if len(lengths) != 1:
            raise InputError("key columns and values differ in length", path=source)
        made = cls(Columns({c: factors[c] for c in KEY}, np.asarray(values, dtype=np.float64)))
        dup = None if key_checked else _duplicated_row(made)
        if dup is not None:
            name = {c: made.factors[c].categories[made.factors[c].codes[dup]] for c in KEY}
            raise InputError(
                f"query {name['query']} has metric {name['metric']} more than once "
                f"(system {name['system']}, dataset {name['dataset']})",
                path=source,
            )
        return made

    @classmethod
    def from_parts(cls, parts: Sequence[Part], *, source: str = "<results>") -> ResultSet:
        """Build from parts: each of one (dataset, system), no two of the same one, and
        each with a unique (query, metric) key (as the loaders check every file)."""
        seen: dict[tuple[str, str], None] = {}
        for p in parts:
            if (p.dataset, p.system) in seen:
                raise InputError(
                    f"system {p.system} of dataset {p.dataset} is given twice", path=source
                )
            seen[(p.dataset, p.system)] = None
        return cls(tuple(parts))

    @classmethod
    def concat(cls, parts: Iterable[ResultSet]) -> ResultSet:
        """Stack result sets; a repeated key is an error."""
        items = list(parts)
        own = [p.parts for p in items]
        if items and all(o is not None for o in own):
            out = cls.from_parts([part for o in own if o is not None for part in o])
        else:
            factors = {c: merge_factors([p.factors[c] for p in items]) for c in KEY}
            values = np.concatenate([p.values for p in items]) if items else np.zeros(0, np.float64)
            out = cls.from_factors(factors, values)
        seeds = [p.seeds for p in items if p.seeds is not None]
        if not seeds:
            return out
        import pandas as pd

        return replace(out, seeds=pd.concat(seeds, ignore_index=True))

    # --- views -------------------------------------------------------------------------
    def datasets(self) -> tuple[str, ...]:
        """Datasets in order of first appearance."""
        return self._distinct("dataset", None)

    def systems(self, dataset: str | None = None) -> tuple[str, ...]:
        """Systems (of one dataset, or all) in order of first appearance."""
        return self._distinct("system", dataset)

    def metrics(self, dataset: str | None = None) -> tuple[str, ...]:
        """Canonical metric names in order of first appearance."""
        return self._distinct("metric", dataset)

    def query_count(self, dataset: str) -> int:
        """The number of distinct queries of a dataset (0 for one without rows), read from
        the :attr:`layout`."""
        d = self.code_of("dataset", dataset)
        return self.layout.query_count(d) if d >= 0 else 0

    def key(self, *columns: str) -> tuple[npt.NDArray[np.intp], int]:
        """Mixed-radix key of key columns' codes (``(dataset * n_metrics + metric)`` ...)
        and the size of its range."""
        sizes = [self.size(c) for c in columns]
        return combine_codes([self.codes(c) for c in columns], sizes)

    def size(self, column: str) -> int:
        """The number of categories of a key column (at least 1: a radix)."""
        return max(len(self.categories(column)), 1)

    def codes(self, column: str) -> npt.NDArray[np.integer[Any]]:
        """The category codes of a key column (read-only)."""
        array = self.factors[column].codes
        if array.flags.writeable:
            array = array.view()
            array.setflags(write=False)
        return array

    def _distinct(self, column: str, dataset: str | None) -> tuple[str, ...]:
        """Distinct values of a key column, computed once per (column, dataset)."""
        cache = self.__dict__.setdefault("_distinct_cache", {})
        if (column, dataset) not in cache:
            if isinstance(self.data, tuple) and column != "query":
                found = _distinct_in_parts(self.data, column, dataset)
            else:
                found = self._distinct_in_rows(column, dataset)
            cache[column, dataset] = found
        result: tuple[str, ...] = cache[column, dataset]
        return result

    def _distinct_in_rows(self, column: str, dataset: str | None) -> tuple[str, ...]:
        factor = self.factors[column]
        spans = [(0, self.n_rows)] if dataset is None else self._dataset_spans.get(dataset, [])
        counts = self.pair_counts(column)
        d = -1 if dataset is None else self.code_of("dataset", dataset)
        wanted = counts.sum(axis=0) if dataset is None else counts[d] if d >= 0 else None
        present = 0 if wanted is None else int(np.count_nonzero(wanted))
        return tuple(factor.categories[c] for c in first_appearances(factor.codes, spans, present))

    def pair_counts(self, column: str) -> npt.NDArray[np.int64]:
        """Rows per (dataset code, code of ``column``): a (datasets x categories) array,
        computed once."""
        cache = self.__dict__.setdefault("_pair_cache", {})
        if column not in cache:
            n_d, n_c = self.size("dataset"), self.size(column)
            if isinstance(self.data, tuple) and column != "query":
                count = self.cell_sums()[0]  # datasets x systems x metrics
                if column == "metric":
                    cache[column] = count.sum(axis=1)
                elif column == "system":
                    cache[column] = count.sum(axis=2)
                else:
                    cache[column] = np.diag(count.sum(axis=(1, 2)))
            elif column == "dataset":
                counts = np.bincount(self.codes("dataset"), minlength=n_d)
                cache[column] = np.diag(counts).astype(np.int64)
            else:
                key, space = self.key("dataset", column)
                counts = np.bincount(key, minlength=space).astype(np.int64)
                cache[column] = counts.reshape(n_d, n_c)
        result: npt.NDArray[np.int64] = cache[column]
        return result

    def cell_sums(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
        """Rows and sum of values of every (dataset, system, metric) in code order, as
        (datasets x systems x metrics) arrays; the values of a cell are added in row
        order. Computed once."""
        cached = self.__dict__.get("_cell_sums")
        if cached is not None:
            return cached  # type: ignore[no-any-return]
        nd, ns, nm = (self.size(c) for c in ("dataset", "system", "metric"))
        if isinstance(self.data, tuple):
            count = np.zeros((nd, ns, nm), dtype=np.int64)
            total = np.zeros((nd, ns, nm))
            index = self._index
            for i, p in enumerate(self.data):
                d, s = int(index.lut["dataset"][i][0]), int(index.lut["system"][i][0])
                m = index.lut["metric"][i]
                count[d, s, m] = p.shape.counts
                total[d, s, m] = p.shape.sums
        else:
            dsm, _ = self.key("dataset", "system", "metric")
            count = np.bincount(dsm, minlength=nd * ns * nm).astype(np.int64).reshape(nd, ns, nm)
            sums = np.bincount(dsm, weights=self.values, minlength=nd * ns * nm)
            total = np.asarray(sums, dtype=np.float64).reshape(nd, ns, nm)
        self.__dict__["_cell_sums"] = (count, total)
        return count, total

    def values_at(self, rows: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.float64]:
        """The values of some rows (without stacking parts)."""
        if not isinstance(self.data, tuple) or "values" in self.__dict__:
            return np.asarray(self.values[rows], dtype=np.float64)
        part = self._index.part_of(rows)
        out = np.empty(len(rows))
        for i in np.unique(part).tolist():
            where = part == i
            out[where] = self.data[i].values[rows[where] - self._index.starts[i]]
        return out

    def codes_at(self, column: str, rows: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.int64]:
        """The codes of a key column at some rows (without stacking parts)."""
        if not isinstance(self.data, tuple) or "factors" in self.__dict__:
            return np.asarray(self.codes(column)[rows], dtype=np.int64)
        part = self._index.part_of(rows)
        out = np.empty(len(rows), dtype=np.int64)
        for i in np.unique(part).tolist():
            where = part == i
            lut = self._index.lut[column][i]
            if column in ("dataset", "system"):
                out[where] = lut[0]
            else:
                local = getattr(self.data[i], column).codes
                out[where] = lut[local[rows[where] - self._index.starts[i]]]
        return out

    @functools.cached_property
    def _dataset_spans(self) -> dict[str, list[tuple[int, int] | npt.NDArray[np.intp]]]:
        """The rows of each dataset: the runs of equal codes (few, when files are stacked),
        else the row positions."""
        codes = self.codes("dataset")
        names = self.categories("dataset")
        if not len(codes):
            return {}
        starts = np.flatnonzero(codes[1:] != codes[:-1]) + 1
        if len(starts) > 4096:  # interleaved: the rows of each dataset
            return {names[d]: [rows] for d, rows in _rows_by_code(codes) if d >= 0}
        bounds = [0, *starts.tolist(), len(codes)]
        spans: dict[str, list[tuple[int, int] | npt.NDArray[np.intp]]] = {}
        for lo, hi in itertools.pairwise(bounds):
            d = int(codes[lo])
            if d >= 0:
                spans.setdefault(names[d], []).append((lo, hi))
        return spans

    def means(self) -> pd.DataFrame:
        """Mean over queries: a frame indexed by (dataset, system, metric), with n."""
        g = self.frame.groupby(["dataset", "system", "metric"], observed=True, sort=False)
        return g["value"].agg(["mean", "count"]).rename(columns={"count": "n"})

    @functools.cached_property
    def layout(self) -> Layout:
        """Every value in one dense (metric x (dataset, system, query)) array, built once."""
        rank = self._query_order[1]
        if isinstance(self.data, tuple):
            built = layout_blocks(self.data, self._index)
            if built is not None:
                grid, row_block, row_query, block_start = built
                return Layout(grid, row_block, row_query, block_start, self.size("system"), rank)
        columns = ("dataset", "system", "query", "metric")
        return Layout.build(
            [self.codes(c) for c in columns], [self.size(c) for c in columns], self.values, rank
        )

    def aligned(
        self,
        dataset: str,
        metric: str,
        systems: Sequence[str],
        *,
        missing: MissingPolicy = "error",
    ) -> Aligned:
        """Queries x systems matrix for one dataset and metric, paired over queries.

        ``missing`` decides what happens when systems cover different queries: ``error``
        raises :class:`QueryMismatchError` naming them, ``intersect`` keeps the common
        queries and ``zero`` scores the missing ones 0; both warn with what they did.
        """
        lazy = self._complete_rows(dataset, metric, systems)
        if lazy is not None:
            return lazy
        queries, rows = self._matrix(dataset, metric, systems)
        if not np.isnan(rows).any():
            return Aligned(tuple(queries.tolist()), tuple(systems), rows=rows)
        matrix = np.ascontiguousarray(rows.T)
        gaps = np.isnan(matrix)
        dropped = _resolve_gaps(queries, systems, gaps, dataset, metric, missing)
        if missing == "intersect":
            keep = ~gaps.any(axis=1)
            queries, matrix = queries[keep], matrix[keep]
        else:
            matrix = np.where(gaps, 0.0, matrix)
        return Aligned(
            queries=tuple(queries.tolist()),
            systems=tuple(systems),
            matrix=matrix,
            dropped=dropped,
        )

    def _complete_rows(self, dataset: str, metric: str, systems: Sequence[str]) -> Aligned | None:
        """The aligned matrix, read from the layout on demand, when every system has every
        query (nothing to resolve); else None."""
        d = self.code_of("dataset", dataset)
        m = self.code_of("metric", metric)
        codes = tuple(self.code_of("system", s) for s in systems)
        if d < 0 or m < 0:
            return None
        found = self.layout.complete_rows(d, m, codes)
        if found is None:
            return None
        q_codes, index = found
        names = self.__dict__.setdefault("_query_names", {})
        key = (d, codes)
        if key not in names:
            names[key] = tuple(self._query_order[0][q_codes].tolist())
        return Aligned(names[key], tuple(systems), source=(self.layout.values[m], index))

    def _matrix(
        self, dataset: str, metric: str, systems: Sequence[str]
    ) -> tuple[npt.NDArray[np.object_], npt.NDArray[np.float64]]:
        """Queries (sorted as strings) and the systems x queries matrix, NaN where a
        system lacks a query."""
        d = self.code_of("dataset", dataset)
        m = self.code_of("metric", metric)
        codes = [self.code_of("system", s) for s in systems]
        if d < 0 or m < 0:
            return np.empty(0, dtype=object), np.full((len(systems), 0), np.nan)
        q_codes, matrix = self.layout.matrix(d, m, codes)
        return self._query_order[0][q_codes], matrix

    @functools.cached_property
    def _query_order(self) -> tuple[npt.NDArray[np.object_], npt.NDArray[np.intp]]:
        """Query names as an object array, and each one's rank in string order."""
        names = np.array(self.categories("query"), dtype=object)
        rank = np.empty(len(names), dtype=np.intp)
        rank[np.argsort(names.astype(str), kind="stable")] = np.arange(len(names))
        return names, rank


def _rows_by_code(
    codes: npt.NDArray[np.integer[Any]],
) -> Iterator[tuple[int, npt.NDArray[np.intp]]]:
    """Each code of ``codes`` in increasing order, with the positions that hold it (in
    increasing order): one stable sort instead of a scan of every row per code."""
    order = np.argsort(codes, kind="stable")
    ordered = codes[order]
    bounds = np.flatnonzero(ordered[1:] != ordered[:-1]) + 1
    for rows in np.split(order, bounds):
        yield int(codes[rows[0]]), rows


def _distinct_in_parts(parts: Sequence[Part], column: str, dataset: str | None) -> tuple[str, ...]:
    """Datasets, systems or metrics of parts (of one dataset) in order of first appearance."""
    chosen = [p for p in parts if dataset is None or p.dataset == dataset]
    if column in ("dataset", "system"):
        return tuple(dict.fromkeys(getattr(p, column) for p in chosen))
    found: dict[str, None] = {}
    for p in chosen:
        names = p.metric.categories
        found.update(dict.fromkeys(names[c] for c in p.shape.metric_order))
    return tuple(found)


@dataclass(frozen=True)
class Aligned:
    """A dense queries x systems matrix of one dataset and metric.

    :attr:`values` is the matrix (queries x systems, C-contiguous) and :attr:`by_system`
    the same values one system per row. Build it with ``matrix`` (the first), ``rows``
    (the second) or ``source``: a row of values and the index of each system's values
    in it (systems x queries), read on demand (:meth:`column` then copies one system's
    values and keeps nothing).
    """

    queries: tuple[str, ...]
    systems: tuple[str, ...]
    matrix: npt.NDArray[np.float64] | None = field(default=None, repr=False)
    dropped: tuple[str, ...] = ()  # queries a policy removed or zero-filled
    rows: npt.NDArray[np.float64] | None = field(default=None, repr=False, compare=False)
    source: tuple[npt.NDArray[np.float64], npt.NDArray[np.intp]] | None = field(
        default=None, repr=False, compare=False
    )

    @functools.cached_property
    def values(self) -> npt.NDArray[np.float64]:
        """The queries x systems matrix (C-contiguous)."""
        if self.matrix is not None:
            return self.matrix
        return np.ascontiguousarray(self.by_system.T)

    @functools.cached_property
    def by_system(self) -> npt.NDArray[np.float64]:
        """The systems x queries matrix (C-contiguous): one row per system."""
        if self.rows is not None:
            return self.rows
        if self.source is not None:
            row, index = self.source
            return row.take(index)
        return np.ascontiguousarray(self.values.T)

    @functools.cached_property
    def _position(self) -> dict[str, int]:
        """Each system's column (a sweep's thousands of systems: no list search each)."""
        return {system: j for j, system in enumerate(self.systems)}

    def column(self, system: str) -> npt.NDArray[np.float64]:
        """The values of one system, in query order."""
        j = self._position.get(system)
        if j is None:
            raise ValueError(f"{system!r} is not a system of these results")
        if self.rows is None and self.source is not None and "by_system" not in self.__dict__:
            row, index = self.source
            return np.asarray(row.take(index[j]), dtype=np.float64)
        if self.matrix is not None:
            return np.asarray(self.values[:, j], dtype=np.float64)
        return np.asarray(self.by_system[j], dtype=np.float64)


def _resolve_gaps(
    queries: npt.NDArray[np.object_],
    systems: Sequence[str],
    gaps: npt.NDArray[np.bool_],
    dataset: str,
    metric: str,
    missing: str,
) -> tuple[str, ...]:
    """Raise or warn about the queries some systems lack (``gaps``: queries x systems);
    the queries dropped or zero-filled."""
    incomplete = tuple(str(q) for q in queries[gaps.any(axis=1)])
    if missing == "error":
        parts = []
        for j, system in enumerate(systems):
            lacking = [str(q) for q in queries[gaps[:, j]]]
            if lacking:
                parts.append(f"{system} lacks {len(lacking)} of them: {_preview(lacking)}")
        raise QueryMismatchError(
            f"systems of dataset {dataset} were evaluated on different queries for {metric}: "
            + "; ".join(parts)
            + " (choose a policy: --missing intersect or --missing zero)"
        )
    action = "dropped" if missing == "intersect" else "scored 0 for missing systems on"
    change = f"{missing} {action} {len(incomplete)} queries: {_preview(list(incomplete))}"
    warnings.warn(
        PolicyWarning(
            f"{dataset}/{metric}: {change}", dataset=dataset, metric=metric, change=change
        ),
        stacklevel=user_stacklevel(),
    )
    return incomplete


def merged_warnings(caught: Sequence[Warning]) -> list[str]:
    """The messages of ``caught``, each once, in order; the :class:`PolicyWarning` of one
    change to one dataset's queries over several metrics given once, naming the metrics
    (``trec_eval -c`` files lacking a query: one line, not one per metric).

    Examples
    --------
    >>> w = [PolicyWarning("d/AP: x", dataset="d", metric="AP", change="x"),
    ...      PolicyWarning("d/P@5: x", dataset="d", metric="P@5", change="x"), Warning("y")]
    >>> merged_warnings(w)
    ['d (AP, P@5): x', 'y']
    """
    groups: dict[object, list[str]] = {}
    firsts: dict[object, Warning] = {}
    for w in caught:
        if isinstance(w, PolicyWarning) and w.change:
            key: object = (w.dataset, w.change)
            groups.setdefault(key, []).append(w.metric)
        else:
            key = str(w)
        firsts.setdefault(key, w)
    out = []
    for key, w in firsts.items():
        metrics = list(dict.fromkeys(groups.get(key, ())))
        if len(metrics) > 1 and isinstance(w, PolicyWarning):
            out.append(f"{w.dataset} ({', '.join(metrics)}): {w.change}")
        else:
            out.append(str(w))
    return out


def _duplicated_row(results: ResultSet) -> int | None:
    """Position of a row whose key repeats an earlier row's, or None when the key is unique."""
    repeats = repeated_rows(*results.key(*KEY))
    return int(repeats[0]) if len(repeats) else None


def _preview(items: list[str], limit: int = 5) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f", ... ({len(items) - limit} more)" if len(items) > limit else "")


def _as_category(series: pd.Series) -> pd.Series:
    import pandas as pd

    if isinstance(series.dtype, pd.CategoricalDtype):
        cats = series.cat.categories
        if cats.dtype == object or pd.api.types.is_string_dtype(cats.dtype):
            return series
        return series.cat.rename_categories([str(c) for c in cats])
    return series.astype(str).astype("category")
