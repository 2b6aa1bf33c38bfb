"""Benchmark: KTU and RBO of irtables against repro_eval 0.5.0 on the same runs.

Run with ``python bench/bench_repro.py [--topics 250] [--docs 1000] [--repro-eval-topics 25]``.
Four seeded runs (an original and a reproduced baseline and advanced run, ``--topics``
topics of ``--docs`` documents each, scores with ties) are written to ``bench/out/repro``;
then KTU and RBO of both pairs at the cutoffs 5, 10, 20, 50, 100 and 1000 are computed by
irtables (``order_agreement`` after ``ranked_documents``: run files read and ranked
included) in a child process pinned to one core (``taskset -c 0`` when available), and
by repro_eval as its examples do (``trim(k)``, then ``ktu()`` and ``rbo()``, per cutoff).

repro_eval takes minutes on this: it is timed on the first ``--repro-eval-topics`` topics
and its time scaled to all topics (its work is the same for every topic: linear in
them); give 0 to time it on all. It is no dependency of irtables: install it in a
throwaway environment and name that environment's python::

    python3 -m venv /tmp/re-venv
    /tmp/re-venv/bin/pip install numpy scipy tqdm pytrec-eval-terrier ir-measures pandas \
        ruamel.yaml GitPython py-cpuinfo
    /tmp/re-venv/bin/pip install --no-deps -e PATH/TO/repro_eval   # commit 63b5d8c
    python bench/bench_repro.py --repro-eval-python /tmp/re-venv/bin/python

Without it, only irtables is timed. Goal: irtables under 2 s on one core.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

from common import OUT, REPO, markdown

CUTOFFS = (5, 10, 20, 50, 100, 1000)
NAMES = ("orig_b", "orig_a", "rep_b", "rep_a")

IRTABLES_CHILD = """
import sys, time
t0 = time.perf_counter()
from irtables.evaluator.order import ranked_documents
from irtables.loaders.trec_run import read_run
from irtables.stats.document_order import order_agreement
folder, cutoffs = sys.argv[1], [int(c) for c in sys.argv[2].split(",")]
t1, c1 = time.perf_counter(), time.process_time()
names = ("orig_b", "orig_a", "rep_b", "rep_a")
r = {n: ranked_documents(read_run(f"{folder}/{n}.run")) for n in names}
t2, c2 = time.perf_counter(), time.process_time()
for s in ("b", "a"):
    order_agreement(r["orig_" + s], r["rep_" + s], cutoffs=cutoffs)
t3, c3 = time.perf_counter(), time.process_time()
print(f"{t3 - t1:.3f} {t3 - t2:.3f} {c3 - c1:.3f} {c3 - c2:.3f} {t1 - t0:.3f}")
"""

REPRO_EVAL_CHILD = """
import sys, time, warnings
warnings.simplefilter("ignore")
from repro_eval.Evaluator import RpdEvaluator
folder, cutoffs = sys.argv[1], [int(c) for c in sys.argv[2].split(",")]
paths = dict(qrels_orig_path=f"{folder}/qrels.txt",
             run_b_orig_path=f"{folder}/orig_b.run", run_a_orig_path=f"{folder}/orig_a.run",
             run_b_rep_path=f"{folder}/rep_b.run", run_a_rep_path=f"{folder}/rep_a.run")
t0 = time.perf_counter()
for k in cutoffs:
    rpd = RpdEvaluator(**paths)
    rpd.trim(k)
    rpd.ktu()
    rpd.rbo()
