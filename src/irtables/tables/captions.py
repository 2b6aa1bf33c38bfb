"""Caption sentences that say what the numbers in a table are."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from irtables.config import Config
from irtables.measures import FAMILIES, parse_measure
from irtables.tables.model import KeyNote, RowGroup


def describe_numbers(
    queries: Mapping[str, int],
    config: Config,
    datasets: Sequence[str],
    metrics: Mapping[str, Sequence[str]],
    *,
    groups: Sequence[RowGroup],
    runs: Mapping[str, int] | None = None,
    highlight: str = "Best value per column within each group in bold",
) -> tuple[str, ...]:
    """Sentences for a caption: query counts, seeds, relevance thresholds, gain, counts,
    highlighting and differences, each only when the table has it.

    ``queries`` is the number of queries each dataset's means are over; ``metrics`` the
    canonical metrics shown for each dataset; ``groups`` the table's rows, whose cells
    say whether anything is bold, underlined or has a Δ; ``runs`` the number of seeds of
    each shown system (display name) that has several; ``highlight`` what bold is
    compared across.
    """
    notes = [_query_sentence(queries, config, datasets)]
    if runs:
        notes.extend(seed_sentences(runs, spread=config.output.seeds == "mean_std"))
    rel_sentence = _relevance_sentence(config, datasets, metrics)
    if rel_sentence:
        notes.append(rel_sentence)
    measures = [parse_measure(m) for d in datasets for m in metrics.get(d, ())]
    families = {m.family for m in measures}
    notes.extend(f.caption for f in FAMILIES.values() if f.name in families and f.caption)
    counts = [FAMILIES[f].label for f in sorted(families) if f in FAMILIES and FAMILIES[f].count]
    if counts:
        notes.append(f"{', '.join(counts)}: means per query, not sums.")
    notes.extend(highlight_sentences(groups, highlight))
    return tuple(notes)


def highlight_sentences(
    groups: Sequence[RowGroup], highlight: str = "Best value per column within each group in bold"
) -> list[KeyNote]:
    """What bold, underline and parentheses mean, for those the cells use.

    ``highlight`` says what the bold value is the best of.

    Examples
    --------
    >>> from irtables.tables.model import Cell, Row
    >>> row = Row("a", "A", (Cell(0.5, "0.500", best=True), Cell(0.4, "0.400", delta="-0.010")))
    >>> highlight_sentences([RowGroup(None, (row,))])[1][:36]
    'Parentheses: difference from the ful'
    """
    cells = [c for g in groups for r in g.rows for c in r.cells]
    bold, underline = any(c.best for c in cells), any(c.second for c in cells)
    notes = []
    if bold:
        notes.append(KeyNote(highlight + ("; second best underlined." if underline else ".")))
    if any(c.delta for c in cells):
        text = "Parentheses: difference from the full model, computed from the values shown."
        notes.append(KeyNote(text))
    return notes


def seed_sentences(runs: Mapping[str, int], *, spread: bool) -> list[str]:
    """Say that seeds were averaged and, with ``spread``, what the ± means.

    Examples
    --------
    >>> seed_sentences({"Dense": 3, "SPLADE": 3}, spread=True)[1]
    'Values with ± are mean ± standard deviation over 3 seeds.'
    >>> seed_sentences({"Dense": 3, "SPLADE": 5}, spread=True)[1][-52:]
    'over the seeds of each system (Dense: 3; SPLADE: 5).'
    """
    notes = ["Per-query values are means over the seeds of each system."]
    if spread:
        counts = set(runs.values())
        if len(counts) == 1:
            over = f"over {counts.pop()} seeds"
        else:
            over = (
                "over the seeds of each system ("
                + "; ".join(f"{s}: {n}" for s, n in runs.items())
                + ")"
            )
        notes.append(f"Values with ± are mean ± standard deviation {over}.")
    return notes


def _query_sentence(counts: Mapping[str, int], config: Config, datasets: Sequence[str]) -> str:
    if len(datasets) == 1:
        n = counts.get(datasets[0], 0)
        return f"Means over {n} {'query' if n == 1 else 'queries'}."
    parts = [f"{config.dataset_name(d)}: {counts.get(d, 0)}" for d in datasets]
    return "Means over the queries of each dataset (" + "; ".join(parts) + ")."


def _relevance_sentence(
    config: Config, datasets: Sequence[str], metrics: Mapping[str, Sequence[str]]
) -> str | None:
    """Where metric names state a relevance threshold, say it, per dataset if needed."""
    by_level: dict[int, list[str]] = {}
    for d in datasets:
        for rel in sorted(
            {
                m.rel
                for m in map(parse_measure, metrics.get(d, ()))
                if m.rel is not None and m.extra is None and FAMILIES[m.family].threshold
            }
        ):
            by_level.setdefault(rel, []).append(d)
    if not by_level:
        return None
    if len(datasets) == 1:
        levels = " or ".join(f"grade ≥ {r}" for r in by_level)
        return f"Binary measures count {levels} as relevant."
    parts = [
        f"grade ≥ {r} on {', '.join(config.dataset_name(d) for d in ds)}"
        for r, ds in sorted(by_level.items())
    ]
    return f"Binary measures count a document as relevant at {'; '.join(parts)}."
