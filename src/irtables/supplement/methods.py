"""The model of the methods text: what was computed, as data for the methods templates.

Pure: built from the configuration, the metrics the tables actually show (per dataset),
the number of queries and the comparisons that ran. The sentences are built from it once
(:mod:`.methods_text`) and laid out per format (:mod:`.prose`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from irtables.base.procedures import CORRECTIONS, TESTS, SignificanceTest, correction_phrase
from irtables.base.text import join_and
from irtables.config import Config
from irtables.config.tables import compared_with
from irtables.measures import FAMILIES, Measure, parse_measure
from irtables.stats import Comparisons
from irtables.stats.effect import NOISE
from irtables.supplement.bibliography import (
    AVERAGING_CITES,
    EFFECT_SIZE_CITES,
    META_CITES,
    POWER_CITES,
    Reference,
    cited,
)
from irtables.tables.significance import family_phrase

if TYPE_CHECKING:
    from irtables.supplement.across import AcrossSummary


@dataclass(frozen=True)
class MetricEntry:
    """One measure family as reported: ``ks`` are its cutoffs, ``whole`` whether it is
    also reported without one (MAP, MRR over the full ranking)."""

    family: str
    label: str
    ks: tuple[int, ...]
    whole: bool
    description: str
    cites: tuple[str, ...]
    binary: bool
    levels: tuple[int, ...] = ()  # levels stated in graded measures' names (nDCG(rel=2))


@dataclass(frozen=True)
class DatasetEntry:
    """A dataset: display name, number of queries, the relevance threshold and, when
    irtables evaluated its runs, the trec_eval version whose semantics it used."""

    id: str
    name: str
    queries: int
    relevance: int
    trec_eval: str | None = None  # None: per-query values read from result files


@dataclass(frozen=True)
class EvaluationGroup:
    """Datasets whose per-query values came the same way: evaluated by irtables with
    trec_eval ``version``'s semantics, or (``version`` None) read from result files."""

    version: str | None
    names: tuple[str, ...]


@dataclass(frozen=True)
class TestRun:
    """One test with its settings, and the tables whose markers it decided (all of them
    when the study-level comparisons are described alone)."""

    test: str
    name: str
    alternative: str
    alpha: float
    correction: str
    correction_name: str
    family: str
    resamples: int
    tables: tuple[str, ...] = ()

    @property
    def alpha_text(self) -> str:
        """The significance level as written: ``0.05``."""
        return f"{self.alpha:g}"

    @property
    def record(self) -> SignificanceTest:
        """The test's record."""
        return TESTS[self.test]

    @property
    def cites(self) -> tuple[str, ...]:
        """The references of the test and of its correction."""
        correction = CORRECTIONS.get(self.correction)
        return self.record.cites + (correction.cites if correction is not None else ())


@dataclass(frozen=True)
class TestEntry:
    """The significance tests that ran (from the comparisons, not from the wishes): one
    run per distinct test and settings, in the order of the tables."""

    runs: tuple[TestRun, ...]
    comparisons: int
    methods: tuple[str, ...]
    intervals: tuple[str, ...]

    @property
    def cites(self) -> tuple[str, ...]:
        """The references of every test and correction that ran."""
        return tuple(k for run in self.runs for k in run.cites)

    @property
    def procedure(self) -> bool:
        """Whether a procedure on the two-way ANOVA ran (its effect size is ES_E)."""
        return any(run.record.procedure for run in self.runs)

    @property
    def sides(self) -> str:
        """``one-sided`` when every test was, ``mixed`` when some were, else empty."""
        one = [run.alternative != "two-sided" for run in self.runs]
        return "one-sided" if all(one) else "mixed" if any(one) else ""


@dataclass(frozen=True)
class TableTestEntry:
    """The tests behind one table's markers, read from its own comparisons.

    ``anova``: a procedure on the two-way ANOVA (Tukey HSD, randomized Tukey HSD,
    Dunnett), whose effect size is Sakai's ES_E; the paired tests report Cohen's d_z.
    ``noise``: the relative tolerance below which a standard deviation is no variance
    (:data:`irtables.stats.effect.NOISE`).
    """

    title: str
    test: str
    name: str
    alternative: str
    correction: str
    family: str
    family_sizes: tuple[int, ...]
    anova: bool
    noise: float = NOISE

    @property
    def sizes_text(self) -> str:
        """``family size 4`` or ``family sizes 1 to 4``."""
        if not self.family_sizes:
            return "no family"
        low, high = self.family_sizes[0], self.family_sizes[-1]
        return f"family size {low}" if low == high else f"family sizes {low} to {high}"


