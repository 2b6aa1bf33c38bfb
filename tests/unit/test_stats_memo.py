"""Test results reused by recipe (:mod:`irtables.stats.memo`): a unit read back from
its JSON form equals, field for field, what a fresh run gives; a unit runs again when
anything it is computed from changes, and only then."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any

import numpy as np
import pytest

from irtables.base.procedures import CORRECTIONS, TESTS
from irtables.model import ResultSet
from irtables.stats import compare
from irtables.stats.memo import decode_results, encode_results
from irtables.stats.result import ConfidenceInterval, PairedTestResult
from tests.conftest import results_from_rows

RESAMPLES = {"n_resamples": 200}


class JsonMemo:
    """A memo that keeps each unit as JSON text, as the cache does; counts the work."""

    def __init__(self) -> None:
        self.entries: dict[str, str] = {}
        self.puts: list[str] = []
        self.hits: list[str] = []

    def get(self, recipe: str) -> list[PairedTestResult] | None:
        text = self.entries.get(recipe)
        if text is None:
            return None
        self.hits.append(recipe)
        return decode_results(json.loads(text))

    def put(
        self, recipe: str, description: Mapping[str, Any], results: Sequence[PairedTestResult]
    ) -> None:
        self.puts.append(recipe)
        self.entries[recipe] = json.dumps(encode_results(results), allow_nan=False)


def _study(seed: int = 3, shift: float = 0.0) -> ResultSet:
    """2 datasets x 4 systems x 2 metrics; ``d`` equals ``a`` (degenerate comparisons);
    ``shift`` moves system ``b`` of dataset ``d1`` only."""
    rng = np.random.default_rng(seed)
    rows = []
    for ds in ("d1", "d2"):
        for metric in ("AP", "P@10"):
            base = rng.random(12) * 0.7
            values = {
                "a": base,
                "b": np.clip(base + rng.normal(0, 0.1, 12) + (shift if ds == "d1" else 0), 0, 1),
                "c": base + 0.2 + rng.normal(0, 0.02, 12),
                "d": base,
            }
            for system, v in values.items():
                rows += [(ds, system, f"q{i}", metric, float(x)) for i, x in enumerate(v)]
    return results_from_rows(rows)


def _same_value(a: object, b: object) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or (
            a == b and math.copysign(1, a) == math.copysign(1, b)
        )
    if isinstance(a, ConfidenceInterval) and isinstance(b, ConfidenceInterval):
        return all(_same_value(getattr(a, f.name), getattr(b, f.name)) for f in fields(a))
    return a == b


def _assert_same(got: Sequence[PairedTestResult], want: Sequence[PairedTestResult]) -> None:
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        for f in fields(w):
            assert _same_value(getattr(g, f.name), getattr(w, f.name)), (f.name, g, w)


def _cases() -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for test, record in TESTS.items():
        if record.procedure:
            out.append((test, None))
        else:
            out += [(test, c) for c in CORRECTIONS]
    return out


def _options(test: str) -> dict[str, Any]:
    return dict(RESAMPLES) if TESTS[test].resampled else {}


@pytest.mark.parametrize(("test", "correction"), _cases())
def test_a_reused_unit_equals_a_fresh_run_field_for_field(
    test: str, correction: str | None
) -> None:
    rs = _study()
    kwargs: dict[str, Any] = {"test": test, "correction": correction, "options": _options(test)}
    if TESTS[test].kind != "many-to-one":
        kwargs["pairs"] = "all" if TESTS[test].procedure else "baseline"
    fresh = compare(rs, **kwargs)
    memo = JsonMemo()
    first = compare(rs, memo=memo, **kwargs)
    assert len(memo.puts) == 4 and memo.hits == []  # 2 datasets x 2 metrics
    _assert_same(first.results, fresh.results)
    again = compare(rs, memo=memo, **kwargs)
    assert len(memo.puts) == 4 and sorted(memo.hits) == sorted(memo.puts)
    _assert_same(again.results, fresh.results)


@pytest.mark.parametrize("test", list(TESTS))
def test_only_the_units_of_the_changed_dataset_run(test: str) -> None:
    """A change to a system of d1 runs d1's units; d2's are read back; the results are
    those of a fresh run on the changed data (an all-pairs procedure that runs several
    matrices at once gives each the result it has alone)."""
    kwargs: dict[str, Any] = {"test": test, "options": _options(test)}
    memo = JsonMemo()
    compare(_study(), memo=memo, **kwargs)
    assert len(memo.puts) == 4
    changed = _study(shift=0.05)
    again = compare(changed, memo=memo, **kwargs)
    assert len(memo.puts) == 6 and len(memo.hits) == 2  # d1's two metrics ran again
    rerun = {(r.dataset, r.metric) for r in again.results if r.dataset == "d1"}
    assert rerun == {("d1", "AP"), ("d1", "P@10")}
    _assert_same(again.results, compare(changed, **kwargs).results)


@pytest.mark.parametrize(
    "change",
    [
        {"correction": "bonferroni"},
        {"alpha": 0.01},
        {"alternative": "greater"},
        {"rng": 1},
        {"family": "dataset"},
        {"missing": "intersect"},
        {"options": {"n_resamples": 300}},
    ],
    ids=lambda c: next(iter(c)),
)
def test_any_setting_of_the_test_runs_every_unit_again(change: dict[str, Any]) -> None:
    rs = _study()
    kwargs: dict[str, Any] = {"test": "randomization", "options": dict(RESAMPLES)}
    memo = JsonMemo()
    compare(rs, memo=memo, **kwargs)
    compare(rs, memo=memo, **{**kwargs, **change})
    assert len(memo.puts) == 8 and memo.hits == []


def test_no_memo_without_a_seed_or_with_a_family_of_its_own() -> None:
    rs = _study()
    memo = JsonMemo()
    compare(rs, test="randomization", options=RESAMPLES, rng=np.random.default_rng(0), memo=memo)
    compare(rs, test="t", family=lambda r: r.system, memo=memo)
    assert memo.puts == [] and memo.hits == []


def test_the_json_form_keeps_every_float_exactly() -> None:
    tiny, ulp = 5e-324, float(np.nextafter(0.1, 1.0))
    record = PairedTestResult(
        test="t",
        method="m",
        n=3,
        mean_diff=-0.0,
        statistic=math.nan,
        pvalue=ulp,
        system_mean=math.inf,
        baseline_mean=-math.inf,
        ci=ConfidenceInterval(-math.inf, tiny, level=0.95, method="t"),
        effect_size=None,
        pvalue_adjusted=1 / 3,
        family_size=4,
        dropped=("q1", "q2"),
    )
    text = json.dumps(encode_results([record]), allow_nan=False)  # no NaN literal
    (back,) = decode_results(json.loads(text))
    _assert_same([back], [record])
    assert back.pvalue.hex() == ulp.hex()


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d[0].pop("pvalue"),
        lambda d: d[0].update(n="3"),
        lambda d: d[0].update(pvalue="0.5"),
        lambda d: d[0].update(dropped="q1"),
        lambda d: d[0].update(extra=1),
        lambda d: d[0].update(ci={"low": 0.0}),
        lambda d: d[0].update(pvalue={"float": "1e9"}),
    ],
)
def test_a_malformed_record_is_refused(damage: Any) -> None:
    record = PairedTestResult(test="t", method="m", n=3, mean_diff=0.1, statistic=1.0, pvalue=0.5)
    data = encode_results([record])
    damage(data)
    with pytest.raises(ValueError):
        decode_results(data)
