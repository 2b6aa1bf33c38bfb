"""Defects an adversarial sweep found (issue 34): each input gives one ``Error:`` line, a
warning or the right label, never an internal error, a wrong label or a silent loss."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import assert_error_line, assert_one_line_error, invoke, tidy_study

# --- a wide CSV naming one measure in two columns ---------------------------------------


@pytest.mark.parametrize(
    ("header", "first", "second"),
    [("query,AP,AP", "AP", "AP"), ("query,map,AP", "map", "AP"), ("qid,P_10,P@10", "P_10", "P@10")],
)
def test_a_wide_file_naming_a_measure_twice_is_an_error_at_the_header(
    tmp_path: Path, header: str, first: str, second: str
) -> None:
    folder = tmp_path / "r" / "d1"
    folder.mkdir(parents=True)
    (folder / "a.csv").write_text(f"{header}\n1,0.5,0.6\n")
    result = invoke("tables", str(tmp_path / "r"), "-o", str(tmp_path / "out"))
    assert_one_line_error(result, "a.csv:1:", repr(second))
    if first != second:
        assert repr(first) in result.output
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("names", [["query", "AP", "AP"], ["query", "AP", "map"]])
def test_a_wide_parquet_file_naming_a_measure_twice_is_an_input_error(names: list[str]) -> None:
    import io

    import pyarrow as pa
    import pyarrow.parquet as pq

    from irtables.errors import InputError
    from irtables.loaders.tabular import read_wide

    table = pa.table([pa.array(["1"]), pa.array([0.5]), pa.array([0.6])], names=names)
    buffer = io.BytesIO()
    pq.write_table(table, buffer)
    with pytest.raises(InputError, match=f"'{names[2]}'"):
        read_wide(buffer.getvalue(), "x.parquet")


# --- a repeated id or metric in a table's lists ------------------------------------------


def test_a_system_given_twice_in_table_1_is_an_error_naming_key_and_system(
    tmp_path: Path,
) -> None:
    results = tidy_study(tmp_path, ["d1"])
    (results / "irtables.toml").write_text('[tables.main]\nsystems = ["bm25", "bm25"]\n')
    result = invoke("tables", str(results), "-o", str(tmp_path / "out"))
    assert_one_line_error(result, "tables.main.systems[1]", "'bm25'")
    assert not (tmp_path / "out").exists()


_ABLATION = {"dataset": "d1", "full": "a", "rows": [{"system": "a"}, {"system": "b"}]}


@pytest.mark.parametrize(
    ("section", "key", "value"),
    [
        ({"main": {"systems": ["a", "b", "a"]}}, "tables.main.systems[2]", "'a'"),
        ({"main": {"systems": {"d1": ["a", "a"]}}}, "tables.main.systems.d1[1]", "'a'"),
        ({"main": {"metrics": ["MAP", "NDCG@10", "MAP"]}}, "tables.main.metrics[2]", "'MAP'"),
        ({"main": {"metrics": ["map", "AP"]}}, "tables.main.metrics[1]", "'AP'"),
        ({"k_breakdown": {"metrics": ["P", "P"]}}, "tables.k_breakdown.metrics[1]", "'P'"),
        ({"k_breakdown": {"k": [5, 10, 5]}}, "tables.k_breakdown.k[2]", "5"),
        (
            {"ablation": {**_ABLATION, "metrics": ["MAP", "MAP"]}},
            "tables.ablation.metrics[1]",
            "'MAP'",
        ),
        (
            {"ablation": {**_ABLATION, "rows": [{"system": "a"}, {"system": "a"}]}},
            "tables.ablation.groups[0].rows[1].system",
            "'a'",
        ),
        (
            {"t": {"layout": "dataset_columns", "datasets": ["d1", {"id": "d1"}]}},
            "tables.t.datasets[1]",
            "'d1'",
        ),
        (
            {
                "t": {
                    "layout": "dataset_columns",
                    "datasets": [{"id": "d1", "metrics": ["AP", "AP"]}],
                }
            },
            "tables.t.datasets[0].metrics[1]",
            "'AP'",
        ),
        (
            {"t": {"layout": "dataset_columns", "groups": [{"systems": ["a", "a"]}]}},
            "tables.t.groups[0].systems[1]",
            "'a'",
        ),
        (
            {"t": {"layout": "dataset_columns", "average": ["MAP", "MAP"]}},
            "tables.t.average[1]",
            "'MAP'",
        ),
        ({"t": {"layout": "dataset_columns", "systems": ["a", "a"]}}, "tables.t.systems[1]", "'a'"),
        (
            {"t": {"layout": "sensitivity", "parameters": ["x", "x"]}},
            "tables.t.parameters[1]",
            "'x'",
        ),
        (
            {"t": {"layout": "reproduction", "original": "o", "reproductions": ["r", "r"]}},
            "tables.t.reproductions[1]",
            "'r'",
        ),
        (
            {
                "t": {
                    "layout": "reproduction",
                    "original": "o",
                    "reproductions": ["r"],
                    "cutoffs": [10, 10],
                }
            },
            "tables.t.cutoffs[1]",
            "10",
        ),
    ],
)
def test_a_repeated_entry_of_a_table_list_is_an_error_naming_key_and_value(
    section: dict[str, object], key: str, value: str
) -> None:
    from irtables.config import parse_config
    from irtables.errors import ConfigError

    with pytest.raises(ConfigError) as raised:
        parse_config({"tables": section}, source="irtables.toml")
    message = str(raised.value)
    assert message.startswith(f"irtables.toml: {key}:"), message
    assert f"got {value}" in message, message


# --- Table S1 asked for cutoffs the results do not hold ----------------------------------


def test_table_s1_at_cutoffs_no_result_holds_is_a_warning_naming_key_and_cutoffs(
    tmp_path: Path,
) -> None:
    results = tidy_study(tmp_path, ["d1"])  # AP and nDCG@10: cutoff 10 only
    (results / "irtables.toml").write_text("[tables.k_breakdown]\nk = [5]\n")
    result = invoke("tables", str(results), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    warned = [line for line in result.output.splitlines() if "tables.k_breakdown.k" in line]
    assert len(warned) == 1, result.output
    assert warned[0].startswith("Warning: ")
    assert "asks for K=5" in warned[0] and "hold K=10" in warned[0], warned[0]
    assert "no Table S1" in warned[0], warned[0]
    assert not list((tmp_path / "out").glob("tableS1*"))


def test_table_s1_without_one_of_its_cutoffs_warns_and_shows_the_others(tmp_path: Path) -> None:
    results = tidy_study(tmp_path, ["d1"])
    (results / "irtables.toml").write_text("[tables.k_breakdown]\nk = [5, 10, 20]\n")
    result = invoke("tables", str(results), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    warned = [line for line in result.output.splitlines() if "tables.k_breakdown.k" in line]
    assert len(warned) == 1, result.output
    assert "leaves out K=5, K=20" in warned[0] and "hold K=10" in warned[0], warned[0]
    assert (tmp_path / "out" / "tableS1-d1.md").exists()


def test_table_s1_at_the_default_cutoffs_says_nothing_of_those_the_results_lack(
    tmp_path: Path,
) -> None:
    results = tidy_study(tmp_path, ["d1"])
    result = invoke("tables", str(results), "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert "k_breakdown" not in result.output


@pytest.mark.parametrize("k", ["99999999999999999999", "9223372036854775808"])
def test_a_cutoff_beyond_toml_integers_is_refused_naming_the_key(tmp_path: Path, k: str) -> None:
    results = tidy_study(tmp_path, ["d1"])
    (results / "irtables.toml").write_text(f"[tables.k_breakdown]\nk = [10, {k}]\n")
    result = invoke("tables", str(results), "-o", str(tmp_path / "out"))
    assert_one_line_error(result, "tables.k_breakdown.k[1]", k, "out of range")


# --- check against a manifest of another schema, another results folder, or damaged ----


def test_check_calls_a_manifest_of_another_schema_or_results_folder_not_current(
    tmp_path: Path,
) -> None:
    import json

    results = tidy_study(tmp_path, ["d1"])
    out = tmp_path / "sup"
    built = invoke("supplement", str(results), "-o", str(out), "--no-pdf")
    assert built.exit_code == 0, built.output
    path = out / "manifest.json"
    good = path.read_text()
    assert invoke("check", str(results), "-o", str(out)).exit_code == 0

    newer = json.loads(good) | {"schema": 99}
    path.write_text(json.dumps(newer))
    check = invoke("check", str(results), "-o", str(out))
    assert_one_line_error(check, "manifest.json", "schema 99")

    elsewhere = json.loads(good) | {"results": "/etc"}
    path.write_text(json.dumps(elsewhere))
    check = invoke("check", str(results), "-o", str(out))
    assert check.exit_code == 1, check.output
    assert "/etc" in check.output and "is current" not in check.output

    for field in ("config", "schema", "outputs"):
        damaged = {k: v for k, v in json.loads(good).items() if k != field}
        path.write_text(json.dumps(damaged))
        check = invoke("check", str(results), "-o", str(out))
        assert_one_line_error(
            check, "manifest.json", f"not an irtables manifest (no '{field}' field)"
        )

    path.write_text(good)
    assert invoke("check", str(results), "-o", str(out)).exit_code == 0


# --- a full standard output -------------------------------------------------------------


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_standard_output_is_named_in_the_error(tmp_path: Path) -> None:
    import subprocess
    import sys

    runs = Path(__file__).parents[1] / "data" / "runs"
    argv = [sys.executable, "-m", "irtables", "evaluate", str(runs / "tiny.qrels")]
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [*argv, str(runs / "tiny.run"), "-m", "map", "-q"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
        )
    assert_error_line(
        done.returncode, done.stderr, "Error: writing to standard output: No space left on device"
    )
    assert "Exception ignored" not in done.stderr


# --- Table S1 with one cutoff: a measure without cutoff is not put under K -------------


def _tidy_ap_means() -> dict[str, float]:
    """The mean AP of each system of :func:`tidy_study`, from the values it writes."""
    import numpy as np

    return {
        system: float(np.mean([round(0.1 * (q + 1) + 0.05 * i, 3) for q in range(3)]))
        for i, system in enumerate(("bm25", "dense"))
    }


def test_table_s1_with_one_cutoff_shows_map_in_a_column_of_its_own(tmp_path: Path) -> None:
    import json

    results = tidy_study(tmp_path, ["d1"])  # AP (no cutoff) and nDCG@10: one K
    out = tmp_path / "out"
    result = invoke("tables", str(results), "-o", str(out))
    assert result.exit_code == 0, result.output
    means = _tidy_ap_means()

    md = (out / "tableS1-d1.md").read_text().splitlines()
    header = next(line for line in md if line.startswith("| Metric"))
    assert [c.strip() for c in header.strip("|").split("|")] == [
        "Metric",
        "System",
        "K=10",
        "no cutoff",
    ]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in md if "| " in line]
    map_rows = [r for r in rows if r[0] == "MAP" or (r[0] == "" and r[1] == "dense")]
    bm25 = next(r for r in rows if r[0] == "MAP")
    assert bm25[1:] == ["bm25", "", f"{means['bm25']:.3f}"], bm25
    assert map_rows[-1][2] == "" and map_rows[-1][3].strip("*") == f"{means['dense']:.3f}"

    tex = (out / "tableS1-d1.tex").read_text()
    assert "Metric & System & K=10 & no cutoff" in tex, tex

    numbers = json.loads((out / "numbers.json").read_text())["numbers"]
    assert not [k for k in numbers if k.startswith("tableS1-d1/") and "AP@" in k]
    for system, mean in means.items():
        cited = numbers[f"tableS1-d1/d1/{system}/AP"]
        assert cited["metric"] == "AP" and cited["metric_label"] == "MAP"
        assert cited["cell"]["column"] == "MAP"
        assert cited["value"] == pytest.approx(mean, abs=1e-12)
        ndcg = numbers[f"tableS1-d1/d1/{system}/nDCG@10"]
        assert ndcg["cell"]["column"] == "K=10"


def test_table_s1_frame_has_no_cells_for_the_blanks_of_a_column_of_its_own(
    tmp_path: Path,
) -> None:
    from irtables import build_table, load_results

    results = load_results(tidy_study(tmp_path, ["d1"]))
    frame = build_table(results, "k_breakdown").to_frame()
    assert len(frame) == 4  # 2 systems x (NDCG@10, MAP): no empty cells
    shown = frame.set_index(["group", "row"])
    assert shown.loc[("MAP", "bm25"), "column"] == "no cutoff"
    assert shown.loc[("NDCG", "bm25"), "column"] == "K=10"
    assert shown.loc[("MAP", "dense"), "value"] == pytest.approx(_tidy_ap_means()["dense"])
