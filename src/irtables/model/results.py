"""The tidy result table every input is read into, and the matrices derived from it."""

from __future__ import annotations

import functools
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd
from pandas.api.types import union_categoricals

from irtables.errors import InputError, PolicyWarning, QueryMismatchError
from irtables.model.policy import MissingPolicy

COLUMNS = ("dataset", "system", "query", "metric", "value")
KEY = ("dataset", "system", "query", "metric")


@dataclass(frozen=True)
class ResultSet:
    """Per-query results: one row per (dataset, system, query, metric).

    ``frame`` has exactly the columns ``dataset, system, query, metric, value``; the first
    four are categorical strings, ``value`` is float64, and the key is unique. Build one
    with :meth:`from_frame`, which checks all of that.

    ``seeds`` is set by the loaders when systems had several runs (seeds or folds) whose
    per-query values were averaged into ``frame``: the mean over queries of every run,
    columns ``dataset, system, seed, metric, mean`` (systems with a single run are not
    in it). It is provenance, not data: it takes no part in comparisons.

    Examples
    --------
    >>> import pandas as pd
    >>> rs = ResultSet.from_frame(pd.DataFrame({
    ...     "dataset": ["d", "d"], "system": ["a", "b"], "query": ["1", "1"],
    ...     "metric": ["AP", "AP"], "value": [0.5, 0.25]}))
    >>> rs.systems("d")
    ('a', 'b')
    """

    frame: pd.DataFrame
    seeds: pd.DataFrame | None = field(default=None, compare=False, repr=False)

    @classmethod
    def from_frame(
        cls, df: pd.DataFrame, *, source: str = "<frame>", key_checked: bool = False
    ) -> ResultSet:
        """Check and normalise a tidy frame (column order, dtypes, unique key).

        ``key_checked`` skips the uniqueness check of the key, for callers that have
        proved it themselves (the loaders check each file and that no two files hold the
        same dataset and system).
        """
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
        dup = None if key_checked else _duplicated_rows(out)
        if dup is not None:
            row = out.iloc[dup]
            raise InputError(
                f"query {row['query']} has metric {row['metric']} more than once "
                f"(system {row['system']}, dataset {row['dataset']})",
                path=source,
            )
        return cls(out.reset_index(drop=True))

    @classmethod
    def concat(cls, parts: Iterable[ResultSet]) -> ResultSet:
        """Stack result sets; a repeated key is an error."""
        items = list(parts)
        frames = [p.frame for p in items]
        if not frames:
            return cls.from_frame(pd.DataFrame({c: [] for c in COLUMNS}))
        merged = {c: union_categoricals([f[c] for f in frames], ignore_order=True) for c in KEY}
        values = np.concatenate([f["value"].to_numpy() for f in frames])
        out = cls.from_frame(pd.DataFrame({**merged, "value": values}))
        seeds = [p.seeds for p in items if p.seeds is not None]
        return replace(out, seeds=pd.concat(seeds, ignore_index=True)) if seeds else out

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

    def key(self, *columns: str) -> tuple[npt.NDArray[np.intp], int]:
        """Mixed-radix key of key columns' codes (``(dataset * n_metrics + metric)`` ...)
        and the size of its range."""
        sizes = [max(len(self.frame[c].cat.categories), 1) for c in columns]
        return combine_codes([self.codes(c) for c in columns], sizes)

    def codes(self, column: str) -> npt.NDArray[np.integer[Any]]:
        """The category codes of a key column, extracted once (read-only)."""
        cache = self.__dict__.setdefault("_codes_cache", {})
        if column not in cache:
            array = self.frame[column].cat.codes.to_numpy()
            array.setflags(write=False)
            cache[column] = array
        result: npt.NDArray[np.integer[Any]] = cache[column]
        return result

    def _distinct(self, column: str, dataset: str | None) -> tuple[str, ...]:
        """Distinct values of a key column, computed once per (column, dataset)."""
        cache = self.__dict__.setdefault("_distinct_cache", {})
        if (column, dataset) not in cache:
            series = self.frame[column]
            if dataset is not None:
                code = self.frame["dataset"].cat.categories.get_indexer(pd.Index([dataset]))[0]
                rows = np.flatnonzero(self.codes("dataset") == code)
                series = series.take(rows) if code >= 0 else series.iloc[:0]
            cache[column, dataset] = _unique(series)
        result: tuple[str, ...] = cache[column, dataset]
        return result

    def means(self) -> pd.DataFrame:
        """Mean over queries: a frame indexed by (dataset, system, metric), with n."""
        g = self.frame.groupby(["dataset", "system", "metric"], observed=True, sort=False)
        return g["value"].agg(["mean", "count"]).rename(columns={"count": "n"})

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
        queries, matrix = self._matrix(dataset, metric, systems)
        gaps = np.isnan(matrix)
        dropped: tuple[str, ...] = ()
        if gaps.any():
            index, columns = pd.Index(queries, dtype=object), list(systems)
            wide = pd.DataFrame(matrix, index=index, columns=columns)
            gap_frame = pd.DataFrame(gaps, index=index, columns=columns)
            dropped = _resolve_gaps(wide, gap_frame, dataset, metric, missing)
            if missing == "intersect":
                keep = ~gaps.any(axis=1)
                queries, matrix = queries[keep], matrix[keep]
            else:
                matrix = np.where(gaps, 0.0, matrix)
        return Aligned(
            queries=tuple(queries.tolist()),
            systems=tuple(systems),
            values=matrix,
            dropped=dropped,
        )

    def _matrix(
        self, dataset: str, metric: str, systems: Sequence[str]
    ) -> tuple[npt.NDArray[np.object_], npt.NDArray[np.float64]]:
        """Queries (sorted as strings) and the queries x systems matrix, NaN where a
        system lacks a query."""
        rows = self._rows_of(dataset, metric)
        frame = self.frame
        codes = frame["system"].cat.categories.get_indexer(pd.Index(list(systems)))
        column_of = np.full(len(frame["system"].cat.categories) + 1, -1, dtype=np.intp)
        column_of[codes[codes >= 0]] = np.flatnonzero(codes >= 0)
        column = column_of[self.codes("system")[rows]]
        keep = column >= 0  # rows of the requested systems only
        rows, column = rows[keep], column[keep]
        q_codes = self.codes("query")[rows]
        values = frame["value"].to_numpy()[rows]
        names, position = self._queries_of(dataset)
        found = np.zeros(len(names), dtype=np.bool_)
        found[position[q_codes]] = True
        if not found.all():  # this metric lacks some of the dataset's queries
            names, position = self._query_positions(q_codes)
        matrix = np.full((len(names), len(systems)), np.nan)
        matrix[position[q_codes], column] = values
        return names, matrix

    def _queries_of(self, dataset: str) -> tuple[npt.NDArray[np.object_], npt.NDArray[np.intp]]:
        """The queries of a dataset (any metric) in string order, and the position of each
        query code among them; computed once per dataset."""
        cache = self.__dict__.setdefault("_dataset_queries", {})
        if dataset not in cache:
            code = self.frame["dataset"].cat.categories.get_indexer(pd.Index([dataset]))[0]
            rows = np.flatnonzero(self.codes("dataset") == code)
            cache[dataset] = self._query_positions(self.codes("query")[rows])
        result: tuple[npt.NDArray[np.object_], npt.NDArray[np.intp]] = cache[dataset]
        return result

    def _query_positions(
        self, q_codes: npt.NDArray[np.integer[Any]]
    ) -> tuple[npt.NDArray[np.object_], npt.NDArray[np.intp]]:
        """The distinct queries of ``q_codes`` in string order, and each code's position."""
        names_all, rank = self._query_order
        present = np.zeros(len(rank), dtype=np.bool_)
        present[q_codes] = True
        queries = np.flatnonzero(present)
        queries = queries[np.argsort(rank[queries], kind="stable")]  # string order
        position = np.zeros(len(rank), dtype=np.intp)
        position[queries] = np.arange(len(queries))
        return names_all[queries], position

    def _rows_of(self, dataset: str, metric: str) -> npt.NDArray[np.intp]:
        """Row positions of one (dataset, metric), from an index built once per result set."""
        index = self._dataset_metric_index
        d = self.frame["dataset"].cat.categories.get_indexer(pd.Index([dataset]))[0]
        m = self.frame["metric"].cat.categories.get_indexer(pd.Index([metric]))[0]
        if d < 0 or m < 0:
            return np.empty(0, dtype=np.intp)
        order, starts, n_metrics = index
        key = d * n_metrics + m
        return order[starts[key] : starts[key + 1]]

    @functools.cached_property
    def _query_order(self) -> tuple[npt.NDArray[np.object_], npt.NDArray[np.intp]]:
        """Query names as an object array, and each one's rank in string order."""
        names = np.asarray(self.frame["query"].cat.categories.astype(str), dtype=object)
        rank = np.empty(len(names), dtype=np.intp)
        rank[np.argsort(names.astype(str), kind="stable")] = np.arange(len(names))
        return names, rank

    @functools.cached_property
    def _dataset_metric_index(self) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], int]:
        n_metrics = max(len(self.frame["metric"].cat.categories), 1)
        key, n_keys = self.key("dataset", "metric")
        if n_keys <= 2**15:  # numpy sorts 16-bit integers by radix: linear time
            key = key.astype(np.int16)
        order = np.argsort(key, kind="stable")
        starts = np.concatenate([[0], np.cumsum(np.bincount(key, minlength=n_keys))])
        return order, starts, n_metrics


