"""Golden files of the ``reproduction`` layout: the study of tests/data/repro (an
original, a reproduction and a replication of a baseline and an advanced run), as
``irtables tables`` writes it in every format. The LaTeX golden is also compiled."""

from __future__ import annotations

import difflib
import shutil
from pathlib import Path

import pytest

from irtables.render import FORMATS
from irtables.study.pipeline import resolve_study, run_table_files

from ..conftest import compile_latex

GOLDEN = Path(__file__).parent / "reproduction"
DATA = Path(__file__).parents[1] / "data" / "repro"
CONFIG = """
[[datasets]]
id = "robust04"
name = "Robust04"
qrels = "orig/qrels.txt"
runs = "orig/*.run"

[[datasets]]
id = "robust04-rpd"
qrels = "rpd/qrels.txt"
runs = "rpd/*.run"

[[datasets]]
id = "core18-rpl"
qrels = "rpl/qrels.txt"
runs = "rpl/*.run"

[tables.repro]
layout = "reproduction"
original = "robust04"
reproductions = ["robust04-rpd", "core18-rpl"]
pairs = [["bm25", "rm3"]]
metrics = ["AP", "nDCG@10", "P@10"]
cutoffs = [5, 10, 20, 100]
"""


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("repro") / "study"
    for side in ("orig", "rpd", "rpl"):
        shutil.copytree(DATA / side, root / side)
    (root / "irtables.toml").write_text(CONFIG, encoding="utf-8")
    _, config, base = resolve_study(root)
    return run_table_files(config, base, list(FORMATS))


@pytest.mark.parametrize("ext", [f.suffix for f in FORMATS.values()])
def test_reproduction_golden(ext: str, rendered: dict[str, str], update_golden: bool) -> None:
    path = GOLDEN / f"repro.{ext}"
    actual = rendered[f"repro.{ext}"]
    if update_golden:
        path.parent.mkdir(exist_ok=True)
        path.write_text(actual, encoding="utf-8")
    expected = path.read_text(encoding="utf-8") if path.exists() else ""
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(True), actual.splitlines(True), str(path), "rendered"
            )
        )
        pytest.fail(f"rendered output differs from the golden file:\n{diff}")


@pytest.mark.latex
def test_reproduction_golden_latex_compiles(tmp_path: Path) -> None:
    text = (GOLDEN / "repro.tex").read_text(encoding="utf-8")
    result = compile_latex(text, tmp_path, ("graphicx",))
    assert result.returncode == 0, result.stdout[-3000:]
