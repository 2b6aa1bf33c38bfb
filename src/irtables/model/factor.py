"""Categorical columns without pandas: distinct names and an integer code per row.

The key columns of a :class:`~irtables.model.ResultSet` (dataset, system, query, metric)
are held as :class:`Factor` records: reading 14 million rows into codes and merging the
files' codes through small lookup tables costs a fraction of building and merging pandas
categoricals, and every consumer that needs a matrix works on the codes anyway.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
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
    >>> f.names().tolist(), f.code_of("dense"), len(f)
    (['dense', 'bm25', 'dense'], 1, 3)
    """

    categories: tuple[str, ...]
    codes: Codes

    def __len__(self) -> int:
        return len(self.codes)

    @functools.cached_property
    def _where(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.categories)}

    def code_of(self, name: str) -> int:
        """The code of ``name``, or -1 when it is not a category."""
        return self._where.get(name, -1)

    def names(self) -> npt.NDArray[np.object_]:
        """Every row's name, as an object array (None for code -1)."""
        lookup = np.array([*self.categories, None], dtype=object)
        return lookup[self.codes]

    def take(self, rows: npt.NDArray[np.integer[Any]] | slice) -> Factor:
        """The factor of some rows, on the same categories."""
        return Factor(self.categories, self.codes[rows])

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
    where: dict[str, int] = {}
    tables: list[npt.NDArray[np.int64]] = []
    last: tuple[tuple[str, ...] | None, npt.NDArray[np.int64]] = (None, np.zeros(1, np.int64))
    for part in items:
        cats = part.categories
        if cats is not last[0] and cats != last[0]:
            codes = [where.setdefault(v, len(where)) for v in cats]
            last = (cats, np.array([*codes, -1], dtype=np.int64))
        tables.append(last[1])
    dtype = smallest_code_type(len(where))
    out = np.empty(sum(len(p) for p in items), dtype=dtype)
    at = 0
    for part, lut in zip(items, tables, strict=True):
        n = len(part)
        np.take(lut.astype(dtype), part.codes, out=out[at : at + n])  # code -1: the last
        at += n
    return Factor(tuple(where), out)
