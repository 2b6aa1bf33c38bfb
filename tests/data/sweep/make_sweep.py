"""Write a SYNTHETIC sweep study: qrels, TREC runs and an irtables.toml, as a researcher has it.

Three made-up datasets (``robust03``: binary qrels; ``tar2017``: evaluated with ``-c``;
``ehealth16``: graded qrels, relevance >= 2), each with a BM25 baseline, a dense run and a
fusion sweep of 30 runs named with their parameters (``fuse_alpha=0.5_depth=1000``, no
extension, as README's sensitivity section suggests; some end in ``.run``). Scores are
drawn from a seeded generator so that relevant documents score higher, more so for some
parameter values: no number is a measurement. The folder also holds what a real one does:
notes, a figure, a README. The configuration selects four systems for Table 1, names a
baseline per dataset and adds a sensitivity table over the sweep.

``python tests/data/sweep/make_sweep.py DIR`` writes the study into DIR; the tests call
:func:`make_sweep` into a temporary folder.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

DATASETS = {  # id: (name, queries, graded, baseline)
    "robust03": ("TREC Robust 2003", 12, False, "bm25"),
    "tar2017": ("CLEF TAR 2017", 10, False, "bm25_tar"),
    "ehealth16": ("CLEF eHealth 2016", 8, True, "bm25"),
}
ALPHAS = (0.1, 0.3, 0.5, 0.7, 0.9)
DEPTHS = (10, 20, 50, 100, 500, 1000)
DOCS = 30  # retrieved per query
TABLE1 = ("bm25", "bm25_tar", "dense", "fuse_alpha=0.5_depth=100", "fuse_alpha=0.9_depth=1000")

CONFIG = """\
# A sweep study: {n} runs per dataset, Table 1 shows four of them.
[[datasets]]
id = "robust03"
name = "TREC Robust 2003"
qrels = "qrels/qrels_robust03.txt"
runs = "runs/robust03/*"

[[datasets]]
id = "tar2017"
name = "CLEF TAR 2017"
qrels = "qrels/qrels_tar2017.txt"
runs = "runs/tar2017/*"
complete = true

[[datasets]]
id = "ehealth16"
name = "CLEF eHealth 2016"
qrels = "qrels/qrels_ehealth16.txt"
runs = "runs/ehealth16/*"
relevance = 2

[[systems]]
id = "bm25"
name = "BM25"

[[systems]]
id = "bm25_tar"
name = "BM25 (TAR)"

[[systems]]
id = "dense"
name = "Dense"

[[systems]]
id = "fuse_alpha=0.5_depth=100"
name = "Fusion (α = 0.5, depth 100)"

[[systems]]
id = "fuse_alpha=0.9_depth=1000"
name = "Fusion (α = 0.9, depth 1000)"

[compare]
baseline = {{ robust03 = "bm25", tar2017 = "bm25_tar", ehealth16 = "bm25" }}

[tables.main]
metrics = ["nDCG@10", "AP", "P@10"]
systems = {systems}

[tables.k_breakdown]
metrics = ["nDCG", "P"]
k = [5, 10, 20]

[tables.alpha_depth]
layout = "sensitivity"
dataset = "robust03"
system = "fuse"
parameters = ["alpha", "depth"]
metrics = ["nDCG@10"]
figure = false
"""


def sweep_names() -> list[str]:
    """The fusion runs: ``fuse_alpha=<a>_depth=<d>`` for every alpha and depth."""
    return [f"fuse_alpha={a}_depth={d}" for a in ALPHAS for d in DEPTHS]


def make_sweep(root: Path) -> Path:
    """Write the study into ``root`` (created); returns ``root``."""
    rng = np.random.default_rng(20261126)
    (root / "qrels").mkdir(parents=True)
    for dataset, (_, n_queries, graded, baseline) in DATASETS.items():
        queries = [f"{300 + i}" for i in range(1, n_queries + 1)]
        docs = {q: [f"{dataset[:2]}-{q}-{j:03d}" for j in range(DOCS + 10)] for q in queries}
        grades = {
            q: rng.choice([0, 0, 0, 1, 2] if graded else [0, 0, 0, 1], size=DOCS + 10)
            for q in queries
        }
        qrels = [
            f"{q} 0 {doc} {int(g)}"
            for q in queries
            for doc, g in zip(docs[q], grades[q], strict=True)
            if g > 0 or rng.random() < 0.5
        ]
        (root / "qrels" / f"qrels_{dataset}.txt").write_text("\n".join(qrels) + "\n")
        folder = root / "runs" / dataset
        folder.mkdir(parents=True)
        skill = {baseline: 1.0, "dense": 1.4}
        for name in sweep_names():
            alpha, depth = name.split("_")[1][6:], name.split("_")[2][6:]
            skill[name] = 0.8 + float(alpha) + 0.1 * np.log10(float(depth))
        for system, strength in skill.items():
            lines = []
            for q in queries:
                # judged queries missing from some runs: tar2017 is evaluated with -c
                if dataset == "tar2017" and system == "dense" and q == queries[-1]:
                    continue
                signal = strength * (grades[q] > 0) + rng.normal(0.0, 1.0, DOCS + 10)
                top = np.argsort(-signal, kind="stable")[:DOCS]
                lines += [
                    f"{q} Q0 {docs[q][j]} {rank + 1} {signal[j]:.4f} {system}"
                    for rank, j in enumerate(top)
                ]
            suffix = ".run" if system in (baseline, "dense") else ""
            (folder / f"{system}{suffix}").write_text("\n".join(lines) + "\n")
    systems = "[" + ", ".join(f'"{s}"' for s in TABLE1) + "]"
    (root / "irtables.toml").write_text(CONFIG.format(n=len(sweep_names()) + 2, systems=systems))
    # what a real folder holds besides results
    (root / "notes.txt").write_text("todo: rerun dense with the new index\n")
    (root / "notes").mkdir()
    (root / "notes" / "todo.txt").write_text("- check alpha=0.7\n")
    (root / "figs").mkdir()
    (root / "figs" / "sweep.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(16))
    (root / "README").write_text("Runs of the fusion sweep, see notes.txt.\n")
    return root


if __name__ == "__main__":
    make_sweep(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("sweep"))
