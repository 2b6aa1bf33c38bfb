"""A run's ir_metadata block: read, kept in the manifest, shown by diff, refused when malformed."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

from irtables.errors import InputError
from irtables.loaders import trec_run
from irtables.loaders.ir_metadata import Header, read_ir_metadata
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


# --- every reader of a run reads the block: malformed ones fail, valid ones change nothing

SECOND_START = BLOCK.replace("# method:", "# ir_metadata.start\n# method:")  # line 8
SECOND_BLOCK = BLOCK + "# a note\n" + BLOCK  # the second starts on line 12
END_ONLY = "# produced by bm25\n# ir_metadata.end\n"  # line 2


@pytest.mark.parametrize(
    ("header", "line", "needle"),
    [
        (SECOND_START, 8, "a second '# ir_metadata.start' line inside the block of line 1"),
        (SECOND_BLOCK, 12, "a second block"),
        (END_ONLY, 2, "'# ir_metadata.end' without a '# ir_metadata.start'"),
        (BLOCK.replace("# ir_metadata.end\n", ""), 1, "no '# ir_metadata.end' line"),
    ],
    ids=["second-start-inside", "second-block", "end-without-start", "unterminated"],
)
def test_a_malformed_block_names_its_line_when_the_run_is_read(
    tmp_path: Path, header: str, line: int, needle: str
) -> None:
    path = _write(tmp_path, header + RUN)
    for read in (read_ir_metadata, read_run):
        with pytest.raises(InputError) as caught:
            read(path)
        assert str(caught.value).startswith(f"{path}:{line}: ")
        assert needle in str(caught.value)


def test_a_block_in_a_gzip_run_is_read(tmp_path: Path) -> None:
    good = tmp_path / "bm25.run.gz"
    good.write_bytes(gzip.compress((BLOCK + RUN).encode()))
    assert read_ir_metadata(good) == read_ir_metadata(_write(tmp_path, BLOCK + RUN))
    assert read_run(good).docid.to_pylist() == ["d1", "d2"]
    bad = tmp_path / "bad.run.gz"
    bad.write_bytes(gzip.compress((SECOND_BLOCK + RUN).encode()))
    with pytest.raises(InputError, match=r"bad.run.gz:12: ir_metadata block: a second block"):
        read_run(bad)


def test_the_fast_reader_reads_past_the_block_and_names_lines_below_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_slow_path(*args: object, **kwargs: object) -> None:
        raise AssertionError("the line-by-line reader was used")

    monkeypatch.setattr(trec_run, "_read_slow", no_slow_path)
    run = read_run(_write(tmp_path, BLOCK + RUN))
    assert (run.docid.to_pylist(), run.score.tolist()) == (["d1", "d2"], [2.0, 1.0])
    assert (run.line_of(0), run.line_of(1)) == (11, 12)  # the block has 10 lines
    with pytest.raises(InputError, match=r"nan.run:12: expected a finite number"):
        read_run(_write(tmp_path, BLOCK + RUN.replace("1.0", "nan"), "nan.run"))


def _pytrec_eval_means(qrels: Path, run: Path) -> dict[str, float]:
    """AP and P@10 of a run, means over its judged queries, from pytrec_eval."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    judged: dict[str, dict[str, int]] = {}
    for line in qrels.read_text(encoding="utf-8").splitlines():
        q, _, d, rel = line.split()
        judged.setdefault(q, {})[d] = int(rel)
    ranked: dict[str, dict[str, float]] = {}
    for line in run.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        q, _, d, _, score, _ = line.split()
        ranked.setdefault(q, {})[d] = float(score)
    per_query = pytrec_eval.RelevanceEvaluator(judged, {"map", "P_10"}).evaluate(ranked)
    return {
        "AP": sum(v["map"] for v in per_query.values()) / len(per_query),
        "P@10": sum(v["P_10"] for v in per_query.values()) / len(per_query),
    }


def test_a_valid_block_changes_no_number_of_evaluate(tmp_path: Path) -> None:
    qrels = DATA / "orig" / "qrels.txt"
    plain = DATA / "orig" / "bm25.run"
    blocked = _write(tmp_path, BLOCK + plain.read_text(encoding="utf-8"), "bm25.run")
    zipped = tmp_path / "z" / "bm25.run.gz"
    zipped.parent.mkdir()
    zipped.write_bytes(gzip.compress(blocked.read_bytes()))
    outputs = [
        invoke("evaluate", str(qrels), str(run), "-m", "AP", "-m", "P@10", "-q")
        for run in (plain, blocked, zipped)
    ]
    assert all(r.exit_code == 0 for r in outputs), [r.output for r in outputs]
    assert outputs[0].stdout_bytes == outputs[1].stdout_bytes == outputs[2].stdout_bytes
    rows = [line.split("\t") for line in outputs[1].output.splitlines()[1:]]
    expected = _pytrec_eval_means(qrels, blocked)
    for metric, mean in expected.items():
        values = [float(r[3]) for r in rows if r[2] == metric]
        assert sum(values) / len(values) == pytest.approx(mean, abs=1e-12)


