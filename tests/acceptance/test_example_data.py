"""The example experiment in ``results/`` agrees with trec_eval's own outputs.

``results/<dataset>/<system>.tsv`` were written by ``results/make_example.py`` with
pytrec_eval. Here every (query, measure) that also appears in a trec_eval output stored in the
fixtures is compared with it, to trec_eval's 4-decimal printing. The fixtures are found
through ``IRTABLES_FIXTURES`` (default ``../shared/fixtures`` from the repository root); if
they are missing the comparison fails under CI (``CI=true``) and is skipped otherwise.
"""

from __future__ import annotations

import gzip
import math
import os
import re
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from irtables.measures import parse_measure

REPO = Path(__file__).resolve().parents[2]
RESULTS = REPO / "results"
TOLERANCE = 5e-5 + 1e-12  # trec_eval prints 4 decimals

CAST_RUNS = (
    "org_manual_bm25",
    "org_manual_ance",
    "org_manual_ance_bert",
    "org_convdr",
    "org_convdr_bert",
)
CAST_QUERIES = 158
CACM_QUERIES = 52
CUTOFFS = (1, 3, 5, 10, 20, 100, 1000)

PerQuery = dict[tuple[str, str], float]  # (query, measure) -> value
Mapper = Callable[[str], str | None]  # trec_eval measure -> our canonical name (or skip)


def fixtures_dir() -> Path:
    """``$IRTABLES_FIXTURES`` or ``../shared/fixtures`` relative to the repository root."""
    env = os.environ.get("IRTABLES_FIXTURES")
    return Path(env) if env else (REPO / ".." / "shared" / "fixtures").resolve()


def require_fixtures() -> Path:
    """The fixtures folder; the test fails under CI and is skipped elsewhere if missing."""
    path = fixtures_dir()
    if not path.is_dir():
        message = f"fixtures folder not found: {path} (set IRTABLES_FIXTURES)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


def read_ours(dataset: str, system: str) -> PerQuery:
    """A committed tidy TSV of the example, checked for header and duplicates."""
    path = RESULTS / dataset / f"{system}.tsv"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "query\tmetric\tvalue", path
    values: PerQuery = {}
    for line in lines[1:]:
        query, metric, value = line.split("\t")
        assert (query, metric) not in values, f"{path}: duplicate {query} {metric}"
        values[query, metric] = float(value)
    return values


