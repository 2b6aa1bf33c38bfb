"""The methods text as sentences: built once from the methods model and the measure
records, laid out as LaTeX or Markdown by :mod:`.prose`.

Each section function returns the blocks of one section; what a measure is, is said by
its record (:attr:`irtables.measures.Family.method`).
"""

from __future__ import annotations

import math

from irtables.base.procedures import CORRECTIONS, TESTS
from irtables.base.text import join_and
from irtables.measures import FAMILIES
from irtables.supplement.methods import MethodsModel, MetricEntry, TableTestEntry, TestRun
from irtables.supplement.prose import Block, Format, Item, Name, Part, Section, Text, render_blocks

_CITE_PLACEHOLDER = "[@]"


def methods_sections(m: MethodsModel) -> tuple[Section, ...]:
    """The sections of the methods text, in order, those that apply only."""
    sections = [
        Section("Evaluation measures", _measures(m)),
        Section("Averaging", _averaging(m)),
    ]
    if m.test is not None:
        sections.append(Section("Statistical significance", _significance(m)))
    if m.table_tests:
        sections.append(Section("Tests per table", _table_tests(m)))
    if m.meta_comparisons:
        sections.append(Section("Across datasets", _across(m)))
    if m.power is not None:
        sections.append(Section("Topic-set size", _power(m)))
    if m.table_notes:
        sections.append(Section("Table notes", _table_notes(m)))
    return tuple(sections)


def render_sections(m: MethodsModel, fmt: Format) -> list[dict[str, str]]:
    """The sections laid out in ``fmt``: ``{"title": ..., "body": ...}`` for the templates."""
    return [
        {"title": s.title, "body": render_blocks(s.blocks, fmt, m.short)}
        for s in methods_sections(m)
    ]


def _cite(keys: tuple[str, ...]) -> str:
    return f"[@{','.join(keys)}]" if keys else ""


def _measures(m: MethodsModel) -> tuple[Block, ...]:
    opening: list[Part] = []
    if m.ks:
        ks = ", ".join(str(k) for k in m.ks)
        opening.append(f"We report the following measures at rank cutoffs $K \\in \\{{{ks}\\}}$.")
    else:
        opening.append("We report the following measures.")
    groups = m.evaluation
    for g in groups:
        opening.append(" Per-query values")
        if len(groups) > 1:
            opening += [" on ", *_names(g.names)]
        opening.append(_evaluation(g.version, m.interpolated))
    blocks = [Block(tuple(opening)), Block(items=tuple(_item(e) for e in m.metrics))]
    relevance = _relevance(m)
    if relevance:
        blocks.append(Block(relevance))
    return tuple(blocks)


def _evaluation(version: str | None, interpolated: bool) -> str:
    if version is None:
        return (
            " were read from the result files as given; the measures are defined as in trec_eval."
        )
    if version == "9.0.8":
        ranked = (
            " were computed by irtables with the semantics of trec_eval~9.0.8: documents are "
            "ranked by score, held in single precision as trec_eval~9.0.8 holds it (scores "
            "equal as 32-bit floats tie), ties broken by document identifier in descending order"
        )
        cut = r"$\lfloor rR + 0.9 \rfloor$"
    else:
        ranked = (
            f" were computed by irtables with the semantics of trec_eval~{version}: documents "
            "are ranked by score in double precision, ties broken by document identifier in "
            "descending order"
        )
        cut = r"$\mathrm{round}(rR)$"
    if interpolated:
        ranked += (
            "; interpolated precision at recall level $r$ is read at the rank of relevant "
            f"document number {cut}, $R$ the number of relevant documents"
        )
    return ranked + "."


def _item(e: MetricEntry) -> Item:
    fam = FAMILIES.get(e.family)
    if fam is None or not fam.method:
        text = e.description[:1].upper() + e.description[1:] + _CITE_PLACEHOLDER + "."
        sentences = [text]
    else:
        sentences = [fam.method]
        if e.whole and fam.method_whole:
            sentences.append(fam.method_whole)
        if e.ks and fam.method_cut:
            sentences.append(fam.method_cut)
    body = " ".join(sentences).replace(_CITE_PLACEHOLDER, _cite(e.cites))
    return Item(e.label, (body,))


