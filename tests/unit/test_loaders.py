"""Loaders: every format, the fixtures, and every malformed file -> ``file:line``."""

from __future__ import annotations

import gzip
import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from irtables.errors import InputError, UnknownNameError
from irtables.loaders import LOADERS, detect_format, load_file
from tests.conftest import FIXTURES as SHARED_FIXTURES

DATA = Path(__file__).resolve().parents[1] / "data"
CLEAN = DATA / "clean"
MALFORMED = DATA / "malformed"
FIXTURES = SHARED_FIXTURES / "perquery_dumps"
# Skipped only outside CI: under CI a missing fixtures folder makes these tests fail.
needs_fixtures = pytest.mark.skipif(
    not FIXTURES.is_dir() and not os.environ.get("CI"), reason="shared fixtures not present"
)

# The four rows every file in tests/data/clean holds, as (query, canonical metric, value).
EXPECTED = {("0301", "P@10", 0.5), ("0301", "AP", 0.25), ("302", "P@10", 0.1), ("302", "AP", 0.125)}


def rows(frame: pd.DataFrame) -> set[tuple[str, str, float]]:
    """(query, metric, value) triples, leaving out the count NumRet of the trec_eval file."""
    triples = frame[["query", "metric", "value"]].values
    return {(str(q), str(m), float(v)) for q, m, v in triples if m != "NumRet"}


# --- clean files ----------------------------------------------------------------------

CLEAN_CASES = [
    ("bm25.tsv", "tidy"),
    ("bm25_bom_crlf.tsv", "tidy"),
    ("bm25_blank_lines.tsv", "tidy"),
    ("bm25.csv", "tidy"),
    ("bm25.jsonl", "tidy"),
    ("bm25_wide.csv", "wide"),
    ("bm25.json", "json"),
    ("bm25.eval", "trec_eval"),
    ("bm25_irm.tsv", "ir_measures"),
    ("pyterrier.csv", "pyterrier"),
]


@pytest.mark.parametrize(("name", "fmt"), CLEAN_CASES, ids=[c[0] for c in CLEAN_CASES])
def test_clean_file_detected_and_read(name: str, fmt: str) -> None:
    loaded = load_file(CLEAN / name)
    assert loaded.format == fmt
    assert detect_format(CLEAN / name) == fmt
    assert rows(loaded.frame) == EXPECTED
    assert loaded.frame["value"].dtype == np.float64
    assert all(isinstance(q, str) for q in loaded.frame["query"])


@pytest.mark.parametrize(("name", "fmt"), CLEAN_CASES, ids=[c[0] for c in CLEAN_CASES])
def test_gzip_variant_reads_the_same(name: str, fmt: str, tmp_path: Path) -> None:
    target = tmp_path / (name + ".gz")
    target.write_bytes(gzip.compress((CLEAN / name).read_bytes()))
    loaded = load_file(target)
    assert loaded.format == fmt
    assert rows(loaded.frame) == EXPECTED


def test_gzip_detected_by_magic_bytes_without_extension(tmp_path: Path) -> None:
    target = tmp_path / "bm25"
    target.write_bytes(gzip.compress((CLEAN / "bm25.eval").read_bytes()))
    assert load_file(target).format == "trec_eval"


def test_bom_and_crlf_give_the_same_frame_as_the_clean_file() -> None:
    clean = load_file(CLEAN / "bm25.tsv").frame
    other = load_file(CLEAN / "bm25_bom_crlf.tsv").frame
    pd.testing.assert_frame_equal(clean, other)


def test_trec_eval_summary_runid_and_skipped_lines() -> None:
    loaded = load_file(CLEAN / "bm25.eval")
    assert loaded.runid == "bm25"
    # num_ret rows are per-query counts; num_q, runid and relstring are skipped
    assert sorted(set(loaded.frame["metric"].astype(str))) == ["AP", "NumRet", "P@10"]
    summary = dict(zip(loaded.summary["metric"], loaded.summary["value"], strict=True))
    assert summary == {"NumRet": 2000.0, "P@10": 0.3, "AP": 0.1875}


def test_pyterrier_name_is_the_system() -> None:
    frame = load_file(CLEAN / "pyterrier.csv").frame
    assert list(frame.columns) == ["system", "query", "metric", "value"]
    assert set(frame["system"].astype(str)) == {"BM25"}


def test_explicit_format_overrides_detection() -> None:
    # an ir_measures dump read as trec_eval swaps query and measure: the measure is unknown
    with pytest.raises(UnknownNameError, match=r"bm25_irm\.tsv:1: unknown measure '0301'"):
        load_file(CLEAN / "bm25_irm.tsv", input_format="trec_eval")


def test_unknown_format_name_suggests_the_closest() -> None:
    with pytest.raises(UnknownNameError, match="did you mean 'trec_eval'"):
        load_file(CLEAN / "bm25.eval", input_format="trec-eval")


