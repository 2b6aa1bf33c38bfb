"""One evaluation plan behind ``evaluate``, ``irtables evaluate`` and a study's qrels +
runs; ``--jobs`` means the same in every command; by default no pool for small work."""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from irtables.cli import main
from irtables.evaluator import evaluate
from irtables.evaluator.command import evaluate_files
from irtables.evaluator.plan import Batch, evaluate_batches
from irtables.evaluator.values import RunValues, check_options
from irtables.study import load_study
from tests.conftest import runs_study
from tests.unit.test_jobs import MEASURES, _write_runs

pytestmark = pytest.mark.filterwarnings("ignore::irtables.errors.DataWarning")


class PoolStarted(AssertionError):
    """A process pool was started where none should be."""


@pytest.fixture
def pools(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The worker counts of the process pools started (none: raise instead, to fail)."""
    started: list[int] = []
    real = concurrent.futures.ProcessPoolExecutor

    def spy(workers: int, *args: object, **kwargs: object) -> object:
        started.append(workers)
        return real(workers, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", spy)
    return started


def test_the_default_starts_no_pool_for_small_runs(tmp_path: Path, pools: list[int]) -> None:
    qrels, runs = _write_runs(tmp_path)
    evaluate(qrels, runs, MEASURES, jobs=None)
    evaluate_files(qrels, runs, MEASURES, jobs=None)
    result = CliRunner().invoke(main, ["evaluate", str(qrels), *map(str, runs), "-m", "map"])
    assert result.exit_code == 0, result.output
    (tmp_path / "study").mkdir()
    load_study(runs_study(tmp_path / "study", 'measures = ["P@1", "map"]\n'), jobs=None)
    assert pools == []


def test_an_explicit_jobs_starts_the_pool_asked_for(tmp_path: Path, pools: list[int]) -> None:
    qrels, runs = _write_runs(tmp_path)
    evaluate(qrels, runs, MEASURES, jobs=2)
    assert pools == [2]


def test_supplement_jobs_applies_to_the_evaluation_too(tmp_path: Path, pools: list[int]) -> None:
    study = runs_study(tmp_path, 'measures = ["P@1", "map"]\n')
    result = CliRunner().invoke(main, ["supplement", str(study), "--no-pdf", "-j", "1"])
    assert result.exit_code == 0, result.output
    assert pools == []  # neither the runs (evaluated twice: tables and precision-recall)
    again = ["supplement", str(study), "--no-pdf", "-j", "2", "--rebuild"]  # nothing changed
    result = CliRunner().invoke(main, again)
    assert result.exit_code == 0, result.output
    assert 2 in pools and set(pools) == {2}  # ... nor the figures: -j is every pool's size


def _same(a: list[RunValues], b: list[RunValues]) -> bool:
    return all(
        x.system == y.system
        and np.array_equal(x.values, y.values)
        and np.array_equal(x.query_index, y.query_index)
        for x, y in zip(a, b, strict=True)
    )


class _Memo:
    """A store that remembers what it was given (a cache of one process)."""

    def __init__(self) -> None:
        self.kept: dict[tuple[int, int], RunValues] = {}
        self.asked = 0

    def get(self, batch: int, run: int) -> RunValues | None:
        self.asked += 1
        return self.kept.get((batch, run))

    def put(self, batch: int, run: int, values: RunValues) -> None:
        self.kept[(batch, run)] = values

    def discard(self, batch: int, run: int, reason: str) -> None:
        del self.kept[(batch, run)]


def test_batches_share_one_plan_and_a_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    qrels, runs = _write_runs(tmp_path)
    named = [(r, r.stem) for r in runs]
    options = check_options(MEASURES)
    other = check_options(["P_5"], relevance=2)
    batches = [Batch(qrels, named, options), Batch(qrels, named[:1], other)]
    store = _Memo()
    first = evaluate_batches(batches, store=store)
    assert sorted(store.kept) == [(0, 0), (0, 1), (0, 2), (1, 0)]
    alone = [evaluate_batches([b])[0] for b in batches]
    assert _same(first[0].values, alone[0].values) and _same(first[1].values, alone[1].values)
    assert first[0].queries == alone[0].queries == tuple(sorted(str(q) for q in range(1, 13)))

    import irtables.evaluator.plan as plan

    def fail(*args: object, **kwargs: object) -> Callable[..., object]:
        raise AssertionError("a stored run was evaluated again")

    monkeypatch.setattr(plan, "evaluate_jobs", lambda jobs, **kw: [fail() for _ in jobs])
    again = evaluate_batches(batches, store=store)
    assert _same(again[0].values, first[0].values) and _same(again[1].values, first[1].values)


def test_values_travel_as_arrow_bit_for_bit(tmp_path: Path) -> None:
    from irtables.evaluator.transport import from_ipc, to_ipc

    qrels, runs = _write_runs(tmp_path)
    options = check_options([*MEASURES, "num_ret", "iprec_at_recall_0.50"], missing_queries="zero")
    (done,) = evaluate_batches([Batch(qrels, [(r, r.stem) for r in runs], options)])
    for values in done.values:
        back = from_ipc(to_ipc(values))
        assert (back.system, back.runid, back.metrics, back.notes) == (
            values.system,
            values.runid,
            values.metrics,
            values.notes,
        )
        assert back.relevant_total == values.relevant_total
        for name in ("values", "query_index", "retrieved"):
            a, b = getattr(values, name), getattr(back, name)
            assert a.dtype == b.dtype and a.tobytes() == b.tobytes()
    assert any(v.notes for v in done.values)  # run1 lacks a query: a note travels too
