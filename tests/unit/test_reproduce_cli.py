"""`irtables reproduce`: the table in every format, with repro_eval's numbers in the CSV."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import assert_one_line_error, compile_latex, invoke

DATA = Path(__file__).resolve().parents[1] / "data" / "repro"
EXPECTED = json.loads((DATA / "expected.json").read_text(encoding="utf-8"))
STUDY = [str(DATA / "orig"), str(DATA / "rpd"), str(DATA / "rpl"), "--pair", "bm25", "rm3"]
MEASURES = ["-m", "AP", "-m", "ndcg_cut_10", "-m", "P_10", "-m", "recip_rank"]


def _csv(*extra: str) -> list[dict[str, str]]:
    result = invoke("reproduce", *STUDY, *MEASURES, "-f", "csv", *extra)
    assert result.exit_code == 0, result.output
    return list(csv.DictReader(io.StringIO(result.output)))


def test_csv_has_the_issues_columns_and_repro_evals_numbers() -> None:
    rows = _csv()
    assert list(rows[0]) == [
        "reproduction", "kind", "system", "measure", "cutoff", "ktu", "rbo", "rmse", "nrmse",
        "er", "delta_ri", "pvalue", "original_mean", "reproduced_mean",
    ]  # fmt: skip
    rpd, rpl = EXPECTED["reproducibility"], EXPECTED["replicability"]
    checked = 0
    for row in rows:
        want = rpd if row["kind"] == "reproducibility" else rpl
        assert (
            row["reproduction"] == {"reproducibility": "rpd", "replicability": "rpl"}[row["kind"]]
        )
        system, measure = row["system"], row["measure"]
        if not measure:
            for col in ("ktu", "rbo"):
                assert float(row[col]) == pytest.approx(want[col][system][row["cutoff"]], abs=1e-9)
                checked += 1
            assert row["rmse"] == row["er"] == row["pvalue"] == ""
            continue
        assert row["cutoff"] == ""
        for col in ("pvalue",) + (("rmse", "nrmse") if row["kind"] == "reproducibility" else ()):
            assert float(row[col]) == pytest.approx(want[col][system][measure], abs=1e-9)
            checked += 1
        if system == "rm3":
            for col in ("er", "delta_ri"):
                assert float(row[col]) == pytest.approx(want[col][measure], abs=1e-9)
                checked += 1
        else:
            assert row["er"] == row["delta_ri"] == ""
        if row["kind"] == "replicability":
            assert row["ktu"] == row["rmse"] == ""
    assert checked == 2 * 6 * 2 + 2 * 4 * 3 + 4 * 2 + 2 * 4 + 4 * 2


def test_terminal_table_by_default() -> None:
    result = invoke("reproduce", *STUDY)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split()[:5] == ["Reproduction", "Kind", "System", "Measure", "KTU"]
    assert any(line.split()[:4] == ["rpd", "rpd", "bm25", "top"] for line in lines)


@pytest.mark.parametrize(
    ("suffix", "needle"),
    [(".md", "| Reproduction"), (".html", "<table"), (".tex", "\\begin{tabular}")],
)
def test_output_format_from_the_file_suffix(tmp_path: Path, suffix: str, needle: str) -> None:
    out = tmp_path / f"repro{suffix}"
    result = invoke("reproduce", *STUDY, "-o", str(out))
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert needle in text and "Breuer et al." in text
    assert "0.664" in text  # ER of AP in the reproduction (repro_eval: 0.66374)


def test_latex_compiles(tmp_path: Path) -> None:
    result = invoke("reproduce", *STUDY, "-f", "latex")
    assert result.exit_code == 0, result.output
    done = compile_latex(result.output, tmp_path, ("graphicx",))
    assert done.returncode == 0, done.stdout[-2000:]


def test_every_system_alone_without_pairs() -> None:
    result = invoke(
        "reproduce", str(DATA / "orig"), str(DATA / "rpd"), "-f", "csv", "--cutoff", "5"
    )
    rows = list(csv.DictReader(io.StringIO(result.output)))
    assert {r["system"] for r in rows} == {"bm25", "rm3"}
    assert all(r["er"] == "" for r in rows)


def test_folder_without_qrels_is_one_error_line(tmp_path: Path) -> None:
    shutil.copy(DATA / "orig" / "bm25.run", tmp_path / "bm25.run")
    result = invoke("reproduce", str(DATA / "orig"), str(tmp_path))
    assert_one_line_error(result, str(tmp_path), "expected exactly one qrels file")


def test_unequal_lengths_is_one_error_line(tmp_path: Path) -> None:
    shutil.copy(DATA / "orig" / "qrels.txt", tmp_path / "qrels.txt")
    lines = (DATA / "rpd" / "bm25.run").read_text(encoding="utf-8").splitlines()
    (tmp_path / "bm25.run").write_text("\n".join(lines[1:]) + "\n", encoding="utf-8")
    result = invoke("reproduce", str(DATA / "orig"), str(tmp_path), "-s", "bm25")
    assert_one_line_error(result, "KTU at cutoff", "topic '301'")


def test_unknown_system_is_one_error_line() -> None:
    result = invoke("reproduce", *STUDY[:3], "--pair", "bm25", "nope")
    assert_one_line_error(result, "no run of system 'nope'")


def test_a_malformed_ir_metadata_block_is_one_error_line(tmp_path: Path) -> None:
    shutil.copy(DATA / "orig" / "qrels.txt", tmp_path / "qrels.txt")
    run = (DATA / "rpd" / "bm25.run").read_text(encoding="utf-8")
    block = "# ir_metadata.start\n# method: {k1: 0.9\n# ir_metadata.end\n"
    (tmp_path / "bm25.run").write_text(block + run, encoding="utf-8")
    result = invoke("reproduce", str(DATA / "orig"), str(tmp_path), "-s", "bm25")
    assert_one_line_error(result, "bm25.run:2:", "ir_metadata block: not YAML")


def test_runs_may_sit_in_a_runs_folder(tmp_path: Path) -> None:
    (tmp_path / "runs").mkdir()
    shutil.copy(DATA / "rpd" / "qrels.txt", tmp_path / "my.qrels")
    shutil.copy(DATA / "rpd" / "bm25.run", tmp_path / "runs" / "bm25.run")
    result = invoke("reproduce", str(DATA / "orig"), str(tmp_path), "-s", "bm25", "-f", "csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.output)))
    assert {r["kind"] for r in rows} == {"reproducibility"}
    want = EXPECTED["reproducibility"]["ktu"]["bm25"]["10"]
    assert float(next(r for r in rows if r["cutoff"] == "10")["ktu"]) == pytest.approx(
        want, abs=1e-9
    )