def test_registry_records() -> None:
    assert set(LOADERS) == {"trec_eval", "ir_measures", "tidy", "wide", "json", "pyterrier"}
    for name, loader in LOADERS.items():
        assert loader.name == name
        assert loader.description
        assert loader.extensions


def test_query_ids_stay_strings_everywhere(tmp_path: Path) -> None:
    target = tmp_path / "x.json"
    target.write_text('{"0301": {"P_10": 1}, "301": {"P_10": 0}}')
    assert set(load_file(target).frame["query"].astype(str)) == {"0301", "301"}


@pytest.mark.parametrize("wide", [False, True], ids=["tidy", "wide"])
def test_parquet_integer_query_ids_become_strings(tmp_path: Path, wide: bool) -> None:
    target = tmp_path / "bm25.parquet"
    if wide:
        table = pa.table({"qid": [301, 302], "P@10": [0.5, 0.1], "AP": [0.25, 0.125]})
    else:
        table = pa.table(
            {
                "qid": [301, 301, 302, 302],
                "measure": ["P@10", "AP", "P@10", "AP"],
                "value": [0.5, 0.25, 0.1, 0.125],
            }
        )
    pq.write_table(table, target)
    loaded = load_file(target)
    assert loaded.format == ("wide" if wide else "tidy")
    expected = {(q.lstrip("0"), m, v) for q, m, v in EXPECTED}
    assert rows(loaded.frame) == expected


def test_tidy_parquet_with_system_and_dataset(tmp_path: Path) -> None:
    target = tmp_path / "all.parquet"
    frame = pd.DataFrame(
        {
            "dataset": ["dl19", "dl19"],
            "system": ["a", "b"],
            "query": ["1", "1"],
            "metric": ["ndcg_cut_10", "nDCG@10"],
            "value": [0.5, 0.25],
        }
    )
    frame.to_parquet(target)
    loaded = load_file(target)
    assert list(loaded.frame.columns) == ["system", "dataset", "query", "metric", "value"]
    assert set(loaded.frame["metric"].astype(str)) == {"nDCG@10"}


def test_wide_empty_cell_is_a_missing_metric(tmp_path: Path) -> None:
    target = tmp_path / "w.csv"
    target.write_text("qid,P_10,map\n1,0.5,\n2,0.25,0.5\n")
    assert rows(load_file(target).frame) == {
        ("1", "P@10", 0.5),
        ("2", "P@10", 0.25),
        ("2", "AP", 0.5),
    }


DELIMITED = {
    "tidy": ("system,qid,measure,value", ["bm25,1,P_10,0.5", "bm25,2,P_10,0.25", "bm25,2,map,{v}"]),
    "wide": ("system,qid,P_10,map", ["bm25,1,0.5,", "bm25,2,0.25,{v}"]),
}


@pytest.mark.parametrize("blank", [False, True], ids=["pyarrow", "exact"])
@pytest.mark.parametrize("layout", sorted(DELIMITED))
def test_tidy_and_wide_text_read_the_same_on_either_path(
    tmp_path: Path, layout: str, blank: bool
) -> None:
    """Blank lines (more line ends than rows could fill) send a file to the exact (csv
    module) path, which must give the rows, the system and the line numbers pyarrow's
    path gives."""
    header, body = DELIMITED[layout]
    lines = [header, *body[:-1], *([""] * 20 if blank else []), body[-1]]
    target = tmp_path / f"{layout}.csv"
    target.write_text("\n".join(lines).format(v="0.5") + "\n")
    loaded = load_file(target, input_format=layout)
    assert rows(loaded.frame) == {("1", "P@10", 0.5), ("2", "P@10", 0.25), ("2", "AP", 0.5)}
    assert set(loaded.frame["system"].astype(str)) == {"bm25"}
    target.write_text("\n".join(lines).format(v="1.5") + "\n")
    with pytest.raises(InputError) as info:
        load_file(target, input_format=layout)
    assert info.value.line == len(lines)  # the last line, blank lines counted
    assert "expected a value in [0, 1] for AP, got 1.5" in str(info.value)


def test_large_tidy_file_takes_the_fast_path_and_keeps_line_numbers(tmp_path: Path) -> None:
    n = 5000
    lines = ["query\tmetric\tvalue"] + [f"q{i}\tP@10\t0.5" for i in range(n)]
    lines[4001] = "q4000\tP@10\t2.0"  # physical line 4002
    target = tmp_path / "big.tsv"
    target.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError) as info:
        load_file(target)
    assert info.value.line == 4002
    assert "expected a value in [0, 1] for P@10, got 2" in str(info.value)


# --- malformed files: one defect each ----------------------------------------------