print(f"{time.perf_counter() - t0:.3f} {time.process_time():.3f}")
"""


def write_runs(folder: Path, topics: int, docs: int, seed: int = 30) -> None:
    """Four runs of ``topics`` x ``docs`` rows (scores with two decimals: ties) and qrels."""
    if (folder / ".complete").exists():
        return
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    pool = [f"doc{d:06d}" for d in range(docs * 3)]
    base = {}
    for n in NAMES:
        lines = []
        for t in range(topics):
            if n.startswith("orig"):
                ranking = rng.sample(pool, docs)
                base[(n[-1], t)] = ranking
            else:
                ranking = list(base[(n[-1], t)])
                for _ in range(docs // 10):  # swap some neighbours, replace a few
                    i = rng.randrange(docs - 1)
                    ranking[i], ranking[i + 1] = ranking[i + 1], ranking[i]
            scores = sorted((round(rng.random() * 50, 2) for _ in range(docs)), reverse=True)
            lines += [
                f"{t + 1} Q0 {d} {i + 1} {s:.2f} {n}"
                for i, (d, s) in enumerate(zip(ranking, scores, strict=True))
            ]
        (folder / f"{n}.run").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "qrels.txt").write_text(
        "\n".join(f"{t + 1} 0 {pool[t]} 1" for t in range(topics)) + "\n", encoding="utf-8"
    )
    (folder / ".complete").write_text("", encoding="utf-8")


def first_topics(folder: Path, into: Path, topics: int) -> None:
    """The same runs and qrels cut to their first ``topics`` topics."""
    into.mkdir(parents=True, exist_ok=True)
    keep = {str(t + 1) for t in range(topics)}
    for p in folder.iterdir():
        if p.name.startswith("."):
            continue
        lines = [
            x for x in p.read_text(encoding="utf-8").splitlines() if x.split(" ", 1)[0] in keep
        ]
        (into / p.name).write_text("\n".join(lines) + "\n", encoding="utf-8")


def _pinned(argv: list[str]) -> list[str]:
    return ["taskset", "-c", "0", *argv] if shutil.which("taskset") else argv


def time_irtables(folder: Path) -> tuple[float, ...]:
    """Wall and CPU seconds of read + rank + KTU/RBO and of KTU/RBO alone, and of the
    imports (wall), on one core."""
    env = dict(
        os.environ, PYTHONPATH=f"{REPO / 'src'}", OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1"
    )
    out = subprocess.run(
        _pinned([sys.executable, "-c", IRTABLES_CHILD, str(folder), ",".join(map(str, CUTOFFS))]),
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    return tuple(float(x) for x in out)


def time_repro_eval(python: str, folder: Path) -> tuple[float, float]:
    """repro_eval's wall and CPU seconds for KTU and RBO at every cutoff (run reading
    included; its CPU seconds include its imports)."""
    out = subprocess.run(
        _pinned([python, "-c", REPRO_EVAL_CHILD, str(folder), ",".join(map(str, CUTOFFS))]),
        check=True,
        capture_output=True,
        text=True,
        env=dict(os.environ, OMP_NUM_THREADS="1"),
    ).stdout.split()
    return float(out[-2]), float(out[-1])


def main(argv: list[str] | None = None) -> int:
    """Write the runs, time both, print the table and the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=250)
    parser.add_argument("--docs", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--repro-eval-python", default=os.environ.get("REPRO_EVAL_PYTHON", ""))
    parser.add_argument("--repro-eval-topics", type=int, default=25)
    args = parser.parse_args(argv)
    folder = OUT / "repro" / f"{args.topics}x{args.docs}"
    write_runs(folder, args.topics, args.docs)
    runs = sorted(time_irtables(folder) for _ in range(args.repeat))
    wall, wall_measures, cpu, cpu_measures, imports = runs[len(runs) // 2]
    rows = [
        ["irtables: read, rank, KTU + RBO", f"{wall:.2f}", f"{cpu:.2f}", ""],
        ["irtables: KTU + RBO alone", f"{wall_measures:.2f}", f"{cpu_measures:.2f}", ""],
    ]
    print(f"\n4 runs of {args.topics} topics x {args.docs} documents, cutoffs {CUTOFFS}")
    if args.repro_eval_python:
        n = args.repro_eval_topics if 0 < args.repro_eval_topics < args.topics else args.topics
        sub = folder if n == args.topics else folder.parent / f"{folder.name}-first{n}"
        if sub != folder:
            first_topics(folder, sub, n)
        re_wall, re_cpu = time_repro_eval(args.repro_eval_python, sub)
        scale = args.topics / n
        label = "repro_eval 0.5.0" + (f" (on {n} topics, x{scale:g})" if n != args.topics else "")
        rows.append(
            [
                label,
                f"{re_wall * scale:.1f}",
                f"{re_cpu * scale:.1f}",
                f"{re_cpu * scale / cpu:.0f}x",
            ]
        )
    else:
        print("(repro_eval not timed: give --repro-eval-python, see this script's docstring)")
    print(markdown(["what", "wall s", "CPU s", "repro_eval / irtables (CPU)"], rows))
    verdict = "met" if cpu < 2 else "missed"
    print(f"\n- goal under 2 s on one core: {verdict} ({cpu:.2f} CPU s, {wall:.2f} wall s;")
    print(f"  the imports take {imports:.2f} s more)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
