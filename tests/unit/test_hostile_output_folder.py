"""Names and files from collaborators never make irtables write, read or delete outside
its output folder: names that become paths, a tampered manifest and record, outputs
that are symlinks or fifos (issue 9, end to end through the command line)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from irtables.base.record import RECORD
from irtables.output.writers import sha256_hex
from tests.conftest import RUNS, assert_one_line_error, files_under, invoke, tidy_study


@pytest.mark.parametrize("command", ["tables", "supplement"])
def test_dataset_name_with_dotdot_stays_inside_the_output_folder(
    tmp_path: Path, command: str
) -> None:
    base = tmp_path / "a" / "b"
    results = tidy_study(base, ["x/../../../escaped", "/abs/olute"])
    before = files_under(tmp_path)
    out = base / "out"
    extra = ["--no-pdf"] if command == "supplement" else []
    result = invoke(command, str(results), "-o", str(out), *extra)
    assert result.exit_code == 0, result.output
    new = files_under(tmp_path) - before
    assert new and all(out in p.parents for p in new), sorted(map(str, new))
    assert not list(tmp_path.rglob("escaped*"))
    tables = out / "tables" if command == "supplement" else out
    assert (tables / "tableS1-x_escaped.tex").is_file()
    assert (tables / "tableS1-abs_olute.tex").is_file()


def test_datasets_with_the_same_slug_get_distinct_files(tmp_path: Path) -> None:
    results = tidy_study(tmp_path, ["x y", "x_y"])
    out = tmp_path / "sup"
    first = invoke("supplement", str(results), "-o", str(out), "--no-pdf")
    assert first.exit_code == 0, first.output
    figures = sorted(p.name for p in (out / "figures").iterdir())
    assert len([f for f in figures if f.startswith("diff-") and f.endswith(".png")]) == 2
    tables = sorted(p.name for p in (out / "tables").glob("tableS1-*.tex"))
    assert tables[0] == "tableS1-x_y-887fcea6.tex" and tables[1] == "tableS1-x_y.tex"
    labels = {
        line
        for t in tables
        for line in (out / "tables" / t).read_text().splitlines()
        if "label" in line
    }
    assert labels == {r"\label{tab:s1-x_y}", r"\label{tab:s1-x_y-887fcea6}"}
    again = invoke("supplement", str(results), "-o", str(out), "--no-pdf")  # no --force needed
    assert again.exit_code == 0 and "written" not in again.output


def test_tampered_manifest_and_record_never_delete_outside_or_inputs(tmp_path: Path) -> None:
    results = tidy_study(tmp_path, ["dl"])
    out = tmp_path / "sup"
    assert invoke("supplement", str(results), "-o", str(out), "--no-pdf").exit_code == 0
    precious = tmp_path / "precious.txt"
    precious.write_text("keep\n")
    data = results / "all.csv"
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["outputs"]["../precious.txt"] = sha256_hex(b"keep\n")
    (out / "manifest.json").write_text(json.dumps(manifest))
    record = json.loads((out / RECORD).read_text())
    record["files"]["../precious.txt"] = {"by": "supplement", "sha256": sha256_hex(b"keep\n")}
    record["files"]["../r/all.csv"] = {"by": "supplement", "sha256": sha256_hex(data.read_bytes())}
    (out / RECORD).write_text(json.dumps(record))
    check = invoke("check", str(results), "-o", str(out))
    assert_one_line_error(check, "not an irtables manifest", "not inside the folder")
    again = invoke("supplement", str(results), "-o", str(out), "--no-pdf", "--force")
    assert again.exit_code == 0, again.output
    assert "removed" not in again.output and "ignored 2 entries" in again.output
    assert precious.read_text() == "keep\n" and data.is_file()


def test_check_never_reads_outside_through_the_manifest(tmp_path: Path) -> None:
    results = tidy_study(tmp_path, ["dl"])
    out = tmp_path / "sup"
    assert invoke("supplement", str(results), "-o", str(out), "--no-pdf").exit_code == 0
    (out / "figures").rename(tmp_path / "moved")
    (out / "figures").symlink_to(tmp_path / "moved")  # a symlinked folder leading outside
    result = invoke("check", str(results), "-o", str(out))
    assert result.exit_code == 1
    assert "not a regular file inside the folder" in result.output


@pytest.mark.parametrize("kind", ["symlink to /dev/zero", "fifo"])
@pytest.mark.parametrize("command", ["evaluate", "compare", "tables"])
def test_output_that_is_not_a_regular_file_is_refused_at_once(
    tmp_path: Path, kind: str, command: str
) -> None:
    results = tidy_study(tmp_path, ["dl"])
    out = tmp_path / "out"
    out.mkdir()
    target = out / ("table1.csv" if command == "tables" else "x.tsv")
    if kind == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to("/dev/zero")
    args = {
        "evaluate": ["evaluate", str(RUNS / "tiny.qrels"), str(RUNS / "tiny.run"), "-m", "map"],
        "compare": ["compare", str(results)],
        "tables": ["tables", str(results), "-f", "csv"],
    }[command]
    extra = ["-o", str(out)] if command == "tables" else ["-o", str(target)]
    result = invoke(*args, *extra, "--force")
    assert_one_line_error(result, "only replaces regular files")
