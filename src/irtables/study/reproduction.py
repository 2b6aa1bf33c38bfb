"""A reproduction study from files: evaluate the runs of both sides, compare them.

Each side is a qrels file and run files (one per system). The kind of the reproduction
is decided by the qrels: judgements equal in content (the same (topic, document, grade)
triples, in any order) make it a reproducibility study (same collection), anything else
a replicability study. The measures are those of :mod:`irtables.stats.reproduce`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import pyarrow as pa

from irtables.base.repro_defaults import DEFAULT_CUTOFFS, DEFAULT_MEASURES, RBO_DEPTH, RBO_P
from irtables.config import Config
from irtables.config.tables import TableSpec
from irtables.errors import ConfigError, InputError
from irtables.evaluator.api import evaluate
from irtables.evaluator.order import ranked_documents
from irtables.evaluator.versions import DEFAULT_TREC_EVAL, TrecEvalVersion
from irtables.loaders.ir_metadata import read_ir_metadata
from irtables.loaders.qrels import read_qrels
from irtables.loaders.trec_run import read_run, system_name
from irtables.measures import parse_measure
from irtables.model.runs import Qrels, Run
from irtables.stats.document_order import OrderAgreement, order_agreement
from irtables.stats.reproduce import (
    Kind,
    ReproductionRow,
    TopicValues,
    reproduction_rows,
    topic_values,
)
from irtables.study.runsets import configured_inputs, run_paths


@dataclass(frozen=True)
class Side:
    """One side of a reproduction: its name, qrels and runs (system id -> run file)."""

    name: str
    qrels: Path
    runs: Mapping[str, Path]


def folder_side(folder: Path, name: str | None = None) -> Side:
    """A side from a folder: one qrels file (its name contains ``qrels``) and run files
    (every other visible file, and those of a ``runs/`` folder in it; the system id is
    the file name without its known extensions)."""
    if not folder.is_dir():
        raise InputError("expected a folder holding a qrels file and run files", path=str(folder))
    files = _visible_files(folder)
    qrels = [p for p in files if "qrels" in p.name.lower()]
    if len(qrels) != 1:
        found = ", ".join(p.name for p in qrels) or "none"
        raise InputError(
            f"expected exactly one qrels file (a name containing 'qrels'), found {found}",
            path=str(folder),
        )
    runs = {system_name(p): p for p in files if p != qrels[0]}
    if (folder / "runs").is_dir():
        runs |= {system_name(p): p for p in _visible_files(folder / "runs")}
    if not runs:
        raise InputError("expected run files next to the qrels file, found none", path=str(folder))
    return Side(name or folder.name, qrels[0], runs)


def _visible_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith((".", "_")))


def same_judgements(a: Qrels, b: Qrels) -> bool:
    """Whether two qrels hold the same (topic, document, grade) triples."""
    if len(a) != len(b):
        return False
    keys = [("q", "ascending"), ("d", "ascending"), ("g", "ascending")]
    tables = [
        pa.table(
            {"q": q.qid.cast(pa.string()), "d": q.docid.cast(pa.string()), "g": q.grade}
        ).sort_by(keys)
        for q in (a, b)
    ]
    return bool(tables[0].equals(tables[1]))


def reproduce(
    original: Side,
    reproductions: Sequence[Side],
    *,
    pairs: Sequence[tuple[str, str]],
    metrics: Sequence[str] = DEFAULT_MEASURES,
    systems: Sequence[str] = (),
    cutoffs: Sequence[int] = DEFAULT_CUTOFFS,
    rbo_p: float = RBO_P,
    rbo_depth: int = RBO_DEPTH,
    relevance: int = 1,
    trec_eval: TrecEvalVersion = DEFAULT_TREC_EVAL,
) -> list[ReproductionRow]:
    """The rows of a reproduction table: each reproduction against the original.

    ``systems`` are compared one by one (KTU, RBO, RMSE, p-value) besides those of
    ``pairs``; ``metrics`` are measure names in any spelling irtables reads.
    """
    wanted = list(dict.fromkeys([*systems, *(s for pair in pairs for s in pair)]))
    if not wanted:
        raise InputError("expected at least one system or (baseline, advanced) pair to compare")
    orig_qrels = read_qrels(original.qrels)
    orig_runs = _runs(original, wanted)
    names = [parse_measure(m).name for m in metrics]
    orig_values = _values(orig_qrels, orig_runs, names, original.name, relevance, trec_eval)
    rows: list[ReproductionRow] = []
    for side in reproductions:
        qrels = read_qrels(side.qrels)
        kind: Kind = "reproducibility" if same_judgements(orig_qrels, qrels) else "replicability"
        runs = _runs(side, wanted)
        values = _values(qrels, runs, names, side.name, relevance, trec_eval)
        order: dict[str, OrderAgreement] = {}
        if kind == "reproducibility":
            for system in wanted:
                order[system] = order_agreement(
                    ranked_documents(orig_runs[system], trec_eval=trec_eval),
                    ranked_documents(runs[system], trec_eval=trec_eval),
                    cutoffs=cutoffs,
                    p=rbo_p,
                    depth=rbo_depth,
                )
        rows += reproduction_rows(
            side.name,
            kind,
            orig_values,
            values,
            pairs=pairs,
            systems=wanted,
            metrics=names,
            order=order,
        )
    return rows


def _runs(side: Side, systems: Sequence[str]) -> dict[str, Run]:
    missing = [s for s in systems if s not in side.runs]
    if missing:
        raise InputError(
            f"no run of system {missing[0]!r} in {side.name!r}; expected one of "
            f"{', '.join(sorted(side.runs))}",
        )
    for s in systems:  # a malformed ir_metadata block is an error here too
        read_ir_metadata(side.runs[s])
    return {s: read_run(side.runs[s], name=s) for s in systems}


def _values(
    qrels: Qrels,
    runs: Mapping[str, Run],
    metrics: Sequence[str],
    dataset: str,
    relevance: int,
    trec_eval: TrecEvalVersion,
) -> dict[str, TopicValues]:
    results = evaluate(
        qrels,
        list(runs.values()),
        list(metrics),
        relevance=relevance,
        trec_eval=trec_eval,
        dataset=dataset,
    )
    return topic_values(results.frame, dataset)


def dataset_side(config: Config, dataset: str, base: Path, where: str) -> Side:
    """A side from a dataset of the configuration that names its qrels and runs."""
    spec = next((d for d in config.datasets if d.id == dataset), None)
    if spec is None or not spec.evaluated:
        known = [d.id for d in config.datasets if d.evaluated]
        raise ConfigError(
            f"{where}: dataset {dataset!r} has no qrels and runs in [[datasets]]; expected "
            f"one of {', '.join(known) or '(none: give [[datasets]] their qrels and runs)'}"
        )
    qrels = configured_inputs(replace(config, datasets=(replace(spec, runs=()),)), base)[0]
    runs = {system_name(p): p for p in run_paths(spec, base)}
    return Side(dataset, qrels, runs)


def configured_rows(config: Config, spec: TableSpec, base: Path) -> list[ReproductionRow]:
    """The rows of a ``[tables.<name>]`` section of layout ``reproduction``."""
    where = f"tables.{spec.name}"
    original = dataset_side(config, spec.original or "", base, f"{where}.original")
    sides = [dataset_side(config, d, base, f"{where}.reproductions") for d in spec.reproductions]
    first = next(d for d in config.datasets if d.id == spec.original)
    return reproduce(
        original,
        sides,
        pairs=spec.pairs,
        systems=spec.systems if spec.systems or spec.pairs else tuple(original.runs),
        metrics=spec.metrics,
        cutoffs=spec.cutoffs,
        rbo_p=spec.rbo_p,
        rbo_depth=spec.rbo_depth,
        relevance=first.relevance,
        trec_eval="10" if first.trec_eval == "10" else "9.0.8",
    )
