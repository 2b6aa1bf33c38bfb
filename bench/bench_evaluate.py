"""Benchmark: evaluate TREC runs, file to per-query values, irtables vs the usual tools.

Generates (seeded, nothing downloaded) an MS-MARCO-dev-sized run (6,980 queries x 1,000
documents, binary qrels, ~1.07 relevant per query) and a TREC-DL-sized one (43 queries x
1,000 documents, graded 0-3 qrels, ~215 judged per query), then times, each in a fresh
subprocess: pyarrow's CSV reader parsing the run (the floor: all six columns, default
options), irtables, irtables on three runs against one qrels (``irtables-x3``: the run and
two symbolic links to it), pytrec-eval-terrier, ir_measures and ranx (skipped when not
installed). Measures: P, R, nDCG at K in
{1,3,5,10,20,100,1000}, RR@10 and AP (pytrec_eval has no RR@10: it computes recip_rank).

    .venv/bin/python bench/bench_evaluate.py [--data DIR] [--queries N] [--tools a,b]

Peak memory is the child's maximum resident set size (ru_maxrss), interpreter included;
"+mem" is the growth over the resident size after imports.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

KS = (1, 3, 5, 10, 20, 100, 1000)
TOOLS = ("pyarrow-parse", "irtables", "irtables-x3", "pytrec_eval", "ir_measures", "ranx")


def generate(folder: Path, name: str, n_queries: int, depth: int, graded: bool, seed: int) -> None:
    """Write ``<name>.run`` and ``<name>.qrels`` into ``folder`` (skipped if present)."""
    run_path, qrels_path = folder / f"{name}.run", folder / f"{name}.qrels"
    if run_path.exists() and qrels_path.exists():
        return
    rng = np.random.default_rng(seed)
    block = 8_800_000 // depth
    qids = np.repeat(np.arange(n_queries) + 1_000_000, depth)
    docs = np.tile(np.arange(depth) * block, n_queries) + rng.integers(0, block, qids.size)
    docs = docs.reshape(n_queries, depth)
    for row in docs:
        rng.shuffle(row)
    scores = np.sort(np.round(rng.normal(10, 3, (n_queries, depth)), 3), axis=1)[:, ::-1]
    ranks = np.tile(np.arange(1, depth + 1), n_queries)
    with run_path.open("w") as fh:
        lines = (
            f"{q} Q0 {d} {r} {s:.3f} bench\n"
            for q, d, r, s in zip(qids, docs.ravel(), ranks, scores.ravel(), strict=True)
        )
        fh.writelines(lines)
    with qrels_path.open("w") as fh:
        for i in range(n_queries):
            q = 1_000_000 + i
            if graded:
                picks = rng.choice(depth, size=200, replace=False)
                grades = rng.choice(4, size=200, p=[0.5, 0.25, 0.15, 0.1])
                for p, g in zip(picks, grades, strict=True):
                    fh.write(f"{q} 0 {docs[i, p]} {g}\n")
                for extra in range(15):  # judged but not retrieved
                    fh.write(f"{q} 0 x{i}_{extra} {rng.integers(1, 4)}\n")
            else:
                n_rel = 1 + int(rng.random() < 0.07)
                used: set[int] = set()
                for j in range(n_rel):
                    pos = min(int(rng.exponential(30)), depth - 1)
                    if rng.random() < 0.6 and pos not in used:
                        used.add(pos)
                        fh.write(f"{q} 0 {docs[i, pos]} 1\n")
                    else:
                        fh.write(f"{q} 0 x{i}_{j} 1\n")


# --- children ---------------------------------------------------------------------------


def _child(tool: str, qrels: str, run: str) -> dict[str, float]:
    if tool == "pyarrow-parse":
        import pyarrow.csv as pacsv

        base = _rss()
        start = time.perf_counter()
        table = pacsv.read_csv(
            run,
            read_options=pacsv.ReadOptions(column_names=["q", "z", "d", "r", "s", "t"]),
            parse_options=pacsv.ParseOptions(delimiter=" "),
        )
        n = table.num_rows
    elif tool in ("irtables", "irtables-x3"):
        import warnings

        from irtables.evaluator.api import evaluate
        from irtables.loaders.qrels import read_qrels
        from irtables.loaders.trec_run import read_run

        measures = [f"{f}@{k}" for f in ("P", "R", "nDCG") for k in KS] + ["RR@10", "AP"]
        base = _rss()
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if tool == "irtables":
                rs = evaluate(read_qrels(qrels), read_run(run), measures)
            else:  # three runs, one qrels parse: the runs are read one at a time
                rs = evaluate(read_qrels(qrels), _copies(Path(run)), measures)
        n = len(rs.frame)
    elif tool == "pytrec_eval":
        import pytrec_eval

        cuts = ",".join(map(str, KS))
        trec_measures = {f"P.{cuts}", f"recall.{cuts}", f"ndcg_cut.{cuts}", "recip_rank", "map"}
        base = _rss()
        start = time.perf_counter()
        with open(qrels) as fq, open(run) as fr:
            q, r = pytrec_eval.parse_qrel(fq), pytrec_eval.parse_run(fr)
        res = pytrec_eval.RelevanceEvaluator(q, trec_measures).evaluate(r)
        n = sum(len(v) for v in res.values())
    elif tool == "ir_measures":
        import ir_measures
        from ir_measures import AP, RR, P, R, nDCG

        ir_list = [m @ k for m in (P, R, nDCG) for k in KS] + [RR @ 10, AP]
        base = _rss()
        start = time.perf_counter()
        values = list(
            ir_measures.iter_calc(
                ir_list,
                ir_measures.read_trec_qrels(qrels),  # type: ignore[no-untyped-call]
                ir_measures.read_trec_run(run),  # type: ignore[no-untyped-call]
            )
        )
        n = len(values)
    elif tool == "ranx":
        from ranx import Qrels, Run  # type: ignore[import-untyped]
        from ranx import evaluate as ranx_evaluate  # type: ignore[import-untyped]

        metrics = [f"{m}@{k}" for m in ("precision", "recall", "ndcg") for k in KS]
        metrics += ["mrr@10", "map"]
        base = _rss()
        start = time.perf_counter()
        qr = Qrels.from_file(qrels, kind="trec")
        rn = Run.from_file(run, kind="trec")
        out = ranx_evaluate(qr, rn, metrics, return_mean=False)
        n = sum(len(v) for v in out.values())
    else:
        raise SystemExit(f"unknown tool {tool}")
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "peak_mb": _peak_mb(), "grow_mb": _peak_mb() - base, "n": n}


def _copies(run: Path) -> list[Path]:
    """The run and two links to it under other system names (``<stem>-2.run``...)."""
    out = [run]
    for i in (2, 3):
        link = run.with_name(f"{run.stem}-{i}{run.suffix}")
        if not link.exists():
            link.symlink_to(run.name)
        out.append(link)
    return out


def _rss() -> float:
    with open("/proc/self/statm") as fh:
        pages = int(fh.read().split()[1])
    return pages * resource.getpagesize() / 2**20


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _run_child(tool: str, qrels: Path, run: Path) -> dict[str, float] | str:
    cmd = [sys.executable, __file__, "--child", tool, str(qrels), str(run)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["failed"])[-1]
        return f"skipped ({last[:60]})"
    result: dict[str, float] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=Path(tempfile.gettempdir()) / "irtables-bench")
    parser.add_argument("--queries", type=int, default=6980)
    parser.add_argument("--tools", default=",".join(TOOLS))
    parser.add_argument("--child", nargs=3, metavar=("TOOL", "QRELS", "RUN"))
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_child(*args.child)))
        return
    args.data.mkdir(parents=True, exist_ok=True)
    cases = {"msmarco": (args.queries, False, 1), "dl": (43, True, 2)}
    for name, (n_queries, graded, seed) in cases.items():
        generate(args.data, name, n_queries, 1000, graded, seed)
    tools = args.tools.split(",")
    for name in cases:
        run, qrels = args.data / f"{name}.run", args.data / f"{name}.qrels"
        size_mb = run.stat().st_size / 2**20
        lines = sum(1 for _ in run.open("rb"))
        print(f"\n{name}: {lines:,} lines, run file {size_mb:.0f} MB")
        print(
            f"{'tool':<14}{'seconds':>9}{'peak MB':>9}{'+mem MB':>9}{'x parse':>9}"
            f"{'x irtables':>11}{'peak/file':>10}"
        )
        results = {t: _run_child(t, qrels, run) for t in tools}
        floor = results.get("pyarrow-parse")
        ours = results.get("irtables")
        for tool, res in results.items():
            if isinstance(res, str):
                print(f"{tool:<14}{res}")
                continue
            vs_parse = (
                res["seconds"] / floor["seconds"] if isinstance(floor, dict) else float("nan")
            )
            vs_ours = res["seconds"] / ours["seconds"] if isinstance(ours, dict) else float("nan")
            print(
                f"{tool:<14}{res['seconds']:>9.2f}{res['peak_mb']:>9.0f}{res['grow_mb']:>9.0f}"
                f"{vs_parse:>9.2f}{vs_ours:>11.2f}{res['peak_mb'] / size_mb:>10.2f}"
            )
        three = results.get("irtables-x3")
        if isinstance(three, dict) and isinstance(ours, dict):
            print(
                f"3 runs vs one qrels: {three['seconds']:.2f} s = "
                f"{three['seconds'] / (3 * ours['seconds']):.2f} x (3 x one run)"
            )


if __name__ == "__main__":
    main()
