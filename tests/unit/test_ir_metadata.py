"""A run's ir_metadata block: read, kept in the manifest, shown by diff, refused when malformed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from irtables.errors import InputError
from irtables.loaders.ir_metadata import read_ir_metadata
from irtables.loaders.trec_run import read_run
from irtables.supplement.manifest import Manifest
from tests.conftest import assert_one_line_error, invoke

DATA = Path(__file__).resolve().parents[1] / "data" / "repro"
RUN = "301 Q0 d1 1 2.0 bm25\n301 Q0 d2 2 1.0 bm25\n"
BLOCK = """# ir_metadata.start
# tag: bm25
# platform:
#   software:
#     libraries: {pyserini: 0.22.1}
# implementation:
#   source: {repository: https://github.com/x/y, commit: 1a2b3c}
# method:
#   retrieval: {name: bm25, k1: 0.9, b: 0.4}
# ir_metadata.end
"""


def _write(tmp_path: Path, text: str, name: str = "bm25.run") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_block_is_read_and_the_run_still_is(tmp_path: Path) -> None:
    path = _write(tmp_path, "# a comment first\n" + BLOCK + RUN)
    found = read_ir_metadata(path)
    assert found == {
        "tag": "bm25",
        "platform": {"software": {"libraries": {"pyserini": "0.22.1"}}},
        "implementation": {"source": {"repository": "https://github.com/x/y", "commit": "1a2b3c"}},
        "method": {"retrieval": {"name": "bm25", "k1": 0.9, "b": 0.4}},
    }
    assert len(read_run(path)) == 2


def test_no_block_or_one_below_the_ranking_is_none(tmp_path: Path) -> None:
    assert read_ir_metadata(_write(tmp_path, RUN)) is None
    assert read_ir_metadata(_write(tmp_path, RUN + BLOCK, "late.run")) is None


def test_a_block_without_end_names_its_first_line(tmp_path: Path) -> None:
    path = _write(tmp_path, "# x\n" + BLOCK.replace("# ir_metadata.end\n", "") + RUN)
    with pytest.raises(
        InputError, match=r"bm25.run:2: the ir_metadata block .* no '# ir_metadata.end'"
    ):
        read_ir_metadata(path)


def test_bad_yaml_names_its_line(tmp_path: Path) -> None:
    path = _write(
        tmp_path, BLOCK.replace("{name: bm25, k1: 0.9, b: 0.4}", "{name: bm25, k1: 0.9") + RUN
    )
    with pytest.raises(InputError, match=r"bm25.run:9: ir_metadata block: not YAML"):
        read_ir_metadata(path)


def test_a_list_is_not_a_block(tmp_path: Path) -> None:
    path = _write(tmp_path, "# ir_metadata.start\n# - a\n# - b\n# ir_metadata.end\n" + RUN)
    with pytest.raises(InputError, match=r"bm25.run:1: .*expected a mapping of PRIMAD"):
        read_ir_metadata(path)


def test_the_manifest_keeps_it_and_leaves_the_key_out_without_any() -> None:
    m = Manifest("0", ".", None, None, {}, {}, {}, run_metadata={"../r.run": {"tag": "x"}})
    assert json.loads(m.to_json())["run_metadata"] == {"../r.run": {"tag": "x"}}
    assert Manifest.from_json(m.to_json()) == m
    assert "run_metadata" not in json.loads(Manifest("0", ".", None, None, {}, {}, {}).to_json())


def _study(root: Path, block: str) -> Path:
    root.mkdir()
    shutil.copy(DATA / "orig" / "qrels.txt", root / "qrels.txt")
    (root / "bm25.run").write_text(
        block + (DATA / "orig" / "bm25.run").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (root / "irtables.toml").write_text(
        '[[datasets]]\nid = "robust04"\nqrels = "qrels.txt"\nruns = "bm25.run"\n', encoding="utf-8"
    )
    return root


def test_diff_shows_a_changed_block(tmp_path: Path) -> None:
    old = _study(tmp_path / "old", BLOCK)
    new = _study(tmp_path / "new", BLOCK.replace("k1: 0.9", "k1: 1.2"))
    result = invoke("diff", str(old), str(new))
    assert result.exit_code == 0, result.output
    assert "Run metadata that changes (ir_metadata):" in result.output
    line = next(x for x in result.output.splitlines() if x.startswith("robust04"))
    assert line.split()[:3] == ["robust04", "bm25", "method"]
    assert "retrieval.k1=0.9" in line and "retrieval.k1=1.2" in line
    data = json.loads(invoke("diff", str(old), str(new), "--format", "json").output)
    assert data["metadata"][0]["component"] == "method" and not data["identical"]


def test_diff_of_the_same_block_shows_nothing(tmp_path: Path) -> None:
    result = invoke("diff", str(_study(tmp_path / "a", BLOCK)), str(_study(tmp_path / "b", BLOCK)))
    assert result.exit_code == 0 and "no differences" in result.output


def test_diff_with_a_malformed_block_is_one_error_line(tmp_path: Path) -> None:
    old = _study(tmp_path / "old", BLOCK)
    new = _study(tmp_path / "new", BLOCK.replace("# ir_metadata.end\n", ""))
    assert_one_line_error(invoke("diff", str(old), str(new)), "bm25.run:1:", "ir_metadata")