def _relevance(m: MethodsModel) -> Text:
    parts: list[Part] = []
    if m.any_binary:
        parts.append(
            "Binary measures count a document as relevant when its relevance grade is at least "
        )
        if m.one_threshold:
            parts.append(str(m.datasets[0].relevance if m.datasets else 1))
        else:
            for i, d in enumerate(m.datasets):
                parts += [", " if i else "", f"{d.relevance} on ", Name(d.name)]
        parts.append("; negative grades never count.")
    graded = [e for e in m.metrics if e.family in FAMILIES and FAMILIES[e.family].graded_level]
    if graded:
        labels = join_and(sorted({FAMILIES[e.family].label for e in graded}, key=str.lower))
        verb = "is" if len(graded) == 1 else "are"
        parts.append(
            f"{' ' if parts else ''}{labels} {verb} graded: the relevance threshold does not "
            "change the gains, the grades are summed as they are."
        )
        stated = [f"{FAMILIES[e.family].label}(rel≥{r})" for e in graded for r in e.levels]
        if stated:
            parts += [
                " Where a level $\\ell$ is stated (",
                Name(", ".join(stated)),
                "), judgements below grade $\\ell$ are dropped first, as ranx does.",
            ]
    return tuple(parts)


def _averaging(m: MethodsModel) -> tuple[Block, ...]:
    parts: list[Part] = [
        f"Every value reported is a macro average{_cite(m.averaging_cites)}: the arithmetic "
        "mean of the per-query values, each query weighing the same, over the queries of each "
        "dataset: "
    ]
    for i, d in enumerate(m.datasets):
        parts += [", " if i else "", f"{d.queries} on ", Name(d.name)]
    parts.append(". ")
    parts.append(
        {
            "error": "All systems of a dataset were evaluated on the same queries.",
            "intersect": "Where systems of a dataset cover different queries, only the queries "
            "common to all of them are used.",
        }.get(m.missing, "A query missing from a system's results scores $0$ for that system.")
    )
    return (Block(tuple(parts)),)


def _significance(m: MethodsModel) -> tuple[Block, ...]:
    t = m.test
    assert t is not None
    ablation = ", and each ablation row with the full model of its group," if m.ablation else ""
    parts: list[Part]
    if m.all_pairs:
        parts = ["Every pair of systems is compared"]
    elif m.baselines_text:
        parts = [
            "Each system is compared with the baseline of its dataset (",
            Name(m.baselines_text),
            ")" + ablation,
        ]
    else:
        parts = [
            "Each system is compared with ",
            Name(m.baseline or "the first system of its dataset"),
            ablation,
        ]
    if len(t.runs) == 1:
        parts += _run_text(t.runs[0])
    else:
        if isinstance(parts[-1], str):
            parts[-1] = parts[-1].removesuffix(",")
        parts.append(".")
        for run in t.runs:
            parts += [" In ", Name(join_and(run.tables)), ", the comparisons are made"]
            parts += _run_text(run)
    one_sided = "one-sided " if t.sides == "one-sided" else ""
    mixed = "one-sided for the one-sided tests; " if t.sides == "mixed" else ""
    parts += [
        f" There are {t.comparisons} comparisons in all. For each comparison we report the "
        f"mean difference with its {one_sided}95% confidence interval ({mixed}method: ",
        Name(", ".join(t.intervals)),
        f") and Cohen's $d_z${_cite(m.effect_cites)}, the mean difference divided by the "
        "standard deviation of the differences",
        _es_e(t.procedure),
        ". Test procedure as run: ",
        Name("; ".join(t.methods)),
        ".",
    ]
    return (Block(tuple(parts)),)


def _run_text(run: TestRun) -> list[Part]:
    """How one test ran, from its record: its paragraph, then its correction's."""
    record = run.record
    text = record.method.format(
        name=run.name,
        cite=_cite(record.cites),
        alternative=run.alternative,
        alpha=f"$\\alpha = {run.alpha_text}$",
        resamples=run.resamples,
    )
    if not record.procedure:
        correction = CORRECTIONS[run.correction]
        text += correction.method.format(
            phrase=run.correction_name, cite=_cite(correction.cites), family=run.family
        )
    return [text]


#: Sakai's ES_E and its interval, as the methods text states them.
ES_E_TEXT = (
    "Sakai's $ES_E = \\bar d / \\sqrt{V_E}$, the difference of means divided by the "
    "residual standard deviation of the two-way ANOVA, with its interval: the simultaneous "
    "interval of the difference divided by $\\sqrt{V_E}$"
)


def _es_e(anova: bool) -> str:
    """The clause on ES_E for the procedures on the two-way ANOVA (else nothing)."""
    return f"; for these procedures also {ES_E_TEXT}" if anova else ""


def _table_tests(m: MethodsModel) -> tuple[Block, ...]:
    """Per marked table: test, alternative, correction, family and its size, the effect
    size reported, what the test does with a constant difference and, where its statistic
    divides by a spread, the tolerance for "no variance"."""
    intro = ("The tests behind each table's markers, as run on that table's own comparisons:",)
    return (Block(intro), Block(items=tuple(_table_item(e) for e in m.table_tests)))


