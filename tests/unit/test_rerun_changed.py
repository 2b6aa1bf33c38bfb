"""Something changed: a rerun redoes only what depends on it (issue 33 §2).

A study of two datasets, ``A`` and ``B``, each of qrels and three runs. After each kind
of change (a run of ``A``, the qrels of ``A``, a configuration key that only a table
reads, a template, irtables' version) the rerun's work is counted, never timed: the
figures drawn and kept (:class:`~irtables.supplement.run.SupplementRun`), pdflatex's
calls (a stand-in that is a function of its sources, as pdflatex is), the units of
significance tests run and reused (one per dataset and metric:
:attr:`~irtables.supplement.run.SupplementRun.tests_run`). And an incremental build
gives the bytes of a clean one, file for file.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import numpy as np
import pytest

import irtables.stats.memo
import irtables.supplement.check
import irtables.supplement.pdf
import irtables.supplement.rerun
import irtables.supplement.reuse
import irtables.supplement.run
from irtables.supplement.run import SupplementRun, make_supplement

DATASETS = ("A", "B")
RUNS = ("base", "dense", "fusion")
QUERIES = 6
DOCS = 12
#: Every figure of the study, per dataset: metric vs K, per-query differences, and
#: precision-recall (the datasets are qrels + runs, so IPrec is evaluated).
FIGURES = {d: {f"k-{d}", f"diff-{d}", f"pr-{d}"} for d in DATASETS}
#: The forest plot of the meta-analysis: each system against ``base`` on both datasets.
ACROSS = {"forest"}
EVERY = FIGURES["A"] | FIGURES["B"] | ACROSS

CONFIG = """\
[[datasets]]
id = "A"
qrels = "A/qrels.txt"
runs = "A/runs/*.run"

[[datasets]]
id = "B"
qrels = "B/qrels.txt"
runs = "B/runs/*.run"

[compare]
baseline = "base"

[tables.main]
metrics = ["nDCG@10", "AP"]
{caption}
[tables.k_breakdown]
metrics = ["nDCG", "P"]
k = [5, 10]
"""


def _write_study(root: Path, caption: str = "") -> Path:
    """Seeded qrels and runs: no number is a measurement."""
    rng = np.random.default_rng(7)
    for d in DATASETS:
        (root / d / "runs").mkdir(parents=True)
        qrels = [
            f"{q} 0 {d}{q}-{i} {int(rng.integers(0, 3))}\n"
            for q in range(1, QUERIES + 1)
            for i in range(DOCS)
        ]
        (root / d / "qrels.txt").write_text("".join(qrels))
        for name in RUNS:
            lines = []
            for q in range(1, QUERIES + 1):
                order = rng.permutation(DOCS)
                lines += [
                    f"{q} Q0 {d}{q}-{doc} {rank} {DOCS - rank} {name}\n"
                    for rank, doc in enumerate(order, 1)
                ]
            (root / d / "runs" / f"{name}.run").write_text("".join(lines))
    _configure(root, caption)
    return root


def _configure(root: Path, caption: str) -> None:
    text = f'caption = "{caption}"\n' if caption else ""
    (root / "irtables.toml").write_text(CONFIG.format(caption=text))


def _change_run(root: Path, dataset: str = "A") -> None:
    """Swap the first two documents of the dense run's first query."""
    path = root / dataset / "runs" / "dense.run"
    lines = path.read_text().splitlines(keepends=True)
    first, second = lines[0].split(), lines[1].split()
    first[2], second[2] = second[2], first[2]
    lines[:2] = [" ".join(first) + "\n", " ".join(second) + "\n"]
    path.write_text("".join(lines))


def _change_qrels(root: Path, dataset: str = "A") -> None:
    """Judge the first document of the first query once more, with another grade."""
    path = root / dataset / "qrels.txt"
    lines = path.read_text().splitlines(keepends=True)
    q, it, doc, grade = lines[0].split()
    lines[0] = f"{q} {it} {doc} {(int(grade) + 1) % 3}\n"
    path.write_text("".join(lines))


