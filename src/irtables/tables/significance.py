"""Significance markers for the tables, and the caption legend that explains them.

The tests run once per table family (:func:`run_comparisons`); :func:`markers_for` turns
their outcomes into the marker text of each cell: by default ``†`` for significantly
better than the baseline and ``‡`` for significantly worse; with several baselines or
all pairs, the letters of the systems a cell is significantly better than (as ranx).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from irtables.config import CompareSettings, Config
from irtables.measures import parse_measure
from irtables.model import MissingPolicy, ResultSet
from irtables.stats import Comparisons, compare
from irtables.tables.model import Row, RowGroup, TableModel

TEST_NAMES = {
    "t": "paired t-test",
    "wilcoxon": "Wilcoxon signed-rank test",
    "sign": "sign test",
    "randomization": "randomization test ({resamples:,} sign flips)",
    "bootstrap": "paired bootstrap test ({resamples:,} resamples)",
}
CORRECTION_NAMES = {
    "none": "no correction for multiple testing",
    "bonferroni": "Bonferroni correction",
    "holm": "Holm correction",
    "bh": "Benjamini–Hochberg correction",
}
FAMILY_NAMES = {
    "metric": "over the comparisons of each dataset and metric",
    "dataset": "over the comparisons of each dataset",
    "table": "over all comparisons of the table",
    "all": "over all comparisons of the table",
}
LETTERS = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class Significance:
    """The comparisons behind one table and how to mark them."""

    comparisons: Comparisons
    settings: CompareSettings
    baselines: tuple[str, ...]  # empty in all-pairs mode
    letters: dict[tuple[str, str], str]  # (dataset, system) -> letter, one per system

    @property
    def uses_letters(self) -> bool:
        """Letters when comparing all pairs or against several baselines."""
        return self.settings.all_pairs or len(self.baselines) > 1


def run_comparisons(
    results: ResultSet,
    config: Config,
    *,
    metrics: Sequence[str],
    datasets: Sequence[str],
    systems: dict[str, tuple[str, ...]],
    baselines: Sequence[str] | None = None,
    missing: MissingPolicy = "error",
    progress: Callable[[int, int], None] | None = None,
) -> Significance:
    """Run the configured paired tests for the given metrics and datasets.

    ``baselines`` overrides the configured ones (an ablation group's full model);
    ``systems`` gives each dataset's systems in display order (for letters).
    """
    s = config.compare
    base = tuple(baselines) if baselines is not None else s.baseline
    all_pairs = s.all_pairs and baselines is None
    opts = {"n_resamples": s.resamples} if s.test in ("randomization", "bootstrap") else {}
    shown = sorted({x for d in datasets for x in systems.get(d, ())})
    comparisons = compare(
        results,
        baseline=None if all_pairs else list(base),
        pairs="all" if all_pairs else "baseline",
        test=s.test,
        correction=s.correction,
        family=s.family,
        alpha=s.alpha,
        alternative=s.alternative,
        metrics=list(metrics),
        datasets=list(datasets),
        systems=shown,
        missing=missing,
        rng=s.seed,
        options=opts,
        progress=progress,
    )
    used = () if all_pairs else base
    order = list(dict.fromkeys(x for d in datasets for x in systems.get(d, ())))
    letters = {
        (d, system): LETTERS[order.index(system) % len(LETTERS)]
        for d in datasets
        for system in systems.get(d, ())
    }
    settings = s if baselines is None else _ablation_settings(s)
    return Significance(comparisons, settings, used, letters)


def _ablation_settings(s: CompareSettings) -> CompareSettings:
    return replace(s, all_pairs=False)


def markers_for(sig: Significance) -> Callable[[str, str, str], str]:
    """The marker text of the cell of (dataset, system, canonical metric)."""
    c = sig.comparisons
    table: dict[tuple[str, str, str], str] = {}
    for r in c.results:
        outcome = r.outcome(c.alpha)
        if outcome == "none":
            continue
        if not parse_measure(r.metric).higher_is_better:
            outcome = "better" if outcome == "worse" else "worse"
        winner, loser = (r.system, r.baseline) if outcome == "better" else (r.baseline, r.system)
        if sig.uses_letters:
            key = (r.dataset, winner, r.metric)
            table[key] = table.get(key, "") + sig.letters.get((r.dataset, loser), "?")
        else:  # the mark goes on the compared system's cell, never the baseline's
            symbol = sig.settings.better if outcome == "better" else sig.settings.worse
            key = (r.dataset, r.system, r.metric)
            if symbol not in table.get(key, ""):
                table[key] = table.get(key, "") + symbol
    if sig.uses_letters:
        table = {k: "".join(sorted(v)) for k, v in table.items()}

    def marker(dataset: str, system: str, metric: str) -> str:
        return table.get((dataset, system, metric), "")

    return marker


def legend(sig: Significance, baseline_names: Sequence[str]) -> str:
    """One caption sentence: what the markers mean and how they were decided."""
    s = sig.settings
    c = sig.comparisons
    test = TEST_NAMES[c.test].format(resamples=s.resamples)
    how = f"{test}, {c.alternative}, α = {c.alpha:g}; {CORRECTION_NAMES[c.correction]}"
    if c.correction != "none":
        how += f" {FAMILY_NAMES.get(c.family, 'per family')}"
    if sig.uses_letters:
        return (
            "Superscript letters: significantly better than the systems with those letters "
            f"({how})."
        )
    names = " or ".join(baseline_names)
    return f"{s.better} and {s.worse}: significantly better and worse than {names} ({how})."


def with_letters(table: TableModel, sig: Significance) -> TableModel:
    """Append each system's letter to its row label: ``BM25 (a)``."""
    by_system = {system: letter for (_, system), letter in sig.letters.items()}

    def relabel(row: Row) -> Row:
        letter = by_system.get(row.key)
        return replace(row, label=f"{row.label} ({letter})") if letter else row

    groups = tuple(RowGroup(g.label, tuple(relabel(r) for r in g.rows)) for g in table.groups)
    return replace(table, groups=groups)
