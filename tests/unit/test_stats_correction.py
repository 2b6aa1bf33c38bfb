"""Corrections against statsmodels' multipletests (an independent implementation)."""

from __future__ import annotations

import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests

from irtables.errors import InputError, UnknownNameError
from irtables.stats import CORRECTIONS, adjust

STATSMODELS = {"bonferroni": "bonferroni", "holm": "holm", "bh": "fdr_bh"}
RNG = np.random.default_rng(7)
FAMILIES = [RNG.random(m) ** 3 for m in (1, 2, 3, 5, 10, 40) for _ in range(4)] + [
    np.array([0.01, 0.01, 0.01, 0.5]),  # ties
    np.array([1.0, 1.0]),
    np.array([0.0, 0.04, 0.2]),
    np.array([0.2, 0.01, 0.03, 0.03, 0.9]),
]


@pytest.mark.parametrize("name", list(STATSMODELS))
@pytest.mark.parametrize("p", FAMILIES, ids=lambda p: f"m{p.size}")
def test_equals_statsmodels(name: str, p: np.ndarray) -> None:
    expected = multipletests(p, method=STATSMODELS[name])[1]
    np.testing.assert_allclose(adjust(p, name), expected, rtol=1e-12, atol=0)


def test_registry_and_none() -> None:
    assert list(CORRECTIONS) == ["none", "bonferroni", "holm", "bh"]
    p = np.array([0.3, 0.01])
    np.testing.assert_array_equal(adjust(p, "none"), p)
    assert adjust([], "holm").size == 0


def test_errors() -> None:
    with pytest.raises(UnknownNameError, match="did you mean 'holm'"):
        adjust([0.1], "hol")
    with pytest.raises(InputError, match=r"in \[0, 1\]"):
        adjust([0.1, 1.5], "bh")
