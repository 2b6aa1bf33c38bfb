"""The vectorised studentized range (issue 33 §4) gives scipy's p-values to 1e-10 and
its critical values, on a grid of systems, degrees of freedom and statistics."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import studentized_range

from irtables.stats.studentized_range import (
    range_cdf,
    studentized_range_ppf,
    studentized_range_sf,
)

Q = np.array([0.0, 0.1, 0.8, 1.7, 2.9, 3.6, 4.4, 5.5, 7.0, 11.0])


@pytest.mark.parametrize("k", [2, 4, 10, 17])
@pytest.mark.parametrize("df", [2, 7, 30, 499, 62991, 150000])
def test_the_tail_is_scipys_to_1e_10(k: int, df: int) -> None:
    expected = studentized_range.sf(Q, k, df)
    np.testing.assert_allclose(studentized_range_sf(Q, k, df), expected, rtol=0, atol=1e-10)


def test_a_matrix_of_statistics_keeps_its_shape() -> None:
    q = np.array([[1.0, 2.0], [3.0, 4.0]])
    got = studentized_range_sf(q, 5, 40)
    assert got.shape == (2, 2)
    np.testing.assert_allclose(got, studentized_range.sf(q, 5, 40), rtol=0, atol=1e-10)


def test_one_degree_of_freedom_is_left_to_scipy() -> None:
    q = np.array([0.5, 3.0, 9.0])
    assert np.array_equal(studentized_range_sf(q, 6, 1), studentized_range.sf(q, 6, 1))


def test_the_range_of_two_normals_is_a_folded_normal() -> None:
    """Range of 2: |Z1 - Z2| with Z1 - Z2 ~ N(0, 2), so P(range <= w) = 2Φ(w/√2) − 1."""
    from scipy.stats import norm

    w = np.linspace(0.0, 8.0, 33)
    np.testing.assert_allclose(range_cdf(w, 2), 2 * norm.cdf(w / np.sqrt(2)) - 1, atol=1e-12)


@pytest.mark.parametrize(("level", "k", "df"), [(0.95, 10, 62991), (0.95, 3, 10), (0.99, 5, 100)])
def test_the_critical_value_is_scipys(level: float, k: int, df: int) -> None:
    expected = studentized_range.ppf(level, k, df)
    assert studentized_range_ppf(level, k, df) == pytest.approx(expected, rel=1e-9)
