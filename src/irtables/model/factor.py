"""Categorical columns without pandas: distinct names and an integer code per row.

The key columns of a :class:`~irtables.model.ResultSet` (dataset, system, query, metric)
are held as :class:`Factor` records: reading 14 million rows into codes and merging the
files' codes through small lookup tables costs a fraction of building and merging pandas
categoricals, and every consumer that needs a matrix works on the codes anyway.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    import pandas as pd

Codes = npt.NDArray[np.integer[Any]]
_CODE_TYPES = (np.int8, np.int16, np.int32, np.int64)


@dataclass(frozen=True, eq=False)
class Factor:
    """A categorical column: ``categories[codes[i]]`` is row ``i``'s name (code -1: none).

    Examples
    --------
    >>> f = Factor(("bm25", "dense"), np.array([1, 0, 1], dtype=np.int8))
    >>> f.names().tolist(), len(f)
    (['dense', 'bm25', 'dense'], 3)
    """

    categories: tuple[str, ...]
    codes: Codes

    def __len__(self) -> int:
        return len(self.codes)

    def names(self) -> npt.NDArray[np.object_]:
        """Every row's name, as an object array (None for code -1)."""
        lookup = np.array([*self.categories, None], dtype=object)
        return lookup[self.codes]

    def to_categorical(self) -> pd.Categorical:
        """A pandas Categorical on these codes (no copy, no validation)."""
        import pandas as pd

        kind = pd.CategoricalDtype(pd.Index(list(self.categories), dtype=object))
        cat: pd.Categorical = pd.Categorical.from_codes(self.codes, dtype=kind, validate=False)
        return cat

    @classmethod
    def constant(cls, name: str | None, length: int) -> Factor:
        """``name`` on every row (or, for None, no category at all)."""
        if name is None:
            return cls((), np.full(length, -1, dtype=np.int8))
        return cls((name,), np.zeros(length, dtype=np.int8))

    @classmethod
    def from_series(cls, series: pd.Series) -> Factor:
        """Factor of a pandas column: its categories if categorical, else its strings."""
        import pandas as pd

        if not isinstance(series.dtype, pd.CategoricalDtype):
            series = series.astype(str).astype("category")
        cats = series.cat.categories
        names = tuple(str(c) for c in cats.tolist())
        return cls(names, series.cat.codes.to_numpy())


def smallest_code_type(n_categories: int) -> type[np.signedinteger[Any]]:
    """The smallest signed integer type that holds codes ``-1 .. n_categories - 1``."""
    return next(t for t in _CODE_TYPES if n_categories < np.iinfo(t).max)


def category_tables(
    lists: Iterable[tuple[str, ...]],
) -> tuple[tuple[str, ...], list[npt.NDArray[np.int64]]]:
    """The categories of stacked parts, in order of first appearance among the parts'
    category lists (as pandas' ``union_categoricals``), and each part's lookup table from
    its codes to those of the stack. A table is built once per run of equal lists (the
    files of one dataset share theirs): consecutive parts share the same array.

    Examples
    --------
    >>> cats, tables = category_tables([("x", "y"), ("x", "y"), ("z", "x")])
    >>> cats, [t.tolist() for t in tables], tables[0] is tables[1]
    (('x', 'y', 'z'), [[0, 1], [0, 1], [2, 0]], True)
    """
    where: dict[str, int] = {}
    tables: list[npt.NDArray[np.int64]] = []
    last: tuple[tuple[str, ...] | None, npt.NDArray[np.int64]] = (None, np.zeros(0, np.int64))
    for cats in lists:
        if cats is not last[0] and cats != last[0]:
            codes = [where.setdefault(v, len(where)) for v in cats]
            last = (cats, np.array(codes, dtype=np.int64))
        tables.append(last[1])
    return tuple(where), tables


