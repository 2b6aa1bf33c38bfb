"""Hostile or mistaken ``irtables.toml`` files: not UTF-8, duplicate ids, two systems
under one name, lower_is_better in any spelling; every mistake is one line naming the
key (issue 9, end to end through the command line)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from tests.conftest import assert_one_line_error, invoke, tidy_study


def test_non_utf8_config_is_one_line(tmp_path: Path) -> None:
    results = tidy_study(tmp_path, ["dl"])
    (results / "irtables.toml").write_bytes(b"[output]\ndecimals = 2\n# caf\xe9\n")
    assert_one_line_error(invoke("tables", str(results)), "irtables.toml:3", "UTF-8")


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


_ABLATION = '[tables.abl]\nlayout = "ablation"\ndataset = "d"\n'
_SENSITIVITY = (
    '[tables.s]\nlayout = "sensitivity"\ndataset = "d"\nmetrics = ["AP"]\n'
    'parameters = ["k1"]\nsystem = "bm25"\n'
)


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        (
            "datasets = 3\n",
            "datasets: expected an array of tables ([[datasets]]) with id and name, got 3",
        ),
        ("datasets = [1]\n", "datasets[0]: expected a table with id and name, got 1"),
        (
            'systems = "bm25"\n',
            "systems: expected an array of tables ([[...]]) with id and name, got 'bm25'",
        ),
        (
            '[[systems]]\nid = "a"\ncolour = "red"\n',
            "unknown key 'systems[0].colour' (known: id, name)",
        ),
        (
            _ABLATION + "groups = []\n",
            "tables.abl.groups: expected a non-empty array of tables with full and rows, got []",
        ),
        (
            _ABLATION + "groups = [3]\n",
            "tables.abl.groups[0]: expected a table with full and rows, got 3",
        ),
        (
            _ABLATION + 'groups = [{full = "a", rows = ["x"]}]\n',
            "tables.abl.groups[0].rows[0]: expected a table {system, name, description}, got 'x'",
        ),
        (
            _ABLATION + 'full = "a"\nrows = []\n',
            "tables.abl.groups[0].rows: expected a non-empty array of "
            "{system, name, description}, got []",
        ),
        (
            '[tables.dc]\nlayout = "dataset_columns"\n'
            'groups = [{name = "x", systems = ["a"], more = 1}]\n',
            "unknown key 'tables.dc.groups[0].more' (known: name, systems)",
        ),
        (
            _SENSITIVITY + "points = 5\n",
            "tables.s.points: expected an array of tables {system, <parameter> = value}, got 5",
        ),
        (
            _SENSITIVITY + "points = [[1]]\n",
            "tables.s.points[0]: expected a table {system, <parameter> = value}, got [1]",
        ),
    ],
)
def test_an_array_of_tables_says_which_entry_is_wrong_and_how(
    tmp_path: Path, toml: str, message: str
) -> None:
    """Every array of tables of the configuration names the array or the entry, and what
    it expected (the messages as the configuration has always given them)."""
    from irtables.config import load_config
    from irtables.errors import ConfigError

    path = tmp_path / "irtables.toml"
    path.write_text(toml, encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_config(path)
    assert str(raised.value).endswith(message)


@pytest.mark.parametrize(
    ("toml", "needle"),
    [
        ('[compare]\nbaseline = "bm2"\n', "compare.baseline: unknown baseline 'bm2'"),
        ('[compare]\nbaseline = ["bm25", "zzz"]\n', "compare.baseline: unknown baseline 'zzz'"),
        ('[compare]\nbaseline = {dl = "zzz"}\n', "compare.baseline: unknown baseline 'zzz'"),
        ('[compare]\nbaseline = {d9 = "bm25"}\n', "compare.baseline: unknown dataset 'd9'"),
        ('[tables.main.compare]\nbaseline = "zzz"\n', "tables.main.compare.baseline: unknown"),
    ],
    ids=["one", "list", "per dataset", "dataset key", "table's own"],
)
def test_an_unknown_configured_baseline_names_the_key(
    tmp_path: Path, toml: str, needle: str
) -> None:
    # It was "unknown baseline 'zzz'; (known: bm25, dense)": no file, no key.
    results = tidy_study(tmp_path, ["dl"])
    (results / "irtables.toml").write_text(toml)
    for command in ("tables", "compare"):
        assert_one_line_error(invoke(command, str(results)), "irtables.toml: " + needle)


def test_a_baseline_option_replaces_a_wrong_configured_one(tmp_path: Path) -> None:
    results = tidy_study(tmp_path, ["dl"])
    (results / "irtables.toml").write_text('[compare]\nbaseline = "zzz"\n')
    assert (
        invoke("tables", str(results), "-o", str(tmp_path / "o"), "--baseline", "dense").exit_code
        == 0
    )
    result = invoke("compare", str(results), "--baseline", "qq")
    assert_one_line_error(result, "unknown baseline 'qq' (known: bm25, dense)")


def test_two_spellings_of_one_name_are_two_systems_shown_alike(tmp_path: Path) -> None:
    # NFC 'café' and NFD 'cafe' + U+0301 are two systems that every format showed as two
    # rows named 'café', a reader unable to tell which is which.
    results = tidy_study(tmp_path, ["dl"], systems=("caf\u00e9", "cafe\u0301"))
    result = invoke("tables", str(results), "-o", str(tmp_path / "o"), "-f", "markdown")
    assert_one_line_error(result, "'caf\\xe9' and 'cafe\\u0301'", "both shown as")
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("section", ["systems", "datasets"])
def test_a_name_of_blanks_names_the_key(tmp_path: Path, section: str) -> None:
    # It was shown as an empty row label.
    results = tidy_study(tmp_path, ["dl"])
    ident = "bm25" if section == "systems" else "dl"
    (results / "irtables.toml").write_text(f'[[{section}]]\nid = "{ident}"\nname = "  "\n')
    assert_one_line_error(invoke("tables", str(results)), f"{section}[0].name", "visible")