@dataclass(frozen=True)
class Aligned:
    """A dense queries x systems matrix of one dataset and metric."""

    queries: tuple[str, ...]
    systems: tuple[str, ...]
    values: npt.NDArray[np.float64]  # shape (len(queries), len(systems))
    dropped: tuple[str, ...] = ()  # queries a policy removed or zero-filled

    def column(self, system: str) -> npt.NDArray[np.float64]:
        """The values of one system, in query order."""
        return self.values[:, self.systems.index(system)]


def _resolve_gaps(
    wide: pd.DataFrame, gaps: pd.DataFrame, dataset: str, metric: str, missing: str
) -> tuple[str, ...]:
    incomplete = tuple(str(q) for q in wide.index[gaps.any(axis=1)])
    if missing == "error":
        parts = []
        for system in wide.columns:
            lacking = [str(q) for q in wide.index[gaps[system]]]
            if lacking:
                parts.append(f"{system} lacks {len(lacking)} of them: {_preview(lacking)}")
        raise QueryMismatchError(
            f"systems of dataset {dataset} were evaluated on different queries for {metric}: "
            + "; ".join(parts)
            + " (choose a policy: --missing intersect or --missing zero)"
        )
    action = "dropped" if missing == "intersect" else "scored 0 for missing systems on"
    warnings.warn(
        f"{dataset}/{metric}: {missing} {action} {len(incomplete)} queries: "
        f"{_preview(list(incomplete))}",
        PolicyWarning,
        stacklevel=3,
    )
    return incomplete


