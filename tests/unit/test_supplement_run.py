"""``irtables supplement`` and ``irtables check`` end to end on a small study."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from irtables.cli import main
from irtables.errors import OverwriteError
from irtables.supplement.check import check_supplement
from irtables.supplement.run import make_supplement
from tests.conftest import require_pdflatex, runs_study

STUDY = Path(__file__).resolve().parents[1] / "golden" / "supplement" / "study"


@pytest.fixture
def study(tmp_path: Path) -> Path:
    target = tmp_path / "study"
    shutil.copytree(STUDY, target)
    return target


def _mtimes(folder: Path) -> dict[Path, int]:
    return {p: p.stat().st_mtime_ns for p in folder.rglob("*") if p.is_file()}


def test_outputs_of_a_study(study: Path) -> None:
    run = make_supplement(study, pdf=False)
    assert run.outdir == study / "supplement"
    names = {w.path.relative_to(run.outdir).as_posix() for w in run.written}
    expected = {
        "tables/table1.tex", "tables/table1.md", "tables/tableS1-toy.csv",
        "significance.csv", "significance.md", "per_query.md", "failures.csv",
        "figures/k-toy.pdf", "figures/k-toy.png", "figures/diff-toy.pdf",
        "figures/diff-toy.png", "methods.tex", "methods.md", "references.bib",
        "supplement.tex", "README.md", "manifest.json",
    }  # fmt: skip
    assert expected <= names
    readme = (run.outdir / "README.md").read_text(encoding="utf-8")
    assert "![" in readme and "No precision-recall figure" in readme
    assert "not compiled in this run" in readme


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the study with its supplement compiled (pdflatex)."""
    require_pdflatex()
    target = tmp_path_factory.mktemp("compiled") / "study"
    shutil.copytree(STUDY, target)
    make_supplement(target)
    return target


@pytest.mark.latex
def test_the_results_section_shows_its_heading_then_its_tables_in_order(compiled: Path) -> None:
    """Each table stands where it is input: none rises above the Results heading, and
    they follow in the order of the section (Table 1, then Table S1)."""
    pdf = compiled / "supplement" / "supplement.pdf"
    pages = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout.split("\f")
    page = next(p for p in pages if re.search(r"^\s*2\s+Results\s*$", p, re.MULTILINE))
    heading = re.search(r"^\s*2\s+Results\s*$", page, re.MULTILINE)
    assert heading is not None
    table1, table_s1 = page.find("Table 1:"), page.find("Table S1:")
    assert heading.start() < table1 < table_s1, page[:400]


@pytest.mark.latex
def test_the_pdf_is_what_full_pdflatex_runs_make(compiled: Path, tmp_path: Path) -> None:
    """The first pdflatex run is a draft (no PDF written, figures not read): the PDF is
    byte for byte what full runs until the cross-references settle make of the same
    sources, compiled here by the test."""
    out = compiled / "supplement"
    folder = tmp_path / "latex"
    sources = ["supplement.tex", "methods.tex", "references.bib", "tables", "figures"]
    for name in sources:
        source = out / name
        if source.is_dir():
            shutil.copytree(source, folder / name)
        elif source.exists():
            folder.mkdir(exist_ok=True)
            shutil.copy(source, folder / name)
    env = {**os.environ, "SOURCE_DATE_EPOCH": "0", "FORCE_SOURCE_DATE": "1"}
    command = ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "supplement.tex"]
    logs: list[str] = []
    while len(logs) < 5 and (not logs or "Rerun" in logs[-1] or "may have changed" in logs[-1]):
        done = subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout[-2000:]
        logs.append(done.stdout)
    assert len(logs) >= 2  # the table of contents needs a second run
    assert (folder / "supplement.pdf").read_bytes() == (out / "supplement.pdf").read_bytes()


