"""The cache never changes a number (issue 24 §1): an entry is checked against what it was
computed from and as any input, read with bounded memory, never through a link; what
cannot be told without evaluating again is found by ``irtables cache verify``."""

from __future__ import annotations

import json
import shutil
import textwrap
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from irtables.cache.store import _META, _checksum
from irtables.cli import main
from irtables.errors import DataWarning
from irtables.evaluator.values import RunValues
from tests.conftest import peak_memory_of
from tests.unit.test_cache import N_RUNS, _entries, _evaluate, _study

pytestmark = pytest.mark.filterwarnings("ignore:.*judged queries are not in the run")
NOT_USED = r"cache entry not used"


def _entry_of(root: Path, system: str) -> Path:
    for entry in _entries(root):
        meta = json.loads(pq.read_schema(entry).metadata[_META])
        if meta["system"] == system:
            return entry
    raise AssertionError(f"no entry of {system}")


def _forge(entry: Path, change: Callable[[dict[str, np.ndarray], dict[str, object]], None]) -> None:
    """Rewrite an entry as a forger would: change its columns or metadata, then make its
    checksum agree again."""
    table = pq.read_table(entry)
    meta = json.loads(table.schema.metadata[_META])
    columns = {name: table.column(name).to_numpy().copy() for name in table.column_names}
    change(columns, meta)
    metrics = [c for c in columns if c.startswith("m")]
    values = RunValues(
        system=meta["system"],
        runid=meta["runid"],
        query_index=columns["query_index"].astype(np.int64),
        retrieved=columns["retrieved"].astype(np.bool_),
        metrics=tuple(meta["metrics"]),
        values=np.vstack([columns[m] for m in metrics]).astype(np.float64),
        relevant_total=meta["relevant_total"],
        notes=tuple(meta["notes"]),
    )
    meta["checksum"] = _checksum(values)
    types = {"query_index": pa.int64(), "retrieved": pa.bool_()}
    arrays = {c: pa.array(v, type=types.get(c, pa.float64())) for c, v in columns.items()}
    forged = pa.table(arrays).replace_schema_metadata({_META: json.dumps(meta).encode()})
    pq.write_table(forged, entry, compression="zstd")


def _ap(results: object, system: str) -> float:
    frame = results.frame  # type: ignore[attr-defined]
    rows = frame[(frame["system"] == system) & (frame["metric"] == "AP")]
    return float(rows["value"].mean())


def test_an_untouched_cache_verifies(tmp_path: Path) -> None:
    root = _study(tmp_path)
    _evaluate(root)
    result = CliRunner().invoke(main, ["cache", "verify", str(root)])
    assert result.exit_code == 0, result.output
    assert f"checked {N_RUNS} of {N_RUNS} cache entries: 0 differ" in result.stdout


def test_forged_values_are_found_by_verify(tmp_path: Path) -> None:
    """Metadata and values rewritten, checksum recomputed: such an entry checks out when
    read (the cache is as trusted as its folder), and ``cache verify`` reports it."""
    root = _study(tmp_path)
    fresh, _ = _evaluate(root)
    entry = _entry_of(root, "r1")

    def raise_ap(columns: dict[str, np.ndarray], meta: dict[str, object]) -> None:
        columns["m0"] = np.full(len(columns["m0"]), 0.99)

    _forge(entry, raise_ap)
    forged, evaluated = _evaluate(root)
    assert evaluated == 0 and _ap(forged, "r1") == pytest.approx(0.99)
    assert _ap(fresh, "r1") != pytest.approx(0.99)
    result = CliRunner().invoke(main, ["cache", "verify", str(root)])
    assert result.exit_code == 1, result.output
    differs = [line for line in result.stdout.splitlines() if line.startswith("differs:")]
    assert len(differs) == 1 and entry.name in differs[0] and "r1.run" in differs[0]
    assert "AP of query" in differs[0] and "cached 0.99" in differs[0]
    assert f"checked {N_RUNS} of {N_RUNS} cache entries: 1 differ" in result.stdout
    sampled = CliRunner().invoke(main, ["cache", "verify", str(root), "--sample", str(N_RUNS)])
    assert sampled.exit_code == 1 and entry.name in sampled.stdout
    one = CliRunner().invoke(main, ["cache", "verify", str(root), "--sample", "1", "--seed", "0"])
    assert "checked 1 of 4 cache entries" in one.stdout
    clean, _ = _evaluate(root, cache=False)
    assert clean.frame.equals(fresh.frame)  # type: ignore[attr-defined]


