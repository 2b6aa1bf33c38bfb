"""Write a large synthetic study of per-query results, for benchmarking the table pipeline.

Layout (the same as ``results/``)::

    DIR/irtables.toml
    DIR/<dataset>/<system>.tsv      # header "query\\tmetric\\tvalue", one row per (query, metric)

Defaults: 5 datasets x 10 systems x 7,000 queries x 40 metrics (14 million rows, about
400 MB). Values are seeded (``numpy.random.default_rng(seed)``) and plausible: each query
has a difficulty shared by all systems of its dataset, each system a skill, and every
measure keeps its value set (P@K a multiple of 1/K, RR a reciprocal rank, Success 0/1, R@K
non-decreasing in K), so paired tests and best/second-best marks have something to find.

Usage: ``python bench/make_synthetic.py DIR [--datasets 5 --systems 10 --queries 7000]``.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

KS = (1, 3, 5, 10, 20, 50, 100, 1000)
SUCCESS_KS = (1, 5, 10)
#: 40 canonical measure names: nDCG/P/R/RR at 8 cutoffs + nDCG, RR, AP, R-Prec, bpref, Success.
METRICS: tuple[str, ...] = (
    *(f"nDCG@{k}" for k in KS),
    *(f"P@{k}" for k in KS),
    *(f"R@{k}" for k in KS),
    *(f"RR@{k}" for k in KS),
    "nDCG",
    "RR",
    "AP",
    "Rprec",
    "Bpref",
    *(f"Success@{k}" for k in SUCCESS_KS),
)
assert len(METRICS) == 40
HEADER = b"query\tmetric\tvalue\n"


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def system_values(
    rng: np.random.Generator, difficulty: np.ndarray, skill: float
) -> dict[str, np.ndarray]:
    """Per-query values of every metric for one system (arrays of ``len(difficulty)``)."""
    n = len(difficulty)
    quality = _sigmoid(difficulty + skill + rng.normal(0.0, 0.8, n))  # in (0, 1)
    n_rel = np.maximum(1, rng.poisson(30.0 * quality + 3.0, n))  # relevant documents
    # rank of the first relevant document: geometric, earlier for better queries
    first = rng.geometric(np.clip(quality, 0.02, 0.98))
    out: dict[str, np.ndarray] = {}
    for k in KS:
        depth_share = 1.0 - np.exp(-k / (20.0 * (1.2 - quality)))
        relret = np.minimum(rng.binomial(np.minimum(n_rel, k), quality), k)
        relret = np.where(first <= k, np.maximum(relret, 1), 0)
        out[f"P@{k}"] = relret / k
        recall = np.minimum(1.0, depth_share * quality + relret / n_rel * (1 - quality))
        out[f"R@{k}"] = np.where(first <= k, recall, 0.0)
        out[f"RR@{k}"] = np.where(first <= k, 1.0 / first, 0.0)
        out[f"nDCG@{k}"] = np.clip(quality * depth_share**0.3 + rng.normal(0, 0.05, n), 0, 1)
    for a, b in itertools.pairwise(KS):  # recall grows with K
        out[f"R@{b}"] = np.maximum(out[f"R@{b}"], out[f"R@{a}"])
    out["nDCG"] = np.clip(np.maximum(out["nDCG@1000"], quality * 0.9), 0, 1)
    out["RR"] = 1.0 / first
    out["AP"] = np.clip(quality**1.6 + rng.normal(0, 0.04, n), 0, 1)
    out["Rprec"] = np.round(np.clip(quality**1.3, 0, 1) * n_rel) / n_rel
    out["Bpref"] = np.clip(quality**1.2 + rng.normal(0, 0.05, n), 0, 1)
    for k in SUCCESS_KS:
        out[f"Success@{k}"] = (first <= k).astype(np.float64)
    return out


def write_tsv(path: Path, queries: pa.Array, values: dict[str, np.ndarray]) -> None:
    """Write one tidy file, rows ordered by query, then metric (as ``results/`` does)."""
    n_q, n_m = len(queries), len(METRICS)
    stacked = np.stack([values[m] for m in METRICS], axis=1).reshape(-1)  # query-major
    table = pa.table(
        {
            "query": queries.take(pa.array(np.repeat(np.arange(n_q), n_m))),
            "metric": pa.array(METRICS).take(pa.array(np.tile(np.arange(n_m), n_q))),
            "value": stacked,
        }
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        handle.write(HEADER)
        options = pacsv.WriteOptions(include_header=False, delimiter="\t", quoting_style="none")
        pacsv.write_csv(table, handle, options)


def config_text(datasets: list[str], systems: list[str]) -> str:
    """An ``irtables.toml`` for the study: main table, K breakdown and an ablation."""
    lines = [
        "# Synthetic benchmark study, written by bench/make_synthetic.py.",
        "[output]",
        'dir = "tables"',
        'formats = ["latex", "markdown", "csv"]',
        "decimals = 3",
        "second_best = true",
        "",
    ]
    for d in datasets:
        lines += ["[[datasets]]", f'id = "{d}"', f'name = "Dataset {d[1:]}"', ""]
    for s in systems:
        lines += ["[[systems]]", f'id = "{s}"', f'name = "System {s[1:]}"', ""]
    lines += [
        "[compare]",
        f'baseline = "{systems[0]}"',
        "",
        "[tables.main]",
        'metrics = ["NDCG@10", "MRR@10", "MAP", "P@10", "R@100"]',
        'caption = "Synthetic study: main results."',
        'label = "tab:main"',
        "",
        "[tables.k_breakdown]",
        'metrics = ["NDCG", "P", "R", "MRR"]',
        f"k = [{', '.join(map(str, KS))}]",
        'caption = "Synthetic study: cutoffs on {dataset}."',
        'label = "tab:s1-{dataset}"',
        "",
        "[tables.ablation]",
        f'dataset = "{datasets[0]}"',
        'metrics = ["NDCG@3", "NDCG@10", "MAP", "MRR"]',
        "delta = true",
        'caption = "Synthetic study: ablation."',
        'label = "tab:ablation"',
        "[[tables.ablation.groups]]",
        'name = "Full system"',
        f'full = "{systems[-1]}"',
        "rows = [",
        f'  {{ system = "{systems[-1]}", name = "Full", description = "all components" }},',
        f'  {{ system = "{systems[-2]}", name = "w/o component A", description = "ablated" }},',
        f'  {{ system = "{systems[-3]}", name = "w/o component B", description = "ablated" }},',
        "]",
    ]
    return "\n".join(lines) + "\n"


def generate(
    out: Path, n_datasets: int = 5, n_systems: int = 10, n_queries: int = 7000, seed: int = 0
) -> int:
    """Write the study into ``out``; returns the number of data rows written."""
    rng = np.random.default_rng(seed)
    datasets = [f"d{i + 1}" for i in range(n_datasets)]
    systems = [f"s{j + 1:02d}" for j in range(n_systems)]
    skills = np.sort(rng.normal(0.0, 0.35, n_systems))  # s01 weakest (the baseline)
    rows = 0
    for dataset in datasets:
        queries = pa.array([f"{dataset}-q{i:05d}" for i in range(n_queries)])
        difficulty = rng.normal(-0.3, 1.2, n_queries)
        for system, skill in zip(systems, skills, strict=True):
            values = system_values(rng, difficulty, float(skill))
            write_tsv(out / dataset / f"{system}.tsv", queries, values)
            rows += n_queries * len(METRICS)
    (out / "irtables.toml").write_text(config_text(datasets, systems), encoding="utf-8")
    return rows


def main(argv: list[str] | None = None) -> int:
    """Command line: ``make_synthetic.py DIR [--datasets N --systems N --queries N --seed N]``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--datasets", type=int, default=5)
    parser.add_argument("--systems", type=int, default=10)
    parser.add_argument("--queries", type=int, default=7000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rows = generate(args.dir, args.datasets, args.systems, args.queries, args.seed)
    print(f"wrote {rows:,} rows to {args.dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
