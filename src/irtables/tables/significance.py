"""Significance markers for the tables, and the caption legend that explains them.

The tests run once per table family (:func:`run_comparisons`); :func:`markers_for` turns
their outcomes into the marker text of each cell: by default ``†`` for significantly
better than the baseline and ``‡`` for significantly worse; with several baselines or
all pairs, the letters of the systems a cell is significantly better than (as ranx).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from irtables.base.names import ALL_PAIRS_TEST_NAMES, RESAMPLED_TEST_NAMES
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
    "tukey": "Tukey HSD test (two-way ANOVA, topics as blocks)",
    "randomized-tukey": "randomized Tukey HSD test ({resamples:,} permutations within topics)",
}
CORRECTION_NAMES = {
    "none": "no correction for multiple testing",
    "bonferroni": "Bonferroni correction",
    "holm": "Holm correction",
    "bh": "Benjamini–Hochberg correction",
    "tukey": "family-wise error controlled over all pairs by the studentized range",
    "randomized-tukey": "family-wise error controlled over all pairs by the permutation "
    "distribution of the largest difference",
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
        if self.settings.all_pairs:
            return True
        per = [b for _, b in self.settings.dataset_baselines]
        return len(self.baselines) > 1 or any(len(b) > 1 for b in per)


def compare_with(
    results: ResultSet,
    settings: CompareSettings,
    *,
    metrics: Sequence[str] | None = None,
    datasets: Sequence[str] | None = None,
    systems: Sequence[str] | None = None,
    missing: MissingPolicy = "error",
    progress: Callable[[int, int], None] | None = None,
) -> Comparisons:
    """The comparisons ``settings`` ask for: the one translation of ``[compare]`` (and the
    options that override it) into :func:`~irtables.stats.compare`.

    All pairs when ``settings.all_pairs``, else every system against the baselines (per
    dataset where configured; the first system of a dataset when none is named). An
    all-pairs procedure (``tukey``) adjusts for all pairs itself: a correction of
    ``none`` (or none at all) is passed on as None.
    """
    s = settings
    every = list(datasets) if datasets is not None else list(results.datasets())
    correction = s.correction
    if s.test in ALL_PAIRS_TEST_NAMES and correction == "none":
        correction = None
    return compare(
        results,
        baseline=None if s.all_pairs else (s.baseline_spec(every) or None),
        pairs="all" if s.all_pairs else "baseline",
        test=s.test,
        correction=correction,
        family=s.family,
        alpha=s.alpha,
        alternative=s.alternative,
        metrics=None if metrics is None else list(metrics),
        datasets=None if datasets is None else list(datasets),
        systems=None if systems is None else list(systems),
        missing=missing,
        rng=s.seed,
        options={"n_resamples": s.resamples} if s.test in RESAMPLED_TEST_NAMES else {},
        progress=progress,
    )


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
    settings = s if baselines is None else _ablation_settings(s, baselines)
    comparisons = compare_with(
        results,
        settings,
        metrics=metrics,
        datasets=datasets,
        systems=sorted({x for d in datasets for x in systems.get(d, ())}),
        missing=missing,
        progress=progress,
    )
    used = () if settings.all_pairs else tuple(baselines or s.baseline)
    order = list(dict.fromkeys(x for d in datasets for x in systems.get(d, ())))
    letters = {
        (d, system): LETTERS[order.index(system) % len(LETTERS)]
        for d in datasets
        for system in systems.get(d, ())
    }
    return Significance(comparisons, settings, used, letters)


def _ablation_settings(s: CompareSettings, baselines: Sequence[str]) -> CompareSettings:
    return replace(s, all_pairs=False, baseline=tuple(baselines), dataset_baselines=())


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


def legend(
    sig: Significance,
    baseline_names: Sequence[str],
    *,
    datasets: Sequence[str] = (),
    config: Config | None = None,
) -> str:
    """Caption sentences: what the markers mean and how they were decided.

    With ``datasets`` and ``config``, the legend is for a table of those datasets: the
    baselines are named per dataset when they differ, and a dataset without its baseline
    is said to carry no markers.
    """
    s = sig.settings
    c = sig.comparisons
    test = TEST_NAMES[c.test].format(resamples=s.resamples)
    if c.test in ALL_PAIRS_TEST_NAMES:
        how = f"{test}, α = {c.alpha:g}; {CORRECTION_NAMES[c.correction]}"
    else:
        how = f"{test}, {c.alternative}, α = {c.alpha:g}; {CORRECTION_NAMES[c.correction]}"
        if c.correction != "none":
            how += f" {FAMILY_NAMES.get(c.family, 'per family')}"
    missing = _missing_sentence(sig, datasets, config)
    tested = [d for d in datasets if d not in _untested(sig)]
    if datasets and not tested:
        return missing
    if sig.uses_letters:
        text = (
            "Superscript letters: significantly better than the systems with those letters "
            f"({how})."
        )
        return f"{text} {missing}".strip()
    names = " or ".join(baseline_names)
    if config is not None and s.dataset_baselines and tested:
        names = _per_dataset_names(s, tested, config)
    text = f"{s.better} and {s.worse}: significantly better and worse than {names} ({how})."
    return f"{text} {missing}".strip()


def _untested(sig: Significance) -> dict[str, tuple[str, ...]]:
    """Datasets not compared with (all of) their baselines -> the baselines they lack."""
    return dict(sig.comparisons.without_baseline)


def _per_dataset_names(s: CompareSettings, datasets: Sequence[str], config: Config) -> str:
    named = {d: " or ".join(config.system_name(b) for b in s.baselines_of(d)) for d in datasets}
    if len(set(named.values())) == 1:
        return next(iter(named.values()))
    parts = "; ".join(f"{config.dataset_name(d)}: {n}" for d, n in named.items())
    return f"the baseline of each dataset ({parts})"


def _missing_sentence(sig: Significance, datasets: Sequence[str], config: Config | None) -> str:
    """ "No markers on CACM: it has no run of BM25." for each dataset without its baseline."""
    if config is None or not datasets:
        return ""
    untested = _untested(sig)
    out = []
    for d in datasets:
        if d not in untested:
            continue
        lacking = untested[d]
        name = config.dataset_name(d)
        if not lacking:
            out.append(f"No markers on {name}: no baseline is configured for it.")
            continue
        systems = " or ".join(config.system_name(b) for b in lacking)
        tested = [b for b in sig.settings.baselines_of(d) if b not in lacking]
        if tested:
            out.append(f"{name} has no run of {systems}: its markers compare with the others.")
        else:
            out.append(f"No markers on {name}: it has no run of {systems}.")
    return " ".join(out)


def with_letters(table: TableModel, sig: Significance) -> TableModel:
    """Append each system's letter to its row label: ``BM25 (a)``."""
    by_system = {system: letter for (_, system), letter in sig.letters.items()}

    def relabel(row: Row) -> Row:
        letter = by_system.get(row.key)
        return replace(row, label=f"{row.label} ({letter})") if letter else row

    groups = tuple(RowGroup(g.label, tuple(relabel(r) for r in g.rows)) for g in table.groups)
    return replace(table, groups=groups)