def read_trec_eval(path: Path, mapper: Mapper) -> PerQuery:
    """Lines of a ``trec_eval -q`` output renamed by ``mapper``; means under query ``all``."""
    opener = gzip.open if path.suffix == ".gz" else open
    values: PerQuery = {}
    with opener(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            fields = line.split()
            name = mapper(fields[0]) if len(fields) == 3 else None
            if name is not None:
                values[fields[1], name] = float(fields[2])
    return values


def means(values: PerQuery) -> dict[str, float]:
    """Mean of each measure over the queries (trec_eval's ``all`` line without ``-c``)."""
    sums: dict[str, list[float]] = {}
    for (_, metric), value in values.items():
        sums.setdefault(metric, []).append(value)
    return {metric: math.fsum(v) / len(v) for metric, v in sums.items()}


def binary_mapper(rel: int) -> Mapper:
    """trec_eval names -> our canonical names; binary measures carry ``(rel=N)`` if N != 1."""
    tag = f"(rel={rel})" if rel != 1 else ""
    plain = {
        "map": f"AP{tag}",
        "recip_rank": f"RR{tag}",
        "Rprec": f"Rprec{tag}",
        "bpref": f"Bpref{tag}",
    }
    cut = {"ndcg_cut": "nDCG", "P": f"P{tag}", "recall": f"R{tag}", "success": f"Success{tag}"}

    def mapper(name: str) -> str | None:
        if name in plain:
            return plain[name]
        match = re.fullmatch(r"(ndcg_cut|P|recall|success)_(\d+)", name)
        return f"{cut[match[1]]}@{match[2]}" if match else None

    return mapper


def depth10_mapper(rel: int) -> Mapper:
    """For ``-M 10`` outputs: only ``recip_rank`` is used, as ``RR@10``."""
    tag = f"(rel={rel})" if rel != 1 else ""
    return lambda name: f"RR{tag}@10" if name == "recip_rank" else None


def ndcg_only(name: str) -> str | None:
    """For outputs without ``-l 2``: nDCG does not depend on the threshold."""
    match = re.fullmatch(r"ndcg_cut_(\d+)", name)
    return f"nDCG@{match[1]}" if match else None


def compare(ours: PerQuery, expected: PerQuery, where: str) -> int:
    """Assert agreement on every key present in both; return how many were compared."""
    common = ours.keys() & expected.keys()
    assert common, f"{where}: nothing in common"
    bad = [
        f"{q} {m}: ours {ours[q, m]!r} vs trec_eval {expected[q, m]}"
        for q, m in sorted(common)
        if abs(ours[q, m] - expected[q, m]) > TOLERANCE
    ]
    assert not bad, f"{where}: {len(bad)} disagreements, e.g. " + "; ".join(bad[:5])
    return len(common)


def check_dataset(
    ours: PerQuery, sources: list[tuple[Path, Mapper]], n_queries: int, where: str
) -> int:
    """Compare with every source; every measure of ours except RR@k (k != 10) is covered."""
    compared = 0
    covered: set[tuple[str, str]] = set()
    for path, mapper in sources:
        assert path.is_file(), f"missing fixture file {path}"
        expected = read_trec_eval(path, mapper)
        overall = {m: v for (q, m), v in expected.items() if q == "all"}
        expected = {(q, m): v for (q, m), v in expected.items() if q != "all"}
        assert {q for q, _ in expected} == {q for q, _ in ours}, f"{path}: query sets differ"
        compared += compare(ours, expected, f"{where} vs {path.name}")
        ours_mean = means(ours)
        assert overall, f"{path}: no 'all' lines"
        for metric in overall.keys() & ours_mean.keys():
            assert abs(ours_mean[metric] - overall[metric]) <= TOLERANCE, (path.name, metric)
        covered |= ours.keys() & expected.keys()
    uncovered = {m for _, m in ours.keys() - covered}
    assert {parse_measure(m).family for m in uncovered} <= {"RR"}, uncovered
    assert all(parse_measure(m).k not in (None, 10) for m in uncovered), uncovered
    assert len({q for q, _ in ours}) == n_queries
    return compared


@pytest.mark.parametrize("system", CAST_RUNS)
def test_cast2021_matches_trec_eval(system: str) -> None:
    """CAsT 2021 (``-l 2``): all_trec (9.0.8), cutoffs and ``-M 10`` (10.0)."""
    fixtures = require_fixtures()
    expected = fixtures / "trec_cast2021_baselines" / "expected"
    sources = [
        (expected / "v9.0.8" / system / "q_l2_m_all_trec.txt.gz", binary_mapper(2)),
        (expected / "v10.0" / system / "q_l2_m_cutoffs.txt.gz", binary_mapper(2)),
        (expected / "v10.0" / system / "q_l2_M10_m_recip_rank_map_ndcg.txt.gz", depth10_mapper(2)),
        (expected / "v9.0.8" / system / "q_m_all_trec.txt.gz", ndcg_only),
        (expected / "v10.0" / system / "q_m_cutoffs.txt.gz", ndcg_only),
    ]
    ours = read_ours("cast2021", system)
    compared = check_dataset(ours, sources, CAST_QUERIES, f"cast2021/{system}")
    assert compared > 5000


def test_cacm_matches_trec_eval() -> None:
    """CACM (binary qrels): all_trec, cutoffs and ``-M 10``, trec_eval 9.0.8."""
    fixtures = require_fixtures()
    expected = fixtures / "anserini_cacm" / "expected" / "v9.0.8" / "qrels.cacm__cacm-bm25"
    sources = [
        (expected / "q_m_all_trec.txt", binary_mapper(1)),
        (expected / "q_m_cutoffs_1_3_5_10_20_100_1000.txt", binary_mapper(1)),
        (expected / "q_M10_m_recip_rank_map_ndcg.txt", depth10_mapper(1)),
    ]
    compared = check_dataset(read_ours("cacm", "bm25"), sources, CACM_QUERIES, "cacm/bm25")
    assert compared > 1000


def _all_files() -> list[tuple[str, str]]:
    return [("cast2021", s) for s in CAST_RUNS] + [("cacm", "bm25")]


@pytest.mark.parametrize(("dataset", "system"), _all_files())
def test_files_are_tidy_and_consistent(dataset: str, system: str) -> None:
    """Canonical names, sorted rows, values in [0, 1]; RR@k agrees with RR, P@1 and Success@1.

    RR@k is checked against RR here because trec_eval outputs exist only for k = 10.
    """
    path = RESULTS / dataset / f"{system}.tsv"
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()[1:]]
    metrics = list(dict.fromkeys(m for _, m, _ in rows))
    assert all(parse_measure(m).name == m for m in metrics)
    queries = [q for q, _, _ in rows[:: len(metrics)]]
    assert queries == sorted(set(queries))
    assert [(q, m) for q, m, _ in rows] == [(q, m) for q in queries for m in metrics]
    ours = read_ours(dataset, system)
    assert all(0.0 <= v <= 1.0 and math.isfinite(v) for v in ours.values())
    tag = "(rel=2)" if dataset == "cast2021" else ""
    for query in queries:
        rr = ours[query, f"RR{tag}"]
        for k in CUTOFFS:
            want = rr if rr >= 1 / k - 1e-12 else 0.0
            assert ours[query, f"RR{tag}@{k}"] == want, (query, k)
        assert (
            ours[query, f"RR{tag}@1"] == ours[query, f"P{tag}@1"] == ours[query, f"Success{tag}@1"]
        )
    if dataset == "cast2021":  # the zero-relevant turn under -l 2 is kept and scores 0
        assert ours["111_7", "AP(rel=2)"] == 0.0
        assert ours["111_7", "nDCG@100"] > 0.0


def test_config_names_the_committed_files() -> None:
    """``results/irtables.toml`` refers to datasets and systems that have TSV files."""
    config = tomllib.loads((RESULTS / "irtables.toml").read_text(encoding="utf-8"))
    dataset_ids = [d["id"] for d in config["datasets"]]
    assert sorted(dataset_ids) == sorted(
        p.name for p in RESULTS.iterdir() if p.is_dir() and any(p.glob("*.tsv"))
    )
    files = {p.stem for d in dataset_ids for p in (RESULTS / d).glob("*.tsv")}
    system_ids = {s["id"] for s in config["systems"]}
    assert system_ids == files
    assert config["compare"]["baseline"] in system_ids
    ablation = config["tables"]["ablation"]
    for group in ablation["groups"]:
        assert group["full"] in system_ids
        assert all(row["system"] in system_ids for row in group["rows"])
        assert (RESULTS / ablation["dataset"] / f"{group['full']}.tsv").is_file()
    for table in config["tables"].values():
        for metric in table["metrics"]:
            parse_measure(metric if "k" not in table else f"{metric}@10")
