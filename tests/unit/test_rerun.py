"""A rerun costs what changed (issue 33 §1): with nothing changed, ``tables`` and
``supplement`` print ``unchanged`` for every output and do no work; ``--rebuild``
forces a build; ``irtables check`` and the rerun agree on what is stale.

Work is counted, never timed: counters wrap the evaluation of runs, the building of the
tables (their significance tests), the supplement's build (tests, figures) and pdflatex.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from irtables.cli import main
from irtables.supplement.check import check_supplement
from tests.conftest import runs_study

PLACES = {
    "evaluate": ("irtables.study.runsets", "evaluate_datasets"),
    "tables": ("irtables.tables", "build_all"),
    "supplement": ("irtables.supplement.run", "build_supplement"),
    "pdflatex": ("irtables.supplement.run", "compile_pdf"),
}


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Calls of each step of a build, counted."""
    import importlib

    counts: Counter[str] = Counter()
    for step, (module, name) in PLACES.items():
        owner = importlib.import_module(module)
        real = getattr(owner, name)

        def wrapper(
            *args: Any, _real: Callable[..., Any] = real, _step: str = step, **kwargs: Any
        ) -> Any:
            counts[_step] += 1
            return _real(*args, **kwargs)

        monkeypatch.setattr(owner, name, wrapper)
    return counts


@pytest.fixture
def study(tmp_path: Path) -> Path:
    root = tmp_path / "study"
    root.mkdir()
    return runs_study(root, '[compare]\nbaseline = "a"\n')


def _run(*args: str) -> Result:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result


def _statuses(result: Result) -> Counter[str]:
    return Counter(line.split()[0] for line in result.stdout.splitlines() if line.strip())


def test_tables_rerun_with_nothing_changed_does_no_work(study: Path, work: Counter[str]) -> None:
    first = _run("tables", str(study))
    assert work["evaluate"] >= 1 and work["tables"] == 1
    written = {line.split()[1] for line in first.stdout.splitlines()}
    work.clear()
    again = _run("tables", str(study))
    assert work == Counter()
    assert _statuses(again) == {"unchanged": len(written)}
    assert {line.split()[1] for line in again.stdout.splitlines()} == written


def test_rebuild_forces_the_work(study: Path, work: Counter[str]) -> None:
    _run("tables", str(study))
    _run("supplement", str(study), "--no-pdf")
    work.clear()
    again = _run("tables", str(study), "--rebuild")
    assert work["evaluate"] >= 1 and work["tables"] == 1
    assert set(_statuses(again)) == {"unchanged"}  # the same bytes
    work.clear()
    _run("supplement", str(study), "--no-pdf", "--rebuild")
    assert work["supplement"] == 1


def test_tables_options_and_templates_are_part_of_what_is_current(
    study: Path, work: Counter[str], tmp_path: Path
) -> None:
    _run("tables", str(study))
    work.clear()
    _run("tables", str(study), "-f", "markdown")
    assert work["tables"] == 1
    work.clear()
    _run("tables", str(study), "-f", "markdown")
    assert work["tables"] == 0
    _run("tables", str(study), "-f", "markdown", "--baseline", "b")
    assert work["tables"] == 1
    templates = tmp_path / "templates"
    (templates / "markdown").mkdir(parents=True)
    _run("tables", str(study), "--templates", str(templates))
    assert work["tables"] == 2
    _run("tables", str(study), "--templates", str(templates))
    assert work["tables"] == 2
    (templates / "markdown" / "note.txt").write_text("a file of the template folder\n")
    _run("tables", str(study), "--templates", str(templates))
    assert work["tables"] == 3


def test_supplement_rerun_with_nothing_changed_does_no_work(
    study: Path, work: Counter[str]
) -> None:
    first = _run("supplement", str(study), "--no-pdf")
    assert work["evaluate"] >= 1 and work["supplement"] == 1
    work.clear()
    again = _run("supplement", str(study), "--no-pdf")
    assert work == Counter()
    assert _statuses(again) == {"unchanged": len(first.stdout.splitlines())}
    assert sorted(again.stdout.splitlines()) == sorted(
        line.replace("  written", "unchanged") for line in first.stdout.splitlines()
    )


