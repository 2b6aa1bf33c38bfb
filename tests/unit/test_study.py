"""One study, seen the same way by every command, the Python API and every output (issue 19).

Each test is an example of the issue that failed before ``load_study``: expected values
come from the files the commands write, from hand-made inputs or from pytrec_eval-free
arithmetic on them, never from the code under test alone.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from irtables import build_table, load_results, load_study, render
from irtables.cli import main
from irtables.config import parse_config
from irtables.errors import ConfigError, InputError, IrtablesError, UnknownNameError
from irtables.stats.report import format_comparisons
from tests.conftest import RUNS, assert_error_line, results_from_rows, runs_study

HEAD = "query\tmetric\tvalue\n"
BM25 = HEAD + "1\tAP\t0.2\n2\tAP\t0.4\n3\tAP\t0.3\n1\tP@10\t0.1\n2\tP@10\t0.3\n3\tP@10\t0.2\n"
DENSE = HEAD + "1\tAP\t0.5\n2\tAP\t0.6\n3\tAP\t0.7\n1\tP@10\t0.2\n2\tP@10\t0.4\n3\tP@10\t0.5\n"
RUN_QUERIES = pytest.mark.filterwarnings("ignore:.*run queries are not in the qrels")


def _dumps(root: Path, config: str = "") -> Path:
    (root / "dl19").mkdir(parents=True)
    (root / "dl19" / "bm25.tsv").write_text(BM25)
    (root / "dl19" / "dense.tsv").write_text(DENSE)
    if config:
        (root / "irtables.toml").write_text(config)
    return root


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, [*args])
    return result.exit_code, result.output


# --- §1 one study object -----------------------------------------------------------------


@RUN_QUERIES
def test_lint_and_load_study_read_a_config_study_with_its_qrels_beside(tmp_path: Path) -> None:
    # before: `irtables lint v1/` failed on the qrels file (cannot tell the format)
    root = runs_study(tmp_path, '[compare]\nbaseline = "a"\n')
    study = load_study(root)
    assert study.results.systems("toy") == ("a", "b")
    code, out = _run("lint", str(root))
    assert code == 0, out
    assert "no violations" in out


@RUN_QUERIES
def test_load_study_takes_the_config_file_as_well_as_its_folder(tmp_path: Path) -> None:
    root = runs_study(tmp_path)
    a, b = load_study(root), load_study(root / "irtables.toml")
    assert a.results.frame.equals(b.results.frame)
    assert a.base == b.base == root


def test_study_table_and_compare_are_what_the_commands_write(tmp_path: Path) -> None:
    config = '[[systems]]\nid = "bm25"\nname = "BM25"\n[compare]\nbaseline = "bm25"\n'
    root = _dumps(tmp_path / "study", config)
    out = tmp_path / "out"
    code, text = _run("tables", str(root), "-o", str(out), "-f", "markdown")
    assert code == 0, text
    study = load_study(root)
    assert render(study.table("main"), "markdown") == (out / "table1.md").read_text()
    code, text = _run("compare", str(root), "--test", "wilcoxon", "-o", str(tmp_path / "c.csv"))
    assert code == 0, text
    expected = (tmp_path / "c.csv").read_text()
    names = study.config.display_names()
    assert format_comparisons(study.compare(test="wilcoxon"), "csv", names=names) == expected


# --- §4 a real folder is not a clean fixture -----------------------------------------------


def _clutter(root: Path) -> list[Path]:
    (root / "notes").mkdir()
    (root / "figs").mkdir()
    (root / "notes.txt").write_text("rerun dense\n")
    (root / "notes" / "todo.txt").write_text("- check alpha\n")
    (root / "figs" / "plot.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (root / "README").write_text("My runs.\n")
    return [root / "README", root / "notes.txt", root / "figs", root / "notes"]


def test_clutter_is_skipped_with_one_note_and_verbose_lists_it(tmp_path: Path) -> None:
    # before: `Error: figs: dataset folder has no result files`
    root = _dumps(tmp_path / "study")
    skipped = _clutter(root)
    code, text = _run("tables", str(root), "-o", str(tmp_path / "o"), "-f", "csv")
    assert code == 0, text
    notes = [line for line in text.splitlines() if line.startswith("Note: ")]
    assert notes == [
        "Note: skipped 4 files or folders that hold no results: "
        f"{skipped[0]}, {skipped[1]}, {skipped[2]}, ... (--verbose lists them)"
    ]
    assert load_study(root).results.datasets() == ("dl19",)
    code, text = _run("lint", str(root), "--verbose")
    assert code == 0, text
    listed = [line.strip() for line in text.splitlines() if line.startswith("  ")]
    assert listed == [str(p) for p in skipped]


def test_a_broken_result_file_is_still_an_error(tmp_path: Path) -> None:
    # only a file whose format cannot be told is skipped: a bad line stays an error
    root = _dumps(tmp_path / "study")
    (root / "dl19" / "bad.tsv").write_text(HEAD + "1\tAP\tzero\n")
    code, text = _run("tables", str(root), "-o", str(tmp_path / "o"))
    assert_error_line(code, text, "bad.tsv:2")


@RUN_QUERIES
def test_run_names_keep_their_parameters(tmp_path: Path) -> None:
    # before: every fuse_alpha=0.X_depth=Y got the stem fuse_alpha=0 and collided
    root = runs_study(tmp_path)
    for name in ("fuse_alpha=0.5_depth=1000", "fuse_alpha=0.7_depth=100.run"):
        shutil.copy(RUNS / "tiny.run", root / "runs" / name)
    (root / "irtables.toml").write_text(
        '[[datasets]]\nid = "toy"\nqrels = "tiny.qrels"\nruns = "runs/*"\n'
    )
    systems = load_study(root).results.systems("toy")
    assert systems == ("a", "b", "fuse_alpha=0.5_depth=1000", "fuse_alpha=0.7_depth=100")


@RUN_QUERIES
def test_a_run_name_collision_names_the_files(tmp_path: Path) -> None:
    root = runs_study(tmp_path)
    shutil.copy(RUNS / "tiny.run", root / "runs" / "a.txt")
    (root / "irtables.toml").write_text(
        '[[datasets]]\nid = "toy"\nqrels = "tiny.qrels"\nruns = "runs/*"\n'
    )
    with pytest.raises(InputError) as info:
        load_study(root)
    message = str(info.value)
    assert "two runs have the same name 'a'" in message
    assert str(root / "runs" / "a.run") in message and str(root / "runs" / "a.txt") in message
    assert "'b'" not in message  # names that do not collide are not listed


@pytest.mark.parametrize(
    ("section", "typo", "suggestion"),
    [("datasets", "dl91", "dl19"), ("systems", "dnse", "dense")],
    ids=["datasets", "systems"],
)
def test_a_configured_id_that_matches_nothing_is_an_error(
    section: str, typo: str, suggestion: str, tmp_path: Path
) -> None:
    # before: silently ignored (the dataset lost its name and moved to the end)
    config = f'[[{section}]]\nid = "{typo}"\nname = "Shown"\n'
    root = _dumps(tmp_path / "study", config)
    with pytest.raises(ConfigError) as info:
        load_study(root)
    assert f"{section}[0].id: unknown {section[:-1]} '{typo}'" in str(info.value)
    assert f"did you mean '{suggestion}'?" in str(info.value)
    code, text = _run("tables", str(root), "-o", str(tmp_path / "o"))
    assert_error_line(code, text, f"{section}[0].id", f"did you mean '{suggestion}'?")


@pytest.mark.parametrize("command", ["tables", "compare", "lint", "supplement", "check"])
def test_a_missing_dir_is_one_error_line(command: str, tmp_path: Path) -> None:
    # before: click's three-line usage message
    code, text = _run(command, str(tmp_path / "nope"))
    assert_error_line(code, text, "nope", "no such file or directory")


def test_lint_reports_an_impossible_value_as_a_violation(tmp_path: Path) -> None:
    # before: a load error (exit 2) instead of a violation (exit 1) listed with the others
    root = _dumps(tmp_path / "study")
    (root / "dl19" / "bm25.tsv").write_text(BM25.replace("1\tP@10\t0.1", "1\tP@10\t1.2"))
    code, text = _run("lint", str(root))
    assert code == 1, text
    assert "query 1: [bounds] P@10 = 1.2 is outside [0, 1]" in text
    assert "1 violation (bounds: 1)" in text
    code, text = _run("tables", str(root), "-o", str(tmp_path / "o"))  # tables still refuse it
    assert_error_line(code, text, "bm25.tsv", "expected a value in [0, 1] for P@10, got 1.2")


def test_sensitivity_fixed_value_no_run_has_is_named(tmp_path: Path) -> None:
    rows = [
        ("d", f"fuse_alpha={a}_depth={d}", q, "AP", 0.1 * i)
        for i, (a, d) in enumerate([("0.1", "100"), ("0.5", "100"), ("0.1", "1000")])
        for q in ("1", "2")
    ]
    spec = {"layout": "sensitivity", "parameters": ["alpha"], "fixed": {"depth": 999}}
    config = parse_config({"tables": {"s": {**spec, "metrics": ["AP"]}}})
    with pytest.raises(IrtablesError) as info:
        build_table(results_from_rows(rows), "s", config=config)
    assert str(info.value) == "tables.s.fixed: no run has depth = 999 (values of depth: 100, 1000)"


# --- §3 choosing what a table shows ---------------------------------------------------------


def _three(tmp_path: Path, config: str) -> Path:
    root = _dumps(tmp_path / "study", config)
    (root / "dl20").mkdir()
    (root / "dl20" / "bm25.tsv").write_text(BM25)
    (root / "dl20" / "dense.tsv").write_text(DENSE)
    (root / "dl19" / "splade.tsv").write_text(DENSE.replace("0.5", "0.55"))
    return root


def test_table1_systems_and_their_order_are_chosen(tmp_path: Path) -> None:
    # before: `[tables.main] systems` was refused as an unknown key
    root = _three(tmp_path, '[tables.main]\nsystems = ["splade", "bm25"]\n')
    table = load_study(root).table("main")
    rows = {g.label: [r.key for r in g.rows] for g in table.groups}
    assert rows == {"dl19": ["splade", "bm25"], "dl20": ["bm25"]}


def test_table1_systems_per_dataset(tmp_path: Path) -> None:
    config = '[tables.main]\nsystems = { dl19 = ["dense", "splade"], dl20 = ["bm25"] }\n'
    table = load_study(_three(tmp_path, config)).table("main")
    rows = {g.label: [r.key for r in g.rows] for g in table.groups}
    assert rows == {"dl19": ["dense", "splade"], "dl20": ["bm25"]}


def test_table1_system_typo_is_an_error(tmp_path: Path) -> None:
    study = load_study(_three(tmp_path, '[tables.main]\nsystems = ["bm52"]\n'))
    with pytest.raises(ConfigError, match=r"tables\.main\.systems: .*did you mean 'bm25'"):
        study.table("main")


@pytest.mark.parametrize(
    ("name", "builtin"),
    [("table1", "tables.main"), ("tableS1-extra", "tables.k_breakdown")],
    ids=["table1", "tableS1"],
)
def test_a_configured_table_may_not_take_a_builtin_name(name: str, builtin: str) -> None:
    # before: [tables.table1] replaced Table 1, and supplement failed after 38 s
    with pytest.raises(ConfigError) as info:
        parse_config({"tables": {name: {"layout": "grid"}}}, source="irtables.toml")
    assert f"tables.{name}" in str(info.value) and builtin in str(info.value)


def test_cli_overrides_the_config_in_both_directions(tmp_path: Path) -> None:
    # before: --all-pairs --test tukey --correction none with correction = "holm": an error
    config = '[compare]\nbaseline = "bm25"\ncorrection = "holm"\nall_pairs = true\n'
    root = _three(tmp_path, config)
    args = ["compare", str(root)]
    code, text = _run(*args, "--all-pairs", "--test", "tukey", "--correction", "none")
    assert code == 0, text
    assert "Tukey" in text or "tukey" in text
    code, text = _run(*args, "--test", "tukey")  # the configured holm does not apply
    assert code == 0, text
    code, text = _run(*args, "--no-all-pairs", "-o", str(tmp_path / "b.csv"))
    assert code == 0, text
    csv = (tmp_path / "b.csv").read_text().splitlines()
    baselines = {line.split(",")[3] for line in csv[1:]}
    assert baselines == {"bm25"}  # against the baseline, not all pairs


def test_baseline_none_in_the_config_means_no_markers(tmp_path: Path) -> None:
    root = _dumps(tmp_path / "study", '[compare]\nbaseline = "none"\n')
    study = load_study(root)
    assert not study.config.compare.enabled
    cells = [c for g in study.table("main").groups for r in g.rows for c in r.cells]
    assert not any(c.markers for c in cells)
    with_markers = load_study(_dumps(tmp_path / "other", '[compare]\nbaseline = "bm25"\n'))
    marked = [c for g in with_markers.table("main").groups for r in g.rows for c in r.cells]
    assert any(c.markers for c in marked)  # the same data with a baseline has markers


def test_build_table_names_the_tables_the_config_has() -> None:
    rows = [("d", s, q, "AP", v) for s, v in (("a", 0.1), ("b", 0.2)) for q in ("1", "2")]
    config = parse_config({"tables": {"beir": {"layout": "grid", "metric": "AP"}}})
    with pytest.raises(IrtablesError) as info:
        build_table(results_from_rows(rows), "ablation", config=config)
    assert "[tables.beir] (layout grid)" in str(info.value)
    with pytest.raises(UnknownNameError) as unknown:
        build_table(results_from_rows(rows), "bier", config=config)
    assert "did you mean 'beir'?" in str(unknown.value)
    assert "[tables.main] (layout main)" in str(unknown.value)


# --- §2 names: the display names everywhere --------------------------------------------------

NAMED = (
    '[[datasets]]\nid = "dl19"\nname = "TREC DL 2019"\n'
    '[[systems]]\nid = "bm25"\nname = "BM25"\n[[systems]]\nid = "dense"\nname = "Dense"\n'
    '[compare]\nbaseline = "bm25"\n'
)


def test_compare_and_significance_show_display_names_and_keep_ids(tmp_path: Path) -> None:
    # before: `compare` and significance.md printed AP, dl19 and raw run ids
    root = _dumps(tmp_path / "study", NAMED)
    code, text = _run("compare", str(root))
    assert code == 0, text
    rows = [line.split() for line in text.splitlines() if line.startswith("TREC DL 2019")]
    assert {(r[3], r[4], r[5]) for r in rows} == {
        ("MAP", "Dense", "BM25"),
        ("P@10", "Dense", "BM25"),
    }
    code, text = _run("compare", str(root), "-o", str(tmp_path / "c.csv"))
    assert code == 0, text
    csv = (tmp_path / "c.csv").read_text().splitlines()
    header = csv[0].split(",")
    first = dict(zip(header, csv[1].split(","), strict=True))
    assert (first["dataset"], first["system"], first["baseline"]) == ("dl19", "dense", "bm25")
    assert (first["dataset_name"], first["system_name"], first["baseline_name"]) == (
        "TREC DL 2019",
        "Dense",
        "BM25",
    )
    assert first["metric"] == "AP" and first["metric_label"] == "MAP"
    code, text = _run("tables", str(root), "-o", str(tmp_path / "o"), "-f", "csv")
    assert code == 0, text
    md = (tmp_path / "o" / "significance.md").read_text()
    assert "| TREC DL 2019 | MAP " in md.replace("  ", " ").replace("  ", " ")
    assert "dl19" not in md.split("\n", 1)[1]


def test_diff_shows_display_names_and_json_keeps_ids(tmp_path: Path) -> None:
    old = _dumps(tmp_path / "old", NAMED)
    new = _dumps(tmp_path / "new", NAMED)
    (new / "dl19" / "dense.tsv").write_text(DENSE.replace("1\tAP\t0.5", "1\tAP\t0.9"))
    code, text = _run("diff", str(old), str(new))
    assert code == 0, text
    means = [line.split() for line in text.splitlines() if line.startswith("TREC DL 2019")]
    assert [(r[3], r[4]) for r in means] == [("Dense", "MAP")]
    cells = [line for line in text.splitlines() if line.startswith("Table 1 ")]
    assert cells and all("table1" not in line for line in cells)
    code, text = _run("diff", str(old), str(new), "--format", "json")
    data, _ = json.JSONDecoder().raw_decode(text[text.index("{") :])
    mean = data["means"][0]
    assert (mean["dataset"], mean["system"], mean["metric"]) == ("dl19", "dense", "AP")
    assert (mean["dataset_name"], mean["system_name"], mean["metric_label"]) == (
        "TREC DL 2019",
        "Dense",
        "MAP",
    )
    assert data["cells"][0]["table"] == "table1" and data["cells"][0]["title"] == "Table 1"


def test_diff_never_puts_a_no_cutoff_measure_under_a_k(tmp_path: Path) -> None:
    # before: a MAP cell of Table S1 (one cell spanning the K columns) was reported as "K=5"
    head = HEAD
    bm25 = head + "".join(
        f"{q}\t{m}\t{v}\n"
        for q in ("1", "2")
        for m, v in (("AP", 0.2), ("P@5", 0.4), ("P@10", 0.3))
    )
    dense = bm25.replace("\tAP\t0.2", "\tAP\t0.6")
    for side, text in (("old", dense), ("new", dense.replace("1\tAP\t0.6", "1\tAP\t0.8"))):
        (tmp_path / side / "d").mkdir(parents=True)
        (tmp_path / side / "d" / "bm25.tsv").write_text(bm25)
        (tmp_path / side / "d" / "dense.tsv").write_text(text)
    code, out = _run("diff", str(tmp_path / "old"), str(tmp_path / "new"))
    assert code == 0, out
    s1 = [line.split() for line in out.splitlines() if line.startswith("Table S1 (d) ")]
    assert s1, out
    assert [(r[3], r[5]) for r in s1 if r[3] == "MAP"] == [("MAP", "K=5…K=10")]


def test_lint_names_datasets_and_systems_as_the_tables_do(tmp_path: Path) -> None:
    root = _dumps(tmp_path / "study", NAMED)
    (root / "dl19" / "bm25.tsv").write_text(BM25.replace("1\tP@10\t0.1", "1\tP@10\t1.2"))
    code, text = _run("lint", str(root))
    assert code == 1, text
    assert "TREC DL 2019/BM25 query 1: [bounds]" in text


def test_a_table_has_its_own_test_correction_and_family(tmp_path: Path) -> None:
    # [tables.<name>.compare] over [compare]; an all-pairs test there drops the holm above
    config = (
        '[compare]\nbaseline = "bm25"\ntest = "t"\ncorrection = "holm"\n'
        '[tables.k_breakdown.compare]\ntest = "wilcoxon"\ncorrection = "bonferroni"\n'
        'family = "dataset"\n'
        '[tables.beir]\nlayout = "grid"\nmetric = "AP"\n'
        '[tables.beir.compare]\nall_pairs = true\ntest = "tukey"\n'
    )
    root = _three(tmp_path, config)
    study = load_study(root)
    tables = {t.name: t for t in study.tables().tables}
    assert "paired t-test" in tables["table1"].full_caption
    assert "Holm correction" in tables["table1"].full_caption
    s1 = tables["tableS1-dl19"].full_caption
    assert "Wilcoxon signed-rank test" in s1 and "Bonferroni correction" in s1
    assert re.search(r"over the [\d to]+ comparisons? of each dataset\)", s1)
    caption = tables["table1"].full_caption
    assert re.search(r"over the [\d to]+ comparisons? of each dataset and metric", caption)
    assert "Tukey HSD" in tables["beir"].full_caption
    tests = {(r.test, r.correction) for r in study.tables().comparisons.results}  # type: ignore[union-attr]
    assert ("t", "holm") in tests and ("wilcoxon", "bonferroni") in tests
    assert any(test == "tukey" for test, _ in tests)
    code, text = _run("tables", str(root), "-o", str(tmp_path / "o"), "-f", "csv")
    assert code == 0, text
    written = (tmp_path / "o" / "significance.csv").read_text()
    assert ",wilcoxon," in written and ",tukey," in written and ",t," in written


def test_table1_of_chosen_systems_tests_those_alone(tmp_path: Path) -> None:
    # letters and corrections of Table 1 are over the systems it shows, not the sweep's
    config = '[compare]\nall_pairs = true\n[tables.main]\nsystems = ["splade", "bm25"]\n'
    root = _three(tmp_path, config)
    built = load_study(root).tables()
    table1 = next(t for t in built.tables if t.name == "table1")
    dl19 = next(g for g in table1.groups if g.label == "dl19")
    assert [r.label for r in dl19.rows] == ["splade (a)", "bm25 (b)"]
    assert built.comparisons is not None
    pairs = {
        (r.dataset, r.metric, frozenset((r.system, r.baseline))) for r in built.comparisons.results
    }
    assert ("dl19", "AP", frozenset(("splade", "bm25"))) in pairs
    # Table S1 of dl19 shows all three systems and compares all three pairs
    s1 = next(t for t in built.tables if t.name == "tableS1-dl19")
    assert {r.label for g in s1.groups for r in g.rows} >= {"bm25 (a)", "dense (b)", "splade (c)"}
    assert ("dl19", "AP", frozenset(("dense", "bm25"))) in pairs


def test_load_results_on_a_config_study_points_to_load_study(tmp_path: Path) -> None:
    # before: `qrels_robust03.txt:1: cannot tell the format from the first line`
    root = runs_study(tmp_path)
    with pytest.raises(InputError, match=r"skipped as not results: .*tiny\.qrels.*load_study"):
        load_results(root)


def test_study_compare_in_a_notebook_shows_display_names_on_one_line_a_row(
    tmp_path: Path,
) -> None:
    """``study.compare(...)`` in a notebook showed ids (dl19, AP, dense) and let the words
    wrap (a row over four lines, the method clipped)."""
    import re as regex

    study = load_study(_dumps(tmp_path / "study", NAMED))
    found = study.compare()
    page = found._repr_html_()
    body = page.split("<tbody>", 1)[1]
    assert "TREC DL 2019" in body and "Dense" in body and "MAP" in body
    assert "dl19" not in body and ">dense<" not in body and ">AP<" not in body
    cells = regex.findall(r"<td style=\"([^\"]*)\">", body)
    assert cells and all("white-space: nowrap" in style for style in cells)
    md = found._repr_markdown_()
    assert "TREC DL 2019" in md and "dl19" not in md
