"""Several runs on several processes: the same results as one process, errors and warnings
carried back from the workers."""

from __future__ import annotations

import math
import os
import pickle
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from irtables.cli import main
from irtables.errors import DataWarning, InputError
from irtables.evaluator import evaluate
from irtables.workers.executor import SerialExecutor, make_executor, run_all, worker_count

MEASURES = ["map", "P_10", "ndcg_cut_10", "recip_rank", "num_rel_ret", "bpref"]


def _write_runs(root: Path, n_runs: int = 3, n_queries: int = 12) -> tuple[Path, list[Path]]:
    rng = np.random.default_rng(7)
    qrels = root / "qrels.txt"
    lines = []
    for q in range(n_queries):
        for d in range(30):
            lines.append(f"{q + 1} 0 d{d} {int(rng.integers(0, 3))}")
    qrels.write_text("\n".join(lines) + "\n")
    runs = []
    for r in range(n_runs):
        path = root / f"run{r}.txt"
        rows = []
        for q in range(n_queries - (1 if r == 1 else 0)):  # run1 lacks a query: a warning
            docs = rng.permutation(60)[:40]
            scores = np.round(np.sort(rng.random(40))[::-1], 2)  # rounded: ties
            rows += [
                f"{q + 1} Q0 d{d} {i + 1} {s} r{r}"
                for i, (d, s) in enumerate(zip(docs, scores, strict=True))
            ]
        path.write_text("\n".join(rows) + "\n")
        runs.append(path)
    return qrels, runs


def test_results_do_not_depend_on_the_number_of_processes(tmp_path: Path) -> None:
    qrels, runs = _write_runs(tmp_path)
    with pytest.warns(DataWarning, match="run1: 1 judged queries are not in the run"):
        one = evaluate(qrels, runs, MEASURES, jobs=1).frame
    with pytest.warns(DataWarning, match="run1: 1 judged queries are not in the run"):
        many = evaluate(qrels, runs, MEASURES, jobs=2).frame
    assert one.equals(many)
    assert set(one["system"]) == {"run0", "run1", "run2"}


@pytest.mark.parametrize("fmt", ["tsv", "trec_eval"])
def test_cli_output_is_byte_identical_for_any_jobs(tmp_path: Path, fmt: str) -> None:
    qrels, runs = _write_runs(tmp_path)
    outputs = []
    for jobs in ("1", "2", "0"):
        args = ["evaluate", str(qrels), *map(str, runs), "-q", "--format", fmt, "-j", jobs]
        for m in MEASURES:
            args += ["-m", m]
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
        assert "Warning: run1: 1 judged queries are not in the run" in result.stderr
        outputs.append(result.stdout)
    assert outputs[0] == outputs[1] == outputs[2]


def test_a_worker_error_names_file_and_line(tmp_path: Path) -> None:
    qrels, runs = _write_runs(tmp_path)
    bad = tmp_path / "bad.txt"
    bad.write_text("1 Q0 d1 1 0.5 x\n1 Q0 d2 2 0.4 x\n1 Q0 d1 3 0.3 x\n")
    with pytest.raises(InputError, match="retrieved twice") as caught:
        evaluate(qrels, [*runs, bad], MEASURES, jobs=2)
    assert caught.value.path == str(bad)
    assert caught.value.line == 3


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_missing_qrels_file_is_an_input_error(tmp_path: Path, jobs: int) -> None:
    _, runs = _write_runs(tmp_path)
    with pytest.raises(InputError, match="no such file"):
        evaluate(tmp_path / "none.txt", runs, MEASURES, jobs=jobs)


def test_input_errors_survive_pickling() -> None:
    error = InputError("expected 6 columns", path="run.txt", line=17)
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), str(copy), copy.path, copy.line, copy.reason) == (
        InputError,
        "run.txt:17: expected 6 columns",
        "run.txt",
        17,
        "expected 6 columns",
    )


def test_run_all_keeps_submission_order_and_reports_progress() -> None:
    seen: list[tuple[int, int]] = []
    items = [25.0, 16.0, 4.0, 1.0, 0.0]
    with make_executor(2, 5) as executor:  # a process pool: a stdlib function travels
        found = run_all(executor, math.sqrt, items, done=lambda d, t: seen.append((d, t)))
        with pytest.raises(ValueError, match="math domain error"):
            run_all(executor, math.sqrt, [4.0, -1.0, 9.0])
    assert found == [5.0, 4.0, 2.0, 1.0, 0.0]
    assert seen == [(1, 5), (2, 5), (3, 5), (4, 5), (5, 5)]


def test_serial_executor_keeps_errors_in_the_future() -> None:
    future = SerialExecutor().submit(math.sqrt, -1.0)
    with pytest.raises(ValueError, match="math domain error"):
        future.result()
    with make_executor(1, 4) as executor:
        assert isinstance(executor, SerialExecutor)
        assert run_all(executor, math.sqrt, [9.0]) == [3.0]


def test_worker_count() -> None:
    assert worker_count(8, 3) == 3
    assert worker_count(1, 3) == 1
    assert worker_count(None, 1) == 1
    assert worker_count(0, 100) >= 1


def test_any_executor_can_run_the_jobs(tmp_path: Path) -> None:
    """A cluster's executor (Dask's ``Client.get_executor()``, Ray's) is an adapter: any
    ``concurrent.futures.Executor`` runs the same jobs; a thread pool stands in for one."""
    from concurrent.futures import ThreadPoolExecutor

    from irtables.evaluator.plan import Batch, evaluate_batches
    from irtables.evaluator.values import check_options

    qrels, runs = _write_runs(tmp_path)
    batch = Batch(qrels, [(r, r.stem) for r in runs], check_options(MEASURES))
    with pytest.warns(DataWarning):
        (serial,) = evaluate_batches([batch], jobs=1)
    with ThreadPoolExecutor(2) as pool, pytest.warns(DataWarning):
        (other,) = evaluate_batches([batch], executor=pool)
    assert serial.queries == other.queries
    for a, b in zip(serial.values, other.values, strict=True):
        assert a.system == b.system
        assert np.array_equal(a.values, b.values)
        assert np.array_equal(a.query_index, b.query_index)


def _work_elsewhere(folder: str) -> None:
    os.chdir(folder)  # in the worker process only: a cluster worker's own working folder


def test_a_cluster_worker_is_given_absolute_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Dask worker resolves a relative path against its own working folder: ``irtables
    evaluate qrels.txt run --scheduler ...`` said "qrels.txt: no such file" there, and
    a worker whose folder held another ``qrels.txt`` would have used it."""
    from concurrent.futures import ProcessPoolExecutor

    from irtables.evaluator.plan import Batch, evaluate_batches
    from irtables.evaluator.values import check_options

    (tmp_path / "study").mkdir()
    qrels, runs = _write_runs(tmp_path / "study")
    decoy = tmp_path / "elsewhere"
    decoy.mkdir()
    _write_runs(decoy, n_queries=3)  # other qrels at the same relative path
    monkeypatch.chdir(qrels.parent)
    rel = [(r.relative_to(qrels.parent), r.stem) for r in runs]
    batch = Batch(Path(qrels.name), rel, check_options(MEASURES))
    with pytest.warns(DataWarning):
        (here,) = evaluate_batches([batch], jobs=1)
    pool = ProcessPoolExecutor(1, initializer=_work_elsewhere, initargs=(str(decoy),))
    with pool, pytest.warns(DataWarning):
        (there,) = evaluate_batches([batch], executor=pool)
    assert here.queries == there.queries
    for a, b in zip(here.values, there.values, strict=True):
        assert np.array_equal(a.values, b.values)
