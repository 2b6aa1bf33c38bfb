"""The realistic case, tested (issue 19 §5): three datasets, a sweep of 30 runs named with
their parameters, a baseline per dataset, a config selecting four systems for Table 1,
and a folder with notes and figures besides; every command and ``load_study`` on it.

The study is written by ``tests/data/sweep/make_sweep.py``. Means are checked against
pytrec-eval-terrier (trec_eval's code), independently of irtables' evaluator.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from irtables import load_study, render
from irtables.cli import main
from irtables.stats.report import format_comparisons
from tests.data.sweep.make_sweep import DATASETS, TABLE1, make_sweep, sweep_names

pytestmark = pytest.mark.filterwarnings("ignore:.*judged queries are not in the run")


@pytest.fixture(scope="module")
def sweep(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_sweep(tmp_path_factory.mktemp("sweep") / "study")


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*args])
    return result.exit_code, result.output


def test_load_study_sees_every_run_under_its_full_name(sweep: Path) -> None:
    study = load_study(sweep)
    assert study.results.datasets() == tuple(DATASETS)
    for dataset, (_, _, _, baseline) in DATASETS.items():
        expected = {baseline, "dense", *sweep_names()}
        assert set(study.results.systems(dataset)) == expected
        assert len(expected) == 32
    assert {p.name for p in study.skipped} == {"README", "notes.txt", "figs", "notes"}


def test_means_agree_with_pytrec_eval(sweep: Path) -> None:
    import pytrec_eval

    study = load_study(sweep)
    frame = study.results.frame
    run_name = "fuse_alpha=0.5_depth=1000"
    qrels: dict[str, dict[str, int]] = {}
    for line in (sweep / "qrels" / "qrels_robust03.txt").read_text().splitlines():
        q, _, doc, grade = line.split()
        qrels.setdefault(q, {})[doc] = int(grade)
    run: dict[str, dict[str, float]] = {}
    for line in (sweep / "runs" / "robust03" / run_name).read_text().splitlines():
        q, _, doc, _, score, _ = line.split()
        run.setdefault(q, {})[doc] = float(score)
    ref = pytrec_eval.RelevanceEvaluator(qrels, {"map", "ndcg_cut.10"}).evaluate(run)
    for ours, theirs in (("AP", "map"), ("nDCG@10", "ndcg_cut_10")):
        rows = frame[
            (frame["dataset"] == "robust03")
            & (frame["system"] == run_name)
            & (frame["metric"] == ours)
        ]
        got = dict(zip(rows["query"], rows["value"], strict=True))
        assert got == pytest.approx({q: v[theirs] for q, v in ref.items()}, abs=1e-12)


def test_tables_show_the_four_chosen_systems_under_their_names(sweep: Path, tmp_path: Path) -> None:
    code, text = _run("tables", str(sweep), "-o", str(tmp_path), "-f", "markdown")
    assert code == 0, text
    assert [line for line in text.splitlines() if line.startswith("Note: ")] == [
        "Note: skipped 4 files or folders that hold no results: "
        f"{sweep / 'README'}, {sweep / 'notes.txt'}, {sweep / 'figs'}, ... "
        "(--verbose lists them)"
    ]
    study = load_study(sweep)
    table = study.table("main")
    for group, (name, _, _, baseline) in zip(table.groups, DATASETS.values(), strict=True):
        assert group.label == name
        has = {baseline, "dense", *sweep_names()}
        assert [r.key for r in group.rows] == [s for s in TABLE1 if s in has]
        assert len(group.rows) == 4
    assert render(table, "markdown") == (tmp_path / "table1.md").read_text()
    sensitivity = (tmp_path / "alpha_depth.md").read_text()
    assert sensitivity.startswith("<!--") and "**Table 2.**" in sensitivity
    assert "Table (" not in sensitivity
    s1 = [(tmp_path / f"tableS1-{d}.md").read_text() for d in DATASETS]
    assert [f"**Table S{i}.**" in text for i, text in enumerate(s1, 1)] == [True] * 3


def test_compare_lint_and_diff(sweep: Path, tmp_path: Path) -> None:
    study = load_study(sweep)
    code, text = _run("compare", str(sweep), "-o", str(tmp_path / "sig.csv"))
    assert code == 0, text
    names = study.config.display_names()
    written = (tmp_path / "sig.csv").read_text()
    assert format_comparisons(study.compare(), "csv", names=names) == written
    baselines = {r.dataset: r.baseline for r in study.compare().results}
    assert baselines == {d: spec[3] for d, spec in DATASETS.items()}
    code, text = _run("lint", str(sweep))
    assert code == 0, text
    assert "no violations" in text
    copy = tmp_path / "new"
    shutil.copytree(sweep, copy, ignore=shutil.ignore_patterns(".irtables-cache", "tables"))
    run = copy / "runs" / "robust03" / "fuse_alpha=0.1_depth=10"
    flipped = []  # query 301 ranked upside down
    for line in run.read_text().splitlines():
        q, q0, doc, rank, score, tag = line.split()
        score = str(-float(score)) if q == "301" else score
        flipped.append(" ".join([q, q0, doc, rank, score, tag]))
    run.write_text("\n".join(flipped) + "\n")
    code, text = _run("diff", str(sweep), str(copy))
    assert code == 0, text
    means = [line.split() for line in text.splitlines() if line.startswith("TREC Robust 2003 ")]
    assert {r[3] for r in means} == {"fuse_alpha=0.1_depth=10"}
    assert "MAP" in {r[4] for r in means} and "AP" not in {r[4] for r in means}
    cells = [line for line in text.splitlines() if line.startswith("Table S1 ")]
    # the cells by the tables' titles; only the keys of the cited numbers hold file stems
    cells_part, numbers_part = text.split("Cited numbers that change")
    assert cells and "tableS1-robust03" not in cells_part
    assert "tableS1-robust03/robust03/fuse_alpha=0.1_depth=10/nDCG@5 " in numbers_part


def test_evaluate_and_cache_agree_with_the_study(sweep: Path, tmp_path: Path) -> None:
    # `irtables evaluate` on one run of the sweep gives the values the study holds
    run = sweep / "runs" / "ehealth16" / "fuse_alpha=0.3_depth=50"
    qrels = sweep / "qrels" / "qrels_ehealth16.txt"
    out = tmp_path / "one.tsv"
    code, text = _run(
        "evaluate", str(qrels), str(run), "-m", "P@10", "-l", "2", "-q", "-o", str(out)
    )
    assert code == 0, text
    rows = [line.split("\t") for line in out.read_text().splitlines()[1:]]
    assert {r[0] for r in rows} == {"fuse_alpha=0.3_depth=50"}  # the whole name
    frame = load_study(sweep).results.frame
    mine = frame[
        (frame["system"] == "fuse_alpha=0.3_depth=50") & (frame["metric"] == "P(rel=2)@10")
    ]
    assert dict(zip(mine["query"], mine["value"], strict=True)) == {r[1]: float(r[3]) for r in rows}
    code, text = _run("cache", "info", str(sweep))
    assert code == 0, text
    entries = int(text.split(": ", 1)[1].split(" entries")[0])
    assert entries in (96, 192)  # one per (dataset, run), 3 x 32; twice after the supplement


def test_supplement_and_check(sweep: Path, tmp_path: Path) -> None:
    out = tmp_path / "supplement"
    code, text = _run("supplement", str(sweep), "-o", str(out), "--no-pdf", "-j", "1", "-v")
    assert code == 0, text
    assert "Note: skipped 4 files or folders that hold no results:" in text
    assert f"  {sweep / 'notes'}" in text.splitlines()
    readme = (out / "README.md").read_text()
    assert "| Table S2 | [`tableS1-tar2017.tex`]" in readme
    assert "Table (" not in readme
    tex = (out / "supplement.tex").read_text()
    assert "\\renewcommand{\\thetable}{S2}\n\\input{tables/tableS1-tar2017.tex}" in tex
    code, text = _run("check", str(sweep), "-o", str(out))
    assert code == 0, text
    assert "is current" in text
