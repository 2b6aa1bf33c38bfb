"""irtables ``evaluate --format trec_eval`` against the real trec_eval 9.0.8 and 10 binaries.

Cases: every (qrels, run) pair of the fixture manifests in ../shared/fixtures, under every
option set (``-c``, ``-l``, ``-M``) its manifest uses; and generated runs with near-ties
(scores equal as float32 but not as float64, exact ties, run-only and missing queries,
a tag that changes between topics). For each case and version, the binary runs twice
(``-m all_trec`` and the cutoff measures at 1, 3, 5, 10, 20, 100, 500, 1000) and irtables
once, with the same options and ``--trec-eval <version>``. Every line the binary prints for
a measure irtables computes (plus ``runid`` and ``num_q``) is a compared value, and so is
every line irtables prints that the binary does not (``-c`` per-query lines); a mismatch is
a different printed text or a line on one side only. A case that the binary refuses
(v10 without ``-c`` when a judged query is missing from the run) is counted as refused.

``python -m tests.acceptance.binary_parity`` prints the tallies.
"""

from __future__ import annotations

import csv
import gzip
import re
import shlex
import shutil
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from irtables.evaluator.command import evaluate_files
from tests.conftest import FIXTURES
from tests.trec_eval_binary import parse_output, run_trec_eval

VERSIONS = ("9.0.8", "10")
CUTS = "1,3,5,10,20,100,500,1000"
MEASURE_ARGS = (
    ["-m", "all_trec"],
    [a for m in ("P", "recall", "ndcg_cut", "map_cut", "success") for a in ("-m", f"{m}.{CUTS}")],
)
# trec_eval measures that irtables computes, by their printed names
IMPLEMENTED = re.compile(
    r"^(P_\d+|recall_\d+|ndcg|ndcg_cut_\d+|map|map_cut_\d+|recip_rank|Rprec|bpref"
    r"|success_\d+|iprec_at_recall_[0-9.]+|11pt_avg|num_ret|num_rel|num_rel_ret)$"
)
HEADER_LINES = ("runid", "num_q")


@dataclass(frozen=True)
class Options:
    """trec_eval's evaluation options (always with ``-q``)."""

    complete: bool = False
    relevance: int = 1
    depth: int | None = None

    def args(self) -> list[str]:
        out = ["-q"]
        out += ["-c"] if self.complete else []
        out += ["-l", str(self.relevance)] if self.relevance != 1 else []
        out += ["-M", str(self.depth)] if self.depth is not None else []
        return out

    def __str__(self) -> str:
        return " ".join(self.args())


@dataclass(frozen=True)
class Case:
    """One qrels file and one run file, evaluated under one set of options."""

    name: str
    qrels: Path
    run: Path
    options: Options


@dataclass
class Tally:
    """Values compared and mismatches (with the first few, for the failure message)."""

    compared: int = 0
    mismatches: int = 0
    refused: int = 0
    cases: int = 0
    examples: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.compared += other.compared
        self.mismatches += other.mismatches
        self.refused += other.refused
        self.cases += other.cases
        self.examples.extend(other.examples[: max(0, 20 - len(self.examples))])


def trec_eval_options(command: str) -> Options:
    """The ``-c``, ``-l`` and ``-M`` of a trec_eval command line (``-lN`` or ``-l N``)."""
    args = shlex.split(command)[1:]
    complete, relevance, depth = False, 1, None
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-l", "-M", "-m"):
            value, i = args[i + 1], i + 2
        elif a.startswith(("-l", "-M", "-m")) and len(a) > 2:
            value, a, i = a[2:], a[:2], i + 1
        else:
            value, i = "", i + 1
        if a == "-l":
            relevance = int(value)
        elif a == "-M":
            depth = int(value)
        elif a == "-c":
            complete = True
    return Options(complete, relevance, depth)


def trec_eval_files(command: str) -> tuple[str, str]:
    """The qrels and run file of a trec_eval command line (its last two arguments)."""
    args = shlex.split(command)
    return args[-2], args[-1]


