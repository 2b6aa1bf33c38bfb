"""``trec_eval -q -c`` output: its ``all`` rows average over every judged query, including
those the run lacks (``num_q all`` says how many). ``lint`` checks such a file as what it
is, and ``tables`` runs the same check of a file's own ``all`` rows.

The files are written by the real trec_eval 9.0.8 (built from ../shared/tools) on the
test qrels, for runs that lack a judged query.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from irtables.cli import main
from irtables.study import load_study

RUNS = Path(__file__).resolve().parents[1] / "data" / "runs"
#: tiny.qrels judges queries 1, 2 and 3; run a lacks query 3, run b has every query.
RUN_A = "1 Q0 d1 1 0.5 a\n1 Q0 d2 2 0.5 a\n1 Q0 d3 3 0.9 a\n2 Q0 d4 1 1.0 a\n"
RUN_B = "1 Q0 d1 1 0.5 b\n1 Q0 d5 2 0.4 b\n2 Q0 d4 1 1.0 b\n3 Q0 d9 1 1.0 b\n3 Q0 d1 2 0.3 b\n"


def _trec_eval_c(binary: Path, run: str, folder: Path, name: str) -> Path:
    """``trec_eval -q -c`` (every default measure) of ``run`` on tiny.qrels, as a file."""
    (folder / f"{name}.run").write_text(run)
    done = subprocess.run(
        [str(binary), "-q", "-c", str(RUNS / "tiny.qrels"), str(folder / f"{name}.run")],
        capture_output=True,
        text=True,
        check=True,
    )
    (folder / f"{name}.run").unlink()
    target = folder / "toy" / f"{name}.txt"
    target.parent.mkdir(exist_ok=True)
    target.write_text(done.stdout)
    return target


@pytest.fixture
def study(tmp_path: Path, trec_eval_binaries: dict[str, Path]) -> Path:
    binary = trec_eval_binaries["9.0.8"]
    a = _trec_eval_c(binary, RUN_A, tmp_path, "a")
    _trec_eval_c(binary, RUN_B, tmp_path, "b")
    lines = [line.split("\t") for line in a.read_text().splitlines()]
    queries = {q for m, q, _ in lines if q != "all" and m.strip() == "map"}
    num_q = next(int(v) for m, q, v in lines if m.strip() == "num_q" and q == "all")
    assert (len(queries), num_q) == (2, 3)  # the file's all rows average over 3 queries
    return tmp_path


def _edit_map_all(study: Path, value: str) -> None:
    path = study / "toy" / "a.txt"
    lines = path.read_text().splitlines(keepends=True)
    at = next(
        i for i, line in enumerate(lines) if line.split("\t")[:2] == ["map" + " " * 19, "all"]
    )
    lines[at] = f"map{' ' * 19}\tall\t{value}\n"
    path.write_text("".join(lines))


def test_genuine_trec_eval_c_output_passes_lint(study: Path) -> None:
    report = load_study(study).lint()
    assert report.ok, [v.message for v in report.violations[:3]]
    assert report.total == 0


def test_a_hand_edited_all_row_of_c_output_is_reported(study: Path) -> None:
    # map = (0.3889 + 0) / 3 = 0.1296 in the file; 0.1944 is the mean over the run's 2 queries
    _edit_map_all(study, "0.1944")
    report = load_study(study).lint()
    assert report.total == 1
    (violation,) = report.violations
    assert violation.check == "mean" and violation.metrics == ("AP",)
    assert "num_q = 3" in violation.message and "0.1296" in violation.message


def test_tables_runs_the_check_of_the_files_own_all_rows(study: Path, tmp_path: Path) -> None:
    _edit_map_all(study, "0.1396")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["tables", str(study), "--missing", "zero", "-o", str(out)])
    assert result.exit_code == 0, result.output
    lint_lines = [line for line in result.stderr.splitlines() if line.startswith("Warning: lint:")]
    assert len(lint_lines) == 1 and "the file's own AP = 0.1396" in lint_lines[0]


def test_tables_missing_zero_warns_once_for_every_metric(study: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["tables", str(study), "--missing", "zero", "-o", str(out)])
    assert result.exit_code == 0, result.output
    policy = [line for line in result.stderr.splitlines() if "scored 0" in line]
    assert len(policy) == 1, policy
    assert policy[0].startswith("Warning: toy (") and policy[0].endswith("1 queries: 3")
    assert "AP" in policy[0] and "P@10" in policy[0]
    assert not [line for line in result.stderr.splitlines() if "lint:" in line]


def test_without_num_q_the_all_row_is_checked_as_a_mean_of_the_files_queries(
    study: Path,
) -> None:
    """A file that does not say how many queries its means average over is checked as
    plain ``-q`` output: its means are the mean of its per-query values."""
    path = study / "toy" / "a.txt"
    kept = [line for line in path.read_text().splitlines(True) if not line.startswith("num_q")]
    path.write_text("".join(kept))
    assert not load_study(study).lint().ok
