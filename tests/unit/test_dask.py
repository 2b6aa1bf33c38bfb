"""Runs evaluated on a real Dask cluster (``distributed.LocalCluster``, two worker
processes): the same bytes as ``-j 1``; an unreachable scheduler is one ``Error:`` line;
without a scheduler, Dask is never imported."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from irtables.cli import main
from tests.conftest import runs_study
from tests.unit.test_jobs import MEASURES, _write_runs

distributed = pytest.importorskip("distributed")


@contextmanager
def local_cluster(**options: object) -> Iterator[distributed.LocalCluster]:
    """A ``distributed.LocalCluster`` of two worker processes, one thread each (with
    ``options`` for the cluster). The variables its nannies put in this process's
    environment before starting a worker (``PYTHONHASHSEED``, ``OMP_NUM_THREADS``, ...)
    are taken out when it closes."""
    saved = dict(os.environ)
    try:
        with distributed.LocalCluster(
            n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0", **options
        ) as cluster:
            yield cluster
    finally:
        os.environ.clear()
        os.environ.update(saved)


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a local cluster of two worker processes, one thread each."""
    with local_cluster() as cluster:
        yield cluster.scheduler_address


def _evaluate(qrels: Path, runs: list[Path], *extra: str, env: dict[str, str] | None = None) -> str:
    args = ["evaluate", str(qrels), *map(str, runs), "-q", *extra]
    for m in MEASURES:
        args += ["-m", m]
    result = CliRunner().invoke(main, args, env=env)
    assert result.exit_code == 0, result.output
    assert "Warning: run1: 1 judged queries are not in the run" in result.stderr
    return result.stdout


def test_evaluate_on_a_cluster_gives_the_bytes_of_one_process(
    tmp_path: Path, scheduler: str
) -> None:
    qrels, runs = _write_runs(tmp_path)
    here = _evaluate(qrels, runs, "-j", "1")
    assert _evaluate(qrels, runs, "--scheduler", scheduler) == here
    assert _evaluate(qrels, runs, env={"IRTABLES_SCHEDULER": scheduler}) == here


def test_tables_on_a_cluster_fill_the_cache_here(tmp_path: Path, scheduler: str) -> None:
    outputs = []
    for name, extra in (("local", ["-j", "1"]), ("cluster", ["--scheduler", scheduler])):
        study = tmp_path / name
        study.mkdir()
        runs_study(study, 'measures = ["P@1", "map"]\n')
        args = ["tables", str(study), "-f", "csv", "-o", str(study / "out"), *extra]
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
        outputs.append({p.name: p.read_bytes() for p in (study / "out").glob("*.csv")})
        assert list((study / ".irtables-cache").rglob("*")), "the client writes the cache"
    assert outputs[0] and outputs[0] == outputs[1]


def test_an_unreachable_scheduler_is_one_error_line(tmp_path: Path) -> None:
    qrels, runs = _write_runs(tmp_path)
    with socket.socket() as s:  # a port where nothing listens
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    args = ["evaluate", str(qrels), str(runs[0]), "-m", "map"]
    result = CliRunner().invoke(main, [*args, "--scheduler", f"tcp://127.0.0.1:{port}"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: cannot reach the Dask scheduler at")
    assert "connection refused" in lines[0]  # said at once, not after the connect timeout


PROBE = """
import json, sys
from irtables.cli import main
try:
    main(sys.argv[1:], prog_name="irtables")
except SystemExit:
    pass
print(json.dumps(sorted(m for m in ("dask", "distributed") if m in sys.modules)))
"""


def test_without_a_scheduler_dask_is_never_imported(tmp_path: Path) -> None:
    qrels, runs = _write_runs(tmp_path)
    argv = [sys.executable, "-c", PROBE, "evaluate", str(qrels), *map(str, runs), "-m", "map"]
    done = subprocess.run(argv, capture_output=True, text=True, check=True, timeout=300)
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []


def test_the_configuration_can_name_the_scheduler(tmp_path: Path, scheduler: str) -> None:
    study = runs_study(tmp_path, 'measures = ["P@1", "map"]\n')
    config = study / "irtables.toml"
    config.write_text(config.read_text() + f'\n[compute]\nscheduler = "{scheduler}"\n')
    result = CliRunner().invoke(main, ["tables", str(study), "-f", "csv", "--no-cache"])
    assert result.exit_code == 0, result.output
    config.write_text(config.read_text().replace(scheduler, "tcp://127.0.0.1:9"))
    result = CliRunner().invoke(main, ["tables", str(study), "-f", "csv", "--no-cache"])
    assert result.exit_code == 2  # the configured scheduler is the one used
    assert "Error: cannot reach the Dask scheduler at tcp://127.0.0.1:9" in result.stderr


def test_a_workers_error_is_one_line_naming_file_and_line(tmp_path: Path, scheduler: str) -> None:
    qrels, runs = _write_runs(tmp_path)
    bad = tmp_path / "bad.txt"
    bad.write_text("1 Q0 d1 1 0.5 x\n1 Q0 d2 2 0.4 x\n1 Q0 d1 3 0.3 x\n")
    args = ["evaluate", str(qrels), *map(str, runs), str(bad), "-m", "map"]
    result = CliRunner().invoke(main, [*args, "--scheduler", scheduler])
    assert result.exit_code == 2
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1  # raised on a worker, said here as it is said for -j 1
    assert errors[0].startswith(f"Error: {bad}:3: document d1 is retrieved twice for query 1")
