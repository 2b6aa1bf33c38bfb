"""Every example of issue 9, end to end through the command line: files from
collaborators and the internet never make irtables write, read or delete outside its
output folder, never inject LaTeX, and every failure is one line with exit status 2."""

from __future__ import annotations

import csv
import gzip
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner, Result

from irtables.base.record import RECORD
from irtables.cli import main
from irtables.output.writers import sha256_hex
from tests.conftest import (
    assert_error_line,
    git,
    require_pdflatex,
    run_with_file_limit,
    without_file_privileges,
)

RUNS = Path(__file__).resolve().parents[1] / "data" / "runs"


def tidy_study(
    root: Path, datasets: list[str], systems: tuple[str, ...] = ("bm25", "dense")
) -> Path:
    """``root/r/all.csv``: a tidy file whose dataset and system columns hold any names."""
    folder = root / "r"
    folder.mkdir(parents=True, exist_ok=True)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["dataset", "system", "query", "metric", "value"])
    for d in datasets:
        for i, s in enumerate(systems):
            for q in range(3):
                writer.writerow([d, s, f"q{q}", "AP", f"{0.1 * (q + 1) + 0.05 * i:.3f}"])
                writer.writerow([d, s, f"q{q}", "nDCG@10", f"{0.2 + 0.1 * i:.3f}"])
    (folder / "all.csv").write_text(buffer.getvalue(), encoding="utf-8")
    return folder


def without_left_out(text: str) -> str:
    """Output without the warning that names default Table 1 metrics the toy data lacks
    (tidy_study holds AP and nDCG@10 only)."""
    return "".join(
        line
        for line in text.splitlines(keepends=True)
        if not line.startswith("Warning: Table 1 leaves out")
    )


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def assert_one_line_error(result: Result, *needles: str) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert_error_line(result.exit_code, result.output, *needles)


def files_under(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if p.is_file() or p.is_symlink()}


# --- 1. names become paths -----------------------------------------------------------


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


# --- 2. the manifest and the record are input too -------------------------------------


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


# --- 3. LaTeX injection ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "label"),
    [
        ("main", "tab:x}\\input{/etc/hostname}\\def\\y{"),
        ("k_breakdown", "tab:{dataset}}\\input{/etc/passwd}"),
        ("main", "tab:main one"),
    ],
)
def test_unsafe_label_is_a_config_error_naming_the_key(
    tmp_path: Path, key: str, label: str
) -> None:
    results = tidy_study(tmp_path, ["dl"])
    (results / "irtables.toml").write_text(f"[tables.{key}]\nlabel = {json.dumps(label)}\n")
    result = invoke("supplement", str(results), "-o", str(tmp_path / "sup"))
    assert_one_line_error(result, f"tables.{key}.label", "a label may only hold")
    assert not (tmp_path / "sup").exists()


@pytest.mark.latex
def test_rows_starting_with_brackets_or_stars_compile_and_show(tmp_path: Path) -> None:
    require_pdflatex()
    results = tidy_study(tmp_path, ["[opt] first", "[2pt] second", "*third"])
    out = tmp_path / "sup"
    result = invoke("supplement", str(results), "-o", str(out))
    assert result.exit_code == 0, result.output
    text = subprocess.run(
        ["pdftotext", str(out / "supplement.pdf"), "-"], capture_output=True, text=True
    ).stdout
    for name in ("[opt] first", "[2pt] second", "*third"):
        assert name in text


@pytest.mark.latex
@pytest.mark.parametrize("name", ["中文数据", "🚀 launch", "dl\u202eevil"])
def test_untypesettable_name_is_one_line_before_pdflatex(tmp_path: Path, name: str) -> None:
    require_pdflatex()
    results = tidy_study(tmp_path, [name])
    result = invoke("supplement", str(results), "-o", str(tmp_path / "sup"))
    assert_one_line_error(result, "pdflatex cannot typeset", "--no-pdf", "name =")
    assert "\\u" in result.output or name[0] in result.output
    assert (
        invoke("supplement", str(results), "-o", str(tmp_path / "sup"), "--no-pdf").exit_code == 0
    )


# --- 4. every failure is one line and exit 2 ------------------------------------------