def test_another_runs_entry_under_this_key_is_not_used(tmp_path: Path) -> None:
    """r0's entry copied (or renamed) to r1's file: its description names r0's run."""
    root = _study(tmp_path)
    fresh, _ = _evaluate(root)
    r0, r1 = _entry_of(root, "r0"), _entry_of(root, "r1")
    shutil.copyfile(r0, r1)
    with pytest.warns(DataWarning, match=f"{r1.name}: {NOT_USED} .computed from other inputs"):
        again, evaluated = _evaluate(root)
    assert evaluated == 1
    assert again.frame.equals(fresh.frame)  # type: ignore[attr-defined]


def test_another_runs_values_with_a_forged_description_are_found_by_verify(
    tmp_path: Path,
) -> None:
    root = _study(tmp_path)
    _evaluate(root)
    r0, r1 = _entry_of(root, "r0"), _entry_of(root, "r1")
    r1_meta = json.loads(pq.read_schema(r1).metadata[_META])

    def as_r1(columns: dict[str, np.ndarray], meta: dict[str, object]) -> None:
        meta.update({k: r1_meta[k] for k in ("description", "system")})

    shutil.copyfile(r0, r1)
    _forge(r1, as_r1)
    result = CliRunner().invoke(main, ["cache", "verify", str(root)])
    assert result.exit_code == 1 and r1.name in result.stdout, result.output


@pytest.mark.parametrize(
    ("column", "value", "reason"),
    [
        ("m0", np.nan, "expected a finite number"),  # AP
        ("m0", 5.0, r"expected a value in \[0, 1\] for AP, got 5"),
        ("m1", -0.5, r"expected a value in \[0, 1\] for P@5"),
        ("m4", -1.0, "expected a non-negative integer count for NumRel"),
        ("m4", 2.5, "expected a non-negative integer count for NumRel"),
        ("m2", np.inf, "expected a finite number"),
    ],
    ids=["nan", "map-5", "negative-p5", "negative-count", "fractional-count", "inf"],
)
def test_values_no_input_may_hold_are_not_used(
    tmp_path: Path, column: str, value: float, reason: str
) -> None:
    root = _study(tmp_path)
    fresh, _ = _evaluate(root)

    def spoil(columns: dict[str, np.ndarray], meta: dict[str, object]) -> None:
        columns[column][1] = value

    _forge(_entry_of(root, "r2"), spoil)
    with pytest.warns(DataWarning, match=f"{NOT_USED} .a value no input may hold: {reason}"):
        again, evaluated = _evaluate(root)
    assert evaluated == 1
    assert again.frame.equals(fresh.frame)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("positions", "reason"),
    [("past", "a query the qrels do not have"), ("repeated", "query positions are not increasing")],
)
def test_a_corrupt_query_index_is_evaluated_again(
    tmp_path: Path, positions: str, reason: str
) -> None:
    """Query positions past the qrels' queries gave ``internal error (IndexError)`` until
    ``cache clear``."""
    root = _study(tmp_path)
    fresh, _ = _evaluate(root)

    def corrupt(columns: dict[str, np.ndarray], meta: dict[str, object]) -> None:
        index = columns["query_index"]
        if positions == "past":
            index[-1] = 10**6
        else:
            index[1] = index[0]

    _forge(_entry_of(root, "r3"), corrupt)
    with pytest.warns(DataWarning, match=f"{NOT_USED} .{reason}"):
        again, evaluated = _evaluate(root)
    assert evaluated == 1
    assert again.frame.equals(fresh.frame)  # type: ignore[attr-defined]
    result = CliRunner().invoke(main, ["tables", str(root), "-f", "csv"])
    assert result.exit_code == 0 and "internal error" not in result.output