@dataclass(frozen=True)
class MethodsModel:
    """Everything the methods text says."""

    metrics: tuple[MetricEntry, ...]
    ks: tuple[int, ...]
    datasets: tuple[DatasetEntry, ...]
    missing: str
    test: TestEntry | None
    baseline: str | None
    all_pairs: bool
    ablation: bool
    averaging_cites: tuple[str, ...]
    effect_cites: tuple[str, ...]
    references: tuple[Reference, ...]
    baselines_text: str | None = None  # per-dataset baselines, named
    meta_comparisons: int = 0
    meta_cites: tuple[str, ...] = ()
    power: AcrossSummary | None = None
    power_cites: tuple[str, ...] = ()
    # (table title, the caption notes it does not show: output.caption_notes)
    table_notes: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: each marked table's tests, in the order of the tables
    table_tests: tuple[TableTestEntry, ...] = ()

    @property
    def differences_text(self) -> str:
        """The planned differences of the topic-set-size table: ``0.02, 0.05 and 0.1``."""
        if self.power is None:
            return ""
        return join_and([f"{d:g}" for d in self.power.differences])

    @property
    def any_binary(self) -> bool:
        """Whether a binary measure is reported (the threshold matters)."""
        return any(m.binary for m in self.metrics)

    @property
    def evaluation(self) -> tuple[EvaluationGroup, ...]:
        """How the per-query values were obtained, grouped by trec_eval version."""
        groups: dict[str | None, list[str]] = {}
        for d in self.datasets:
            groups.setdefault(d.trec_eval, []).append(d.name)
        return tuple(EvaluationGroup(v, tuple(names)) for v, names in groups.items())

    @property
    def interpolated(self) -> bool:
        """Whether interpolated precision (IPrec, 11-pt AP) is reported."""
        return any(FAMILIES[m.family].interpolated for m in self.metrics if m.family in FAMILIES)

    @property
    def one_threshold(self) -> bool:
        """Whether every dataset uses the same relevance threshold."""
        return len({d.relevance for d in self.datasets}) <= 1

    @property
    def short(self) -> dict[str, str]:
        """Reference key -> author-year text, for Markdown citations."""
        return {r.key: r.short for r in self.references}


def methods_model(
    config: Config,
    used: Mapping[str, Sequence[str]],
    queries: Mapping[str, int],
    comparisons: Comparisons | None,
    *,
    across: AcrossSummary | None = None,
    by_table: Mapping[str, Comparisons] | None = None,
) -> MethodsModel:
    """Build the methods model.

    Parameters
    ----------
    config
        The study configuration (names, missing-query policy, baseline).
    used
        Dataset id -> canonical metrics shown in its tables.
    queries
        Dataset id -> number of queries its means are taken over.
    comparisons
        The comparisons behind the significance markers, or None when no test ran.
    across
        What the meta-analysis and the topic-set-size table computed, if they ran.
    by_table
        Table title -> the comparisons behind that table's markers, in table order.

    Examples
    --------
    >>> from irtables.config import Config
    >>> m = methods_model(Config(), {"d": ["nDCG@10", "AP", "P@5", "P@10"]}, {"d": 3}, None)
    >>> [(e.label, e.ks) for e in m.metrics]
    [('NDCG@K', (10,)), ('MAP', ()), ('P@K', (5, 10))]
    >>> [r.key for r in m.references]
    ['buckley2000', 'jarvelin2002', 'keen1968']
    """
    measures = [parse_measure(name) for names in used.values() for name in names]
    metrics = _metric_entries(measures)
    evaluated = {d.id: d.trec_eval for d in config.datasets if d.evaluated}
    test = None
    if comparisons is not None and len(comparisons):
        test = _test_entry(comparisons, by_table or {})
    keys = [k for m in metrics for k in m.cites] + list(AVERAGING_CITES)
    if test is not None:
        keys += [*test.cites, *EFFECT_SIZE_CITES]
    meta = across.meta_comparisons if across is not None else 0
    power = across if across is not None and across.topic_set_size else None
    keys += [*(META_CITES if meta else ()), *(POWER_CITES if power else ())]
    return MethodsModel(
        metrics=metrics,
        ks=tuple(sorted({k for m in metrics for k in m.ks})),
        datasets=tuple(
            DatasetEntry(
                d, config.dataset_name(d), queries.get(d, 0), _threshold(used[d]), evaluated.get(d)
            )
            for d in used
        ),
        missing=config.output.missing,
        test=test,
        baseline=config.system_name(config.baseline) if config.baseline else None,
        all_pairs=config.compare.all_pairs,
        ablation=any(compared_with(s.layout) == "groups" for s in config.tables)
        and config.compare.markers,
        averaging_cites=AVERAGING_CITES,
        effect_cites=EFFECT_SIZE_CITES if test is not None else (),
        references=cited(keys),
        baselines_text=_baselines_text(config, list(used)),
        meta_comparisons=meta,
        meta_cites=META_CITES if meta else (),
        power=power,
        power_cites=POWER_CITES if power else (),
        table_tests=tuple(_table_test(title, c) for title, c in (by_table or {}).items() if len(c)),
    )