def test_non_utf8_config_is_one_line(tmp_path: Path) -> None:
    results = tidy_study(tmp_path, ["dl"])
    (results / "irtables.toml").write_bytes(b"[output]\ndecimals = 2\n# caf\xe9\n")
    assert_one_line_error(invoke("tables", str(results)), "irtables.toml:3", "UTF-8")


def _tables_without_privileges(results: Path) -> subprocess.CompletedProcess[str]:
    """``irtables tables`` in a child process that file permissions apply to (root too)."""
    return subprocess.run(
        [*without_file_privileges(), sys.executable, "-m", "irtables", "tables", str(results)],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_unreadable_config_and_result_file_are_one_line(tmp_path: Path) -> None:
    results = tidy_study(tmp_path, ["dl"])
    config = results / "irtables.toml"
    config.write_text("[output]\n")
    config.chmod(0)
    done = _tables_without_privileges(results)
    assert_error_line(done.returncode, done.stderr, "cannot read")
    config.chmod(0o644)
    (results / "all.csv").chmod(0)
    done = _tables_without_privileges(results)
    assert_error_line(done.returncode, done.stderr, "all.csv")


def test_unreadable_inputs_are_one_line_even_as_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    results = tidy_study(tmp_path, ["dl"])
    (results / "irtables.toml").write_text("[output]\n")
    real_open = Path.open

    def denied(self: Path, *args: object, **kwargs: object) -> object:
        if self.name in ("irtables.toml", "all.csv"):
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "open", denied)
    assert_one_line_error(invoke("tables", str(results)), "irtables.toml", "Permission denied")


def test_read_only_output_folder_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    results = tidy_study(tmp_path, ["dl"])
    out = tmp_path / "out"
    assert invoke("tables", str(results), "-o", str(out)).exit_code == 0
    before = {p: p.read_bytes() for p in out.iterdir()}
    import irtables.output.writers as writers

    real_open = os.open

    def read_only(path: str, flags: int, mode: int = 0o777) -> int:
        if flags & (os.O_WRONLY | os.O_RDWR):
            raise OSError(30, "Read-only file system", str(path))
        return real_open(path, flags, mode)

    monkeypatch.setattr(writers.os, "open", read_only)
    (results / "all.csv").write_text((results / "all.csv").read_text().replace("0.200", "0.250"))
    result = invoke("tables", str(results), "-o", str(out))
    monkeypatch.undo()
    assert_one_line_error(result, "cannot write", "Read-only file system")
    assert {p: p.read_bytes() for p in out.iterdir()} == before


def test_disk_full_is_one_line_and_old_files_stay(tmp_path: Path) -> None:
    results = tidy_study(tmp_path, ["dl"])
    out = tmp_path / "out"
    assert invoke("tables", str(results), "-o", str(out)).exit_code == 0
    before = {p: p.read_bytes() for p in out.iterdir()}
    (results / "all.csv").write_text((results / "all.csv").read_text().replace("0.200", "0.250"))
    limit = max(len(b) for b in before.values()) // 2
    done = run_with_file_limit(
        [sys.executable, "-m", "irtables", "tables", str(results), "-o", str(out)], limit
    )
    assert done.returncode == 2, done.stderr
    stderr = without_left_out(done.stderr)
    assert stderr.count("\n") == 1 and stderr.startswith("Error: cannot write")
    assert "File too large" in done.stderr
    assert {p: p.read_bytes() for p in out.iterdir()} == before


@pytest.mark.parametrize("grade", ["99999999999999999999999", "1_0", "1e30", "0x10", "２"])
def test_bad_qrels_grade_names_file_and_line(tmp_path: Path, grade: str) -> None:
    qrels = tmp_path / "qrels.txt"
    qrels.write_text(f"1 0 d1 1\n1 0 d2 {grade}\n", encoding="utf-8")
    result = invoke("evaluate", str(qrels), str(RUNS / "tiny.run"), "-m", "map")
    assert_one_line_error(result, "qrels.txt:2", "integer relevance grade")


@pytest.mark.parametrize("grade", ["1e30", "1.5", "nan"])
def test_bad_grade_in_a_tidy_qrels_file(tmp_path: Path, grade: str) -> None:
    qrels = tmp_path / "qrels.tsv"
    qrels.write_text(f"query\tdocid\trelevance\n1\td1\t1\n1\td2\t{grade}\n", encoding="utf-8")
    result = invoke("evaluate", str(qrels), str(RUNS / "tiny.run"), "-m", "map")
    assert_one_line_error(result, "qrels.tsv:3", "integer relevance grade")


