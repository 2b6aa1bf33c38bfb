"""The supplement's meta-analysis and topic-set-size tables: rows, CSV and Markdown.

Pure: the statistics come from :mod:`irtables.stats.meta` and
:mod:`irtables.stats.topicset`; numbers are formatted here, templates only lay them out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from irtables.base.texttable import csv_text
from irtables.measures import parse_measure
from irtables.stats.meta import HKSJ_BELOW, MetaAnalysis, Pooled
from irtables.stats.topicset import TopicSetSize
from irtables.supplement.report import md_section, number, to_markdown
from irtables.tables.numbers import format_pvalue as pvalue

Names = Callable[[str], str]
META_HEADER = (
    "Metric", "System", "Baseline", "k", "g", "95% CI", "interval", "p", "τ²", "I²", "Q",
)  # fmt: skip
STUDY_HEADER = ("Metric", "System", "Baseline", "Dataset", "n", "Δ", "g", "95% CI", "weight")
#: ``meta_analysis.csv``: the pooled rows and the per-dataset rows, how each interval was made.
META_CSV_HEADER = (*STUDY_HEADER, "interval")
META_NOTE = (
    "Random-effects meta-analysis (DerSimonian–Laird) of each comparison over the datasets "
    "where it was made: k datasets; g, the pooled standardized mean difference (Hedges' g "
    "of the per-query differences) with its 95% interval and two-sided p-value; interval, "
    f"how they were computed: with fewer than {HKSJ_BELOW} datasets a "
    "Hartung–Knapp–Sidik–Jonkman t interval with k − 1 degrees of freedom, its variance "
    "at least the normal one (Röver et al. 2015's modification: the HKSJ scale factor is "
    "at least 1), else the normal interval; τ², the variance of the true effect between "
    "datasets; I², the share of the variation between datasets that is not chance; Q, "
    "Cochran's heterogeneity statistic."
)


def interval_of(pooled: Pooled) -> str:
    """The ``interval`` column: ``HKSJ t, 2 df (≥ normal)`` or ``normal``."""
    return f"HKSJ t, {pooled.df} df (≥ normal)" if pooled.interval == "hksj" else "normal"


def meta_rows(analyses: Sequence[MetaAnalysis], system: Names) -> list[list[str]]:
    """One row per pooled comparison."""
    return [
        [
            parse_measure(m.metric).label,
            system(m.system),
            system(m.baseline),
            str(len(m.studies)),
            number(m.pooled.effect),
            f"[{number(m.pooled.ci_low)}, {number(m.pooled.ci_high)}]",
            interval_of(m.pooled),
            pvalue(m.pooled.pvalue),
            number(m.pooled.tau2, 4),
            f"{m.pooled.i2 * 100:.0f}%",
            number(m.pooled.q, 2),
        ]
        for m in analyses
    ]


def study_rows(analyses: Sequence[MetaAnalysis], dataset: Names, system: Names) -> list[list[str]]:
    """One row per dataset of each pooled comparison (what the forest plots show)."""
    return [
        [
            parse_measure(m.metric).label,
            system(m.system),
            system(m.baseline),
            dataset(s.dataset),
            str(s.n),
            number(s.mean_diff, 4),
            number(s.effect),
            f"[{number(s.ci_low)}, {number(s.ci_high)}]",
            f"{s.weight * 100:.1f}%",
        ]
        for m in analyses
        for s in m.studies
    ]


def meta_files(pooled: list[list[str]], studies: list[list[str]]) -> dict[str, str]:
    """``meta_analysis.md`` and ``meta_analysis.csv`` of the :func:`meta_rows` and
    :func:`study_rows`."""
    page = to_markdown("Meta-analysis across datasets", META_HEADER, pooled, META_NOTE)
    if studies:
        note = "The effects being pooled."
        page += "\n" + md_section("Per dataset", STUDY_HEADER, studies, note, level=2)
    rows = [[*r[:3], "pooled", "", "", *r[4:6], "", r[6]] for r in pooled]
    rows += [[*r, ""] for r in studies]
    return {"meta_analysis.md": page, "meta_analysis.csv": csv_text(META_CSV_HEADER, rows)}


def tss_header(differences: Sequence[float], design: str = "two-way") -> tuple[str, ...]:
    """Columns of the topic-set-size table, one per planned difference and design."""
    planned = tuple(f"n for Δ={d:g}" for d in differences)
    anova = tuple(f"n {design} ANOVA for Δ={d:g}" for d in differences)
    return ("Dataset", "Metric", "Systems", "Topics", "σ_d", "MDD", *planned, *anova)


def tss_columns(differences: Sequence[float]) -> tuple[str, ...]:
    """The text of the lower row of :func:`tss_header_tex`, a cell per column."""
    deltas = tuple(f"{d:g}" for d in differences)
    return ("Dataset", "Metric", "Systems", "Topics", "σ_d", "MDD", *deltas, *deltas)


def tss_header_tex(differences: Sequence[float], design: str = "two-way") -> str:
    """The LaTeX header of the topic-set-size table, in two rows: a column per planned
    difference under a heading per design, so that the table fits the page (the
    Markdown's ``n ANOVA for Δ=0.02`` headings, set in one row, were 250 pt too wide)."""
    k = len(differences)
    first = 7  # the first column of topics needed
    groups = " & ".join(
        rf"\multicolumn{{{k}}}{{c}}{{{title}}}"
        for title in (r"$n$, paired $t$", rf"$n$, {design} ANOVA")
    )
    rules = "".join(rf"\cmidrule(lr){{{start}-{start + k - 1}}}" for start in (first, first + k))
    deltas = " & ".join(f"{d:g}" for d in differences)
    return (
        rf"& & & & & & {groups} \\ {rules}" + "\n"
        rf"Dataset & Metric & Systems & Topics & $\sigma_d$ & MDD & {deltas} & {deltas}"
    )


def tss_rows(sizes: Sequence[TopicSetSize], dataset: Names) -> list[list[str]]:
    """One row per (dataset, metric): σ_d, the minimum detectable difference, topics needed."""
    return [
        [
            dataset(t.dataset),
            parse_measure(t.metric).label,
            str(t.systems),
            str(t.topics),
            number(t.sd_diff, 4),
            number(t.mdd, 4),
            *(f"{n:,}" if n is not None else "> 10,000,000" for _, n in t.needed),
            *(f"{n:,}" if n is not None else "> 10,000,000" for _, n in t.needed_anova),
        ]
        for t in sizes
    ]


def tss_note(sizes: Sequence[TopicSetSize]) -> str:
    """What the topic-set-size table shows, with its α, power and test."""
    if not sizes:
        return ""
    t = sizes[0]
    return (
        f"Topic-set size of a paired t-test ({t.alternative}, α = {t.alpha:g}, power "
        f"{t.power:g}; Sakai 2016): σ_d = √(2 V_E), the standard deviation of per-topic "
        "differences estimated from the two-way ANOVA residual V_E of all systems of the "
        "dataset; MDD, the minimum difference the topics at hand detect with that power; "
        "then the number of topics needed to detect each difference Δ; "
        f"{anova_design_text(t.design)} "
        "A design computed from the data at hand plans the next test collection; it is not "
        "post-hoc power of the tests that ran."
    )


def anova_design_text(design: str) -> str:
    """What the ANOVA-based columns of the topic-set-size table are, named as they are."""
    if design == "one-way":
        return (
            "n one-way ANOVA, the topics needed by the one-way ANOVA of all the dataset's "
            "systems to detect a range Δ of their means, Sakai 2016's ANOVA-based design as "
            "he defines it: noncentral F with k − 1 and k(n − 1) degrees of freedom, "
            "noncentrality nΔ²/(2 σ²), σ² the within-system variance (the one-way ANOVA's "
            "V_E, the topics not taken out)."
        )
    return (
        "n two-way ANOVA, the topics needed by the two-way (system × topic) ANOVA of all "
        "the dataset's systems to detect a range Δ of their means: noncentral F with k − 1 "
        "and (k − 1)(n − 1) degrees of freedom, noncentrality nΔ²/(2 V_E), V_E its residual "
        "variance. This adapts Sakai 2016's ANOVA-based design, which is one-way (error df "
        'k(n − 1), the within-system variance; [compare] anova_design = "one-way"), to '
        "the two-way model the tests use."
    )


def tss_files(header: Sequence[str], rows: Sequence[list[str]], note: str) -> dict[str, str]:
    """``topic_set_size.md`` and ``topic_set_size.csv`` of the :func:`tss_header`,
    :func:`tss_rows` and :func:`tss_note`."""
    page = to_markdown("Topic-set size and minimum detectable difference", header, rows, note)
    return {"topic_set_size.md": page, "topic_set_size.csv": csv_text(header, rows)}