def _table_item(e: TableTestEntry) -> Item:
    correction = e.correction
    if e.family:
        correction += f" {e.family}"
    if e.family_sizes:
        correction += f" ({e.sizes_text})"
    if e.anova:
        effect = f"effect size {ES_E_TEXT}"
    else:
        effect = (
            "effect size Cohen's $d_z$, the mean difference divided by the standard "
            "deviation of the differences"
        )
    record = TESTS[e.test]
    text = f"{e.name[:1].upper()}{e.name[1:]}, {e.alternative}; {correction}; {effect}."
    if record.constant:
        text += f" {record.constant}"
    if record.spread:
        exponent = round(math.log10(e.noise))
        text += (
            f" No variance (statistic undefined, $p = 1$, no marker) when {record.spread} is "
            f"at most $10^{{{exponent}}} \\max(1, m)$, $m$ the largest absolute value it is "
            "computed from."
        )
    return Item(e.title, (text,))


def _across(m: MethodsModel) -> tuple[Block, ...]:
    text = (
        "Comparisons made on two datasets or more are combined by a random-effects "
        f"meta-analysis{_cite(m.meta_cites)}. On each dataset, the effect is the standardized "
        "mean difference of the paired per-query values, Hedges' $g = J\\,\\bar d / s_d$ with "
        "$J = 1 - 3/(4(n-1)-1)$ and variance $J^2(1/n + d_z^2/(2n))$ with "
        "$d_z = \\bar d / s_d$; the effects are pooled with DerSimonian and Laird's estimate "
        "of the between-dataset variance $\\tau^2$, and $I^2$ is the share of the variation "
        "between datasets that is heterogeneity rather than chance. With fewer than five "
        "datasets the interval and $p$-value of the pooled effect use the "
        "Hartung–Knapp–Sidik–Jonkman variance, floored at the variance of the normal "
        "interval (Röver, Knapp and Friede's 2015 modification: the HKSJ scale factor is at "
        "least 1), and a $t$ distribution with $k-1$ degrees of freedom, as the normal "
        "interval is too narrow with so few. "
        f"{m.meta_comparisons} comparisons are pooled; the forest plots show every "
        "dataset's effect."
    )
    return (Block((text,)),)


def _power(m: MethodsModel) -> tuple[Block, ...]:
    p = m.power
    assert p is not None
    text = (
        "For each dataset and measure we report the minimum difference that a paired t-test "
        f"on the topics at hand detects with power {p.power:g} at $\\alpha = {p.alpha:g}$ "
        f"({p.alternative}), and the number of topics needed to detect differences of "
        f"{m.differences_text}{_cite(m.power_cites)}. The standard deviation of per-topic "
        "differences is estimated as $\\sqrt{2 V_E}$ from the residual variance $V_E$ of a "
        "two-way ANOVA of all the dataset's systems (the mean, over the pairs of systems, of "
        "the variance of their differences); power uses the noncentral t distribution. "
        f"{_anova_design(p.anova_design)} These designs are computed from the "
        "data at hand to plan future test collections; they are not post-hoc power of the "
        "tests reported here."
    )
    return (Block((text,)),)


def _anova_design(design: str) -> str:
    """The ANOVA-based topic-set size, named as it was run."""
    if design == "one-way":
        return (
            "Beside it, Sakai's ANOVA-based design, as he defines it, gives the number of "
            "topics with which the one-way ANOVA of all $k$ systems of the dataset detects a "
            "range $\\Delta$ of their means: the smallest $n$ for which the noncentral $F$ "
            "distribution with $k-1$ and $k(n-1)$ degrees of freedom and noncentrality "
            "$\\lambda = n\\Delta^2/(2\\hat\\sigma^2)$, $\\hat\\sigma^2$ the within-system "
            "variance, exceeds the critical value with that power."
        )
    return (
        "Beside it, an ANOVA-based design gives the number of topics with which the "
        "two-way (system $\\times$ topic) ANOVA of all $k$ systems of the dataset detects a "
        "range $\\Delta$ of their means: the smallest $n$ for which the noncentral $F$ "
        "distribution with $k-1$ and $(k-1)(n-1)$ degrees of freedom and noncentrality "
        "$\\lambda = n\\Delta^2/(2V_E)$ exceeds the critical value with that power. This "
        "adapts Sakai's ANOVA-based design, which is one-way ($k(n-1)$ degrees of freedom, "
        "the within-system variance), to the two-way model of the tests."
    )


def _table_notes(m: MethodsModel) -> tuple[Block, ...]:
    """What each table's caption leaves out (``caption_notes``), said here instead."""
    items = tuple(Item(title, (Name(" ".join(notes)),)) for title, notes in m.table_notes)
    return (Block(("What the tables' captions leave out (`caption_notes`):",)), Block(items=items))


def _names(names: tuple[str, ...]) -> list[Part]:
    out: list[Part] = []
    for i, n in enumerate(names):
        out += [", " if i else "", Name(n)]
    return out
