"""A compressed input is read whole or refused (issue 34 §1): concatenated streams of
gzip, bzip2, xz and Zstandard are all read; anything after a stream (appended text,
random bytes, a truncated stream) is one ``Error:`` naming the file and the byte
offset where the unreadable data starts, in every reader (runs, qrels, per-query files)."""

from __future__ import annotations

import bz2
import gzip
import lzma
import re
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pytest
import pytrec_eval
from click.testing import CliRunner

from irtables.cli import main
from irtables.errors import InputError
from irtables.loaders.source import read_bytes
from tests.conftest import FIXTURES, require_fixtures

FIXTURE = FIXTURES / "anserini_cacm" / "data"
RUN = FIXTURE / "cacm-bm25.txt"
QRELS = FIXTURE / "qrels.cacm.txt"

COMPRESSORS: dict[str, Callable[[bytes], bytes]] = {
    "gz": gzip.compress,
    "bz2": bz2.compress,
    "xz": lzma.compress,
    "zst": lambda data: pa.compress(data, codec="zstd", asbytes=True),
}
#: What follows one valid stream, by name: (bytes after it, given the second stream).
DAMAGE: dict[str, Callable[[bytes, bytes], bytes]] = {
    "appended text": lambda second, plain: plain,
    "random bytes": lambda second, plain: b"\x01\x9a\x33garbage\xff" * 3,
    "truncated stream": lambda second, plain: second[: len(second) * 2 // 3],
}

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.fixture(autouse=True)
def _fixtures() -> None:
    require_fixtures()


def _halves(path: Path) -> tuple[bytes, bytes]:
    lines = path.read_bytes().splitlines(keepends=True)
    return b"".join(lines[: len(lines) // 2]), b"".join(lines[len(lines) // 2 :])


def _two_streams(path: Path, ext: str) -> bytes:
    first, second = _halves(path)
    return COMPRESSORS[ext](first) + COMPRESSORS[ext](second)


def _map_by_pytrec_eval() -> float:
    qrels: dict[str, dict[str, int]] = {}
    for line in QRELS.read_text().splitlines():
        qid, _, doc, rel = line.split()
        qrels.setdefault(qid, {})[doc] = int(rel)
    run: dict[str, dict[str, float]] = {}
    for line in RUN.read_text().splitlines():
        qid, _, doc, _, score, _ = line.split()
        run.setdefault(qid, {})[doc] = float(score)
    found = pytrec_eval.RelevanceEvaluator(qrels, {"map"}).evaluate(run)
    return sum(v["map"] for v in found.values()) / len(found)


def _evaluated_map(qrels: Path, run: Path) -> float:
    result = CliRunner().invoke(main, ["evaluate", str(qrels), str(run), "-m", "map"])
    assert result.exit_code == 0, result.output
    rows = [line.split("\t") for line in result.stdout.splitlines()]
    assert rows[0] == ["system", "query", "metric", "value"]
    (row,) = rows[1:]
    return float(row[3])


@pytest.mark.parametrize("ext", sorted(COMPRESSORS))
def test_concatenated_streams_of_a_run_are_read_whole(tmp_path: Path, ext: str) -> None:
    run = tmp_path / f"bm25.run.{ext}"
    run.write_bytes(_two_streams(RUN, ext))
    assert read_bytes(run) == RUN.read_bytes()
    assert _evaluated_map(QRELS, run) == pytest.approx(_map_by_pytrec_eval(), abs=1e-12)


@pytest.mark.parametrize("ext", sorted(COMPRESSORS))
def test_concatenated_streams_of_qrels_are_read_whole(tmp_path: Path, ext: str) -> None:
    qrels = tmp_path / f"qrels.txt.{ext}"
    qrels.write_bytes(_two_streams(QRELS, ext))
    assert _evaluated_map(qrels, RUN) == pytest.approx(_map_by_pytrec_eval(), abs=1e-12)


@pytest.mark.parametrize("ext", ["gz", "bz2", "xz"])
def test_zero_padding_after_the_last_stream_is_skipped(tmp_path: Path, ext: str) -> None:
    run = tmp_path / f"bm25.run.{ext}"
    run.write_bytes(_two_streams(RUN, ext) + b"\0" * 1000)
    assert read_bytes(run) == RUN.read_bytes()


def _damaged(path: Path, ext: str, damage: str) -> tuple[bytes, int]:
    """The first half of ``path`` as one stream, followed by ``damage``; and the offset
    where the damage starts."""
    first, second = _halves(path)
    head = COMPRESSORS[ext](first)
    return head + DAMAGE[damage](COMPRESSORS[ext](second), second), len(head)


def _one_error(result_output: str, path: Path, offset: int) -> None:
    errors = [line for line in result_output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result_output
    assert str(path) in errors[0]
    assert re.search(rf"\bbyte {offset}\b", errors[0]), errors[0]
    assert "Traceback" not in result_output


@pytest.mark.parametrize("damage", sorted(DAMAGE))
@pytest.mark.parametrize("ext", sorted(COMPRESSORS))
def test_damage_after_a_run_stream_is_one_error_naming_the_offset(
    tmp_path: Path, ext: str, damage: str
) -> None:
    run = tmp_path / f"bm25.run.{ext}"
    data, offset = _damaged(RUN, ext, damage)
    run.write_bytes(data)
    result = CliRunner().invoke(main, ["evaluate", str(QRELS), str(run), "-m", "map"])
    assert result.exit_code == 2
    _one_error(result.stderr, run, offset)
    assert result.stdout == ""


@pytest.mark.parametrize("damage", sorted(DAMAGE))
@pytest.mark.parametrize("ext", sorted(COMPRESSORS))
def test_damage_after_a_qrels_stream_is_one_error_naming_the_offset(
    tmp_path: Path, ext: str, damage: str
) -> None:
    qrels = tmp_path / f"qrels.txt.{ext}"
    data, offset = _damaged(QRELS, ext, damage)
    qrels.write_bytes(data)
    result = CliRunner().invoke(main, ["evaluate", str(qrels), str(RUN), "-m", "map"])
    assert result.exit_code == 2
    _one_error(result.stderr, qrels, offset)


def _per_query(path: Path, values: list[float]) -> bytes:
    rows = "".join(f"{q}\tAP\t{v}\n" for q, v in enumerate(values, start=1))
    return ("query\tmetric\tvalue\n" + rows).encode()


def _study(tmp_path: Path, ext: str, data: bytes) -> tuple[Path, Path]:
    root = tmp_path / "study"
    (root / "dl").mkdir(parents=True)
    (root / "dl" / "dense.tsv").write_bytes(_per_query(root, [0.5, 0.25, 0.125, 0.75]))
    packed = root / "dl" / f"bm25.tsv.{ext}"
    packed.write_bytes(data)
    return root, packed


@pytest.mark.parametrize("ext", sorted(COMPRESSORS))
def test_concatenated_streams_of_a_result_file_are_read_whole(tmp_path: Path, ext: str) -> None:
    from irtables.loaders import load_results

    text = _per_query(tmp_path, [0.1, 0.2, 0.3, 0.4])
    cut = text.index(b"3\t")
    root, _ = _study(tmp_path, ext, COMPRESSORS[ext](text[:cut]) + COMPRESSORS[ext](text[cut:]))
    frame = load_results(root).frame
    bm25 = frame[frame["system"] == "bm25"].sort_values("query")
    assert bm25["query"].tolist() == ["1", "2", "3", "4"]
    assert bm25["value"].tolist() == [0.1, 0.2, 0.3, 0.4]


@pytest.mark.parametrize("damage", sorted(DAMAGE))
@pytest.mark.parametrize("ext", sorted(COMPRESSORS))
def test_damage_after_a_result_file_stream_stops_tables(
    tmp_path: Path, ext: str, damage: str
) -> None:
    text = _per_query(tmp_path, [0.1, 0.2, 0.3, 0.4])
    cut = text.index(b"3\t")
    head = COMPRESSORS[ext](text[:cut])
    rest = text[cut:]
    root, packed = _study(tmp_path, ext, head + DAMAGE[damage](COMPRESSORS[ext](rest), rest))
    result = CliRunner().invoke(main, ["tables", str(root), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2
    _one_error(result.stderr, packed, len(head))
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("ext", sorted(COMPRESSORS))
def test_the_library_raises_one_input_error(tmp_path: Path, ext: str) -> None:
    from irtables.loaders.qrels import read_qrels
    from irtables.loaders.trec_run import read_run

    run, qrels = tmp_path / f"r.run.{ext}", tmp_path / f"q.txt.{ext}"
    data, offset = _damaged(RUN, ext, "appended text")
    run.write_bytes(data)
    data, qoffset = _damaged(QRELS, ext, "appended text")
    qrels.write_bytes(data)
    with pytest.raises(InputError, match=rf"r\.run\.{ext}: .*\bbyte {offset}\b"):
        read_run(run)
    with pytest.raises(InputError, match=rf"q\.txt\.{ext}: .*\bbyte {qoffset}\b"):
        read_qrels(qrels)
