"""The supplement's analyses across collections and of power: meta-analysis, forest plots
and the topic-set-size table, as outputs, figures, notes and template context."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial

from irtables.base.procedures import TESTS
from irtables.config import Config
from irtables.measures import parse_measure
from irtables.model import ResultSet
from irtables.stats.meta import MetaAnalysis, meta_analyse
from irtables.stats.topicset import TopicSetSize, topic_set_sizes
from irtables.supplement.forest import Names, Panel, comparisons, forest_plot, panel_groups, shown
from irtables.supplement.meta import (
    META_HEADER,
    META_NOTE,
    STUDY_HEADER,
    meta_files,
    meta_rows,
    study_rows,
    tss_columns,
    tss_files,
    tss_header,
    tss_header_tex,
    tss_note,
    tss_rows,
)
from irtables.supplement.outputs import FigureEntry, Output, Plan
from irtables.tables.build import TableSet
from irtables.tables.layouts import missing_policy


@dataclass(frozen=True)
class AcrossSummary:
    """What the methods text says about these analyses (None: not run)."""

    meta_comparisons: int
    topic_set_size: bool
    alpha: float
    power: float
    alternative: str
    differences: tuple[float, ...]
    anova_design: str = "two-way"


@dataclass
class Across:
    """Files, figures (to be drawn: see :mod:`.drawing`), notes and template context of
    these analyses."""

    outputs: list[Output] = field(default_factory=list)
    plans: list[Plan] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    context: dict[str, object] = field(default_factory=dict)
    summary: AcrossSummary | None = None


def across_datasets(results: ResultSet, config: Config, built: TableSet) -> Across:
    """Meta-analyses of the Table 1 comparisons made on two datasets or more, their forest
    plots, and the topic-set size of every dataset with two systems or more."""
    main = built.headline
    metrics = list(main.metrics) if main is not None else []
    dn, sn = config.dataset_name, config.system_name
    out = Across()
    analyses: tuple[MetaAnalysis, ...] = ()
    if built.comparisons is not None and metrics:
        analyses = meta_analyse(built.comparisons, metrics=metrics)
    pooled, studies = meta_rows(analyses, sn), study_rows(analyses, dn, sn)
    if analyses:
        for name, text in meta_files(pooled, studies).items():
            out.outputs.append(Output(name, text.encode("utf-8")))
        datasets = {d for m in analyses for d in (*(s.dataset for s in m.studies), *m.skipped)}
        systems = {x for m in analyses for x in (m.system, m.baseline)}
        out.plans += _forest_plans(analyses, _named(dn, datasets), _named(sn, systems))
    else:
        out.notes.append(
            "No meta-analysis: no system was compared with the same baseline on two datasets "
            "or more."
        )
    sizes = _sizes(results, config, metrics)
    s = config.compare
    header = tss_header(s.differences, s.anova_design)
    rows, note = tss_rows(sizes, dn), tss_note(sizes)
    if sizes:
        for name, text in tss_files(header, rows, note).items():
            out.outputs.append(Output(name, text.encode("utf-8")))
    out.context = {
        "meta": pooled,
        "meta_studies": studies,
        "meta_header": META_HEADER,
        "meta_study_header": STUDY_HEADER,
        "meta_note": META_NOTE,
        "tss": rows,
        "tss_header": tss_header_tex(s.differences, s.anova_design),
        "tss_columns": tss_columns(s.differences),
        "tss_note": note,
    }
    out.summary = AcrossSummary(
        meta_comparisons=len(analyses),
        topic_set_size=bool(sizes),
        alpha=s.alpha,
        power=s.power,
        alternative=_alternative(config),
        differences=s.differences,
        anova_design=s.anova_design,
    )
    return out


def _forest_plans(analyses: Sequence[MetaAnalysis], dataset: Names, system: Names) -> list[Plan]:
    """The forest plots: a panel per metric, up to :data:`~.forest.MAX_PANELS` metrics a
    figure (``forest``, or ``forest-1``, ``forest-2``, ... when there are more)."""
    panels: list[Panel] = [
        (parse_measure(metric).label, [m for m in analyses if m.metric == metric])
        for metric in dict.fromkeys(m.metric for m in analyses)
    ]
    groups = panel_groups(panels)
    plans: list[Plan] = []
    for i, group in enumerate(groups, 1):
        labels = [label for label, _ in group]
        named = ", ".join(labels[:-1]) + " and " + labels[-1] if len(labels) > 1 else labels[0]
        title = f"Meta-analysis of {named} across datasets"
        found = comparisons(group)
        if len(found) > (count := len(shown(found))):
            title += (
                f" (the {count} of {len(found)} comparisons with the largest pooled "
                "effects; all in meta_analysis.csv)"
            )
        stem = "forest" if len(groups) == 1 else f"forest-{i}"
        draw = partial(forest_plot, title, group, dataset, system)
        plans.append((FigureEntry(stem, title), draw))
    return plans


def _named(name: Names, ids: set[str]) -> Names:
    """``name`` as a lookup of the names of ``ids``: a figure's job then holds the names
    it shows, not the configuration (its recipe: :mod:`.reuse`)."""
    return {i: name(i) for i in sorted(ids)}.__getitem__


def _alternative(config: Config) -> str:
    all_pairs = TESTS[config.compare.test].kind == "all-pairs"
    return "two-sided" if all_pairs else config.compare.alternative


def _sizes(results: ResultSet, config: Config, metrics: list[str]) -> tuple[TopicSetSize, ...]:
    if not metrics:
        return ()
    s = config.compare
    return topic_set_sizes(
        results,
        metrics=metrics,
        alpha=s.alpha,
        power=s.power,
        differences=s.differences,
        alternative=_alternative(config),
        missing=missing_policy(config),
        design=s.anova_design,
    )