def combine_codes(
    codes: Sequence[npt.NDArray[np.integer[Any]]], sizes: Sequence[int]
) -> tuple[npt.NDArray[np.intp], int]:
    """Mixed-radix key of several code columns, built in place; and the number of keys.

    Examples
    --------
    >>> key, space = combine_codes([np.array([0, 1]), np.array([2, 0])], [2, 3])
    >>> key.tolist(), space
    ([2, 3], 6)
    """
    key = np.asarray(codes[0]).astype(np.intp)
    for code, size in zip(codes[1:], sizes[1:], strict=True):
        key *= size
        key += code
    return key, int(np.prod(np.asarray(sizes, dtype=np.float64)))


def distinct_keys(key: npt.NDArray[np.intp], space: int) -> npt.NDArray[np.intp]:
    """The distinct values of ``key`` (all in ``[0, space)``), sorted.

    A bitmap over the key space when it is small (linear time), else a sort.
    """
    if space <= 8 * len(key) + 1_000_000:
        seen = np.zeros(space, dtype=np.bool_)
        seen[key] = True
        return np.flatnonzero(seen)
    return np.unique(key).astype(np.intp)


def _duplicated_rows(frame: pd.DataFrame) -> int | None:
    """Position of a row whose key repeats an earlier row's, or None when the key is unique."""
    key, space = combine_codes(
        [frame[c].cat.codes.to_numpy() for c in KEY],
        [max(len(frame[c].cat.categories), 1) for c in KEY],
    )
    if len(distinct_keys(key, space)) == len(key):
        return None
    order = np.argsort(key, kind="stable")
    repeats = np.flatnonzero(key[order][1:] == key[order][:-1])
    return int(order[repeats[0] + 1]) if len(repeats) else None


def _preview(items: list[str], limit: int = 5) -> str:
    shown = ", ".join(items[:limit])
    return shown + (f", ... ({len(items) - limit} more)" if len(items) > limit else "")


def _as_category(series: pd.Series) -> pd.Series:
    if isinstance(series.dtype, pd.CategoricalDtype):
        cats = series.cat.categories
        if cats.dtype == object or pd.api.types.is_string_dtype(cats.dtype):
            return series
        return series.cat.rename_categories([str(c) for c in cats])
    return series.astype(str).astype("category")


def _unique(series: pd.Series) -> tuple[str, ...]:
    """Distinct values of a categorical column in order of first appearance.

    A value first appears where a run of equal codes starts, and stacked result files
    hold long runs (one system per file): only the run starts are looked at. Those are
    then scanned in growing slices until every value present has been met (the first
    file usually holds every metric).
    """
    codes = series.cat.codes.to_numpy()
    if len(codes) > 1:
        starts = np.flatnonzero(codes[1:] != codes[:-1]) + 1
        codes = np.concatenate((codes[:1], codes[starts]))
    codes = codes[codes >= 0]
    cats = series.cat.categories
    wanted = int(np.count_nonzero(np.bincount(codes, minlength=len(cats)))) if len(codes) else 0
    order: dict[int, None] = {}
    at, step = 0, 1 << 16
    while len(order) < wanted:
        order.update(dict.fromkeys(pd.unique(codes[at : at + step]).tolist()))
        at, step = at + step, step * 4
    return tuple(str(cats[c]) for c in order)