def _table_test(title: str, c: Comparisons) -> TableTestEntry:
    """What one table's comparisons ran: test, alternative, correction, family, sizes."""
    procedure = TESTS[c.test].procedure
    return TableTestEntry(
        title=title,
        test=c.test,
        name=TESTS[c.test].named(c.resamples),
        alternative=c.alternative,
        correction=correction_phrase(c.correction),
        family="" if procedure or c.correction == "none" else family_phrase(c),
        family_sizes=tuple(sorted({r.family_size for r in c.results if r.family_size})),
        anova=procedure,
    )


def _baselines_text(config: Config, datasets: Sequence[str]) -> str | None:
    """``BM25 on TREC CAsT 2021, BM25 (Anserini) on CACM`` when baselines differ per dataset."""
    s = config.compare
    if not s.dataset_baselines:
        return None
    parts = []
    for d in datasets:
        names = s.baselines_of(d)
        if names:
            who = " and ".join(config.system_name(b) for b in names)
            parts.append(f"{who} on {config.dataset_name(d)}")
    return ", ".join(parts) if parts else None


def _metric_entries(measures: Sequence[Measure]) -> tuple[MetricEntry, ...]:
    by_family: dict[str, list[Measure]] = {}
    for m in measures:
        if m.extra is None:
            by_family.setdefault(m.family, []).append(m)
    out = []
    for family in [f for f in FAMILIES if f in by_family]:
        found = by_family[family]
        fam = FAMILIES[family]
        ks = tuple(sorted({m.k for m in found if m.k is not None}))
        label = f"{fam.label}@K" if ks else fam.label
        out.append(
            MetricEntry(
                family=family,
                label=label,
                ks=ks,
                whole=any(m.k is None for m in found),
                description=fam.description,
                cites=fam.cites,
                binary=fam.threshold,
                levels=tuple(sorted({m.rel for m in found if m.rel is not None}))
                if fam.graded_level
                else (),
            )
        )
    return tuple(out)


def _threshold(names: Sequence[str]) -> int:
    """The relevance threshold of a dataset's binary measures (1 unless named: ``rel=2``)."""
    rels = {
        m.rel
        for m in map(parse_measure, names)
        if m.extra is None and FAMILIES[m.family].threshold and m.rel is not None
    }
    return max(rels) if rels else 1


def _test_entry(c: Comparisons, by_table: Mapping[str, Comparisons]) -> TestEntry:
    """The tests of ``c`` (every comparison, once): one run per distinct test and settings
    of the tables in ``by_table`` (``c``'s own settings when there is none)."""
    groups: dict[tuple[object, ...], list[tuple[str, Comparisons]]] = {}
    for title, own in by_table.items() or [("", c)]:
        if len(own):
            key = (own.test, own.alternative, own.alpha, own.correction, own.family)
            groups.setdefault((*key, own.resamples), []).append((title, own))
    runs = tuple(_run(tables) for tables in groups.values())
    every = [r for own in (*by_table.values(), c) for r in own.results]  # each table's own
    return TestEntry(
        runs=runs or (_run([("", c)]),),
        comparisons=len(c),
        methods=tuple(dict.fromkeys(r.method for r in every)),
        intervals=tuple(dict.fromkeys(r.ci.method for r in every if r.ci is not None)),
    )


def _run(tables: Sequence[tuple[str, Comparisons]]) -> TestRun:
    """One test and settings, as the tables that share them ran it."""
    first = tables[0][1]
    families = {family_phrase(own) for _, own in tables}
    return TestRun(
        test=first.test,
        name=TESTS[first.test].named(first.resamples),
        alternative=first.alternative,
        alpha=first.alpha,
        correction=first.correction,
        correction_name=correction_phrase(first.correction),
        family=families.pop() if len(families) == 1 else "over all comparisons of each table",
        resamples=first.resamples,
        tables=tuple(title for title, _ in tables if title),
    )