MALFORMED_CASES = [
    ("trec_eval_fields.txt", 3, "expected 3 tab-separated fields (measure, query, value), got 2"),
    ("trec_eval_non_numeric.txt", 2, "expected a number as value (third field), got 'abc'"),
    ("trec_eval_negative_count.txt", 2, "expected a non-negative integer count for NumRet, got -3"),
    ("trec_eval_fractional_count.txt", 2, "non-negative integer count for NumRel, got 2.5"),
    ("trec_eval_unknown_metric.txt", 2, "unknown measure 'ndcg_cutt_10'; did you mean"),
    ("tidy_nan.tsv", 3, "expected a finite number, got nan (query 302, metric P@10)"),
    ("tidy_inf.csv", 4, "expected a finite number, got inf (query 303, metric P@10)"),
    ("tidy_fields.csv", 3, "expected 3 comma-separated fields (query, metric, value), got 2"),
    ("tidy_duplicate.tsv", 4, "query 301 has metric P@10 twice (first on line 2)"),
    ("tidy_out_of_range.tsv", 3, "expected a value in [0, 1] for nDCG@10, got 1.5"),
    ("tidy_non_numeric.csv", 3, "expected a number as value, got 'n/a'"),
    ("tidy_missing_column.csv", 1, "missing column(s) metric"),
    ("tidy_extra_column.csv", 1, "unexpected column 'std'"),
    ("tidy_header_only.csv", None, "no per-query rows found"),
    ("empty.tsv", None, "empty file"),
    ("wide_non_numeric.csv", 3, "expected a number as value, got 'x'"),
    ("wide_unknown_metric.csv", 1, "unknown measure 'mapp'"),
    ("json_repeated_key.json", None, "key '301' appears twice"),
    ("json_syntax.json", 2, "invalid JSON: Expecting value"),
    ("json_string_value.json", None, "query '301', metric 'P_10': expected a number, got '0.5'"),
    ("jsonl_bad_value.jsonl", 2, "expected a number as value, got None"),
    ("not_utf8.tsv", 3, "expected UTF-8 text"),
]


@pytest.mark.parametrize(
    ("name", "line", "message"), MALFORMED_CASES, ids=[c[0] for c in MALFORMED_CASES]
)
def test_malformed_file_names_file_line_and_expectation(
    name: str, line: int | None, message: str
) -> None:
    path = MALFORMED / name
    with pytest.raises(InputError) as info:
        load_file(path)
    err = info.value
    assert err.path == str(path)
    assert err.line == line
    assert message in str(err)
    where = f"{path}:{line}: " if line is not None else f"{path}: "
    assert str(err).startswith(where)


def test_every_malformed_file_is_covered() -> None:
    covered = {c[0] for c in MALFORMED_CASES} | {"pyterrier_no_name.csv"}
    assert {p.name for p in MALFORMED.iterdir()} == covered


def test_pyterrier_without_name_column() -> None:
    with pytest.raises(InputError, match=r"pyterrier_no_name\.csv:1: expected a PyTerrier header"):
        load_file(MALFORMED / "pyterrier_no_name.csv", input_format="pyterrier")


@pytest.mark.parametrize("name", ["tidy_nan.tsv", "tidy_duplicate.tsv", "tidy_fields.csv"], ids=str)
def test_malformed_gzip_reports_the_same_line(name: str, tmp_path: Path) -> None:
    plain = tmp_path / name
    shutil.copy(MALFORMED / name, plain)
    packed = tmp_path / (name + ".gz")
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    with pytest.raises(InputError) as a:
        load_file(plain)
    with pytest.raises(InputError) as b:
        load_file(packed)
    assert (a.value.line, a.value.reason) == (b.value.line, b.value.reason)


def test_undetectable_content(tmp_path: Path) -> None:
    target = tmp_path / "notes.txt"
    target.write_text("hello world\n")
    with pytest.raises(InputError, match=r"notes\.txt:1: cannot tell the format"):
        load_file(target)


# --- real fixtures: independent reading of the raw text -------------------------------


def _raw_trec_eval(path: Path) -> dict[tuple[str, str], float]:
    out = {}
    for line in path.read_text().splitlines():
        measure, query, value = line.split("\t")
        if query != "all" and measure.strip() not in ("runid", "num_q", "relstring"):
            out[(measure.strip(), query)] = float(value)
    return out


CAST = sorted((FIXTURES / "trec_eval_q" / "cast2021").glob("*.txt")) if FIXTURES.is_dir() else []