def _plain(path: Path, workdir: Path) -> Path:
    """The file itself, or its decompressed copy (trec_eval cannot read gzip)."""
    if path.exists():
        return path
    packed = path.with_name(path.name + ".gz")
    target = workdir / packed.parent.name / path.name
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        with gzip.open(packed, "rb") as src, target.open("wb") as dst:
            shutil.copyfileobj(src, dst)
    return target


def manifest_rows(fixtures: Path = FIXTURES) -> Iterator[tuple[Path, list[str]]]:
    """Each fixture folder with each row of its ``expected/manifest.tsv`` (no header):
    version, output file, status, trec_eval command."""
    for manifest in sorted(fixtures.glob("*/expected/manifest.tsv")):
        with manifest.open() as fh:
            rows = list(csv.reader(fh, delimiter="\t"))[1:]
        for row in rows:
            yield manifest.parent.parent, row


def fixture_cases(workdir: Path, fixtures: Path = FIXTURES) -> list[Case]:
    """Every (qrels, run) pair of the fixture manifests under every option set they use."""
    found: dict[tuple[Path, Path, Options], Case] = {}
    for folder, row in manifest_rows(fixtures):
        qrels, run = (folder / f for f in trec_eval_files(row[3]))
        options = trec_eval_options(row[3])
        if (qrels, run, options) not in found:
            name = f"{folder.name}/{qrels.name}+{run.name.removesuffix('.gz')}"
            found[(qrels, run, options)] = Case(
                name, _plain(qrels, workdir), _plain(run, workdir), options
            )
    return list(found.values())


NEAR_TIE_OPTIONS = (
    Options(),
    Options(complete=True),
    Options(relevance=2),
    Options(complete=True, relevance=2),
    Options(depth=50),
)


def near_tie_cases(workdir: Path, seeds: range = range(8)) -> list[Case]:
    """Generated qrels and runs full of near-ties, under five option sets each."""
    cases = []
    for seed in seeds:
        qrels, run = write_near_tie_run(workdir, seed)
        cases += [Case(f"near-ties/{seed}", qrels, run, o) for o in NEAR_TIE_OPTIONS]
    return cases


def write_near_tie_run(workdir: Path, seed: int) -> tuple[Path, Path]:
    """A qrels file and a run whose scores are often equal in float32, not in float64.

    Per query, documents come in groups sharing one float32 value; inside a group the
    doubles differ by less than half a float32 step (so 9.0.8 sees a tie broken by docid
    and 10 an order by score), or are exactly equal (a tie in both). Some judged queries
    are missing from the run in seeds 2, 3, 6, 7 (``-c``), some run queries are not
    judged, grades run from -1 to 3, and the tag changes on the last topic (trec_eval
    prints the last line's).
    Odd seeds shuffle each query's lines; even seeds write them in score order.
    """
    rng = np.random.default_rng(seed)
    queries = [f"q{i:02d}" for i in range(12)]
    qrels_lines, run_lines = [], []
    for qi, query in enumerate(queries):
        docs = [f"D{int(d):05d}" for d in rng.choice(100_000, size=120, replace=False)]
        judged = rng.choice(len(docs), size=60, replace=False)
        for j in judged:
            grade = int(rng.choice([-1, 0, 0, 0, 1, 1, 2, 3]))
            qrels_lines.append(f"{query} 0 {docs[j]} {grade}")
        if seed % 4 >= 2 and qi % 5 == 4:  # judged, not retrieved (10 refuses without -c)
            continue
        scores = _near_tie_scores(rng, len(docs))
        # odd seeds: file order is not score order; even seeds: sorted by double score
        order = rng.permutation(len(docs)) if seed % 2 else np.argsort(-np.array(scores))
        tag = "tagB" if qi == len(queries) - 1 else "tagA"
        for rank, i in enumerate(order, start=1):
            run_lines.append(f"{query} Q0 {docs[i]} {rank} {scores[i]!r} {tag}")
    for extra in range(3):  # retrieved, never judged
        run_lines.append(f"unjudged{extra} Q0 D99999 1 1.0 tagA")
    qrels_path = workdir / f"near_ties_{seed}.qrels"
    run_path = workdir / f"near_ties_{seed}.run"
    qrels_path.write_text("\n".join(qrels_lines) + "\n", encoding="utf-8")
    run_lines.sort(key=lambda line: not line.startswith("unjudged"))  # last line: tagB
    run_path.write_text("\n".join(run_lines) + "\n", encoding="utf-8")
    return qrels_path, run_path