@pytest.fixture
def pdflatex(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """pdflatex replaced by a function of its sources; each call's source paths."""
    calls: list[list[str]] = []

    def fake(files: list[tuple[str, bytes]]) -> bytes:
        calls.append(sorted(path for path, _ in files))
        return hashlib.sha256(repr(sorted(files)).encode()).hexdigest().encode()

    for module in (irtables.supplement.pdf, irtables.supplement.run):
        monkeypatch.setattr(module, "pdflatex_available", lambda: True)
    monkeypatch.setattr(irtables.supplement.run, "compile_pdf", fake)
    return calls


@pytest.fixture
def study(tmp_path: Path) -> Path:
    root = tmp_path / "study"
    root.mkdir()
    return _write_study(root)


def _build(root: Path, **options: object) -> SupplementRun:
    return make_supplement(root, workers=1, **options)  # type: ignore[arg-type]


def test_the_first_build_draws_every_figure_and_records_its_recipe(
    study: Path, pdflatex: list[list[str]]
) -> None:
    first = _build(study)
    assert set(first.drawn) == EVERY and first.kept == ()
    assert first.compiled and len(pdflatex) == 1
    assert _datasets(first.tests_run) == set(DATASETS) and first.tests_reused == ()
    assert len(set(first.tests_run)) == len(first.tests_run)  # each unit runs once
    again = _build(study)  # nothing changed: every figure kept, no pdflatex, no test
    assert again.drawn == () and set(again.kept) == set(first.drawn)
    assert not again.compiled and len(pdflatex) == 1
    assert again.tests_run == () and set(again.tests_reused) == set(first.tests_run)


def _datasets(units: tuple[tuple[str, str], ...]) -> set[str]:
    return {dataset for dataset, _ in units}


@pytest.mark.parametrize("change", [_change_run, _change_qrels], ids=["run", "qrels"])
def test_a_change_to_dataset_a_redraws_a_s_figures_only(
    study: Path, pdflatex: list[list[str]], change: object
) -> None:
    first = _build(study)
    change(study)  # type: ignore[operator]
    rerun = _build(study)
    assert set(rerun.drawn) == FIGURES["A"] | ACROSS  # the forest plot shows A too
    assert set(rerun.kept) == FIGURES["B"]
    # A's tests run again, B's are reused: no test procedure runs on B
    assert set(rerun.tests_run) == {u for u in first.tests_run if u[0] == "A"}
    assert set(rerun.tests_reused) == {u for u in first.tests_run if u[0] == "B"}
    assert rerun.compiled and len(pdflatex) == 2  # Table 1 shows A: its .tex changed


def test_a_key_only_a_table_reads_redraws_nothing(study: Path, pdflatex: list[list[str]]) -> None:
    _build(study)
    _configure(study, "Effectiveness of the three runs")
    rerun = _build(study)
    assert rerun.drawn == () and set(rerun.kept) == EVERY
    assert rerun.tests_run == () and _datasets(rerun.tests_reused) == set(DATASETS)
    table1 = (study / "supplement" / "tables" / "table1.tex").read_text()
    assert "Effectiveness of the three runs" in table1
    assert rerun.compiled and len(pdflatex) == 2  # table1.tex changed


def test_a_template_change_only_renders(
    study: Path, tmp_path: Path, pdflatex: list[list[str]]
) -> None:
    """A Markdown template: no figure, and no pdflatex (it reads no Markdown)."""
    from irtables.render.env import builtin_template_dir

    templates = tmp_path / "templates"
    (templates / "markdown").mkdir(parents=True)
    builtin = Path(str(builtin_template_dir())) / "markdown" / "supplement_readme.md.j2"
    override = templates / "markdown" / "supplement_readme.md.j2"
    override.write_text(builtin.read_text())
    _build(study, template_dirs=[templates])
    override.write_text(builtin.read_text() + "\nA line of our own.\n")
    rerun = _build(study, template_dirs=[templates])
    assert rerun.drawn == () and set(rerun.kept) == EVERY
    assert "A line of our own." in (study / "supplement" / "README.md").read_text()
    assert not rerun.compiled and len(pdflatex) == 1


def test_a_new_irtables_version_redoes_everything(
    study: Path, pdflatex: list[list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    first = _build(study)
    for module in (
        irtables.supplement.rerun,
        irtables.supplement.check,
        irtables.supplement.reuse,
        irtables.stats.memo,
    ):
        monkeypatch.setattr(module, "__version__", "99.0.0")
    rerun = _build(study)
    assert set(rerun.drawn) == set(first.drawn) and rerun.kept == ()
    assert set(rerun.tests_run) == set(first.tests_run) and rerun.tests_reused == ()


def test_a_compare_key_runs_every_test_and_redraws_nothing_else(
    study: Path, pdflatex: list[list[str]]
) -> None:
    first = _build(study)
    config = (study / "irtables.toml").read_text()
    changed = config.replace(
        'baseline = "base"\n', 'baseline = "base"\ncorrection = "bonferroni"\n'
    )
    assert changed != config
    (study / "irtables.toml").write_text(changed)
    rerun = _build(study)
    assert set(rerun.tests_run) == set(first.tests_run) and rerun.tests_reused == ()
    assert "Bonferroni" in (study / "supplement" / "methods.md").read_text()


def test_without_the_cache_every_test_runs(study: Path, pdflatex: list[list[str]]) -> None:
    from irtables.study.request import study_request

    first = _build(study)
    rerun = make_supplement(study_request(study, cache=False, jobs=1))
    assert set(rerun.tests_run) == set(first.tests_run) and rerun.tests_reused == ()


def test_rebuild_draws_every_figure(study: Path, pdflatex: list[list[str]]) -> None:
    first = _build(study)
    rerun = _build(study, rebuild=True)
    assert set(rerun.drawn) == set(first.drawn) and rerun.kept == ()
    assert set(rerun.tests_run) == set(first.tests_run) and rerun.tests_reused == ()
    assert rerun.compiled and len(pdflatex) == 2


def test_a_kept_figure_must_be_on_disk_with_its_recorded_bytes(
    study: Path, pdflatex: list[list[str]]
) -> None:
    _build(study)
    png = study / "supplement" / "figures" / "k-B.png"
    png.write_bytes(png.read_bytes() + b"edited")
    rerun = _build(study, force=True)
    assert rerun.drawn == ("k-B",)
    (study / "supplement" / "figures" / "diff-A.pdf").unlink()
    rerun = _build(study)
    assert rerun.drawn == ("diff-A",)


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_incremental_then_clean_gives_the_same_bytes(
    study: Path, tmp_path: Path, pdflatex: list[list[str]]
) -> None:
    """Every file of the supplement folder, the manifest and the record of written
    files included, byte for byte."""
    _build(study)
    _change_run(study)
    rerun = _build(study)
    assert rerun.kept  # the incremental build did keep figures
    assert _datasets(rerun.tests_reused) == {"B"}  # and reused B's tests
    clean = tmp_path / "clean"
    shutil.copytree(study, clean, ignore=shutil.ignore_patterns("supplement", ".*"))
    fresh = _build(clean)
    assert fresh.kept == ()
    incremental, scratch = _files(study / "supplement"), _files(clean / "supplement")
    assert sorted(incremental) == sorted(scratch)
    differ = [path for path in incremental if incremental[path] != scratch[path]]
    assert differ == []


def _bars(values: object, title: str = "t") -> None:
    """A stand-in figure function (never called)."""


def test_a_recipe_changes_with_any_value_it_draws() -> None:
    from functools import partial

    from irtables.supplement.reuse import figure_recipe

    base = figure_recipe(partial(_bars, (1.0, np.array([0.5, 0.25])), title="A"))
    assert base is not None
    same = figure_recipe(partial(_bars, (1.0, np.array([0.5, 0.25])), title="A"))
    assert same == base
    changed = [
        partial(_bars, (np.nextafter(1.0, 2.0), np.array([0.5, 0.25])), title="A"),  # one ulp
        partial(_bars, (1.0, np.array([0.5, 0.25], dtype=np.float32)), title="A"),  # dtype
        partial(_bars, (1.0, np.array([[0.5, 0.25]])), title="A"),  # shape
        partial(_bars, [1.0, np.array([0.5, 0.25])], title="A"),  # list, not tuple
        partial(_bars, (1.0, np.array([0.5, 0.25])), title="B"),  # a keyword
        partial(round, (1.0, np.array([0.5, 0.25])), title="A"),  # the function
    ]
    recipes = [figure_recipe(job) for job in changed]
    assert None not in recipes and len({base, *recipes}) == len(changed) + 1


def test_no_recipe_for_what_it_cannot_describe() -> None:
    """The figure is then always drawn: a closure, a lambda, an object of any class."""
    from functools import partial

    from irtables.supplement.reuse import figure_recipe

    offset = 1.0

    def closure(x: float) -> float:
        return x + offset

    for value in (closure, lambda: 0, object(), np.array([object()])):
        assert figure_recipe(partial(_bars, value)) is None
    names = {"a": "A"}
    assert figure_recipe(partial(_bars, names.__getitem__)) is not None
    names["a"] = "Alpha"
    assert figure_recipe(partial(_bars, names.__getitem__)) != figure_recipe(
        partial(_bars, {"a": "A"}.__getitem__)
    )


def test_kept_figures_are_regular_files_with_the_recorded_bytes(tmp_path: Path) -> None:
    from irtables.base.record import sha256_hex
    from irtables.supplement.reuse import kept_figures

    folder = tmp_path / "sup"
    (folder / "figures").mkdir(parents=True)
    outside = tmp_path / "outside.png"
    outside.write_bytes(b"png")
    (folder / "figures" / "a.pdf").write_bytes(b"pdf")
    (folder / "figures" / "a.png").write_bytes(b"png")
    (folder / "figures" / "b.png").symlink_to(outside)
    (folder / "figures" / "c.png").write_bytes(b"edited")
    outputs = {
        "figures/a.pdf": sha256_hex(b"pdf"),
        "figures/a.png": sha256_hex(b"png"),
        "figures/b.png": sha256_hex(b"png"),
        "figures/c.png": sha256_hex(b"png"),
    }
    recipes = dict.fromkeys(("a", "b", "c", "d"), "0" * 64)
    kept = kept_figures(recipes, outputs, folder)
    assert list(kept) == ["a"]
    assert kept["a"].files == {"pdf": b"pdf", "png": b"png"}
