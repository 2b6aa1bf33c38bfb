"""Every v9.0.8 expected output in ../shared/fixtures, reproduced by ``evaluate``.

Each manifest row gives a trec_eval command; we run ``evaluate`` with the same flags and
compare every printed value of every measure we implement, per query and ``all``, as
trec_eval prints it (4 decimals; counts as integers, summed over queries in ``all``).
"""

from __future__ import annotations

import gzip
import re
import warnings
from dataclasses import dataclass
from pathlib import Path

import pytest

from irtables.evaluator.api import evaluate
from irtables.evaluator.output import summary_values
from irtables.loaders.qrels import read_qrels
from irtables.measures import at_threshold, parse_measure
from tests.acceptance.binary_parity import (
    IMPLEMENTED,
    manifest_rows,
    trec_eval_files,
    trec_eval_options,
)

FIXTURES = Path(__file__).resolve().parents[3] / "shared" / "fixtures"
if not FIXTURES.exists():  # the checkout may live elsewhere
    FIXTURES = Path("/work/shared/fixtures")

# printed by trec_eval but not computed here: skipped explicitly, never silently.
NOT_IMPLEMENTED = re.compile(
    r"^(runid|num_q|relstring|gm_map|gm_bpref|infAP|Rprec_mult_[0-9.]+|utility|binG|G"
    r"|ndcg_rel|Rndcg|relative_P_\d+|set_P|set_recall|set_map|set_F|set_relative_P"
    r"|num_nonrel_judged_ret)$"
)
COUNTS = {"num_ret", "num_rel", "num_rel_ret"}


@dataclass(frozen=True)
class Case:
    folder: Path
    expected: Path
    qrels: Path
    run: Path
    relevance: int
    depth: int | None
    complete: bool


def _resolve(folder: Path, name: str) -> Path:
    path = folder / name
    return path if path.exists() else path.with_name(path.name + ".gz")


def _parse_command(folder: Path, output: str, command: str) -> Case:
    options = trec_eval_options(command)
    files = trec_eval_files(command)
    return Case(
        folder,
        folder / output,
        _resolve(folder, files[0]),
        _resolve(folder, files[1]),
        options.relevance,
        options.depth,
        options.complete,
    )


def _cases() -> list[Case]:
    return [
        _parse_command(folder, row[1], row[3])
        for folder, row in manifest_rows(FIXTURES)
        if row[0] == "9.0.8" and row[2] == "ok"
    ]


CASES = _cases()


def _read_expected(path: Path) -> list[tuple[str, str, str]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as fh:
        return [tuple(line.split()) for line in fh if line.strip()]  # type: ignore[misc]


def _printed(name: str, value: float) -> str:
    return str(round(value)) if name in COUNTS else f"{value:.4f}"


def test_fixtures_found() -> None:
    assert len(CASES) >= 200


@pytest.mark.parametrize(
    "case",
    CASES,
    ids=[f"{c.folder.name}/{c.expected.relative_to(c.folder / 'expected')}" for c in CASES],
)
def test_matches_trec_eval_9_0_8(case: Case) -> None:
    expected = _read_expected(case.expected)
    names = sorted({name for name, _, _ in expected})
    unknown = [n for n in names if not IMPLEMENTED.match(n) and not NOT_IMPLEMENTED.match(n)]
    assert not unknown, f"classify these trec_eval measures: {unknown}"
    measures = {
        n: at_threshold(parse_measure(n), case.relevance).name
        for n in names
        if IMPLEMENTED.match(n)
    }
    if not measures:
        pytest.skip("no implemented measure in this file")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = evaluate(
            case.qrels,
            case.run,
            sorted(set(measures.values())),
            relevance=case.relevance,
            depth=case.depth,
            missing_queries="zero" if case.complete else "ignore",
        )
    frame = result.frame
    values = {
        (str(m), str(q)): float(v)
        for m, q, v in zip(frame["metric"], frame["query"], frame["value"], strict=True)
    }
    quirk = None
    if case.complete:  # trec_eval 9.0.8 -c: num_rel "all" counts grades >= 1, ignoring -l
        judged = int((read_qrels(case.qrels).grade >= 1).sum())  # read once, not once a row
        quirk = {str(s): judged for s in frame["system"].unique()}
    summary = summary_values(result, complete_num_rel=quirk)
    alls = {str(m): float(v) for m, v in zip(summary["metric"], summary["value"], strict=True)}
    mismatches = []
    for name, query, printed in expected:
        if name not in measures:
            continue
        metric = measures[name]
        ours = alls[metric] if query == "all" else values.get((metric, query), float("nan"))
        if _printed(name, ours) != printed:
            mismatches.append(f"{name} {query}: trec_eval {printed}, ours {ours!r}")
    assert not mismatches, f"{len(mismatches)} mismatches:\n" + "\n".join(mismatches[:20])
