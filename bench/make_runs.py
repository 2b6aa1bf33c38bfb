"""Seeded TREC runs and qrels of a given shape, for the evaluation benchmarks.

A *shape* says how many topics, how many documents each run retrieves per topic, how
many documents are judged per topic and how many of them are relevant, and whether
document ids are strings (``LA052189-0089``, as in the TREC disks) or integers (MS MARCO).
Runs are written as trec_eval reads them (``qid Q0 docid rank score tag``, one space),
each topic's documents in score order, with ties (scores rounded to 4 decimals); qrels as
``qid 0 docid grade``. Relevant documents are more likely to be retrieved, and near the
top, so the measures take realistic values.

Everything is drawn from ``numpy.random.default_rng(seed)``: the same shape and seed give
the same bytes. A stamp file records what was generated, so a file is written once.

    python bench/make_runs.py OUT --topics 249 --depth 1000 --judged 1250 --relevant 70 --runs 2
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where used: the benchmarks import the shapes in a light process
    import numpy as np
    import pyarrow as pa


@dataclass(frozen=True)
class Shape:
    """The shape of a test collection and of the runs evaluated on it."""

    name: str
    topics: int
    depth: int  # documents retrieved per topic
    judged: float  # judged documents per topic (mean)
    relevant: float  # relevant documents per topic (mean)
    string_ids: bool = True  # "LA052189-0089" style, else integers
    graded: bool = False  # grades 1-3 for relevant documents, else 1

    @property
    def lines(self) -> int:
        """Lines of one run file."""
        return self.topics * self.depth


ROBUST04 = Shape("robust04", topics=249, depth=1000, judged=1250, relevant=70)
MSMARCO = Shape("msmarco", 6980, 1000, judged=1.07, relevant=1.07, string_ids=False)
DL = Shape("dl", 43, 1000, judged=215, relevant=60, string_ids=False, graded=True)


def scaling_shape(topics: int, deep: bool, depth: int = 100) -> Shape:
    """A cell of the scaling table: shallow (MS MARCO-like) or deep (pooled) judgements."""
    if deep:
        return Shape(f"t{topics}-deep", topics, depth, judged=2.0 * depth, relevant=0.25 * depth)
    return Shape(f"t{topics}-shallow", topics, depth, judged=1.1, relevant=1.1, string_ids=False)


def _topic_ids(n: int) -> np.ndarray:
    import numpy as np

    return np.array([str(301 + i) for i in range(n)], dtype=object)


def _doc_names(numbers: np.ndarray, string_ids: bool) -> pa.Array:
    """Document ids for document numbers: ``LA052189-0089``-like strings or the numbers."""
    import numpy as np
    import pyarrow as pa

    if not string_ids:
        return pa.array(numbers.astype(np.int64)).cast(pa.string())
    prefixes = ("LA", "FT", "FBIS", "FR")
    text = [f"{prefixes[n % 4]}{n // 10000:06d}-{n % 10000:04d}" for n in numbers.tolist()]
    return pa.array(text, type=pa.string())


def collection(shape: Shape, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Judged documents of every topic: (topic index, document number, grade), by topic.

    Document numbers are unique within a topic; a topic has at least one judged and, when
    ``shape.relevant >= 1``, one relevant document.
    """
    import numpy as np

    rng = np.random.default_rng(seed)
    judged = np.maximum(rng.poisson(shape.judged, shape.topics), 1)
    if shape.judged < 2:
        judged = np.maximum(rng.binomial(1, min(shape.judged - 1, 1), shape.topics) + 1, 1)
    share = min(shape.relevant / max(shape.judged, 1e-9), 1.0)
    topic = np.repeat(np.arange(shape.topics), judged)
    within = np.arange(len(topic)) - np.repeat(np.cumsum(judged) - judged, judged)
    spread = rng.integers(0, 37, len(topic))
    docs = (topic.astype(np.int64) * 1009 + within * 37 + spread) % 10**9  # distinct per topic
    relevant = rng.random(len(topic)) < share
    relevant[np.cumsum(judged) - judged] = shape.relevant >= 1  # first judged is relevant
    grade = relevant.astype(np.int64)
    if shape.graded:
        grade = np.where(relevant, rng.integers(1, 4, len(topic)), 0)
    return topic, docs, grade


