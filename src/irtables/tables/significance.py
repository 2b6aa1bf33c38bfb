"""Significance markers for the tables, and the caption legend that explains them.

The tests run once per table family (:func:`run_comparisons`); :func:`markers_for` turns
their outcomes into the marker text of each cell: by default ``†`` for significantly
better than the baseline and ``‡`` for significantly worse; with several baselines or
all pairs, the letters of the systems a cell is significantly better than (as ranx).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from irtables.base.procedures import TESTS, correction_phrase, is_procedure
from irtables.config import Config
from irtables.config.compare import CompareSettings
from irtables.measures import parse_measure
from irtables.model import MissingPolicy, ResultSet
from irtables.stats import Comparisons, compare
from irtables.stats.memo import Memo
from irtables.tables.model import Row, RowGroup, TableModel

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
    memo: Memo | None = None,
) -> Comparisons:
    """The comparisons ``settings`` ask for: the one translation of ``[compare]`` (and the
    options that override it) into :func:`~irtables.stats.compare`.

    ``memo``: results of earlier runs by recipe (:mod:`irtables.stats.memo`).

    All pairs when ``settings.all_pairs``, else every system against the baselines (per
    dataset where configured; the first system of a dataset when none is named). An
    all-pairs procedure (``tukey``) adjusts for all pairs itself: a correction of
    ``none`` (or none at all) is passed on as None.
    """
    s = settings
    every = list(datasets) if datasets is not None else list(results.datasets())
    correction = s.correction
    if is_procedure(s.test) and correction == "none":
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
        options=_options(s),
        progress=progress,
        memo=memo,
    )


def _options(s: CompareSettings) -> dict[str, object]:
    """The test's own options: resamples of a resampling test, and the settings its record
    passes on (Wilcoxon's zero method)."""
    record = TESTS[s.test]
    options: dict[str, object] = {"n_resamples": s.resamples} if record.resampled else {}
    for setting, argument in record.options:
        options[argument] = getattr(s, setting)
    return options


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
    memo: Memo | None = None,
) -> Significance:
    """Run the configured paired tests for the given metrics and datasets.

    ``baselines`` overrides the configured ones (an ablation group's full model);
    ``systems`` gives each dataset's systems in display order (for letters); ``memo``
    keeps the results of each dataset and metric (:mod:`irtables.stats.memo`).
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
        memo=memo,
    )
    used = () if settings.all_pairs else tuple(baselines or s.baseline)
    letters = {
        (d, system): letter_of(i) for d in datasets for i, system in enumerate(systems.get(d, ()))
    }
    return Significance(comparisons, settings, used, letters)


def letter_of(index: int) -> str:
    """The letter of the system at ``index`` among those a dataset shows: a..z, then aa, ab...

    Examples
    --------
    >>> letter_of(0), letter_of(25), letter_of(26), letter_of(27)
    ('a', 'z', 'aa', 'ab')
    """
    if index < len(LETTERS):
        return LETTERS[index]
    return letter_of(index // len(LETTERS) - 1) + LETTERS[index % len(LETTERS)]


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
    test = TESTS[c.test].named(s.resamples)
    if is_procedure(c.test):
        how = f"{test}, α = {c.alpha:g}; {correction_phrase(c.correction)}"
    else:
        how = f"{test}, {c.alternative}, α = {c.alpha:g}; {correction_phrase(c.correction)}"
        if c.correction != "none":
            how += f" {family_phrase(c, sized=True, datasets=datasets)}"
    missing = _missing_sentence(sig, datasets, config)
    untested = _untested(sig, datasets)
    tested = [d for d in datasets if d not in untested]
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
    if c.alternative != "two-sided":
        return f"{_one_sided(sig, names, test, datasets)} {missing}".strip()
    text = f"{s.better} and {s.worse}: significantly better and worse than {names} ({how})."
    return f"{text} {missing}".strip()


def family_phrase(c: Comparisons, *, sized: bool = False, datasets: Sequence[str] = ()) -> str:
    """How the correction's family reads in a caption; a family of the whole table says
    its size ("over all 12 comparisons of the table"). ``sized``: every family says its
    size, as the comparisons of ``datasets`` (default: all) were corrected ("over the 3
    comparisons of each dataset and metric", "over the 3 to 5 comparisons of ...").

    Examples
    --------
    >>> from irtables.stats.result import PairedTestResult
    >>> r = PairedTestResult(test="t", method="t", n=9, mean_diff=0.1, statistic=1.0,
    ...                      pvalue=0.3, family_size=3, dataset="d")
    >>> c = Comparisons((r, replace(r, dataset="e", family_size=5)), "t", "holm", "metric", 0.05)
    >>> family_phrase(c, sized=True, datasets=["d"])
    'over the 3 comparisons of each dataset and metric'
    >>> family_phrase(c, sized=True)
    'over the 3 to 5 comparisons of each dataset and metric'
    """
    if c.family in ("table", "all") and c.results:
        size = max(r.family_size or 0 for r in c.results)
        return f"over all {size} comparisons of the table"
    phrase = FAMILY_NAMES.get(c.family, "per family")
    shown = set(datasets)
    sizes = sorted(
        {r.family_size for r in c.results if r.family_size and (not shown or r.dataset in shown)}
    )
    if not sized or not sizes or not phrase.startswith("over the comparisons"):
        return phrase
    count = str(sizes[0]) if len(sizes) == 1 else f"{sizes[0]} to {sizes[-1]}"
    noun = "comparison" if count == "1" else "comparisons"
    return phrase.replace("over the comparisons", f"over the {count} {noun}", 1)


def possible_outcomes(c: Comparisons) -> tuple[str, ...]:
    """The marks a one-sided test can give, as shown (``better``, ``worse``), in that order.

    ``alternative = "greater"`` tests whether the system's scores are higher: a mark of
    "better" on a metric where higher is better, of "worse" where lower is better.
    """
    higher = {parse_measure(r.metric).higher_is_better for r in c.results} or {True}
    greater = c.alternative == "greater"
    found = {"better" if h == greater else "worse" for h in higher}
    return tuple(o for o in ("better", "worse") if o in found)


def _one_sided(sig: Significance, names: str, test: str, datasets: Sequence[str]) -> str:
    """The legend of a one-sided test: only the marks it can give, and which side it tests."""
    s, c = sig.settings, sig.comparisons
    side = "higher" if c.alternative == "greater" else "lower"
    how = (
        f"{test}, one-sided: it tests only whether a system scores {side} than the "
        f"baseline, α = {c.alpha:g}; {correction_phrase(c.correction)}"
    )
    if c.correction != "none" and not is_procedure(c.test):
        how += f" {family_phrase(c, sized=True, datasets=datasets)}"
    marks = possible_outcomes(c)
    if len(marks) == 2:
        symbols = f"{s.better} and {s.worse}"
        meaning = "significantly better and worse"
    else:
        symbols = s.better if marks[0] == "better" else s.worse
        meaning = f"significantly {marks[0]}"
    return f"{symbols}: {meaning} than {names} ({how})."


def _untested(sig: Significance, datasets: Sequence[str] = ()) -> dict[str, tuple[str, ...]]:
    """Datasets not compared with (all of) their baselines -> the baselines they lack;
    of ``datasets``, those without a baseline of their own (a per-dataset baseline that
    does not name them, and no global one; even with one system) -> ()."""
    out = dict(sig.comparisons.without_baseline)
    s = sig.settings
    if s.dataset_baselines and not s.all_pairs:
        for d in datasets:
            if not s.baselines_of(d):
                out.setdefault(d, ())
    return out


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
    untested = _untested(sig, datasets)
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


def _letters_by_group(
    table: TableModel, sig: Significance, config: Config
) -> list[dict[str, str]] | None:
    """Each row group's letters (system -> letter), or None when a row label cannot carry
    them: a group of one dataset (Table 1 with datasets as row groups) takes that
    dataset's letters; other groups take the letters of the table's datasets when each
    system has the same letter in all of them."""
    named = {config.dataset_name(d): d for d in table.datasets}
    common: dict[str, set[str]] = {}
    for (d, system), letter in sig.letters.items():
        if d in table.datasets:
            common.setdefault(system, set()).add(letter)
    agreed = {k: next(iter(v)) for k, v in common.items() if len(v) == 1}
    out = []
    for g in table.groups:
        own = named.get(g.label or "")
        if own is not None:
            out.append({s: x for (ds, s), x in sig.letters.items() if ds == own})
        elif len(agreed) == len(common):
            out.append(agreed)
        else:
            return None
    return out


def letters_sentence(table: TableModel, sig: Significance, config: Config) -> str:
    """ "Letters on Robust04: a BM25, b Dense; on ..." for a table whose row labels cannot
    carry the letters (they differ between its datasets), else empty."""
    if _letters_by_group(table, sig, config) is not None:
        return ""
    parts = []
    for d in table.datasets:
        named = [
            f"{letter} {config.system_name(system)}"
            for (ds, system), letter in sig.letters.items()
            if ds == d
        ]
        if named:
            parts.append(f"on {config.dataset_name(d)}: {', '.join(named)}")
    return f"Letters {'; '.join(parts)}." if parts else ""


def with_letters(table: TableModel, sig: Significance, config: Config) -> TableModel:
    """Append each system's letter to its row label: ``BM25 (a)``; letters restart per
    dataset (see :func:`letters_sentence` when a row label cannot carry them)."""
    found = _letters_by_group(table, sig, config)
    if found is None:
        return table

    def relabel(row: Row, by_system: dict[str, str]) -> Row:
        letter = by_system.get(row.key)
        return replace(row, label=f"{row.label} ({letter})") if letter else row

    groups = tuple(
        RowGroup(g.label, tuple(relabel(r, letters) for r in g.rows))
        for g, letters in zip(table.groups, found, strict=True)
    )
    return replace(table, groups=groups)