def test_diff_over_a_commit_with_a_symlink_outside_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if shutil.which("git") is None:
        pytest.skip("git not installed")
    repo = tidy_study(tmp_path, ["dl"]).parent
    (repo / "r" / "link.tsv").symlink_to("/etc/passwd")
    for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "x"]):
        git(repo, *cmd)
    monkeypatch.chdir(repo)
    result = invoke("diff", "HEAD:r", "r")
    assert_one_line_error(result, "HEAD:r", "link.tsv")


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


@pytest.mark.parametrize("which", ["qrels", "run"])
def test_truncated_gzip_in_evaluate_names_the_file(tmp_path: Path, which: str) -> None:
    source = RUNS / ("tiny.qrels" if which == "qrels" else "tiny.run")
    broken = tmp_path / f"{which}.gz"
    broken.write_bytes(gzip.compress(source.read_bytes() * 50)[:60])
    qrels = broken if which == "qrels" else RUNS / "tiny.qrels"
    run = broken if which == "run" else RUNS / "tiny.run"
    result = invoke("evaluate", str(qrels), str(run), "-m", "map")
    assert_one_line_error(result, f"{which}.gz", "truncated gzip")
    assert "Aborted" not in result.output


def test_terminal_escapes_from_data_are_shown_escaped(tmp_path: Path) -> None:
    results = tmp_path / "r"
    results.mkdir()
    (results / "x.tsv").write_text("query\tmetric\tvalue\n1\tAP\t\x1b[2J\x1b]0;pwned\x07\n")
    result = invoke("tables", str(results))
    assert_one_line_error(result, "x.tsv:2", "\\x1b[2J")
    assert "\x1b" not in result.output and "\x07" not in result.output


def test_unexpected_errors_are_one_line_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import irtables.study.pipeline as pipeline

    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("line one\nline two \x1b[31m")

    monkeypatch.setattr(pipeline, "write_tables", broken)
    result = invoke("tables", str(tidy_study(tmp_path, ["dl"])))
    assert_one_line_error(result, "internal error (ValueError: line one line two \\x1b[31m)")


# --- 5. nothing silently wrong --------------------------------------------------------


@pytest.mark.parametrize("value", ["0.2_5", "０.５", "nan", "inf", "1e999", "0x1p-2"])
def test_numbers_python_would_accept_are_errors(tmp_path: Path, value: str) -> None:
    results = tmp_path / "r" / "dl"
    results.mkdir(parents=True)
    (results / "bm25.tsv").write_text(f"query\tmetric\tvalue\n1\tAP\t0.5\n2\tAP\t{value}\n")
    result = invoke("tables", str(results.parent))
    assert_one_line_error(result, "bm25.tsv:3")


@pytest.mark.parametrize("score", ["nan", "NaN", "inf", "-inf", "0.2_5", "１"])
def test_bad_run_scores_are_errors_naming_the_line(tmp_path: Path, score: str) -> None:
    run = tmp_path / "bm25.run"
    run.write_text(f"1 Q0 d1 1 2.0 t\n1 Q0 d2 2 {score} t\n", encoding="utf-8")
    result = invoke("evaluate", str(RUNS / "tiny.qrels"), str(run), "-m", "map")
    assert_one_line_error(result, "bm25.run:2", "score")


def test_empty_run_is_warned_about_by_name(tmp_path: Path) -> None:
    empty = tmp_path / "empty.run"
    empty.write_text("")
    result = invoke("evaluate", str(RUNS / "tiny.qrels"), str(empty), "-m", "map")
    assert result.exit_code == 0
    assert "Warning: " in result.output and "empty.run: run empty is empty" in result.output


@pytest.mark.parametrize("name", ["bm\t25.run", "bm\n25.run", "bm\x1b25.run"])
def test_control_characters_in_a_run_name_are_refused(tmp_path: Path, name: str) -> None:
    run = tmp_path / name
    shutil.copy(RUNS / "tiny.run", run)
    result = invoke("evaluate", str(RUNS / "tiny.qrels"), str(run), "-m", "map")
    assert_one_line_error(result, "control character")