def make_run(shape: Shape, qrels: tuple[np.ndarray, ...], seed: int) -> pa.Table:
    """One run: ``depth`` documents per topic, relevant ones more likely and higher."""
    import numpy as np
    import pyarrow as pa

    rng = np.random.default_rng(seed)
    topic, docs, grade = qrels
    n = shape.topics * shape.depth
    q = np.repeat(np.arange(shape.topics), shape.depth)
    # unjudged documents: distinct, and far from the judged ones
    doc = 10**10 + np.arange(n, dtype=np.int64) * 1000 + rng.integers(0, 1000, n)
    score = rng.gamma(2.0, 2.0, n)
    # a share of the judged documents is retrieved: relevant ones more often, higher
    take = rng.random(len(topic)) < np.where(grade > 0, 0.6, 0.35)
    slot = np.flatnonzero(take)  # by topic already
    counts = np.bincount(topic[slot], minlength=shape.topics)
    rank_in = np.arange(len(slot)) - np.repeat(np.cumsum(counts) - counts, counts)
    keep = rank_in < shape.depth
    slot, rank_in = slot[keep], rank_in[keep]
    rows = topic[slot] * shape.depth + rank_in
    doc[rows] = docs[slot]
    boost = np.where(grade[slot] > 0, rng.gamma(2.0, 3.0, len(slot)), 0.0)
    score[rows] += boost
    score = np.round(score, 4)
    by = np.lexsort((-score, q))
    q, doc, score = q[by], doc[by], score[by]
    rank = np.arange(n) % shape.depth + 1
    ids = pa.array(_topic_ids(shape.topics).tolist(), type=pa.string())
    return pa.table(
        {
            "qid": ids.take(pa.array(q)),
            "q0": pa.array(["Q0"]).take(pa.array(np.zeros(n, dtype=np.int64))),
            "docid": _doc_names(doc, shape.string_ids),
            "rank": pa.array(rank),
            "score": pa.array(score),
            "tag": pa.array([f"run{seed}"]).take(pa.array(np.zeros(n, dtype=np.int64))),
        }
    )


def qrels_table(shape: Shape, qrels: tuple[np.ndarray, ...]) -> pa.Table:
    """The qrels as a table: ``qid 0 docid grade``."""
    import numpy as np
    import pyarrow as pa

    topic, docs, grade = qrels
    ids = pa.array(_topic_ids(shape.topics).tolist(), type=pa.string())
    return pa.table(
        {
            "qid": ids.take(pa.array(topic)),
            "iter": pa.array(np.zeros(len(topic), dtype=np.int64)),
            "docid": _doc_names(docs, shape.string_ids),
            "grade": pa.array(grade),
        }
    )


def _write(table: pa.Table, path: Path) -> None:
    import pyarrow.csv as pacsv

    options = pacsv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none")
    tmp = path.with_name(path.name + ".part")
    pacsv.write_csv(table, tmp, options)
    tmp.replace(path)


def generate(shape: Shape, out: Path, runs: int, seed: int = 0) -> tuple[Path, list[Path]]:
    """Write qrels and ``runs`` runs of ``shape`` into ``out`` (once; a stamp records it).

    Returns the qrels path and the run paths (``run01.txt`` ...).
    """
    out.mkdir(parents=True, exist_ok=True)
    qrels_path = out / "qrels.txt"
    run_paths = [out / f"run{i + 1:02d}.txt" for i in range(runs)]
    stamp = out / ".stamp.json"
    wanted = {"shape": asdict(shape), "seed": seed}
    done = json.loads(stamp.read_text()) if stamp.is_file() else {}
    if done.get("params") != wanted:
        done = {"params": wanted, "runs": 0}
        qrels_path.unlink(missing_ok=True)
    todo = range(done["runs"], runs)
    if todo or not qrels_path.is_file():  # the collection only for what is written
        judged = collection(shape, seed)
        if not qrels_path.is_file():
            _write(qrels_table(shape, judged), qrels_path)
        for i in todo:
            _write(make_run(shape, judged, seed * 1000 + i + 1), run_paths[i])
            stamp.write_text(json.dumps({"params": wanted, "runs": i + 1}))
    if not stamp.is_file():
        stamp.write_text(json.dumps({"params": wanted, "runs": runs}))
    return qrels_path, run_paths


def main() -> None:
    """Command line: write one shape into a folder."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", type=Path)
    p.add_argument("--topics", type=int, default=ROBUST04.topics)
    p.add_argument("--depth", type=int, default=ROBUST04.depth)
    p.add_argument("--judged", type=float, default=ROBUST04.judged)
    p.add_argument("--relevant", type=float, default=ROBUST04.relevant)
    p.add_argument("--integer-ids", action="store_true")
    p.add_argument("--graded", action="store_true")
    p.add_argument("--runs", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--name", default="custom", help="the shape's name (recorded in the stamp)")
    a = p.parse_args()
    shape = Shape(a.name, a.topics, a.depth, a.judged, a.relevant, not a.integer_ids, a.graded)
    qrels, runs = generate(shape, a.out, a.runs, a.seed)
    print(qrels, *runs, sep="\n")


if __name__ == "__main__":
    main()