def test_the_first_pdflatex_run_is_a_draft(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counted, not timed: the runs pdflatex is asked for, and how."""
    from irtables.supplement import pdf

    commands: list[list[str]] = []

    def fake_run(cmd: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        commands.append(cmd)
        folder = Path(str(kwargs["cwd"]))
        (folder / "supplement.pdf").write_bytes(b"%PDF-1.5")
        rerun = "LaTeX Warning: Label(s) may have changed." if len(commands) < 3 else ""
        return subprocess.CompletedProcess(cmd, 0, stdout=rerun, stderr="")

    monkeypatch.setattr(pdf.subprocess, "run", fake_run)
    monkeypatch.setattr(pdf, "check_typesettable", lambda sources, main: None)
    assert pdf.compile_pdf([("supplement.tex", b"x")]) == b"%PDF-1.5"
    assert ["-draftmode" in c for c in commands] == [True, False, False]


@pytest.mark.latex
def test_second_run_rewrites_nothing_pdf_included(compiled: Path) -> None:
    study = compiled
    first = make_supplement(study)
    assert (first.outdir / "supplement.pdf").read_bytes().startswith(b"%PDF")
    before = _mtimes(first.outdir)
    second = make_supplement(study)
    assert {w.status for w in second.written} == {"unchanged"}
    assert _mtimes(first.outdir) == before
    assert check_supplement(study)[1] == []


def test_check_catches_edited_input_output_and_config(study: Path) -> None:
    make_supplement(study, pdf=False)
    runner = CliRunner()
    ok = runner.invoke(main, ["check", str(study)])
    assert ok.exit_code == 0, ok.output
    assert "is current" in ok.output

    out = study / "supplement"
    with (out / "failures.md").open("a", encoding="utf-8") as f:
        f.write("edited by hand\n")
    with (study / "toy" / "dense.tsv").open("a", encoding="utf-8") as f:
        f.write("q9\tAP\t0.5\n")
    toml = study / "irtables.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("0.01", "0.05"), encoding="utf-8")
    (study / "toy" / "new.tsv").write_text("query\tmetric\tvalue\nq1\tAP\t0.1\n", encoding="utf-8")

    stale = runner.invoke(main, ["check", str(study)])
    assert stale.exit_code == 1
    lines = stale.output.splitlines()
    assert "stale  output failures.md: edited since it was generated" in lines
    assert "stale  input ../toy/dense.tsv: changed since the supplement was built" in lines
    assert "stale  input ../toy/new.tsv: new since the supplement was built" in lines
    assert "stale  config ../irtables.toml: changed since the supplement was built" in lines


def test_check_without_a_supplement_is_stale(study: Path) -> None:
    result = CliRunner().invoke(main, ["check", str(study)])
    assert result.exit_code == 1
    assert "manifest.json: missing" in result.output


def test_check_given_the_supplement_folder_says_how_to_check_it(study: Path) -> None:
    run = make_supplement(study, pdf=False)
    mixed_up = CliRunner().invoke(main, ["check", str(run.outdir)])
    assert mixed_up.exit_code == 1
    assert f"run `irtables check RESULTS -o {run.outdir}`" in mixed_up.output
    right = CliRunner().invoke(main, ["check", str(study), "-o", str(run.outdir)])
    assert right.exit_code == 0, right.output
    missing = CliRunner().invoke(main, ["check", str(study / "toy")])  # no manifest there
    assert missing.exit_code == 1 and "Note:" not in missing.output


def test_hand_edited_figure_is_not_overwritten_without_force(study: Path) -> None:
    make_supplement(study, pdf=False)
    png = study / "supplement" / "figures" / "k-toy.png"
    png.write_bytes(b"my own picture")
    toml = study / "irtables.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    with pytest.raises(OverwriteError, match=r"k-toy\.png"):
        make_supplement(study, pdf=False)
    make_supplement(study, pdf=False, force=True)
    assert png.read_bytes().startswith(b"\x89PNG")


def test_foreign_file_in_the_folder_is_refused(study: Path) -> None:
    out = study / "supplement"
    out.mkdir()
    (out / "methods.md").write_text("my notes\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["supplement", str(study), "--no-pdf"])
    assert result.exit_code == 2
    assert "not generated by irtables" in result.output


def test_cli_prints_statuses(study: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    out = str(tmp_path / "elsewhere")
    first = runner.invoke(main, ["supplement", str(study), "--no-pdf", "-o", out])
    assert first.exit_code == 0, first.output
    assert "written" in first.output
    second = runner.invoke(main, ["supplement", str(study), "--no-pdf", "-o", out])
    assert "written" not in second.output and "unchanged" in second.output
    ok = runner.invoke(main, ["check", str(study), "-o", out])
    assert ok.exit_code == 0, ok.output


@pytest.mark.filterwarnings("ignore:.*run queries are not in the qrels")
def test_precision_recall_figure_from_qrels_and_runs(tmp_path: Path) -> None:
    runs_study(tmp_path, 'measures = ["P@1", "map"]\n')
    run = make_supplement(tmp_path, pdf=False)
    assert (run.outdir / "figures" / "pr-toy.png").is_file()
    assert not any("precision-recall" in n for n in run.notes)
    manifest = (run.outdir / "manifest.json").read_text(encoding="utf-8")
    assert '"../runs/a.run"' in manifest and '"../tiny.qrels"' in manifest
    assert check_supplement(tmp_path)[1] == []


@pytest.mark.filterwarnings("ignore:.*run queries are not in the qrels")
@pytest.mark.parametrize("version", ["9.0.8", "10"])
def test_methods_and_manifest_state_the_trec_eval_version(tmp_path: Path, version: str) -> None:
    runs_study(tmp_path, f'measures = ["P@1", "map"]\ntrec_eval = "{version}"\n')
    run = make_supplement(tmp_path, pdf=False)
    manifest = json.loads((run.outdir / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["evaluation"]["toy"]["trec_eval"] == version
    methods = (run.outdir / "methods.md").read_text(encoding="utf-8")
    assert f"computed by irtables with the semantics of trec_eval {version}:" in methods
    precision = "single precision" if version == "9.0.8" else "double precision"
    assert precision in methods
    tex = (run.outdir / "methods.tex").read_text(encoding="utf-8")
    assert f"semantics of trec\\_eval~{version}:" in tex


def test_the_supplement_reads_the_results_without_a_pandas_frame(study: Path) -> None:
    """Means, query counts and tests come from the parts and their layout: the pandas
    frame of the results (1.4 M rows on the benchmark's medium study) is never built."""
    from irtables.study.load import load_study
    from irtables.supplement.build import build_supplement
    from irtables.supplement.methods import MethodsModel

    loaded = load_study(study)
    built = build_supplement(loaded.results, loaded.config, workers=1)
    assert "frame" not in loaded.results.__dict__
    model = built.context["m"]
    assert isinstance(model, MethodsModel)
    assert [d.queries for d in model.datasets] == [len(loaded.results.categories("query"))]


def test_query_count_is_the_union_of_the_systems_queries() -> None:
    import pandas as pd

    from irtables.model import ResultSet

    frame = pd.DataFrame(
        {
            "dataset": ["a", "a", "a", "b"],
            "system": ["s", "s", "t", "s"],
            "query": ["1", "2", "3", "1"],
            "metric": "AP",
            "value": [0.1, 0.2, 0.3, 0.4],
        }
    )
    results = ResultSet.from_frame(frame)
    assert [results.query_count(d) for d in ("a", "b", "none")] == [3, 1, 0]


@pytest.mark.latex
def test_a_no_pdf_rerun_keeps_the_earlier_pdf_and_says_so(compiled: Path, tmp_path: Path) -> None:
    """--no-pdf does not ask to replace supplement.pdf: it stays where it is (it was moved
    into .irtables-aside/), and a note says it was kept."""
    study = tmp_path / "study"
    shutil.copytree(compiled, study)
    pdf = study / "supplement" / "supplement.pdf"
    before = pdf.read_bytes()
    run = make_supplement(study, pdf=False)
    assert pdf.read_bytes() == before
    assert not (study / "supplement" / ".irtables-aside").exists()
    assert any("supplement.pdf is kept from an earlier build" in n for n in run.notes)
    statuses = {w.path.name: w.status for w in run.written}
    assert statuses["supplement.pdf"] == "unchanged"
