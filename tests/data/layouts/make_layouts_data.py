"""Write results.tsv: SYNTHETIC per-query values for the layout examples (not real runs).

Three made-up datasets (alpha, beta, gamma), three systems on every dataset and a BM25
parameter sweep (k1 x b) on alpha, with per-query values drawn from a seeded generator
around a smooth response surface. They exercise the table layouts only: no number in
them is a measurement. Rerun with ``python tests/data/layouts/make_layouts_data.py``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

OUT = Path(__file__).with_name("results.tsv")
DATASETS = {"alpha": 40, "beta": 30, "gamma": 25}
SYSTEMS = {"bm25": 0.0, "splade": 0.08, "colbert": 0.06}
METRICS = {"nDCG@10": 0.45, "R@100": 0.70, "RR@10": 0.55}


def main() -> None:
    rng = np.random.default_rng(20240611)
    rows = []
    for d_index, (dataset, n) in enumerate(DATASETS.items()):
        queries = [f"{dataset[0]}{i:03d}" for i in range(1, n + 1)]
        difficulty = rng.normal(0.0, 0.12, n)
        systems = dict(SYSTEMS)
        if dataset == "alpha":
            for k1 in (0.6, 0.9, 1.2, 1.5):
                for b in (0.3, 0.5, 0.7, 0.9):
                    systems[f"bm25_k1={k1}_b={b}"] = -0.1 * (k1 - 1.0) ** 2 - 0.15 * (b - 0.6) ** 2
        for system, gain in systems.items():
            if dataset == "gamma" and system == "colbert":
                continue  # a system without results on one dataset
            for metric, base in METRICS.items():
                mean = base + gain + 0.03 * d_index
                values = np.clip(mean + difficulty + rng.normal(0.0, 0.08, n), 0.0, 1.0)
                rows += [
                    (dataset, system, q, metric, round(float(v), 4))
                    for q, v in zip(queries, values, strict=True)
                ]
    frame = pd.DataFrame(rows, columns=["dataset", "system", "query", "metric", "value"])
    frame.to_csv(OUT, sep="\t", index=False)


if __name__ == "__main__":
    main()