def test_control_characters_in_names_from_data_are_refused(tmp_path: Path) -> None:
    results = tidy_study(tmp_path, ["dl\tx"])
    assert_one_line_error(invoke("tables", str(results)), "all.csv:2", "dataset 'dl\\tx'")


@pytest.mark.parametrize(
    ("toml", "needle"),
    [
        ('[[systems]]\nid = "bm25"\n[[systems]]\nid = "bm25"\nname = "B"\n', "systems[1].id"),
        ('[[datasets]]\nid = "dl"\n[[datasets]]\nid = "dl"\n', "datasets[1].id"),
        ("[output]\nlower_is_better = ['MRR@1O']\n", "output.lower_is_better[0]"),
        ('[[systems]]\nid = "bm25"\nname = "A\\u0007"\n', "systems[0].name"),
    ],
    ids=["systems", "datasets", "lower_is_better", "control character"],
)
def test_config_mistakes_are_errors_naming_the_key(tmp_path: Path, toml: str, needle: str) -> None:
    results = tidy_study(tmp_path, ["dl"])
    (results / "irtables.toml").write_text(toml)
    assert_one_line_error(invoke("tables", str(results)), needle)


def test_two_systems_shown_under_one_name_is_an_error(tmp_path: Path) -> None:
    results = tidy_study(tmp_path, ["dl"])
    (results / "irtables.toml").write_text(
        '[[systems]]\nid = "bm25"\nname = "BM25"\n[[systems]]\nid = "dense"\nname = "BM25"\n'
    )
    result = invoke("tables", str(results))
    assert_one_line_error(result, "systems[0].name, systems[1].name", "both shown as 'BM25'")


def test_lower_is_better_in_any_spelling_flips_the_bold(tmp_path: Path) -> None:
    results = tidy_study(tmp_path, ["dl"])
    (results / "irtables.toml").write_text("[output]\nlower_is_better = ['map']\n")
    assert invoke("tables", str(results), "-o", str(tmp_path / "o")).exit_code == 0
    table = pd.read_csv(tmp_path / "o" / "table1.csv").set_index("System")
    assert table.loc["bm25", "MAP"] < table.loc["dense", "MAP"]
    md = (tmp_path / "o" / "table1.md").read_text()
    rows = [line.split("|") for line in md.splitlines() if line.startswith("|")]
    at = [c.strip() for c in rows[0]].index("MAP")
    bold = {r[2].strip(): "**" in r[at] for r in rows[2:]}
    assert bold == {"bm25": True, "dense": False}  # lower is better: bm25's lower MAP


# --- 6. outputs: plain files, never read back, all or nothing -------------------------


def test_every_csv_irtables_writes_reads_with_pandas(tmp_path: Path) -> None:
    results = tidy_study(tmp_path, ["dl"])
    (results / "irtables.toml").write_text('[compare]\nbaseline = "bm25"\n')
    out = tmp_path / "sup"
    assert invoke("supplement", str(results), "-o", str(out), "--no-pdf").exit_code == 0
    assert invoke("compare", str(results), "-o", str(tmp_path / "sig.csv")).exit_code == 0
    csvs = [*out.rglob("*.csv"), tmp_path / "sig.csv"]
    assert len(csvs) >= 6
    for path in csvs:
        frame = pd.read_csv(path)
        assert len(frame.columns) > 2 and not frame.columns[0].startswith("#"), path
    table = pd.read_csv(out / "tables" / "table1.csv")
    # the columns each row shows bold follow the values (best)
    assert list(table.columns) == ["Dataset", "System", "NDCG@10", "MAP", "best"]
    assert len(table) == 2