def _broken_study(tmp_path: Path) -> Path:
    """A study of two runs whose first has a second ir_metadata block (line 12)."""
    root = tmp_path / "study"
    root.mkdir()
    shutil.copy(DATA / "orig" / "qrels.txt", root / "qrels.txt")
    for name in ("bm25", "rm3"):
        text = (DATA / "orig" / f"{name}.run").read_text(encoding="utf-8")
        header = SECOND_BLOCK if name == "bm25" else BLOCK
        (root / f"{name}.run").write_text(header + text, encoding="utf-8")
    (root / "irtables.toml").write_text(
        '[[datasets]]\nid = "robust04"\nqrels = "qrels.txt"\nruns = ["bm25.run", "rm3.run"]\n'
        '\n[compare]\nbaseline = "bm25"\n\n[tables.main]\nmetrics = ["AP", "P@10"]\n',
        encoding="utf-8",
    )
    return root


@pytest.mark.parametrize(
    "command",
    [
        ["tables", "--no-cache", "-o", "{out}"],
        ["lint", "--no-cache"],
        ["compare", "--no-cache"],
        ["supplement", "-o", "{out}"],
    ],
    ids=["tables", "lint", "compare", "supplement"],
)
def test_every_command_on_a_study_names_the_malformed_block(
    tmp_path: Path, command: list[str]
) -> None:
    root = _broken_study(tmp_path)
    result = invoke(*[a.format(out=tmp_path / "out") for a in command], str(root))
    assert_one_line_error(result, f"{root / 'bm25.run'}:12:", "ir_metadata block: a second block")


def test_evaluate_names_the_malformed_block(tmp_path: Path) -> None:
    run = _write(tmp_path, SECOND_BLOCK + RUN)
    result = invoke("evaluate", str(DATA / "orig" / "qrels.txt"), str(run), "-m", "AP")
    assert_one_line_error(result, f"{run}:12:", "ir_metadata block: a second block")


def test_load_study_raises_on_the_malformed_block(tmp_path: Path) -> None:
    from irtables.study.load import load_study

    root = _broken_study(tmp_path)
    with pytest.raises(InputError, match=r"bm25.run:12: ir_metadata block: a second block"):
        load_study(root, cache=False)


def test_a_cached_run_with_a_malformed_block_is_an_error_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An entry written by an irtables that skipped blocks is not a way around the check."""
    root = _broken_study(tmp_path)
    with monkeypatch.context() as patched:  # the reader of a version that skipped blocks
        patched.setattr(trec_run, "read_header", lambda path: Header(None, 0))
        assert invoke("tables", "-o", str(tmp_path / "a"), str(root)).exit_code == 0
    assert any((root / ".irtables-cache").iterdir())
    result = invoke("tables", "-o", str(tmp_path / "b"), str(root))
    assert_one_line_error(result, f"{root / 'bm25.run'}:12:", "ir_metadata block: a second block")


def test_a_metadata_edit_changes_the_cache_key_and_no_number(tmp_path: Path) -> None:
    """The cache keys on the run's content: a metadata edit evaluates the run again (a
    new entry), with the same values."""
    root = _study(tmp_path / "s", BLOCK)
    first = invoke("tables", "-f", "csv", "-o", str(tmp_path / "a"), str(root))
    assert first.exit_code == 0, first.output
    entries = set((root / ".irtables-cache").rglob("*.parquet"))
    run = root / "bm25.run"
    run.write_text(run.read_text(encoding="utf-8").replace("k1: 0.9", "k1: 1.2"), encoding="utf-8")
    second = invoke("tables", "-f", "csv", "-o", str(tmp_path / "b"), str(root))
    assert second.exit_code == 0, second.output
    assert len(set((root / ".irtables-cache").rglob("*.parquet")) - entries) == 1
    tables = sorted((tmp_path / "a").glob("*.csv"))
    assert tables
    for table in tables:
        assert table.read_bytes() == (tmp_path / "b" / table.name).read_bytes()


def test_blank_lines_below_the_block_keep_the_fast_reader_and_the_line_numbers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_slow_path(*args: object, **kwargs: object) -> None:
        raise AssertionError("the line-by-line reader was used")

    monkeypatch.setattr(trec_run, "_read_slow", no_slow_path)
    text = "\n" + BLOCK + "\n\n" + RUN.replace("1.0", "inf")  # the second row on line 15
    with pytest.raises(InputError, match=r"bm25.run:15: expected a finite number"):
        read_run(_write(tmp_path, text))
