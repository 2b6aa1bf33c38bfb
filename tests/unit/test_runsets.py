"""Datasets given as qrels + runs in the configuration."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from irtables.cli import main
from irtables.config import parse_config
from irtables.errors import ConfigError, InputError
from irtables.study.pipeline import resolve_study
from irtables.study.runsets import dataset_measures
from tests.conftest import runs_study


def test_default_measures_follow_the_tables_and_carry_the_threshold() -> None:
    config = parse_config({"datasets": [{"id": "d", "qrels": "q", "runs": "r", "relevance": 2}]})
    names = [m.name for m in dataset_measures(config.datasets[0], config)]
    assert "nDCG@10" in names and "RR(rel=2)@10" in names and "AP(rel=2)" in names
    assert "P(rel=2)@1000" in names and "R(rel=2)@100" in names


@pytest.mark.filterwarnings("ignore:.*run queries are not in the qrels")
def test_runs_are_evaluated_into_the_results(tmp_path: Path) -> None:
    results, _, _ = resolve_study(runs_study(tmp_path, 'measures = ["P@1", "map"]\n'))
    assert results.systems("toy") == ("a", "b")
    assert set(results.metrics("toy")) == {"P@1", "AP"}


@pytest.mark.filterwarnings("ignore:.*run queries are not in the qrels")
def test_tables_from_runs_in_one_step(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["tables", str(runs_study(tmp_path)), "-f", "csv"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "tables" / "table1.csv").is_file()


@pytest.mark.filterwarnings("ignore:.*run queries are not in the qrels")
def test_dumps_and_runs_for_one_dataset_is_an_error(tmp_path: Path) -> None:
    root = runs_study(tmp_path)
    (root / "toy").mkdir()
    (root / "toy" / "c.tsv").write_text("query\tmetric\tvalue\n1\tAP\t0.5\n")
    with pytest.raises(InputError, match="dataset toy has per-query files and qrels"):
        resolve_study(root)


def test_missing_run_and_unmatched_glob_are_errors(tmp_path: Path) -> None:
    root = runs_study(tmp_path)
    (root / "irtables.toml").write_text(
        '[[datasets]]\nid = "toy"\nqrels = "tiny.qrels"\nruns = "nothing/*.run"\n'
    )
    with pytest.raises(InputError, match=r"no run file matches 'nothing/\*\.run'"):
        resolve_study(root)
    (root / "irtables.toml").write_text(
        '[[datasets]]\nid = "toy"\nqrels = "tiny.qrels"\nruns = ["gone.run"]\n'
    )
    with pytest.raises(InputError, match=r"gone\.run: datasets toy: run file not found"):
        resolve_study(root)


def test_qrels_without_runs_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="both qrels and runs"):
        parse_config({"datasets": [{"id": "d", "qrels": "q"}]})


def test_trec_eval_version_per_dataset(tmp_path: Path) -> None:
    assert parse_config({"datasets": [{"id": "d"}]}).datasets[0].trec_eval == "9.0.8"
    with pytest.raises(ConfigError, match=r"datasets\[0\]\.trec_eval: expected one of 9\.0\.8, 10"):
        parse_config({"datasets": [{"id": "d", "trec_eval": "11"}]})
    root = runs_study(tmp_path)
    (root / "runs" / "b.run").unlink()
    # scores 1.0 and 1.0 + 2**-40 tie in single precision (9.0.8): ties go to docid descending
    (root / "runs" / "a.run").write_text("1 Q0 a 1 1.0000000000009095 t\n1 Q0 b 2 1.0 t\n")
    (root / "tiny.qrels").write_text("1 0 a 1\n1 0 b 0\n")
    by_version = {}
    for version in ("9.0.8", "10"):
        toml = root / "irtables.toml"
        toml.write_text(
            '[[datasets]]\nid = "toy"\nqrels = "tiny.qrels"\nruns = "runs/*.run"\n'
            f'measures = ["P@1"]\ntrec_eval = "{version}"\n'
        )
        results, _, _ = resolve_study(root)
        by_version[version] = float(results.frame["value"].iloc[0])
    assert by_version == {"9.0.8": 0.0, "10": 1.0}
