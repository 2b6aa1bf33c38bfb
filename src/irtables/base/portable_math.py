"""Elementwise transcendental functions whose last bits do not depend on the CPU.

numpy runs ``log2``, ``exp``, ``exp2``, ``log1p`` and ``power`` through loops chosen at
run time for the processor's vector extensions (AVX-512 on one machine, the C library's
scalar code on another), and those loops round differently in the last bits. A value
that goes into a file at full precision (evaluate's TSV, the tables' CSV, the cache)
would then differ between a laptop and a server. The functions here compute through
Python's :mod:`math` (the C library's scalar functions, the same on every x86-64 and ARM
processor for a given C library) or exactly, and only as often as the distinct inputs
require: a rank's discount or a power of ``p`` is looked up in a table computed once.

Examples
--------
>>> import numpy as np
>>> rank_discounts(np.array([1, 2, 3])).tolist() == [1.0, 1 / math.log2(3), 0.5]
True
>>> powers_of_two(np.array([0.0, 1.0, 3.0])).tolist()
[1.0, 2.0, 8.0]
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

#: The smallest table of discounts or powers made (``2**_MIN_BITS`` entries).
_MIN_BITS = 10


def _table_bits(top: int) -> int:
    """Bits of the smallest table, a power of two in size, that holds index ``top``."""
    return max(_MIN_BITS, (top + 1).bit_length())


@functools.lru_cache(maxsize=8)
def _log2_table(bits: int) -> FloatArray:
    table = np.array([math.log2(r + 1.0) for r in range(1 << bits)], dtype=np.float64)
    table.flags.writeable = False
    return table


def log2_of_next(rank: npt.ArrayLike) -> FloatArray:
    """``log2(rank + 1)`` of each non-negative integer rank (nDCG's discount divides by it)."""
    ranks = np.asarray(rank, dtype=np.int64)
    if not ranks.size:
        return np.zeros(0, dtype=np.float64)
    if ranks.min() < 0:
        raise ValueError("log2_of_next takes ranks of 0 or more")
    return _log2_table(_table_bits(int(ranks.max())))[ranks]


def rank_discounts(rank: npt.ArrayLike) -> FloatArray:
    """``1 / log2(rank + 1)`` of each 1-based integer rank (nDCG's discount).

    Raises ``ValueError`` for a rank below 1 (its discount is undefined or infinite).
    """
    ranks = np.asarray(rank, dtype=np.int64)
    if ranks.size and ranks.min() < 1:
        raise ValueError("a rank's discount needs a rank of 1 or more")
    out: FloatArray = 1.0 / log2_of_next(ranks)
    return out


@functools.lru_cache(maxsize=32)
def _power_table(base: float, bits: int) -> FloatArray:
    table = np.array([math.pow(base, float(e)) for e in range(1 << bits)], dtype=np.float64)
    table.flags.writeable = False
    return table


def integer_powers(base: float, exponent: npt.ArrayLike) -> FloatArray:
    """``base ** exponent`` for non-negative integer exponents (RBP's ``p**(rank - 1)``)."""
    exponents = np.asarray(exponent, dtype=np.int64)
    if not exponents.size:
        return np.zeros(0, dtype=np.float64)
    if exponents.min() < 0:
        raise ValueError("integer_powers takes exponents of 0 or more")
    return _power_table(float(base), _table_bits(int(exponents.max())))[exponents]


def powers_of_two(exponent: npt.ArrayLike) -> FloatArray:
    """``2 ** exponent`` of integer-valued exponents, exactly (``ldexp``)."""
    values = np.asarray(exponent, dtype=np.float64)
    whole = values.astype(np.int64)
    if not np.array_equal(whole, values):
        raise ValueError("powers_of_two takes integer-valued exponents")
    return np.ldexp(1.0, whole)


def _each(func: Callable[[float], float], values: npt.ArrayLike) -> FloatArray:
    flat = np.asarray(values, dtype=np.float64)
    out = np.fromiter(map(func, flat.ravel().tolist()), dtype=np.float64, count=flat.size)
    return out.reshape(flat.shape)


def exp(values: npt.ArrayLike) -> FloatArray:
    """``exp`` of each value, by the C library's scalar ``exp``."""
    return _each(math.exp, values)


def log(values: npt.ArrayLike) -> FloatArray:
    """Natural logarithm of each (positive) value, by the C library's scalar ``log``."""
    return _each(math.log, values)


def log1p(values: npt.ArrayLike) -> FloatArray:
    """``log(1 + x)`` of each value (> -1), by the C library's scalar ``log1p``."""
    return _each(math.log1p, values)
