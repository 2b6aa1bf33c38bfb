"""The batched t-test gives, bit for bit, what the one-comparison t-test gives."""

from __future__ import annotations

import numpy as np
import pytest

from irtables.stats.paired import t_test
from irtables.stats.vectorised import t_test_many


@pytest.mark.parametrize("n", [1, 2, 3, 10, 158, 2000])
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_same_results_as_t_test(n: int, alternative: str) -> None:
    rng = np.random.default_rng(n)
    a, b = rng.uniform(0, 1, (n, 8)), rng.uniform(0, 1, (n, 8))
    a[:, 3] = b[:, 3]  # all differences zero
    a[:, 4] = b[:, 4] + 0.1  # a constant difference
    a[:, 5] = np.round(a[:, 5], 1)  # ties
    many = t_test_many(a, b, alternative=alternative)  # type: ignore[arg-type]
    one = [t_test(a[:, j], b[:, j], alternative=alternative) for j in range(8)]  # type: ignore[arg-type]
    assert many == one