def test_a_linked_entry_is_not_followed(tmp_path: Path) -> None:
    (tmp_path / "study").mkdir()
    root = _study(tmp_path / "study")
    fresh, _ = _evaluate(root)
    entry = _entry_of(root, "r1")
    outside = tmp_path / "outside.parquet"
    shutil.copyfile(entry, outside)  # a valid entry, outside the study
    before = outside.read_bytes()
    entry.unlink()
    entry.symlink_to(outside)
    with pytest.warns(DataWarning, match=f"{NOT_USED} .not a regular file"):
        again, evaluated = _evaluate(root)
    assert evaluated == 1
    assert again.frame.equals(fresh.frame)  # type: ignore[attr-defined]
    assert outside.read_bytes() == before
    assert entry.is_file() and not entry.is_symlink()  # the link replaced, not its target


def test_a_damaged_entry_is_said_in_one_line_by_the_cli(tmp_path: Path) -> None:
    root = _study(tmp_path)
    _evaluate(root)
    _entry_of(root, "r0").write_bytes(b"PAR1 not really")
    result = CliRunner().invoke(main, ["tables", str(root), "-f", "csv"])
    assert result.exit_code == 0, result.output
    warned = [line for line in result.output.splitlines() if NOT_USED in line]
    assert len(warned) == 1 and warned[0].startswith("Warning: ")


def _bomb(entry: Path, rows: int) -> None:
    """An entry with ``entry``'s metadata declaring ``rows`` query rows of zeros: a few
    hundred kB on disk, about ``rows`` x 49 bytes once read."""
    meta = pq.read_schema(entry).metadata
    schema = pq.read_schema(entry).remove_metadata()
    block = 1 << 20
    arrays = [
        pa.array(np.zeros(block, dtype=np.int64))
        if f.name == "query_index"
        else pa.array(np.ones(block, dtype=bool))
        if f.name == "retrieved"
        else pa.array(np.zeros(block))
        for f in schema
    ]
    with pq.ParquetWriter(entry, schema.with_metadata(meta), compression="zstd") as writer:
        for _ in range(rows // block):
            writer.write_table(pa.Table.from_arrays(arrays, schema=schema))


def test_an_entry_declaring_more_queries_than_its_qrels_costs_nothing(tmp_path: Path) -> None:
    """A small entry declaring 16 million queries (784 MB of values) is refused from its
    footer: the child's peak memory stays far below what reading it would take."""
    root = _study(tmp_path)
    _evaluate(root)
    entry = _entry_of(root, "r1")
    _bomb(entry, 16 << 20)
    assert entry.stat().st_size < 4 << 20
    code = textwrap.dedent(
        f"""
        import warnings
        from pathlib import Path
        from irtables.study.load import load_study
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            load_study(Path({str(root)!r}), jobs=1)
        print("\\n".join(str(w.message) for w in caught))
        """
    )
    peak, done = peak_memory_of(code)
    assert "declares 16777216 queries, more than its qrels can judge" in done.stdout
    assert peak < 300 << 20, f"peak memory {peak >> 20} MiB"


def test_verify_lists_damaged_and_unrelated_entries(tmp_path: Path) -> None:
    root = _study(tmp_path)
    _evaluate(root)
    damaged = _entry_of(root, "r0")
    damaged.write_bytes(b"not parquet")
    (root / "runs" / "r3.run").unlink()  # its entry is now of a run the study lacks
    result = CliRunner().invoke(main, ["cache", "verify", str(root)])
    assert result.exit_code == 1, result.output
    differs = [line for line in result.stdout.splitlines() if line.startswith("differs:")]
    assert (
        len(differs) == 1 and damaged.name in differs[0] and "damaged: not a Parquet" in differs[0]
    )
    assert f"checked {N_RUNS - 1} of {N_RUNS} cache entries: 1 differ" in result.stdout
    assert "1 entries were not checked" in result.stdout