def _edit_input(study: Path) -> None:
    with (study / "runs" / "b.run").open("a") as f:
        f.write("1 Q0 extra-doc 999 -5.0 tiny\n")


def _better_run(study: Path) -> None:
    """Run b ranks query 1's relevant documents first now: its numbers change."""
    ranking = ["1 Q0 d1 1 0.9 b", "1 Q0 d2 2 0.8 b", "1 Q0 d3 3 0.1 b", "2 Q0 d4 1 1.0 b"]
    (study / "runs" / "b.run").write_text("\n".join(ranking) + "\n")


def _edit_config(study: Path) -> None:
    config = study / "irtables.toml"
    config.write_text(config.read_text() + "alpha = 0.01\n")  # a key of [compare]


def _edit_output(study: Path) -> None:
    methods = study / "supplement" / "methods.md"
    methods.write_text(methods.read_text() + "\nedited\n")


def _edit_qrels(study: Path) -> None:
    with (study / "tiny.qrels").open("a") as f:
        f.write("2 0 d8 1\n")  # one more relevant document for query 2


def _new_run(study: Path) -> None:
    shutil.copy(study / "runs" / "a.run", study / "runs" / "c.run")


def _other_version(study: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import irtables.supplement.check

    monkeypatch.setattr(irtables.supplement.check, "__version__", "0.0.0-other")


def _other_code(study: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import irtables.supplement.check

    monkeypatch.setattr(irtables.supplement.check, "code_digest", lambda: "f" * 64)


CHANGES: dict[str, Callable[[Path], None] | None] = {
    "nothing": None,
    "a run": _edit_input,
    "a new run": _new_run,
    "a qrels file": _edit_qrels,
    "a config key": _edit_config,
    "an output edited": _edit_output,
}


@pytest.mark.parametrize("change", [*CHANGES, "irtables' version", "irtables' code"])
def test_check_and_the_rerun_agree_on_what_is_stale(
    study: Path, work: Counter[str], monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    _run("supplement", str(study), "--no-pdf")
    if change == "irtables' version":
        _other_version(study, monkeypatch)
    elif change == "irtables' code":
        _other_code(study, monkeypatch)
    elif (edit := CHANGES[change]) is not None:
        edit(study)
    stale = check_supplement(study)[1]
    assert bool(stale) == (change != "nothing")
    work.clear()
    result = CliRunner().invoke(main, ["supplement", str(study), "--no-pdf", "--force"])
    assert result.exit_code == 0, result.output
    assert work["supplement"] == (1 if stale else 0)


def test_a_template_of_the_supplement_is_an_input(
    study: Path, work: Counter[str], tmp_path: Path
) -> None:
    """The user's templates are recorded in the manifest: ``check`` hashes them again."""
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "note.txt").write_text("one\n")
    _run("supplement", str(study), "--no-pdf", "--templates", str(templates))
    manifest = json.loads((study / "supplement" / "manifest.json").read_text())
    assert manifest["options"]["template_dirs"] == ["../../templates"]
    assert check_supplement(study)[1] == []
    (templates / "note.txt").write_text("two\n")
    stale = check_supplement(study)[1]
    assert [(s.kind, s.path) for s in stale] == [("template", "../../templates/note.txt")]
    work.clear()
    _run("supplement", str(study), "--no-pdf", "--templates", str(templates))
    assert work["supplement"] == 1
    assert check_supplement(study)[1] == []


def test_pdflatex_runs_only_when_a_source_it_reads_changed(
    study: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pdflatex is replaced by a function of its sources (as pdflatex is): counted."""
    import hashlib

    import irtables.supplement.pdf
    import irtables.supplement.run

    calls: list[int] = []

    def fake_pdflatex(files: list[tuple[str, bytes]]) -> bytes:
        calls.append(1)
        digest = hashlib.sha256(repr(sorted(files)).encode()).hexdigest()
        return f"%PDF-fake {digest}\n".encode()

    for module in (irtables.supplement.pdf, irtables.supplement.run):
        monkeypatch.setattr(module, "pdflatex_available", lambda: True)
    monkeypatch.setattr(irtables.supplement.run, "compile_pdf", fake_pdflatex)
    pdf = study / "supplement" / "supplement.pdf"
    _run("supplement", str(study))
    first = pdf.read_bytes()
    assert len(calls) == 1
    readme = study / "supplement" / "README.md"
    readme.write_text(readme.read_text() + "edited\n")  # an output pdflatex does not read
    _run("supplement", str(study), "--force")
    assert len(calls) == 1 and pdf.read_bytes() == first
    assert check_supplement(study)[1] == []
    _better_run(study)  # Table 1 changes: pdflatex reads it
    _run("supplement", str(study))
    assert len(calls) == 2 and pdf.read_bytes() != first
    _run("supplement", str(study), "--rebuild")
    assert len(calls) == 3


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_a_rerun_after_changes_gives_the_bytes_of_a_clean_build(
    study: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Incremental (an output edited, then a run changed, the PDF kept once) and then a
    clean build of a copy of the study: every file of both folders is the same."""
    import hashlib

    import irtables.supplement.pdf
    import irtables.supplement.run

    def fake_pdflatex(files: list[tuple[str, bytes]]) -> bytes:
        return hashlib.sha256(repr(sorted(files)).encode()).hexdigest().encode()

    for module in (irtables.supplement.pdf, irtables.supplement.run):
        monkeypatch.setattr(module, "pdflatex_available", lambda: True)
    monkeypatch.setattr(irtables.supplement.run, "compile_pdf", fake_pdflatex)
    _run("supplement", str(study))
    _run("tables", str(study))
    _edit_output(study)
    _run("supplement", str(study), "--force")
    _better_run(study)
    _run("supplement", str(study))
    _run("tables", str(study))
    clean = tmp_path / "clean"
    shutil.copytree(study, clean, ignore=shutil.ignore_patterns("supplement", "tables", ".*"))
    _run("supplement", str(clean))
    _run("tables", str(clean))
    for folder in ("supplement", "tables"):
        assert _outputs(study / folder) == _outputs(clean / folder), folder
    # the cited numbers' history (check --paper's memory of earlier versions) is the one
    # file only the incremental folder has, by design
    assert (study / "tables" / HISTORY).is_file() and not (clean / "tables" / HISTORY).exists()


HISTORY = ".irtables-numbers.json"


def _outputs(folder: Path) -> dict[str, object]:
    """Every file's bytes; the record and the manifest as JSON without the history's
    entry (and the record without the manifest's hash, which names the history)."""
    files: dict[str, object] = dict(_files(folder))
    files.pop(HISTORY, None)
    for name in (".irtables-written.json", ".irtables-tables.json"):
        if name in files:
            data = json.loads(files[name])  # type: ignore[arg-type]
            entries = data.get("files") or data.get("outputs") or {}
            entries.pop(HISTORY, None)
            if name == ".irtables-written.json":
                entries.pop(".irtables-tables.json", None)
            files[name] = data
    return files


@pytest.mark.parametrize("command", ["tables", "supplement"])
def test_a_rerun_that_does_nothing_gives_the_builds_warnings_again(
    study: Path, work: Counter[str], command: str
) -> None:
    args = [command, str(study), *(["--no-pdf"] if command == "supplement" else [])]
    first = _run(*args)
    warned = [line for line in first.stderr.splitlines() if line.startswith("Warning:")]
    assert warned  # the tiny study: run and qrels hold different queries
    work.clear()
    again = _run(*args)
    assert work == Counter()
    assert [line for line in again.stderr.splitlines() if line.startswith("Warning:")] == warned


def test_the_manifest_records_the_code_that_built_it(study: Path) -> None:
    """The version number alone does not tell two builds of a development checkout
    apart: the manifest records the SHA-256 of irtables' files, computed here afresh."""
    import hashlib

    import irtables

    _run("supplement", str(study), "--no-pdf")
    manifest = json.loads((study / "supplement" / "manifest.json").read_text())
    package = Path(irtables.__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(p for p in package.rglob("*") if p.is_file()):
        if "__pycache__" in path.parts or path.suffix == ".pyc":
            continue
        name = path.relative_to(package).as_posix().encode()
        data = path.read_bytes()
        digest.update(len(name).to_bytes(8, "little") + name)
        digest.update(len(data).to_bytes(8, "little") + data)
    assert manifest["code"] == digest.hexdigest()
    stale = check_supplement(study)[1]
    assert stale == []