def _near_tie_scores(rng: np.random.Generator, n: int) -> list[float]:
    scores: list[float] = []
    while len(scores) < n:
        base = np.float32(rng.uniform(-3.0, 12.0))
        step = float(np.spacing(base))  # one float32 step at base
        size = int(rng.integers(1, 5))
        for _ in range(size):
            kind = rng.random()
            if kind < 0.2:
                value = float(base)  # an exact tie in both versions
            else:  # within a quarter step: the same float32, different doubles
                value = float(base) + float(rng.uniform(-0.25, 0.25)) * step
            assert np.float32(value) == base
            scores.append(value)
    return scores[:n]


def compare_case(case: Case, binaries: dict[str, Path], version: str, semantics: str) -> Tally:
    """Compare irtables under ``semantics`` with the binary of ``version`` on one case."""
    tally = Tally(cases=1)
    expected: dict[tuple[str, str], str] = {}
    for measures in MEASURE_ARGS:
        args = [*case.options.args(), *measures, str(case.qrels), str(case.run)]
        done = run_trec_eval(binaries[version], args)
        if done.returncode != 0:
            return Tally(refused=1)
        expected.update(parse_output(done.stdout))
    kept = {k: v for k, v in expected.items() if IMPLEMENTED.match(k[0]) or k[0] in HEADER_LINES}
    names = sorted({name for name, _ in kept if IMPLEMENTED.match(name)})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        text = evaluate_files(
            case.qrels,
            [case.run],
            names,
            per_query=True,
            complete=case.options.complete,
            relevance=case.options.relevance,
            depth=case.options.depth,
            fmt="trec_eval",
            trec_eval=semantics,  # type: ignore[arg-type]
        )
    ours = parse_output(text)
    printed = {name for name, _ in kept}
    keys = set(kept) | {k for k in ours if k[0] in printed}
    tally.compared = len(keys)
    for key in sorted(keys):
        theirs, mine = kept.get(key), ours.get(key)
        if theirs != mine:
            tally.mismatches += 1
            if len(tally.examples) < 20:
                tally.examples.append(
                    f"{case.name} [{case.options}] {key[0]} {key[1]}: "
                    f"trec_eval {version} {theirs}, irtables {mine}"
                )
    return tally


def tally_cases(
    cases: list[Case], binaries: dict[str, Path], version: str, semantics: str | None = None
) -> Tally:
    """Sum of :func:`compare_case` over cases (``semantics`` defaults to ``version``)."""
    total = Tally()
    for case in cases:
        total.add(compare_case(case, binaries, version, semantics or version))
    return total


def _report(workdir: Path) -> Iterator[str]:
    from tests.trec_eval_binary import build_trec_eval

    binaries = {v: build_trec_eval(v) for v in VERSIONS}
    sets = {
        "fixtures": fixture_cases(workdir / "fixtures"),
        "near-tie runs": near_tie_cases(workdir),
    }
    yield "| cases | trec_eval | irtables --trec-eval | cases run | refused | values | mismatches |"
    yield "| --- | --- | --- | --- | --- | --- | --- |"
    for label, cases in sets.items():
        for version in VERSIONS:
            for semantics in VERSIONS:
                t = tally_cases(cases, binaries, version, semantics)
                yield (
                    f"| {label} | {version} | {semantics} | {t.cases} | {t.refused} "
                    f"| {t.compared} | {t.mismatches} |"
                )


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "fixtures").mkdir()
        for line in _report(Path(tmp)):
            print(line, flush=True)