def stack_codes(
    tables: Sequence[npt.NDArray[np.int64]], codes: Sequence[Codes], n_categories: int
) -> Codes:
    """Each part's codes mapped through its lookup table, stacked into codes of the
    smallest integer type for ``n_categories``."""
    dtype = smallest_code_type(n_categories)
    out = np.empty(sum(len(c) for c in codes), dtype=dtype)
    at = 0
    last: tuple[npt.NDArray[np.int64] | None, Codes] = (None, np.zeros(0, dtype))
    for table, part in zip(tables, codes, strict=True):
        if table is not last[0]:
            last = (table, table.astype(dtype))
        n = len(part)
        np.take(last[1], part, out=out[at : at + n])
        at += n
    return out


def merge_factors(parts: Iterable[Factor]) -> Factor:
    """Stack factors: categories in order of first appearance among the parts' categories
    (as pandas' ``union_categoricals``), each part's codes remapped through a lookup
    table built once per distinct category list (the files of one dataset share theirs),
    into codes of the smallest integer type.

    Examples
    --------
    >>> a = Factor(("x", "y"), np.array([0, 1, 1]))
    >>> b = Factor(("z", "x"), np.array([0, 1, -1]))
    >>> m = merge_factors([a, b])
    >>> m.categories, m.codes.tolist()
    (('x', 'y', 'z'), [0, 1, 1, 2, 0, -1])
    """
    items = list(parts)
    cats, tables = category_tables(p.categories for p in items)
    with_none = {id(t): np.append(t, -1) for t in tables}  # code -1: the last entry
    codes = stack_codes([with_none[id(t)] for t in tables], [p.codes for p in items], len(cats))
    return Factor(cats, codes)


def factors_frame(factors: Mapping[str, Factor], values: npt.NDArray[np.float64]) -> pd.DataFrame:
    """Factors and values as a pandas frame: a categorical column per factor (in the
    mapping's order), then ``value``."""
    import pandas as pd

    columns: dict[str, object] = {c: f.to_categorical() for c, f in factors.items()}
    columns["value"] = values
    return pd.DataFrame(columns, copy=False)


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


def repeated_rows(key: npt.NDArray[np.intp], space: int) -> npt.NDArray[np.intp]:
    """The rows whose key repeats an earlier row's, in key order (empty when the key,
    in ``[0, space)``, is unique).

    Examples
    --------
    >>> repeated_rows(np.array([3, 1, 3, 1, 0]), 4).tolist()
    [3, 2]
    """
    if len(distinct_keys(key, space)) == len(key):
        return np.zeros(0, dtype=np.intp)
    order = np.argsort(key, kind="stable")
    ordered = key[order]
    return order[np.flatnonzero(ordered[1:] == ordered[:-1]) + 1]


def first_appearances(
    codes: npt.NDArray[np.integer[Any]],
    spans: Sequence[tuple[int, int] | npt.NDArray[np.intp]],
    wanted: int,
) -> list[int]:
    """Distinct codes (>= 0) of some rows in order of first appearance.

    ``spans`` are the rows, in order: ranges ``(start, stop)`` or arrays of positions.
    A value first appears where a run of equal codes starts, and stacked result files
    hold long runs (one system per file): only run starts are looked at, in slices
    that grow until the ``wanted`` number of values has been met (the first file
    usually holds every metric).

    Examples
    --------
    >>> first_appearances(np.array([2, 2, 0, -1, 2, 1]), [(0, 6)], 3)
    [2, 0, 1]
    """
    order: dict[int, None] = {}
    for span in spans:
        part = codes[span[0] : span[1]] if isinstance(span, tuple) else codes[span]
        at, step = 0, 1 << 12
        while len(order) < wanted and at < len(part):
            chunk = part[at : at + step]
            starts = np.flatnonzero(chunk[1:] != chunk[:-1]) + 1
            firsts = np.concatenate((chunk[:1], chunk[starts]))
            firsts = firsts[firsts >= 0]
            values, first = np.unique(firsts, return_index=True)
            order.update(dict.fromkeys(values[np.argsort(first)].tolist()))
            at, step = at + step, step * 4
        if len(order) >= wanted:
            break
    return list(order)