@pytest.mark.parametrize(
    "args",
    [
        ["tables", "{r}", "-o", "{r}"],
        ["tables", "{r}/..", "-o", "{r}"],
        ["supplement", "{r}", "-o", "{r}/sup", "--no-pdf"],
        ["compare", "{r}", "-o", "{r}/sig.csv"],
        ["diff", "{r}", "{r}", "--format", "json", "-o", "{r}/diff.json"],
    ],
    ids=["tables into results", "tables into a dataset", "supplement", "compare", "diff"],
)
def test_outputs_inside_the_results_are_not_read_back(tmp_path: Path, args: list[str]) -> None:
    results = tidy_study(tmp_path, ["dl"])
    filled = [a.replace("{r}", str(results)) for a in args]
    for _ in range(3):
        result = invoke(*filled)
        assert result.exit_code == 0, result.output
    warned = [line for line in without_left_out(result.output).splitlines() if "Warning" in line]
    # skipping what irtables wrote is said, in one note (issue 24 §2)
    assert len(warned) == 1, result.output
    assert all(w.startswith("Warning: not read as results: ") for w in warned), warned


def test_edited_output_in_the_results_is_skipped_with_a_warning(tmp_path: Path) -> None:
    results = tidy_study(tmp_path, ["dl"])
    assert invoke("tables", str(results), "-o", str(results)).exit_code == 0
    (results / "table1.csv").write_text("query,metric,value\nq1,AP,0.9\n")
    result = invoke("tables", str(results), "-o", str(tmp_path / "elsewhere"))
    assert result.exit_code == 0, result.output
    assert "table1.csv: not read as results" in result.output


def test_evaluate_output_is_read_back_and_rewritten_after_a_run_changed(tmp_path: Path) -> None:
    run = tmp_path / "bm25.run"
    shutil.copy(RUNS / "tiny.run", run)
    out = tmp_path / "results" / "toy" / "all.tsv"
    args = ["evaluate", str(RUNS / "tiny.qrels"), str(run), "-m", "map", "-q", "-o", str(out)]
    assert invoke(*args).exit_code == 0
    run.write_text(run.read_text().replace("d3 3 0.9", "d3 3 0.1"))  # the run changed
    again = invoke(*args)
    assert again.exit_code == 0 and "written" in again.output
    tables = invoke("tables", str(tmp_path / "results"), "-o", str(tmp_path / "t"))
    assert tables.exit_code == 0, tables.output
    assert "bm25" in (tmp_path / "t" / "table1.md").read_text()


def test_evaluate_checks_its_destination_before_evaluating(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import irtables.evaluator.command as command

    def never(*args: object, **kwargs: object) -> str:
        raise AssertionError("evaluated although the destination would be refused")

    monkeypatch.setattr(command, "evaluate_files", never)
    out = tmp_path / "mine.tsv"
    out.write_text("my own notes\n")
    result = invoke("evaluate", str(RUNS / "tiny.qrels"), str(RUNS / "tiny.run"), "-m", "map",
                    "-o", str(out))  # fmt: skip
    assert_one_line_error(result, "refusing to overwrite", "mine.tsv")
    assert out.read_text() == "my own notes\n"


def test_a_refused_file_means_the_supplement_replaced_nothing(tmp_path: Path) -> None:
    results = tidy_study(tmp_path, ["dl", "cacm"])
    out = tmp_path / "sup"
    assert invoke("supplement", str(results), "-o", str(out), "--no-pdf").exit_code == 0
    before = {p: p.read_bytes() for p in files_under(out)}
    (out / "methods.md").write_text("my own notes\n")
    before[out / "methods.md"] = b"my own notes\n"
    data = results / "all.csv"
    data.write_text(data.read_text().replace("0.200", "0.150"))
    result = invoke("supplement", str(results), "-o", str(out), "--no-pdf")
    assert_one_line_error(result, "methods.md", "nothing was written")
    assert {p: p.read_bytes() for p in files_under(out)} == before


@pytest.mark.latex
def test_characters_known_good_typeset_in_the_supplement_preamble(tmp_path: Path) -> None:
    """The characters :func:`check_typesettable` does not probe, checked against pdflatex."""
    from irtables.supplement.pdf import KNOWN_GOOD, _probe

    require_pdflatex()
    results = tidy_study(tmp_path, ["dl"])
    assert (
        invoke("supplement", str(results), "-o", str(tmp_path / "sup"), "--no-pdf").exit_code == 0
    )
    preamble = (tmp_path / "sup" / "supplement.tex").read_text().split("\\begin{document}")[0]
    assert _probe(preamble, sorted(KNOWN_GOOD)) == set()
    assert _probe(preamble, ["中", "Ð", "é"]) == {"中", "Ð"}  # the probe can tell
