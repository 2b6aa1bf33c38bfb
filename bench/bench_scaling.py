"""Benchmark: evaluation at every size, trec_eval 9.0.8, pytrec_eval and irtables.

Run with ``make bench`` (``python bench/bench_scaling.py``). The table crosses:

- **topics**: 1,000, 7,000 and 50,000, each run retrieving 100 documents per topic;
- **judged depth**: *shallow* (MS MARCO-like: ~1 judged, relevant, document per topic,
  integer ids) or *deep* (a pool: ~200 judged documents per topic, ~25 relevant,
  ``LA052189-0089``-style string ids);
- **runs**: 1, 20 and 100 runs against the same qrels.

Measures: MAP, P@10, nDCG@10, R@100 and reciprocal rank; means only (no ``-q``).
trec_eval runs once per run (a shell loop); pytrec_eval in one Python process that parses
the qrels once; irtables in one ``evaluate`` call on every core. Each is a fresh process,
timed from the outside (start-up included).

To keep ``make bench`` within minutes: five distinct run files are generated per shape
(seeded, ``bench/out/scaling``) and runs 6 to 100 are links to them (each is read and
evaluated like any file; the page cache is warm for every tool alike). trec_eval is
timed on one run (median of up to ``--trec-calls`` calls) and pytrec_eval on 1 and 5
runs; their times for other numbers of runs are extrapolated linearly and marked ``~``
(trec_eval's calls are independent processes; pytrec_eval's cost is its qrels parse plus
a constant per run). irtables' times are always measured.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from common import (
    IRTABLES,
    OUT,
    PYTHON,
    PYTREC_EVAL,
    generate,
    have_pytrec_eval,
    markdown,
    measure,
    trec_eval_binary,
)
from make_runs import scaling_shape

TOPICS = (1000, 7000, 50000)
RUNS = (1, 20, 100)
DISTINCT = 5
TREC_MEASURES = ["-m", "map", "-m", "P.10", "-m", "ndcg_cut.10", "-m", "recall.100"]
TREC_MEASURES += ["-m", "recip_rank"]
IRTABLES_MEASURES = ["-m", "map", "-m", "P_10", "-m", "ndcg_cut_10", "-m", "recall_100"]
IRTABLES_MEASURES += ["-m", "recip_rank"]
PYTREC_MEASURES = "map,P_10,ndcg_cut_10,recall_100,recip_rank"


def run_files(folder: Path, distinct: list[Path], n: int) -> list[Path]:
    """``n`` run files: the distinct ones, then links to them (``runNNN.txt``)."""
    out = []
    for i in range(n):
        if i < len(distinct):
            out.append(distinct[i])
            continue
        link = folder / f"link{i + 1:03d}.txt"
        if not link.is_symlink():
            link.unlink(missing_ok=True)
            os.symlink(distinct[i % len(distinct)].name, link)
        out.append(link)
    return out


def main(argv: list[str] | None = None) -> int:
    """Generate if needed, measure every cell, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, nargs="*", default=list(TOPICS))
    parser.add_argument("--runs", type=int, nargs="*", default=list(RUNS))
    parser.add_argument("--trec-calls", type=int, default=3)
    args = parser.parse_args(argv)
    binary = trec_eval_binary()
    pytrec = have_pytrec_eval()
    rows: list[list[object]] = []
    for topics in args.topics:
        for deep in (False, True):
            shape = scaling_shape(topics, deep)
            folder = OUT / "scaling" / shape.name
            qrels, distinct = generate(shape, folder, min(DISTINCT, max(args.runs)))
            trec_one = measure(
                [str(binary), *TREC_MEASURES, str(qrels), str(distinct[0])],
                repeat=min(args.trec_calls, 3),
            ).seconds
            py = {}
            if pytrec:
                for n in (1, len(distinct)):
                    argv_ = [PYTHON, "-c", PYTREC_EVAL, str(qrels), PYTREC_MEASURES]
                    py[n] = measure([*argv_, *map(str, distinct[:n])]).seconds
            for n in args.runs:
                files = run_files(folder, distinct, n)
                trec = trec_one * n
                trec_text = f"{'~' if n > args.trec_calls else ''}{trec:.2f}"
                ours = measure(
                    [*IRTABLES, "evaluate", str(qrels), *map(str, files), *IRTABLES_MEASURES]
                )
                py_text, py_ratio = "n/a", "n/a"
                if pytrec:
                    k = len(distinct)
                    slope = max(py[k] - py[1], 0.0) / max(k - 1, 1)  # seconds per extra run
                    estimate = py[n] if n in py else py[1] + (n - 1) * slope
                    py_text = f"{'~' if n not in py else ''}{estimate:.2f}"
                    py_ratio = f"{ours.seconds / estimate:.2f}x"
                rows.append(
                    [
                        f"{topics:,}",
                        "deep" if deep else "shallow",
                        n,
                        trec_text,
                        py_text,
                        f"{ours.seconds:.2f}",
                        f"{ours.peak_mib:.0f}",
                        f"{ours.seconds / trec:.2f}x",
                        py_ratio,
                    ]
                )
                print(" | ".join(str(x) for x in rows[-1]), flush=True)
    header = ["topics", "judged", "runs", "trec_eval s", "pytrec_eval s", "irtables s"]
    header += ["irtables MiB", "irtables / trec_eval", "irtables / pytrec_eval"]
    print("\nScaling: 100 documents per topic; ~ = extrapolated from fewer calls (see --help)")
    print(markdown(header, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
