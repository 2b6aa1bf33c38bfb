"""Properties of the paired tests: symmetry, identity, range, determinism."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from irtables.stats import TESTS, adjust, get_test

# Metric-like values: multiples of 1/8 in [0, 1] give ties and zero differences often.
VALUES = st.integers(0, 8).map(lambda k: k / 8)
PAIRS = st.integers(1, 25).flatmap(
    lambda n: st.tuples(
        st.lists(VALUES, min_size=n, max_size=n), st.lists(VALUES, min_size=n, max_size=n)
    )
)
NAMES = st.sampled_from(sorted(TESTS))
FAST = {
    "randomization": {"n_resamples": 300, "exact_threshold": 12},
    "bootstrap": {"n_resamples": 300},
}


def run(name: str, a: list[float], b: list[float], **kw: object):  # type: ignore[no-untyped-def]
    return get_test(name)(np.array(a), np.array(b), **FAST.get(name, {}), **kw)


@settings(deadline=None, max_examples=80)
@given(PAIRS, NAMES)
def test_swapping_keeps_p_and_negates_the_difference(
    pair: tuple[list[float], list[float]], name: str
) -> None:
    a, b = pair
    ab, ba = run(name, a, b), run(name, b, a)
    assert np.isclose(ab.pvalue, ba.pvalue, rtol=1e-9, atol=1e-15)
    assert ab.mean_diff == -ba.mean_diff
    greater, less = run(name, a, b, alternative="greater"), run(name, b, a, alternative="less")
    if name != "bootstrap":  # resamples differ in sign only: equal too, but skip float noise
        assert np.isclose(greater.pvalue, less.pvalue, rtol=1e-9, atol=1e-15)


@settings(deadline=None, max_examples=60)
@given(st.lists(VALUES, min_size=1, max_size=30), NAMES)
def test_identical_systems_give_p_one_and_no_marker(a: list[float], name: str) -> None:
    r = run(name, a, a)
    assert r.pvalue == 1.0 and r.outcome(0.05) == "none"


@settings(deadline=None, max_examples=80)
@given(PAIRS, NAMES, st.sampled_from(["two-sided", "greater", "less"]))
def test_p_in_unit_interval_and_never_nan(
    pair: tuple[list[float], list[float]], name: str, alternative: str
) -> None:
    r = run(name, *pair, alternative=alternative)
    assert 0.0 <= r.pvalue <= 1.0
    assert not np.isnan(r.statistic) and not np.isnan(r.mean_diff)
    if name in ("randomization", "bootstrap"):
        assert r.pvalue > 0


@settings(deadline=None, max_examples=30)
@given(PAIRS, st.sampled_from(["randomization", "bootstrap"]), st.integers(0, 2**32 - 1))
def test_seeded_runs_are_identical(
    pair: tuple[list[float], list[float]], name: str, seed: int
) -> None:
    a, b = pair
    r1 = get_test(name)(
        a,
        b,
        rng=seed,
        n_resamples=200,
        **({"exact_threshold": 0} if name == "randomization" else {}),
    )
    r2 = get_test(name)(
        a,
        b,
        rng=seed,
        n_resamples=200,
        **({"exact_threshold": 0} if name == "randomization" else {}),
    )
    assert repr(r1) == repr(r2)


@settings(deadline=None, max_examples=60)
@given(st.lists(st.floats(0, 1), max_size=30), st.sampled_from(["bonferroni", "holm", "bh"]))
def test_adjusted_p_is_monotone_and_not_smaller(p: list[float], name: str) -> None:
    raw = np.array(p)
    adj = adjust(raw, name)
    assert (adj >= raw).all() and (adj <= 1).all()
    order = np.argsort(raw, kind="stable")
    assert (np.diff(adj[order]) >= 0).all()
