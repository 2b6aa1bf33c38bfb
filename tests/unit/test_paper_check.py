"""`irtables check --paper`: hand-typed results, stale numbers and unknown keys.

The paper of tests/data/paper is realistic IR prose (5 pages compiled) full of numbers
that are not results; nothing in it may be flagged. Seeded numbers are read from the
rendered CSV tables, never from numbers.json.
"""

from __future__ import annotations

import csv
import shutil
from decimal import Decimal
from pathlib import Path

import pytest

from tests.conftest import REPO, git, invoke, require_pdflatex
from tests.data.sweep.make_sweep import make_sweep

PAPER = REPO / "tests" / "data" / "paper"


def _cell(folder: Path, table: str, labels: tuple[str, ...], column: str) -> str:
    """The CSV cell of the row whose first cells are ``labels``, under ``column``."""
    with (folder / f"{table}.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    at = rows[0].index(column)
    for row in rows[1:]:
        if tuple(row[: len(labels)]) == labels:
            return row[at]
    raise AssertionError((table, labels, column))


def _paper(root: Path, extra: str = "", tables: Path | None = None) -> Path:
    """The test paper in ``root`` with ``extra`` lines before its Discussion."""
    shutil.copytree(PAPER, root, dirs_exist_ok=True)
    main = root / "paper.tex"
    text = main.read_text(encoding="utf-8")
    main.write_text(text.replace("\\section{Discussion}", extra + "\\section{Discussion}"))
    if tables is not None:
        (root / "tables").mkdir(exist_ok=True)
        shutil.copy(tables / "numbers.tex", root / "tables" / "numbers.tex")
    return main


def _line_of(path: Path, needle: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


@pytest.fixture(scope="module")
def example(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("example") / "tables"
    assert invoke("tables", str(REPO / "results"), "-o", str(out)).exit_code == 0
    return out


@pytest.fixture(scope="module")
def sweep(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_sweep(tmp_path_factory.mktemp("sweep") / "study")
    assert invoke("tables", str(root), "-o", str(root / "tables")).exit_code == 0
    return root


def test_the_paper_is_at_least_three_pages(example: Path, tmp_path: Path) -> None:
    require_pdflatex()
    import subprocess

    main = _paper(tmp_path, tables=example)
    done = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", main.name],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:]
    text = subprocess.run(
        ["pdftotext", str(tmp_path / "paper.pdf"), "-"], capture_output=True, text=True
    ).stdout
    assert text.count("\f") >= 3


@pytest.mark.parametrize("study", ["example", "sweep"])
def test_nothing_in_the_false_alarm_paper_is_flagged(study: str, tmp_path: Path) -> None:
    folder = REPO / "results" if study == "example" else None
    if folder is None:
        folder = make_sweep(tmp_path / "sweep")
        assert invoke("tables", str(folder), "-o", str(folder / "tables")).exit_code == 0
    main = _paper(tmp_path / "paper")
    result = invoke("check", str(folder), "--paper", str(main))
    assert result.exit_code == 0, result.output
    flagged = [line for line in result.stdout.splitlines() if "paper" in line]
    assert flagged == []


def test_hand_typed_current_numbers_are_each_reported_with_their_key(
    example: Path, tmp_path: Path
) -> None:
    ance = _cell(example, "table1", ("TREC CAsT 2021", "ANCE"), "NDCG@10")
    bm25 = _cell(example, "table1", ("TREC CAsT 2021", "BM25"), "NDCG@10")
    convdr_map = _cell(example, "table1", ("TREC CAsT 2021", "ConvDR"), "MAP")
    cacm_p = _cell(example, "tableS1-cacm", ("P", "BM25 (Anserini)"), "K=5")
    rel = f"{float((Decimal(ance) - Decimal(bm25)) / Decimal(bm25) * 100):+.1f}%"
    percent = f"{Decimal(convdr_map) * 100:f}"
    seeded = {
        "table1/cast2021/org_manual_ance/nDCG@10": f"ANCE reaches an nDCG@10 of {ance} on CAsT,",
        "table1/cast2021/org_manual_bm25/nDCG@10": f"against {bm25[1:]} for BM25.",
        "table1/cast2021/org_convdr/AP": f"ConvDR has a MAP of {percent}\\% on CAsT.",
        "tableS1-cacm/cacm/bm25/P@5": f"On CACM, P@5 is {cacm_p}.",
        "table1/cast2021/org_manual_ance/nDCG@10 rel": f"ANCE improves NDCG@10 by {rel[:-1]}\\%.",
    }
    extra = "\n".join(seeded.values()) + f"\n% {ance} in a comment\n"
    main = _paper(tmp_path, extra)
    result = invoke("check", str(REPO / "results"), "--paper", str(main))
    assert result.exit_code == 0, result.output  # warnings only
    lines = [line for line in result.stdout.splitlines() if line]
    assert len(lines) == len(seeded), result.stdout
    for (key, sentence), line in zip(seeded.items(), lines, strict=True):
        key = key.split(" ")[0]
        macro = "\\irtrel" if sentence.endswith("\\%.") and "improves" in sentence else "\\irtnum"
        assert line.startswith(f"{main}:{_line_of(main, sentence)}: "), line
        assert line.endswith(f" is {key}; cite it as {macro}{{{key}}}"), line


def test_a_number_in_an_input_file_is_reported_there(example: Path, tmp_path: Path) -> None:
    ance = _cell(example, "table1", ("TREC CAsT 2021", "ANCE"), "NDCG@10")
    main = _paper(tmp_path)
    method = tmp_path / "sections" / "method.tex"
    method.write_text(
        method.read_text(encoding="utf-8") + f"\nANCE scores {ance} nDCG@10 on CAsT.\n"
    )
    result = invoke("check", str(REPO / "results"), "--paper", str(main))
    assert result.exit_code == 0
    assert result.stdout.startswith(f"{method}:{_line_of(method, 'ANCE scores')}: {ance} is ")


def test_an_unknown_key_is_an_error_naming_line_and_key(tmp_path: Path) -> None:
    main = _paper(tmp_path, "BM25 has \\irtnum{table1/cast2021/org_manual_bm25/nDCG@11}.\n")
    result = invoke("check", str(REPO / "results"), "--paper", str(main))
    assert result.exit_code == 1
    line = _line_of(main, "nDCG@11")
    assert f"{main}:{line}: \\irtnum{{table1/cast2021/org_manual_bm25/nDCG@11}}: no such key" in (
        result.stdout
    )


def _change_a_run(root: Path) -> None:
    """Reverse the BM25 ranking of three robust03 queries (a bug fixed in a run)."""
    run = root / "runs" / "robust03" / "bm25.run"
    out = []
    for line in run.read_text().splitlines():
        q, z, doc, rank, score, tag = line.split()
        if q in ("301", "302", "303"):
            score = str(-float(score))
        out.append(" ".join((q, z, doc, rank, score, tag)))
    run.write_text("\n".join(out) + "\n")


def test_a_stale_number_is_found_after_a_run_changes(tmp_path: Path) -> None:
    root = make_sweep(tmp_path / "sweep")
    assert invoke("tables", str(root)).exit_code == 0
    tables = root / "tables"
    old = _cell(tables, "table1", ("TREC Robust 2003", "BM25"), "NDCG@10")
    _change_a_run(root)
    assert invoke("tables", str(root)).exit_code == 0
    new = _cell(tables, "table1", ("TREC Robust 2003", "BM25"), "NDCG@10")
    dense = _cell(tables, "table1", ("TREC Robust 2003", "Dense"), "NDCG@10")
    assert old != new
    stale = f"BM25 reached {old} nDCG@10 on Robust 2003,"
    current = f"and the dense run {dense}.\n"
    main = _paper(tmp_path / "paper", stale + "\n" + current)
    result = invoke("check", str(root), "--paper", str(main))
    assert result.exit_code == 1, result.output
    key = "table1/robust03/bm25/nDCG@10"
    assert f"{main}:{_line_of(main, stale)}: {old} was {key} until " in result.stdout
    assert f"robust03/bm25 changed, now {new}\n" in result.stdout
    assert f"{main}:{_line_of(main, 'dense run')}: {dense} is table1/robust03/dense/nDCG@10;" in (
        result.stdout
    )


def test_against_an_earlier_revision_in_git(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if shutil.which("git") is None:
        pytest.skip("git not installed")
    root = make_sweep(tmp_path / "repo")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "runs")
    old_out = tmp_path / "old"
    assert invoke("tables", str(root), "-o", str(old_out)).exit_code == 0
    old = _cell(old_out, "table1", ("TREC Robust 2003", "BM25"), "NDCG@10")
    _change_a_run(root)
    stale = f"BM25 reached {old} nDCG@10 on Robust 2003.\n"
    main = _paper(tmp_path / "paper", stale)
    monkeypatch.chdir(root)  # git reads HEAD:. in the repository of the working directory
    result = invoke("check", str(root), "--paper", str(main), "--against", "HEAD:.")
    assert result.exit_code == 1, result.output
    assert f"{old} was table1/robust03/bm25/nDCG@10 until HEAD:., now " in result.stdout


def test_the_history_beside_the_papers_numbers_tex_is_read(tmp_path: Path) -> None:
    root = make_sweep(tmp_path / "sweep")
    paper = tmp_path / "paper"
    tables = paper / "tables"  # the paper's own folder, not the study's output.dir
    assert invoke("tables", str(root), "-o", str(tables)).exit_code == 0
    old = _cell(tables, "table1", ("TREC Robust 2003", "BM25"), "NDCG@10")
    _change_a_run(root)
    assert invoke("tables", str(root), "-o", str(tables)).exit_code == 0
    stale = f"BM25 reached {old} nDCG@10 on Robust 2003.\n"
    main = _paper(paper, stale)  # \input{tables/numbers.tex}
    result = invoke("check", str(root), "--paper", str(main))
    assert result.exit_code == 1, result.output
    assert f"{main}:{_line_of(main, stale.strip())}: {old} was table1/robust03/bm25/nDCG@10" in (
        result.stdout
    )
