"""Assembling the supplement: every output as (relative path, bytes), nothing written here.

The tables and tests come from :func:`~irtables.tables.build_all`, the per-query analysis
from :mod:`.analysis`, the figures from :mod:`.figures`, the methods text from
:mod:`.methods` through the Jinja templates. :mod:`.run` compiles the PDF and writes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path

from irtables.base.filenames import MAX_STEM, file_slugs, file_stems, slug
from irtables.base.formats import FORMATS, SUPPLEMENT_FORMATS
from irtables.base.texttable import csv_text
from irtables.config import Config
from irtables.config.tables import LAYOUTS, layout_function
from irtables.measures import Measure, parse_measure
from irtables.model import ResultSet
from irtables.render import render
from irtables.render.latex import latex_options
from irtables.stats.memo import Memo
from irtables.study.citable import numbers_of
from irtables.study.pipeline import significance_files
from irtables.supplement import figures as fig
from irtables.supplement import report
from irtables.supplement.across import across_datasets
from irtables.supplement.analysis import PerQuery, compare_queries
from irtables.supplement.bibliography import bibtex
from irtables.supplement.drawing import FigureDrawing
from irtables.supplement.methods import MethodsModel, methods_model
from irtables.supplement.methods_text import render_sections
from irtables.supplement.outputs import FigureEntry, Output, Plan
from irtables.supplement.reproduction import ReproductionSection
from irtables.supplement.reuse import FigureWork, KeptFigure
from irtables.supplement.sections import present_sections
from irtables.supplement.templates import render_page
from irtables.tables import build_all
from irtables.tables.build import TableSet
from irtables.tables.layouts import missing_policy
from irtables.tables.means import mean_cells
from irtables.tables.metrics import MetricIndex, family_of
from irtables.tables.model import TableModel

Progress = Callable[[str, int, int], None]
TOP_CHANGES = 5


@dataclass(frozen=True)
class Built:
    """Everything of a supplement but the PDF and the manifest."""

    outputs: tuple[Output, ...]
    notes: tuple[str, ...]
    context: dict[str, object]
    tables: tuple[TableModel, ...]
    stems: dict[str, str]  # table name -> its files' stem (what supplement.tex \inputs)
    figures: dict[str, str] = field(default_factory=dict)  # figure stem -> its recipe
    drawn: tuple[str, ...] = ()  # the figures drawn (stems), the others were kept
    kept: tuple[str, ...] = ()  # the figures kept from the earlier build


def build_supplement(
    results: ResultSet,
    config: Config,
    *,
    pr_results: ResultSet | None = None,
    template_dirs: Sequence[str | Path] = (),
    progress: Progress | None = None,
    workers: int | None = 1,
    reproduction: ReproductionSection | None = None,
    earlier: Mapping[str, KeptFigure] | None = None,
    memo: Memo | None = None,
) -> Built:
    """Build every output of the supplement from the results and the configuration.

    ``reproduction``: the tables, figures and methods of the ``reproduction`` tables
    (built from the runs: :func:`~irtables.supplement.reproduction.reproduction_section`).

    ``pr_results`` holds interpolated precision (``IPrec@r``) evaluated from runs and
    qrels for the precision-recall figure; without it, IPrec values in ``results`` are
    used, and without either the figure is skipped (and a note says so). The figures are
    drawn in ``workers`` processes (``None``: one per core; see :mod:`.drawing`).

    ``earlier``: the figures of an earlier build (:func:`~.reuse.kept_figures`); each
    whose recipe is this build's is kept, not drawn again (:mod:`.reuse`). Likewise
    ``memo`` gives the results of the tests already run on the same inputs
    (:mod:`irtables.stats.memo`).
    """
    report_progress = progress or (lambda stage, done, total: None)
    plans, notes = _early_plans(results, config, pr_results)
    with FigureDrawing(workers=workers) as drawing:
        work = FigureWork(drawing, earlier or {})
        # metric vs K and precision-recall need the means only: drawn while the tests run
        work.submit(plans.jobs())
        built = build_all(
            results,
            config,
            progress=lambda d, t: report_progress("significance tests", d, t),
            memo=memo,
        )
        built = replace(built, tables=tuple(t for t in built.tables if _in_supplement(t, config)))
        analyses = _analyses(results, config, built)
        work.submit(plans.add_tabled(config, analyses, built.tables))
        across = across_datasets(results, config, built)
        work.submit(plans.add(across.plans))
        notes += across.notes
        figures = [entry for entry, _ in plans.ordered()]
        # the workers draw while this process writes the tables and the text
        stems = file_stems(t.name for t in built.tables)
        tables = _tables(built, stems, template_dirs, config)
        reports = _analysis_files(analyses, config)
        used = _used_metrics(results, config, built)
        queries = {d: results.query_count(d) for d in used}
        by_title = {
            t.title: built.by_table[t.name] for t in built.tables if t.name in built.by_table
        }
        model = methods_model(
            config, used, queries, built.comparisons, across=across.summary, by_table=by_title
        )
        dropped = tuple((t.title, t.dropped_notes) for t in built.tables if t.dropped_notes)
        model = replace(model, table_notes=dropped)
        repro = reproduction or ReproductionSection()
        if repro.references:
            references = {r.key: r for r in (*model.references, *repro.references)}
            model = replace(model, references=tuple(references[k] for k in sorted(references)))
        context = {
            **_context(config, built, stems, analyses, figures, notes, model),
            **across.context,
        }
        own = [{**t, "number": table_number(str(t["title"])) or t["number"]} for t in repro.tables]
        context["tables"] = [*context["tables"], *own]  # type: ignore[misc]
        context["figures"] = [*context["figures"], *repro.figures]  # type: ignore[misc]
        context["sections"] = present_sections(context)
        context["table_formats"] = [FORMATS[f] for f in SUPPLEMENT_FORMATS]
        methods_tex = render_page("latex", "methods.tex.j2", context, template_dirs)
        methods_md = render_page("markdown", "methods.md.j2", context, template_dirs)
        pages = [
            _text(
                "methods.tex", methods_tex + ("\n" + repro.methods_tex if repro.methods_tex else "")
            ),
            _text("methods.md", methods_md + ("\n" + repro.methods_md if repro.methods_md else "")),
            _text("references.bib", _bib_header() + bibtex(model.references)),
            _text(
                "supplement.tex", render_page("latex", "supplement.tex.j2", context, template_dirs)
            ),
        ]
        files = work.results(lambda done, total: report_progress("figures", done, total))
    drawn = [
        Output(f"figures/{entry.stem}.{ext}", data)
        for entry in figures
        for ext, data in files[entry.stem].items()
    ]
    outputs = tuple(tables + reports + drawn + across.outputs + pages + list(repro.outputs))
    return Built(
        outputs,
        tuple(notes),
        context,
        built.tables,
        stems,
        figures=dict(work.recipes),
        drawn=tuple(work.drawn),
        kept=tuple(work.kept),
    )


def readme(built: Built, *, pdf: bool, template_dirs: Sequence[str | Path] = ()) -> Output:
    """The Markdown index, once it is known whether the PDF was compiled."""
    context = {**built.context, "pdf": pdf}
    return _text(
        "README.md", render_page("markdown", "supplement_readme.md.j2", context, template_dirs)
    )


def _text(path: str, text: str) -> Output:
    return Output(path, text.encode("utf-8"))


def _bib_header() -> str:
    from irtables.base.header import header_line

    return header_line("%") + "\n\n"


def _tables(
    built: TableSet, stems: Mapping[str, str], dirs: Sequence[str | Path], config: Config
) -> list[Output]:
    out = []
    for model in built.tables:
        latex = latex_options(config, model)
        for fmt in SUPPLEMENT_FORMATS:
            ext = FORMATS[fmt].suffix
            text = render(model, fmt, template_dirs=dirs, latex=latex)
            out.append(_text(f"tables/{stems[model.name]}.{ext}", text))
    out += [_text(name, text) for name, text in significance_files(built, config).items()]
    # the numbers of the tables, citable from a paper: tables/numbers.json, numbers.tex
    for name, text in numbers_of(built, config, SUPPLEMENT_FORMATS, taken=stems.values()).items():
        out.append(_text(f"tables/{name}", text))
    return out


def _analyses(results: ResultSet, config: Config, built: TableSet) -> list[PerQuery]:
    """Each system against the baseline (the configured one, else the dataset's first
    system) on every Table 1 metric of each dataset with two systems or more."""
    main = built.headline
    if main is None:
        return []
    out: list[PerQuery] = []
    for dataset in list(config.datasets_in_order(results.datasets())):
        systems = list(config.systems_in_order(results.systems(dataset)))
        if len(systems) < 2:
            continue
        own = [b for b in config.compare.baselines_of(dataset) if b in systems]
        baseline = own[0] if own else systems[0]
        present = set(results.metrics(dataset))
        for metric in (m for m in main.metrics if m in present):
            out += compare_queries(
                results, dataset, metric, systems, baseline, missing=missing_policy(config)
            )
    return out


def _analysis_files(analyses: Sequence[PerQuery], config: Config) -> list[Output]:
    dn, sn = config.dataset_name, config.system_name
    wtl = report.wtl_rows(analyses, dn, sn)
    changes = report.change_rows(analyses, TOP_CHANGES, dn, sn)
    note_wtl = "Queries on which each system is better than, equal to or worse than the baseline."
    note_fail = (
        f"The {TOP_CHANGES} queries with the largest gains and losses against the baseline "
        "(Δ = system − baseline), per dataset, metric and system."
    )
    wtl_md = report.to_markdown("Wins, ties and losses", report.WTL_HEADER, wtl, note_wtl)
    fail_md = report.to_markdown(
        "Largest gains and losses", report.CHANGE_HEADER, changes, note_fail
    )
    return [
        _text("per_query.csv", csv_text(report.WTL_HEADER, wtl)),
        _text("per_query.md", wtl_md),
        _text("failures.csv", csv_text(report.CHANGE_HEADER, changes)),
        _text("failures.md", fail_md),
    ]


def _used_metrics(results: ResultSet, config: Config, built: TableSet) -> dict[str, list[str]]:
    shown = list(dict.fromkeys(m for t in built.tables for m in t.metrics))
    used: dict[str, list[str]] = {}
    for dataset in list(config.datasets_in_order(results.datasets())):
        present = set(results.metrics(dataset))
        names = [m for m in shown if m in present]
        if names:
            used[dataset] = names
    return used


def table_number(title: str) -> str | None:
    """The number in a title ``Table S2`` (``S2``), for LaTeX to print the same; None for
    a title of another form (LaTeX then counts).

    Examples
    --------
    >>> table_number("Table S2"), table_number("Table 3"), table_number("Results & more")
    ('S2', '3', None)
    """
    import re

    found = re.fullmatch(r"Table ([A-Z]?[0-9]+)", title)
    return found.group(1) if found else None


def _in_supplement(table: TableModel, config: Config) -> bool:
    """Tables of a ``[tables.<name>]`` with ``supplement = false`` stay out of it."""
    spec = config.spec_of(table.name)
    return spec is None or spec.supplement


def _table_figure_plan(config: Config, tables: Sequence[TableModel]) -> list[Plan]:
    """The figure of every table whose layout's record draws one (``figure``: the
    sensitivity tables) and whose section keeps ``figure = true``."""
    plans: list[Plan] = []
    for table in tables:
        spec = config.spec_of(table.name)
        found = LAYOUTS.get(table.layout)
        if found is None or not found.figure or (spec is not None and not spec.figure):
            continue
        draw = layout_function(found.figure)  # imports matplotlib
        stem = f"{table.layout}-{slug(table.name, max_length=MAX_STEM)}"
        entry = FigureEntry(stem, table.caption.rstrip("."))
        plans.append((entry, partial(draw, table)))
    return plans


@dataclass
class _Plans:
    """The figures of the supplement, to be drawn (picklable: see :mod:`.drawing`): those
    that need the results only first, then those that need the tables."""

    datasets: list[str]
    slugs: dict[str, str]
    k: dict[str, list[Plan]]
    pr: list[Plan]
    diff: dict[str, list[Plan]] = field(default_factory=dict)
    more: list[Plan] = field(default_factory=list)  # sensitivity, forest plots

    def jobs(self) -> list[Plan]:
        """The first figures (metric vs K, precision-recall)."""
        return [*(p for d in self.datasets for p in self.k[d]), *self.pr]

    def add_tabled(
        self, config: Config, analyses: Sequence[PerQuery], tables: Sequence[TableModel]
    ) -> list[Plan]:
        """Add the figures that need the tables (per-query differences, sensitivity) and
        return them."""
        self.diff = {d: _diff_plan(config, d, analyses, self.slugs[d]) for d in self.datasets}
        diff = [p for d in self.datasets for p in self.diff[d]]
        return self.add(_table_figure_plan(config, tables), first=diff)

    def add(self, more: Sequence[Plan], *, first: Sequence[Plan] = ()) -> list[Plan]:
        """Add figures shown after the others (sensitivity, forest plots); with ``first``."""
        self.more += more
        return [*first, *more]

    def ordered(self) -> list[Plan]:
        """In the order of the documents: per dataset metric vs K and per-query
        differences, then precision-recall, sensitivity and forest plots."""
        per_dataset = [p for d in self.datasets for p in (*self.k[d], *self.diff.get(d, []))]
        return [*per_dataset, *self.pr, *self.more]


def _early_plans(
    results: ResultSet, config: Config, pr_results: ResultSet | None
) -> tuple[_Plans, list[str]]:
    """The figures that need only the results, and the notes on figures left out."""
    means = _means(results, config)
    index = MetricIndex.from_results(results)
    datasets = list(config.datasets_in_order(results.datasets()))
    shown = {d: _k_metrics(config, d, index) for d in datasets}
    plotted = {m for panels in shown.values() for found in panels for _, m in found}
    bars = _error_bars(results, config, plotted)
    pr_source = pr_results if pr_results is not None else results
    slugs = file_slugs([*results.datasets(), *pr_source.datasets()])  # distinct file names
    k = {d: _k_plan(config, d, means, shown[d], bars, slugs[d]) for d in datasets}
    notes: list[str] = []
    pr_means = means if pr_source is results else _means(pr_source, config)
    pr = [p for d in pr_source.datasets() for p in _pr_plan(config, d, pr_means, slugs[d])]
    if not pr:
        notes.append(
            "No precision-recall figure: the results hold no interpolated precision "
            "(IPrec@r) and the configuration names no qrels and runs to compute it from."
        )
    return _Plans(datasets, slugs, k, pr), notes


Means = dict[tuple[str, str, str], float]


def _means(results: ResultSet, config: Config) -> Means:
    """The means the tables show: same queries per dataset, the configured policy."""
    cells = mean_cells(results, missing=missing_policy(config))
    return dict(zip(cells.keys, cells.means.tolist(), strict=True))


def _error_bars(
    results: ResultSet, config: Config, metrics: set[str]
) -> dict[tuple[str, str, str], float]:
    """Half-widths of the 95% intervals of the means of ``metrics`` (those the metric vs K
    figures plot) when ``compare.interval`` asks for them."""
    if config.compare.interval == "none" or not metrics:
        return {}
    from irtables.tables.intervals import mean_intervals

    frame = results.frame
    plotted = ResultSet.from_frame(frame[frame["metric"].isin(metrics)], key_checked=True)
    found = mean_intervals(plotted, missing=missing_policy(config))
    return {key: (high - low) / 2 for key, (low, high) in found.items()}


def _k_metrics(config: Config, dataset: str, index: MetricIndex) -> list[list[tuple[int, str]]]:
    """The (K, metric) points of each family of the built-in section whose record draws
    the metric vs K figure (``k_figure``: Table S1's) that the results of ``dataset`` have
    at two cutoffs or more: the panels of its metric vs K figure."""
    spec = next((s for s in config.tables if s.built_in and s.built_in.k_figure), None)
    if spec is None:
        return []
    panels = []
    for name in spec.metrics:
        family = family_of(name)
        resolved = [
            (k, index.resolve(dataset, Measure(family.family, k, family.rel, family.param)))
            for k in spec.k
        ]
        found = [(k, m) for k, m in resolved if m is not None]
        if len(found) >= 2:
            panels.append(found)
    return panels


def _k_plan(
    config: Config,
    dataset: str,
    means: Means,
    shown: Sequence[Sequence[tuple[int, str]]],
    bars: dict[tuple[str, str, str], float],
    slug: str,
) -> list[Plan]:
    systems = _systems_of(means, dataset, config)
    panels: dict[str, list[fig.Series]] = {}
    for found in shown:
        label = parse_measure(found[0][1]).base_label
        panels[label] = [
            fig.Series(
                config.system_name(s),
                tuple(
                    (float(k), means[(dataset, s, m)]) for k, m in found if (dataset, s, m) in means
                ),
                tuple(bars.get((dataset, s, m), 0.0) for _, m in found if (dataset, s, m) in means)
                if bars
                else (),
            )
            for s in systems
        ]
    if not panels:
        return []
    title = f"{config.dataset_name(dataset)}: effectiveness at rank cutoffs K"
    entry = FigureEntry(f"k-{slug}", title)
    return [(entry, partial(fig.k_curves, title, panels))]


def _diff_plan(config: Config, dataset: str, analyses: Sequence[PerQuery], slug: str) -> list[Plan]:
    mine = [p for p in analyses if p.dataset == dataset]
    if not mine:
        return []
    metric = mine[0].metric
    panels = [(config.system_name(p.system), p) for p in mine if p.metric == metric]
    label = parse_measure(metric).label
    base = config.system_name(mine[0].baseline)
    title = f"{config.dataset_name(dataset)}: per-query difference in {label} from {base}"
    entry = FigureEntry(f"diff-{slug}", title)
    return [(entry, partial(fig.difference_bars, title, label, panels))]


def _pr_plan(config: Config, dataset: str, means: Means, slug: str) -> list[Plan]:
    levels: dict[str, dict[float, float]] = {}
    for (d, system, metric), value in means.items():
        m = parse_measure(metric)
        if d == dataset and m.family == "IPrec" and m.param is not None:
            levels.setdefault(system, {})[m.param] = value
    lines = [
        fig.Series(config.system_name(s), tuple(sorted(levels[s].items())))
        for s in config.systems_in_order(sorted(levels))
        if len(levels[s]) >= 2
    ]
    if not lines:
        return []
    title = f"{config.dataset_name(dataset)}: interpolated precision-recall"
    entry = FigureEntry(f"pr-{slug}", title)
    return [(entry, partial(fig.pr_curves, title, lines))]


def _systems_of(means: Means, dataset: str, config: Config) -> list[str]:
    present = list(dict.fromkeys(s for d, s, _ in means if d == dataset))
    return list(config.systems_in_order(present))


def _context(
    config: Config,
    built: TableSet,
    stems: Mapping[str, str],
    analyses: Sequence[PerQuery],
    figures: Sequence[FigureEntry],
    notes: Sequence[str],
    model: MethodsModel,
) -> dict[str, object]:
    from irtables.base.header import header_line

    dn, sn = config.dataset_name, config.system_name
    primary = [p for p in analyses if p.metric == _primary(analyses, p.dataset)]
    per_table = built.per_table()
    return {
        "generated_tex": header_line("%"),
        "generated_md": header_line("<!--") + " -->",
        "tables": [
            {"name": stems[t.name], "title": t.title, "number": table_number(t.title)}
            for t in built.tables
        ],
        "significance": (
            report.significance_rows(
                per_table[0], dn, sn, floor=config.output.pvalue_floor, tables=per_table[1]
            )
            if per_table is not None and per_table[0].results
            else []
        ),
        "sig_header": ("Table", *report.SIG_HEADER_TEX),  # significance_rows with tables
        "wtl": report.wtl_rows(analyses, dn, sn),
        "wtl_header": report.WTL_HEADER,
        "failures": report.change_rows(primary, TOP_CHANGES, dn, sn),
        "failures_header": report.CHANGE_HEADER,
        "top": TOP_CHANGES,
        "figures": list(figures),
        "notes": list(notes),
        "m": model,
        "methods": {
            "latex": render_sections(model, "latex"),
            "markdown": render_sections(model, "markdown"),
        },
    }


def _primary(analyses: Sequence[PerQuery], dataset: str) -> str:
    return next(p.metric for p in analyses if p.dataset == dataset)