@needs_fixtures
@pytest.mark.parametrize("path", CAST, ids=[p.stem for p in CAST])
def test_trec_eval_fixture_matches_raw_text(path: Path) -> None:
    loaded = load_file(path)
    raw = _raw_trec_eval(path)
    names = {"map": "AP", "P_3": "P@3", "ndcg_cut_3": "nDCG@3", "ndcg_cut_10": "nDCG@10",
             "recip_rank": "RR", "recall_500": "R@500"}  # fmt: skip
    got = {(str(m), str(q)): v for q, m, v in loaded.frame[["query", "metric", "value"]].values}
    assert got == {(names[m], q): v for (m, q), v in raw.items()}
    assert len(loaded.frame) == 158 * 6
    assert "111_7" in set(loaded.frame["query"].astype(str))
    assert loaded.frame["query"].cat.categories.dtype.kind in "OUT"  # strings


@needs_fixtures
@pytest.mark.parametrize("path", CAST, ids=[p.stem for p in CAST])
def test_trec_eval_and_ir_measures_dumps_agree(path: Path) -> None:
    te = load_file(path).frame
    irm = load_file(FIXTURES / "ir_measures_q" / "cast2021" / f"{path.stem}.tsv").frame
    # trec_eval was run with -l 2: its map is AP(rel=2), its recip_rank RR(rel=2), ...
    pairs = [("AP", "AP(rel=2)"), ("RR", "RR(rel=2)"), ("P@3", "P(rel=2)@3"),
             ("R@500", "R(rel=2)@500"), ("nDCG@3", "nDCG@3"), ("nDCG@10", "nDCG@10")]  # fmt: skip
    for te_name, irm_name in pairs:
        a = te[te["metric"] == te_name].set_index("query")["value"].sort_index()
        b = irm[irm["metric"] == irm_name].set_index("query")["value"].sort_index()
        assert list(a.index.astype(str)) == list(b.index.astype(str))
        np.testing.assert_array_equal(a.to_numpy(), b.to_numpy())


@needs_fixtures
def test_trec_eval_fixture_summary_equals_all_rows() -> None:
    path = FIXTURES / "trec_eval_q" / "cacm" / "cacm-bm25.txt"
    loaded = load_file(path)
    raw = {
        line.split("\t")[0].strip(): float(line.split("\t")[2])
        for line in path.read_text().splitlines()
        if line.split("\t")[1] == "all" and not line.startswith(("runid", "num_q"))
    }
    got = dict(zip(loaded.summary["metric"].astype(str), loaded.summary["value"], strict=True))
    assert got["AP"] == raw["map"]
    assert got["P@30"] == raw["P_30"]
    means = loaded.frame.groupby("metric", observed=True)["value"].mean()
    assert abs(means["P@30"] - raw["P_30"]) < 5e-5


ROOT = FIXTURES.parent
ALL_TREC = (
    sorted(p for p in ROOT.glob("*/expected/v*/**/*all_trec.txt*") if p.suffix != ".err")
    if FIXTURES.is_dir()
    else []
)


@needs_fixtures
@pytest.mark.parametrize(
    "path", ALL_TREC, ids=[str(p.relative_to(ROOT)).replace("/expected", "") for p in ALL_TREC]
)
def test_every_all_trec_output_of_both_trec_eval_versions_loads(path: Path) -> None:
    loaded = load_file(path)
    assert loaded.format == "trec_eval"
    assert not loaded.summary.empty
    assert loaded.runid is not None
    metrics = set(loaded.frame["metric"].astype(str))
    assert {"AP", "P@10", "nDCG@10", "NumRet"} <= metrics


def test_small_files_read_from_memory_as_large_ones_stream(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A small plain qrels is parsed from memory as one block, a small run's rows are
    estimated rather than counted; a file over ``IN_MEMORY_BYTES`` streams. Either way
    the same arrays come out."""
    import irtables.loaders.trec_run as trec_run
    from irtables.loaders.qrels import read_qrels
    from irtables.loaders.trec_run import read_run

    qrels, run = tmp_path / "q.txt", tmp_path / "r.run"
    qrels.write_text("".join(f"{q} 0 d{d} {d % 3}\n" for q in range(40) for d in range(50)))
    run.write_text("".join(f"{q} Q0 d{d} {d} {-d} r\n" for q in range(30) for d in range(60)))
    small_q, small_r = read_qrels(qrels), read_run(run)
    monkeypatch.setattr(trec_run, "IN_MEMORY_BYTES", 1024)
    large_q, large_r = read_qrels(qrels), read_run(run)
    assert small_q.docid.equals(large_q.docid) and small_q.qid.equals(large_q.qid)
    assert small_q.grade.tolist() == large_q.grade.tolist()
    assert small_r.docid.to_pylist() == large_r.docid.to_pylist()
    assert (
        small_r.score.tolist()
        == large_r.score.tolist()
        == [-d for _ in range(30) for d in range(60)]
    )
    assert small_r.query_codes.tolist() == large_r.query_codes.tolist()
    assert len(small_r) == 1800 and small_r.runid == "r"
