"""Caption sentences that say what the numbers in a table are."""

from __future__ import annotations

from collections.abc import Sequence

from irtables.config import Config
from irtables.measures import parse_measure
from irtables.model import ResultSet


def describe_numbers(
    results: ResultSet,
    config: Config,
    datasets: Sequence[str],
    metrics: Sequence[str],
    *,
    second: bool,
    delta: bool = False,
) -> tuple[str, ...]:
    """Sentences for a caption: query counts, relevance thresholds, gain, highlighting."""
    notes = [_query_sentence(results, config, datasets)]
    measures = [parse_measure(m) for m in dict.fromkeys(metrics)]
    rels = sorted({m.rel for m in measures if m.rel is not None})
    if rels:
        levels = " or ".join(f"grade ≥ {r}" for r in rels)
        notes.append(f"Binary measures count {levels} as relevant.")
    families = {m.family for m in measures}
    if "nDCG" in families:
        notes.append("NDCG uses the relevance grade as gain (trec_eval).")
    if "nDCG_exp" in families:
        notes.append("NDCG-exp uses the exponential gain 2^grade − 1.")
    highlight = "Best value per column within each group in bold"
    notes.append(highlight + ("; second best underlined." if second else "."))
    if delta:
        notes.append("Parentheses: difference from the full model.")
    return tuple(notes)


def _query_sentence(results: ResultSet, config: Config, datasets: Sequence[str]) -> str:
    frame = results.frame
    counts = (
        frame.groupby("dataset", observed=True)["query"].nunique().to_dict() if len(frame) else {}
    )
    if len(datasets) == 1:
        n = counts.get(datasets[0], 0)
        return f"Means over {n} {'query' if n == 1 else 'queries'}."
    parts = [f"{config.dataset_name(d)}: {counts.get(d, 0)}" for d in datasets]
    return "Means over the queries of each dataset (" + "; ".join(parts) + ")."
