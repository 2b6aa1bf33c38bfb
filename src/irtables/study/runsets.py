"""Datasets given as qrels + runs in the configuration: evaluated into per-query results.

The measures default to what the tables show: Table 1's metrics, every Table S1 family
at every configured K, the ablation's metrics, and MAP. Binary measures carry the
dataset's relevance threshold in their name (``AP(rel=2)``) when it is not 1, so captions
can state it; nDCG, whose gain is the grade itself, does not.
"""

from __future__ import annotations

import glob
from collections.abc import Callable, Iterable
from pathlib import Path

from irtables.config import Config, DatasetSpec
from irtables.errors import InputError, UnknownNameError
from irtables.measures import FAMILIES, Measure, at_threshold, parse_measure
from irtables.model import ResultSet

Progress = Callable[[str, int, int], None]


def evaluate_datasets(
    config: Config, base: Path, *, progress: Progress | None = None
) -> ResultSet | None:
    """Evaluate every dataset of ``config`` that names qrels and runs (None if none does)."""
    from irtables.evaluator.api import evaluate
    from irtables.evaluator.versions import trec_eval_version

    parts = []
    for spec in config.datasets:
        if not spec.evaluated:
            continue
        measures = [m.name for m in dataset_measures(spec, config)]
        parts.append(
            evaluate(
                _path(base, spec.qrels or "", spec.id, "qrels"),
                run_paths(spec, base),
                measures,
                relevance=spec.relevance,
                depth=spec.depth,
                missing_queries="zero" if spec.complete else "ignore",
                dataset=spec.id,
                trec_eval=trec_eval_version(spec.trec_eval),
                progress=progress,
            )
        )
    return ResultSet.concat(parts) if parts else None


def configured_inputs(config: Config, base: Path) -> list[Path]:
    """Every qrels and run file the configuration names."""
    out: list[Path] = []
    for spec in config.datasets:
        if spec.evaluated:
            out.append(_path(base, spec.qrels or "", spec.id, "qrels"))
            out.extend(run_paths(spec, base))
    return out


def run_paths(spec: DatasetSpec, base: Path) -> list[Path]:
    """The run files of a dataset: paths and glob patterns, relative to ``base``, sorted."""
    found: list[Path] = []
    for pattern in spec.runs:
        if glob.has_magic(pattern):
            matches = sorted(Path(p) for p in glob.glob(str(base / pattern)))
            if not matches:
                raise InputError(
                    f"datasets {spec.id}: no run file matches {pattern!r}", path=str(base)
                )
            found.extend(matches)
        else:
            found.append(_path(base, pattern, spec.id, "run"))
    return list(dict.fromkeys(found))


def dataset_measures(spec: DatasetSpec, config: Config) -> list[Measure]:
    """The measures to compute for a dataset, with its relevance threshold in their names."""
    if spec.measures:
        names: Iterable[str] = spec.measures
    else:
        names = _shown(config)
    out: dict[str, Measure] = {}
    for name in names:
        m = at_threshold(parse_measure(name), spec.relevance)
        out.setdefault(m.name, m)
    return list(out.values())


def _shown(config: Config) -> list[str]:
    names = [*config.main.metrics, "MAP"]
    for family in config.k_breakdown.metrics:
        try:
            m = parse_measure(family)
        except UnknownNameError:
            m = parse_measure(f"{family}@1")
        if FAMILIES[m.family].cutoff == "none" or (m.k is None and family.upper() == "MAP"):
            names.append(family)
            continue
        names.extend(f"{m.family}@{k}" for k in config.k_breakdown.k)
    if config.ablation is not None:
        names.extend(config.ablation.metrics)
    return names


def _path(base: Path, name: str, dataset: str, what: str) -> Path:
    path = Path(name) if Path(name).is_absolute() else base / name
    if not path.is_file():
        raise InputError(f"datasets {dataset}: {what} file not found", path=str(path))
    return path
