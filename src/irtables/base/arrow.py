"""Arrow to numpy without pandas: pyarrow imports pandas where none is needed.

pyarrow imports pandas (0.3-0.4 s) the first time it converts anything to or from numpy,
only to check whether its input is a pandas object. ``irtables evaluate`` and the worker
processes that evaluate runs never hand it one, so they call :func:`skip_pandas_checks`
first: pyarrow's check then finds no pandas. A later call that does need pandas
(``Table.to_pandas``, ``pandas.read_parquet``) still imports it as usual.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa


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


class _NoPandas:
    """An import finder under which ``import pandas`` fails (a meta path finder needs
    only ``find_spec``: ``importlib.abc``, whose import takes longer, is not used)."""

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


def from_numpy(values: npt.NDArray[Any]) -> pa.Array:
    """A one-dimensional numeric numpy array as an Arrow array over the same memory.

    ``pa.array(values)`` asks whether ``values`` is a masked array, which imports
    ``numpy.ma`` (longer than a small evaluation's conversions); this does not.

    Examples
    --------
    >>> import numpy as np
    >>> from_numpy(np.arange(3, dtype=np.int32)[1:]).to_pylist()
    [1, 2]
    >>> from_numpy(np.arange(4)[::2]).type, from_numpy(np.zeros(0)).to_pylist()
    (DataType(int64), [])
    """
    if values.dtype.kind not in "iuf":
        raise TypeError(f"from_numpy: no Arrow array over {values.dtype} values")
    contiguous = np.ascontiguousarray(values)
    arrow_type = pa.from_numpy_dtype(contiguous.dtype)
    return pa.Array.from_buffers(arrow_type, len(contiguous), [None, pa.py_buffer(contiguous)])


def _numpy_type(arrow_type: pa.DataType) -> str:
    name = str(arrow_type)
    if name not in _NUMPY_TYPES and not pa.types.is_boolean(arrow_type):
        raise TypeError(f"to_numpy: no numpy type for Arrow type {name}")
    return _NUMPY_TYPES.get(name, "bool")


_HASH_BASE = 0x9E3779B97F4A7C15  # odd: invertible modulo 2**64
_HASH_PIECE = 1 << 13  # strings hashed at a time: bounded temporary memory


def string_hashes(values: pa.Array | pa.ChunkedArray) -> npt.NDArray[np.int64]:
    """A 62-bit hash of each string (non-negative int64), computed from the Arrow buffers.

    A polynomial hash of the bytes modulo 2**64, mixed with the length: equal strings
    have equal hashes; different strings rarely do, so equal hashes are candidates to be
    confirmed on the strings. Memory is 8 bytes per string plus a bounded working set,
    instead of the hash table and dictionary that ``dictionary_encode`` builds.

    Examples
    --------
    >>> h = string_hashes(pa.chunked_array([["LA01-1", "FT02-2"], ["LA01-1", ""]]))
    >>> bool(h[0] == h[2]), bool(h[0] != h[1]), bool((h >= 0).all())
    (True, True, True)
    """
    out = np.empty(len(values), dtype=np.int64)
    at = 0
    chunks = values.chunks if isinstance(values, pa.ChunkedArray) else [values]
    for chunk in chunks:
        for start in range(0, len(chunk), _HASH_PIECE):
            piece = chunk.slice(start, _HASH_PIECE)
            out[at : at + len(piece)] = _piece_hashes(piece)
            at += len(piece)
    return out


def _piece_hashes(piece: pa.Array) -> npt.NDArray[np.int64]:
    n = len(piece)
    if piece.null_count:
        raise ValueError("string_hashes: the array has nulls")
    wide = pa.types.is_large_string(piece.type)
    buffers = piece.buffers()
    offsets = np.frombuffer(
        buffers[1],
        dtype=np.int64 if wide else np.int32,
        count=n + 1,
        offset=piece.offset * (8 if wide else 4),
    ).astype(np.int64)
    lo, hi = int(offsets[0]), int(offsets[-1])
    data = np.frombuffer(buffers[2], dtype=np.uint8)[lo:hi] if hi > lo else np.zeros(0, np.uint8)
    powers, inverse = _powers(hi - lo)
    prefix = np.zeros(hi - lo + 1, dtype=np.uint64)
    with np.errstate(over="ignore"):
        np.cumsum(data.astype(np.uint64) * powers[: hi - lo], out=prefix[1:])
        starts, ends = offsets[:-1] - lo, offsets[1:] - lo
        h = (prefix[ends] - prefix[starts]) * inverse[starts]
        h ^= (ends - starts).astype(np.uint64) * np.uint64(0xD6E8FEB86659FD93)
        h *= np.uint64(0xFF51AFD7ED558CCD)  # spread the bits before keeping 62 of them
    return (h >> np.uint64(2)).astype(np.int64)


_POWERS: list[npt.NDArray[np.uint64]] = []


def _powers(n: int) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """``base**t`` and ``base**-t`` modulo 2**64 for t < n + 1 (kept and grown)."""
    if not _POWERS or len(_POWERS[0]) < n + 1:
        size = 1 << max(n, 1 << 16).bit_length()
        with np.errstate(over="ignore"):
            up = np.full(size, _HASH_BASE, dtype=np.uint64)
            up[0] = 1
            down = np.full(size, pow(_HASH_BASE, -1, 2**64), dtype=np.uint64)
            down[0] = 1
            _POWERS[:] = [np.cumprod(up, dtype=np.uint64), np.cumprod(down, dtype=np.uint64)]
    return _POWERS[0], _POWERS[1]
