"""Arrow to numpy without pandas: pyarrow imports pandas where none is needed.

pyarrow imports pandas (0.3-0.4 s) the first time it converts anything to or from numpy,
only to check whether its input is a pandas object. ``irtables evaluate`` and the worker
processes that evaluate runs never hand it one, so they call :func:`skip_pandas_checks`
first: pyarrow's check then finds no pandas. A later call that does need pandas
(``Table.to_pandas``, ``pandas.read_parquet``) still imports it as usual.
"""

from __future__ import annotations

import importlib.abc
import sys
from typing import TYPE_CHECKING, Any

import pyarrow as pa

if TYPE_CHECKING:
    import numpy.typing as npt


def skip_pandas_checks() -> None:
    """Make pyarrow's optional pandas checks answer "no pandas" without importing it.

    Does nothing once pandas is imported (its checks are then cheap and right).
    """
    if "pandas" in sys.modules:
        return
    blocker = _NoPandas()
    sys.meta_path.insert(0, blocker)
    try:
        _ = pa.lib._pandas_api.have_pandas  # the check that does not raise: remembered
    finally:
        sys.meta_path.remove(blocker)


class _NoPandas(importlib.abc.MetaPathFinder):
    """An import finder under which ``import pandas`` fails."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if name == "pandas" or name.startswith("pandas."):
            raise ImportError("pandas is not needed here")
        return None


_NUMPY_TYPES = {
    "int8": "int8",
    "int16": "int16",
    "int32": "int32",
    "int64": "int64",
    "uint8": "uint8",
    "uint16": "uint16",
    "uint32": "uint32",
    "uint64": "uint64",
    "float": "float32",
    "double": "float64",
}


def to_numpy(values: pa.Array | pa.ChunkedArray) -> npt.NDArray[Any]:
    """A numeric or boolean Arrow array without nulls as a numpy array, read from its
    buffers (zero-copy for one numeric chunk).

    ``Array.to_numpy`` goes through pyarrow's pandas conversion, which imports pandas;
    this does not.

    Examples
    --------
    >>> import pyarrow as pa
    >>> to_numpy(pa.array([1, 2, 3])[1:]).tolist(), to_numpy(pa.array([True, False])).tolist()
    ([2, 3], [True, False])
    """
    import numpy as np

    if isinstance(values, pa.ChunkedArray):
        parts = [to_numpy(chunk) for chunk in values.chunks]
        if len(parts) == 1:
            return parts[0]
        if parts:
            return np.concatenate(parts)
        return np.zeros(0, dtype=_numpy_type(values.type))
    if values.null_count:
        raise ValueError("to_numpy: the array has nulls; fill them first")
    n, offset = len(values), values.offset
    data = values.buffers()[1]
    if pa.types.is_boolean(values.type):
        if data is None:
            return np.zeros(n, dtype=np.bool_)
        bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8), bitorder="little")
        return bits[offset : offset + n].astype(np.bool_)
    dtype = np.dtype(_numpy_type(values.type))
    if data is None or n == 0:
        return np.zeros(n, dtype=dtype)
    return np.frombuffer(data, dtype=dtype, count=n, offset=offset * dtype.itemsize)


def _numpy_type(arrow_type: pa.DataType) -> str:
    name = str(arrow_type)
    if name not in _NUMPY_TYPES and not pa.types.is_boolean(arrow_type):
        raise TypeError(f"to_numpy: no numpy type for Arrow type {name}")
    return _NUMPY_TYPES.get(name, "bool")
