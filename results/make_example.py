"""Regenerate the example experiment's per-query results from the fixtures.

Run by ``make example-data``. For each dataset (TREC CAsT 2021, CACM) every run is evaluated
with pytrec_eval (pytrec-eval-terrier, i.e. trec_eval 9.0.8's code) and written as one tidy
TSV per system, ``results/<dataset>/<system>.tsv``, with the header ``query\\tmetric\\tvalue``
and full-precision values (``repr(float)``), so that means computed from the files are exact.

The fixtures are located through the environment variable ``IRTABLES_FIXTURES``, defaulting
to ``../shared/fixtures`` relative to the repository root.

Conventions (trec_eval's):

* ranking: score descending, ties broken by document id descending (byte-wise); the rank
  column of a run is ignored;
* queries: only those present in both run and qrels; a judged query without any relevant
  document stays and scores 0 on the binary measures (CAsT turn ``111_7``);
* relevance threshold: CAsT counts grade >= 2 as relevant for the binary measures (AP, P,
  R, RR, Success, R-Prec, bpref), which are then named with the threshold (``AP(rel=2)``,
  ``P(rel=2)@10``); nDCG uses the raw grade as gain and is unaffected (``nDCG@10``);
* ``RR@k`` is trec_eval's ``recip_rank`` on the run truncated to its top ``k`` documents per
  query (``trec_eval -M k``): pytrec_eval has no cutoff for ``recip_rank``.
"""

from __future__ import annotations

import gzip
import math
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytrec_eval

from irtables.measures import parse_measure

REPO = Path(__file__).resolve().parent.parent
RESULTS = REPO / "results"
CUTOFFS = (1, 3, 5, 10, 20, 100, 1000)
SUCCESS_CUTOFFS = (1, 5, 10)

Qrels = dict[str, dict[str, int]]
Run = dict[str, dict[str, float]]


@dataclass(frozen=True)
class Dataset:
    """One dataset of the example: where its qrels and runs are, and its threshold."""

    id: str
    qrels: Path
    runs: dict[str, Path]  # system id -> run file
    relevance_level: int


def fixtures_dir() -> Path:
    """The fixtures folder: ``$IRTABLES_FIXTURES`` or ``../shared/fixtures`` from the repo."""
    env = os.environ.get("IRTABLES_FIXTURES")
    return Path(env) if env else (REPO / ".." / "shared" / "fixtures").resolve()


def datasets(fixtures: Path) -> list[Dataset]:
    """The two datasets of the example, with paths inside ``fixtures``."""
    cast = fixtures / "trec_cast2021_baselines" / "data"
    cast_runs = {
        name: cast / "runs" / f"{name}.run.gz"
        for name in (
            "org_manual_bm25",
            "org_manual_ance",
            "org_manual_ance_bert",
            "org_convdr",
            "org_convdr_bert",
        )
    }
    cacm = fixtures / "anserini_cacm" / "data"
    return [
        Dataset("cast2021", cast / "trec-cast-qrels-docs.2021.qrel.gz", cast_runs, 2),
        Dataset("cacm", cacm / "qrels.cacm.txt", {"bm25": cacm / "cacm-bm25.txt"}, 1),
    ]


# --- reading ---------------------------------------------------------------------------


