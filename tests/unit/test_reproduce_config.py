"""The ``reproduction`` layout of ``irtables.toml``: written by ``irtables tables`` in
every format, with repro_eval's numbers."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from irtables.config import parse_config
from irtables.errors import ConfigError
from tests.conftest import assert_one_line_error, compile_latex, invoke

DATA = Path(__file__).resolve().parents[1] / "data" / "repro"
EXPECTED = json.loads((DATA / "expected.json").read_text(encoding="utf-8"))
CONFIG = """
[[datasets]]
id = "robust04"
qrels = "orig/qrels.txt"
runs = "orig/*.run"

[[datasets]]
id = "robust04-rpd"
qrels = "rpd/qrels.txt"
runs = "rpd/*.run"

[[datasets]]
id = "core18-rpl"
qrels = "rpl/qrels.txt"
runs = ["rpl/bm25.run", "rpl/rm3.run"]

[tables.repro]
layout = "reproduction"
original = "robust04"
reproductions = ["robust04-rpd", "core18-rpl"]
pairs = [["bm25", "rm3"]]
metrics = ["AP", "nDCG@10", "P@10"]
"""


def _study(tmp_path: Path, config: str = CONFIG) -> Path:
    root = tmp_path / "study"
    for side in ("orig", "rpd", "rpl"):
        shutil.copytree(DATA / side, root / side)
    (root / "irtables.toml").write_text(config, encoding="utf-8")
    return root


def test_tables_writes_the_reproduction_table_in_every_format(tmp_path: Path) -> None:
    root = _study(tmp_path)
    out = tmp_path / "out"
    formats = ["-f", "latex", "-f", "markdown", "-f", "csv", "-f", "html"]
    result = invoke("tables", str(root), "-o", str(out), *formats)
    assert result.exit_code == 0, result.output
    with (out / "repro.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    kinds = {r["reproduction"]: r["kind"] for r in rows}
    assert kinds == {"robust04-rpd": "reproducibility", "core18-rpl": "replicability"}
    ktu5 = next(r for r in rows if r["system"] == "bm25" and r["cutoff"] == "5")
    want = EXPECTED["reproducibility"]["ktu"]["bm25"]["5"]
    assert float(ktu5["ktu"]) == pytest.approx(want, abs=1e-9)
    er = next(
        r
        for r in rows
        if r["reproduction"] == "core18-rpl" and r["measure"] == "AP" and r["system"] == "rm3"
    )
    assert float(er["er"]) == pytest.approx(EXPECTED["replicability"]["er"]["AP"], abs=1e-9)
    assert float(er["delta_ri"]) == pytest.approx(
        EXPECTED["replicability"]["delta_ri"]["AP"], abs=1e-9
    )
    for ext, needle in (
        ("md", "| robust04-rpd"),
        ("html", "<td>core18-rpl</td>"),
        ("tex", "core18-rpl"),
    ):
        assert needle in (out / f"repro.{ext}").read_text(encoding="utf-8"), ext
    done = compile_latex((out / "repro.tex").read_text(encoding="utf-8"), tmp_path, ("graphicx",))
    assert done.returncode == 0, done.stdout[-2000:]


def test_a_dataset_without_runs_is_one_error_line(tmp_path: Path) -> None:
    root = _study(
        tmp_path,
        CONFIG.replace(
            'reproductions = ["robust04-rpd", "core18-rpl"]', 'reproductions = ["nope"]'
        ),
    )
    result = invoke("tables", str(root), "-o", str(tmp_path / "out"))
    assert_one_line_error(
        result, "tables.repro.reproductions: dataset 'nope' has no qrels and runs"
    )


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("pairs", '[["bm25"]]', "a list of [baseline, advanced] system ids"),
        ("reproductions", "[]", "a non-empty list of dataset ids"),
        ("rbo_p", "1.5", "between 0 and 1"),
        ("cutoffs", "[0]", "tables.repro.cutoffs"),
    ],
)
def test_bad_keys_name_the_key(key: str, value: str, expected: str) -> None:
    import tomllib

    text = (
        "\n".join(line for line in CONFIG.splitlines() if not line.startswith(f"{key} ="))
        + f"\n{key} = {value}\n"
    )
    with pytest.raises(ConfigError, match=expected.replace("[", r"\[").replace("]", r"\]")):
        parse_config(tomllib.loads(text))


def test_defaults_are_repro_evals() -> None:
    import tomllib

    spec = parse_config(tomllib.loads(CONFIG)).table("repro")
    assert spec is not None
    assert spec.cutoffs == (5, 10, 20, 50, 100, 1000)
    assert (spec.rbo_p, spec.rbo_depth) == (0.95, 1000)
    assert spec.pairs == (("bm25", "rm3"),)


def test_the_reproduction_table_compiles_in_typst(tmp_path: Path) -> None:
    """-f typst writes the reproduction table too; typst compiles it and the PDF's text
    holds each reproduction and repro_eval's ER of AP on the replication."""
    import subprocess

    import typst

    from tests.conftest import require_tool

    require_tool("pdftotext")
    root = _study(tmp_path)
    out = tmp_path / "out"
    result = invoke("tables", str(root), "-o", str(out), "-f", "typst", "-f", "csv")
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "repro.pdf"
    typst.compile(str(out / "repro.typ"), output=str(pdf))
    done = subprocess.run(
        ["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True, check=True
    )
    text = " ".join(done.stdout.split())
    assert "robust04-rpd" in text and "core18-rpl" in text
    want = EXPECTED["replicability"]["er"]["AP"]
    assert any(
        abs(float(word.replace("−", "-")) - want) < 0.0051
        for word in text.split()
        if word.replace(".", "", 1).lstrip("-−").isdigit()
    ), text
