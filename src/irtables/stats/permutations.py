"""Uniform random permutations of the systems within each topic, one code per row.

The randomised Tukey HSD draws, trial by trial and topic by topic, one permutation of
the ``k`` systems per (trial, topic) row. Its random stream:

- a row's permutation is coded by one integer ``c`` uniform in ``[0, k!)``, drawn with
  ``rng.integers(0, k!, dtype=np.int64)``, the rows of many trials in one call (numpy
  draws them in order, so a call for many rows gives the values of one call per row);
- the mixed-radix digits of ``c`` are Fisher-Yates swaps: ``d_{k-1} = c mod k``, then
  ``d_{k-2} = (c // k) mod (k-1)``, ... down to ``d_1``; starting from ``(0, 1, ..., k-1)``,
  for ``i = k-1 .. 1`` swap the entries at ``i`` and ``d_i``; entry ``j`` is then the
  system at position ``j``. The digits are uniform and independent, and the swaps map
  them one to one onto the ``k!`` permutations, so every permutation is equally likely;
- beyond 20 systems ``k!`` exceeds ``2**63``: the digits are split, from ``d_{k-1}`` on,
  into groups whose radices multiply to at most ``2**63 - 1``, each group one integer
  per row (``rng.integers(0, highs, size=(rows, groups), dtype=np.int64)``, row by row).
"""

from __future__ import annotations

import functools
import math

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
#: Up to this many systems the positions are looked up in a table of all ``k!`` codes.
TABLE_SYSTEMS = 10
_INT64_CODES = (1 << 63) - 1  # the largest exclusive bound of one int64 draw
_TABLE_WIDTH = 16  # bytes a table row: one complex128 to look up


def digit_groups(k: int) -> tuple[tuple[int, ...], ...]:
    """The radices ``k, k-1, ..., 2`` of the Fisher-Yates digits, grouped greedily so
    that each group's product fits one int64 draw.

    Examples
    --------
    >>> digit_groups(4)
    ((4, 3, 2),)
    >>> [math.prod(g) for g in digit_groups(21)] == [math.factorial(21) // 6, 6]
    True
    """
    groups: list[tuple[int, ...]] = []
    current: list[int] = []
    for radix in range(k, 1, -1):
        if current and math.prod(current) * radix > _INT64_CODES:
            groups.append(tuple(current))
            current = []
        current.append(radix)
    if current:
        groups.append(tuple(current))
    return tuple(groups)


def draw_codes(rng: np.random.Generator, rows: int, k: int) -> IntArray:
    """The codes of ``rows`` rows, shape ``(rows, groups)``: one int64 per digit group."""
    groups = digit_groups(k)
    if len(groups) <= 1:
        high = math.prod(groups[0]) if groups else 1
        return rng.integers(0, high, size=rows, dtype=np.int64)[:, None]
    highs = np.array([math.prod(g) for g in groups], dtype=np.int64)
    return rng.integers(0, highs, size=(rows, len(groups)), dtype=np.int64)


def swap_digits(codes: IntArray, k: int) -> list[IntArray]:
    """The Fisher-Yates digits ``d_{k-1}, ..., d_1`` of each row (list position
    ``k-1-i`` holds ``d_i``, in ``0..i``)."""
    out = []
    for g, group in enumerate(digit_groups(k)):
        rest = codes[:, g].copy()
        for radix in group:
            rest, digit = np.divmod(rest, radix)
            out.append(digit)
    return out


@functools.lru_cache(maxsize=2)
def position_table(k: int) -> npt.NDArray[np.uint8]:
    """``(k!, 16)``: for code ``c``, the position each system is moved to by its swaps
    (row ``c``, column ``s``: where system ``s`` ends), padded to 16 bytes a row so that a
    row is one 16-byte item to look up. Built once per process, for ``k <= TABLE_SYSTEMS``.

    Built from the table of ``k - 1`` systems: ``c = d + k c'`` first swaps ``k-1`` and
    ``d``, then moves positions ``0 .. k-2`` as code ``c'`` of ``k - 1`` systems does.
    So system ``d`` ends at ``k-1``, system ``k-1`` where ``c'`` moves ``d``, and every
    other system where ``c'`` moves it.
    """
    if not 1 <= k <= TABLE_SYSTEMS:
        raise ValueError(f"no table of the permutations of {k} systems")
    table = np.zeros((1, _TABLE_WIDTH), dtype=np.uint8)  # one system: position 0
    for size in range(2, k + 1):
        smaller = table[:, : size - 1]
        table = np.zeros((math.factorial(size), _TABLE_WIDTH), dtype=np.uint8)
        blocks = table.reshape(-1, size, _TABLE_WIDTH)  # [c', d]: row c = d + size * c'
        for d in range(size):
            block = blocks[:, d]
            block[:, : size - 1] = smaller
            if d < size - 1:
                block[:, size - 1] = smaller[:, d]
            block[:, d] = size - 1
    table.flags.writeable = False
    return table