def _lines(path: Path) -> Iterator[list[str]]:
    """Whitespace-split fields of the non-empty lines of a text or gzipped file."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            fields = line.split()
            if fields:
                yield fields


def read_qrels(path: Path) -> Qrels:
    """Qrels lines ``qid iter docid rel``; a duplicated (qid, docid) is an error."""
    qrels: Qrels = {}
    for number, fields in enumerate(_lines(path), 1):
        if len(fields) < 4:
            raise ValueError(f"{path}:{number}: expected 'qid iter docid rel', got {fields}")
        qid, _, docid, rel = fields[:4]
        judged = qrels.setdefault(qid, {})
        if docid in judged:
            raise ValueError(f"{path}:{number}: document {docid} judged twice for {qid}")
        judged[docid] = int(rel)
    return qrels


def read_run(path: Path) -> Run:
    """Run lines ``qid Q0 docid rank score tag``; the rank column is ignored."""
    run: Run = {}
    for number, fields in enumerate(_lines(path), 1):
        if len(fields) < 5:
            raise ValueError(f"{path}:{number}: expected 'qid Q0 docid rank score tag'")
        qid, _, docid, _, score = fields[:5]
        ranking = run.setdefault(qid, {})
        if docid in ranking:
            raise ValueError(f"{path}:{number}: document {docid} retrieved twice for {qid}")
        ranking[docid] = float(score)
    return run


def truncate(run: Run, k: int) -> Run:
    """The top ``k`` documents of each query in trec_eval order (``trec_eval -M k``).

    trec_eval sorts by score descending and breaks ties by document id descending, comparing
    bytes (``strcmp``).
    """
    top: Run = {}
    for qid, ranking in run.items():
        order = sorted(ranking.items(), key=lambda d: (d[1], d[0].encode()), reverse=True)
        top[qid] = dict(order[:k])
    return top


# --- evaluating ------------------------------------------------------------------------


def measure_names(rel: int) -> dict[str, str]:
    """Canonical measure name -> pytrec_eval output key, in the files' metric order.

    Binary measures carry the threshold in their name when it is not 1; ``RR@k`` keys are
    ``recip_rank@k``, computed separately on truncated runs.
    """
    tag = f"(rel={rel})" if rel != 1 else ""
    names: dict[str, str] = {}
    for k in CUTOFFS:
        names[f"nDCG@{k}"] = f"ndcg_cut_{k}"
    for k in CUTOFFS:
        names[f"P{tag}@{k}"] = f"P_{k}"
    for k in CUTOFFS:
        names[f"R{tag}@{k}"] = f"recall_{k}"
    for k in CUTOFFS:
        names[f"RR{tag}@{k}"] = f"recip_rank@{k}"
    names[f"RR{tag}"] = "recip_rank"
    names[f"AP{tag}"] = "map"
    for k in SUCCESS_CUTOFFS:
        names[f"Success{tag}@{k}"] = f"success_{k}"
    names[f"Rprec{tag}"] = "Rprec"
    names[f"Bpref{tag}"] = "bpref"
    for name in names:  # every name must be canonical in irtables' own spelling
        if parse_measure(name).name != name:
            raise AssertionError(f"{name} is not canonical: {parse_measure(name).name}")
    return names


def evaluate(qrels: Qrels, run: Run, rel: int) -> dict[str, dict[str, float]]:
    """Per-query values ``{query: {canonical measure: value}}`` for one run."""
    names = measure_names(rel)
    ks = ",".join(map(str, CUTOFFS))
    wanted = {
        f"ndcg_cut.{ks}",
        f"P.{ks}",
        f"recall.{ks}",
        "recip_rank",
        "map",
        "success." + ",".join(map(str, SUCCESS_CUTOFFS)),
        "Rprec",
        "bpref",
    }
    raw = pytrec_eval.RelevanceEvaluator(qrels, wanted, relevance_level=rel).evaluate(run)
    rr = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}, relevance_level=rel)
    for k in CUTOFFS:
        top = rr.evaluate(truncate(run, k))
        if top.keys() != raw.keys():
            raise AssertionError(f"RR@{k}: query set changed by the truncation")
        for qid, values in top.items():
            raw[qid][f"recip_rank@{k}"] = values["recip_rank"]
    expected = set(qrels) & set(run)
    if set(raw) != expected:
        raise AssertionError(f"pytrec_eval evaluated {len(raw)} queries, expected {expected}")
    out: dict[str, dict[str, float]] = {}
    for qid, values in raw.items():
        row = {name: float(values[key]) for name, key in names.items()}
        if not all(math.isfinite(v) and 0.0 <= v <= 1.0 for v in row.values()):
            raise AssertionError(f"value out of [0, 1] for query {qid}: {row}")
        out[qid] = row
    return out


def write_tsv(path: Path, values: dict[str, dict[str, float]], order: list[str]) -> int:
    """Write ``query\\tmetric\\tvalue`` rows sorted by query, then by ``order``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ["query\tmetric\tvalue"]
    for qid in sorted(values):
        lines.extend(f"{qid}\t{name}\t{values[qid][name]!r}" for name in order)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(lines) - 1


def main() -> int:
    """Evaluate every run of every dataset and write the TSV files under ``results/``."""
    fixtures = fixtures_dir()
    if not fixtures.is_dir():
        print(f"fixtures not found: {fixtures} (set IRTABLES_FIXTURES)", file=sys.stderr)
        return 2
    for dataset in datasets(fixtures):
        qrels = read_qrels(dataset.qrels)
        order = list(measure_names(dataset.relevance_level))
        out_dir = RESULTS / dataset.id
        for stale in out_dir.glob("*.tsv"):
            if stale.stem not in dataset.runs:
                stale.unlink()
        for system, run_path in dataset.runs.items():
            values = evaluate(qrels, read_run(run_path), dataset.relevance_level)
            target = out_dir / f"{system}.tsv"
            rows = write_tsv(target, values, order)
            print(f"{target.relative_to(REPO)}: {len(values)} queries, {rows} values")
    return 0


if __name__ == "__main__":
    sys.exit(main())
