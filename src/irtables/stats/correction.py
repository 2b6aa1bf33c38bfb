"""Multiple-testing corrections of a family of p-values (numpy only).

Each function takes the raw p-values of one family and returns the adjusted ones in the
same order, capped at 1. They agree with ``statsmodels.stats.multitest.multipletests``
(methods ``bonferroni``, ``holm`` and ``fdr_bh``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from irtables.base.procedures import CORRECTIONS as CORRECTION_RECORDS
from irtables.errors import InputError, UnknownNameError, unknown_name_message

FloatArray = npt.NDArray[np.float64]
Correction = Callable[[FloatArray], FloatArray]


def no_correction(p: FloatArray) -> FloatArray:
    """Return the p-values unchanged.

    Examples
    --------
    >>> no_correction(np.array([0.01, 0.2]))
    array([0.01, 0.2 ])
    """
    return np.array(p, dtype=np.float64)


def bonferroni(p: FloatArray) -> FloatArray:
    """Bonferroni: ``min(1, m p)``.

    Examples
    --------
    >>> bonferroni(np.array([0.01, 0.2, 0.5]))
    array([0.03, 0.6 , 1.  ])
    """
    return np.minimum(1.0, np.asarray(p, dtype=np.float64) * len(p))


def holm(p: FloatArray) -> FloatArray:
    """Holm's step-down: sorted ascending, ``max_{j<=i} (m - j + 1) p_(j)``, capped at 1.

    Examples
    --------
    >>> holm(np.array([0.01, 0.04, 0.03]))
    array([0.03, 0.06, 0.06])
    """
    p = np.asarray(p, dtype=np.float64)
    order = np.argsort(p, kind="stable")
    m = p.size
    stepped = np.maximum.accumulate(p[order] * np.arange(m, 0, -1))
    out = np.empty(m)
    out[order] = np.minimum(1.0, stepped)
    return out


def benjamini_hochberg(p: FloatArray) -> FloatArray:
    """Benjamini-Hochberg step-up (false discovery rate): ``min_{j>=i} m p_(j) / j``.

    Examples
    --------
    >>> benjamini_hochberg(np.array([0.01, 0.04, 0.03]))
    array([0.03, 0.04, 0.04])
    """
    p = np.asarray(p, dtype=np.float64)
    order = np.argsort(p, kind="stable")
    m = p.size
    scaled = p[order] / (np.arange(1, m + 1) / m)  # statsmodels' order of operations
    stepped = np.minimum.accumulate(scaled[::-1])[::-1]
    out = np.empty(m)
    out[order] = np.minimum(1.0, stepped)
    return out


#: The built-in corrections by name, from their records
#: (:data:`irtables.base.procedures.CORRECTIONS`, the registry :func:`adjust` reads).
CORRECTIONS: dict[str, Correction] = {
    r.id: globals()[r.function.split(":")[1]] for r in CORRECTION_RECORDS.values()
}


def adjust(pvalues: npt.ArrayLike, method: str = "holm") -> FloatArray:
    """Adjust one family of p-values with the correction named ``method``.

    Examples
    --------
    >>> adjust([0.01, 0.02], "bonferroni")
    array([0.02, 0.04])
    """
    if method not in CORRECTION_RECORDS:
        raise UnknownNameError(unknown_name_message("correction", method, CORRECTION_RECORDS))
    p = np.asarray(pvalues, dtype=np.float64)
    if p.ndim != 1 or ((p < 0) | (p > 1) | np.isnan(p)).any():
        raise InputError("p-values must be a 1-D array of numbers in [0, 1]")
    func: Correction = CORRECTION_RECORDS[method].load()
    return func(p)
