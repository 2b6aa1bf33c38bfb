"""The supplement's reproduction section: for each ``reproduction`` table of the
configuration, the table, the ER/ΔRI plot of Breuer et al. (SIGIR 2020), KTU and RBO
against the cutoff, and a methods paragraph with the definitions and citations."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from irtables.base.markdown import escape_markdown
from irtables.config import Config
from irtables.loaders.ir_metadata import summary
from irtables.render.escape import escape_latex
from irtables.render.reproduction import render_reproduction
from irtables.stats.reproduce import ReproductionRow
from irtables.study.reproduction import configured_rows
from irtables.study.run_metadata import configured_run_metadata
from irtables.supplement.bibliography import REPRO_CITES, Reference, cited
from irtables.supplement.figures import WIDTH, _style, render_all
from irtables.supplement.outputs import FigureEntry, Output
from irtables.tables.reproduction import reproduction_table

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: The formats of a reproduction table in the supplement (those of every table, and HTML).
FORMATS = {"latex": "tex", "markdown": "md", "csv": "csv", "html": "html"}


@dataclass(frozen=True)
class ReproductionSection:
    """What the reproduction tables add to the supplement."""

    outputs: tuple[Output, ...] = ()
    tables: tuple[dict[str, object], ...] = ()  # entries of the context's "tables"
    figures: tuple[FigureEntry, ...] = ()
    methods_md: str = ""
    methods_tex: str = ""
    references: tuple[Reference, ...] = field(default=())


def reproduction_section(
    config: Config, base: Path, template_dirs: Sequence[str | Path] = ()
) -> ReproductionSection:
    """The section, empty when the configuration has no ``reproduction`` table."""
    specs = [s for s in config.tables if s.layout == "reproduction" and s.supplement]
    if not specs:
        return ReproductionSection()

    outputs: list[Output] = []
    tables: list[dict[str, object]] = []
    figures: list[FigureEntry] = []
    for spec in specs:
        rows = configured_rows(config, spec, base)
        original = config.dataset_name(spec.original or "")
        table = reproduction_table(
            rows,
            original=original,
            label=spec.label or spec.default_label,
            rbo_p=spec.rbo_p,
            rbo_depth=spec.rbo_depth,
            caption=spec.caption,
        )
        for fmt, ext in FORMATS.items():
            text = render_reproduction(table, rows, fmt, template_dirs)
            outputs.append(Output(f"tables/{spec.stem}.{ext}", text.encode("utf-8")))
        # numbered R1, R2, ... (the supplement prints the number of a title of its own)
        number = f"R{len(tables) + 1}"
        tables.append(
            {"name": spec.stem, "title": spec.title or f"Table {number}", "number": number}
        )
        drawn = [
            (
                FigureEntry(
                    f"{spec.stem}-er-dri",
                    f"Effect ratio (ER) against delta relative improvement (ΔRI) of the "
                    f"reproductions of {original}, one point per reproduction and measure "
                    "(Breuer et al., 2020); shaded: the success quadrant (ER ≥ 1, ΔRI ≤ 0), "
                    "the ideal reproduction at (1, 0)",
                ),
                er_dri_figure(rows),
            ),
            (
                FigureEntry(
                    f"{spec.stem}-ktu-rbo",
                    f"KTU and RBO (p = {spec.rbo_p:g}, depth {spec.rbo_depth}) of the document "
                    f"orderings against the cutoff, reproducibility studies of {original}",
                ),
                order_figure(rows),
            ),
        ]
        for entry, fig in drawn:
            if fig is None:
                continue
            figures.append(entry)
            for ext, data in render_all(fig).items():
                outputs.append(Output(f"figures/{entry.stem}.{ext}", data))
    refs = cited(REPRO_CITES)
    datasets = {d for s in specs for d in (s.original or "", *s.reproductions)}
    found = configured_run_metadata(config, base)
    runs = {key: data for key, (_, data) in found.items() if key[0] in datasets}
    md, tex = metadata_text(runs, config)
    return ReproductionSection(
        tuple(outputs), tuple(tables), tuple(figures), METHODS_MD + md, METHODS_TEX + tex, refs
    )


def metadata_text(
    runs: Mapping[tuple[str, str], Mapping[str, Any]], config: Config
) -> tuple[str, str]:
    """What was reproduced, from the runs' ir_metadata blocks (PRIMAD components), as a
    Markdown and a LaTeX list; empty when no run has a block."""
    if not runs:
        return "", ""
    md = ["", "What was run (the runs' ir_metadata, PRIMAD components):", ""]
    tex = ["", "What was run (the runs' ir\\_metadata, PRIMAD components):", "\\begin{itemize}"]
    for (dataset, system), data in sorted(runs.items()):
        where = f"{config.dataset_name(dataset)}, {config.system_name(system)}"
        parts = "; ".join(f"{k}: {v}" for k, v in summary(data).items())
        md.append(f"- {escape_markdown(where)}: {escape_markdown(parts)}")
        tex.append(f"\\item {escape_latex(where)}: {escape_latex(parts)}")
    tex.append("\\end{itemize}")
    return "\n".join(md) + "\n", "\n".join(tex) + "\n"


def er_dri_figure(rows: Sequence[ReproductionRow]) -> Figure | None:
    """ER on x, ΔRI on y, one point per (reproduction, advanced system, measure)."""
    points = [
        r for r in rows if r.er is not None and r.delta_ri is not None
        and math.isfinite(r.er) and math.isfinite(r.delta_ri)
    ]  # fmt: skip
    if not points:
        return None
    from matplotlib.figure import Figure

    with _style():
        fig = Figure(figsize=(WIDTH * 0.75, WIDTH * 0.6), layout="constrained")
        ax = fig.add_subplot()
        xs = [r.er for r in points if r.er is not None]
        ys = [r.delta_ri for r in points if r.delta_ri is not None]
        x_hi = max(2.0, max(xs) * 1.1)
        x_lo = min(0.0, min(xs) * 1.1)
        y_span = max(1.0, max(abs(y) for y in ys) * 1.1)
        ax.axvspan(1.0, x_hi, ymin=0.0, ymax=0.5, color="#2b7bba", alpha=0.12, linewidth=0)
        ax.text(x_hi, -y_span, "success ", ha="right", va="bottom", color="#2b7bba")
        ax.axvline(1.0, color="0.4", linewidth=0.6)
        ax.axhline(0.0, color="0.4", linewidth=0.6)
        for key in dict.fromkeys((r.reproduction, r.system) for r in points):
            mine = [r for r in points if (r.reproduction, r.system) == key]
            ex = [r.er for r in mine if r.er is not None]
            ey = [r.delta_ri for r in mine if r.delta_ri is not None]
            line = ax.scatter(ex, ey, s=18, label=f"{key[0]}: {key[1]}")
            for r in mine:
                ax.annotate(r.measure, (r.er, r.delta_ri), fontsize=6, xytext=(3, 3),
                            textcoords="offset points", color=line.get_facecolor()[0])  # fmt: skip
        ax.set_xlim(x_lo, x_hi)
        ax.set_ylim(-y_span, y_span)
        ax.set_xlabel("ER (effect ratio)")
        ax.set_ylabel("ΔRI (delta relative improvement)")
        ax.grid(True, linewidth=0.3)
        ax.legend(loc="upper left")
    return fig


def order_figure(rows: Sequence[ReproductionRow]) -> Figure | None:
    """KTU and RBO against the cutoff (log axis), one line per (reproduction, system)."""
    lines: dict[tuple[str, str], list[ReproductionRow]] = {}
    for r in rows:
        if r.cutoff is not None:
            lines.setdefault((r.reproduction, r.system), []).append(r)
    if not lines:
        return None
    from matplotlib.figure import Figure

    with _style():
        fig = Figure(figsize=(WIDTH, 2.6), layout="constrained")
        for i, (name, label) in enumerate((("ktu", "KTU"), ("rbo", "RBO"))):
            ax = fig.add_subplot(1, 2, i + 1)
            for (reproduction, system), mine in lines.items():
                ks = [r.cutoff for r in mine if r.cutoff is not None]
                values = [getattr(r, name) for r in mine]
                ax.plot(ks, values, marker="o", markersize=3, label=f"{reproduction}: {system}")
            cutoffs = sorted({r.cutoff for rs in lines.values() for r in rs if r.cutoff})
            ax.set_xscale("log")
            ax.set_xticks(cutoffs, [str(k) for k in cutoffs])
            ax.minorticks_off()
            ax.set_xlabel("cutoff k")
            ax.set_ylabel(f"{label}@k (mean over topics)")
            ax.set_ylim(-1.05 if name == "ktu" else 0.0, 1.05)
            ax.grid(True, linewidth=0.3)
        handles, labels = fig.axes[0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside lower center", ncols=min(len(labels), 4))
    return fig


_DEFINITIONS = (
    "KTU (Kendall's tau Union) and RBO (rank-biased overlap) compare the document orderings "
    "of an original and a reproduced run topic by topic after both are cut to their top k "
    "documents, then average over topics; RMSE and nRMSE compare the per-topic values of a "
    "measure; the effect ratio ER divides the reproduced mean per-topic improvement of an "
    "advanced over a baseline system by the original one, and ΔRI subtracts the reproduced "
    "relative improvement of the means from the original one (success: ER near 1, ΔRI near "
    "0); p is a two-sided t-test of original against reproduced values, paired for "
    "reproducibility (the same qrels), unpaired for replicability (another collection). "
    "The numbers equal those of repro_eval 0.5.0, whose definitions are followed where they "
    "differ from the paper (KTU is Kendall's tau-b between the union positions of the two "
    "rankings' documents rank by rank); ties are broken as trec_eval breaks them."
)
METHODS_MD = (
    "### Reproducibility and replicability\n\n"
    "Reproductions are measured as Breuer et al. (2020) define it, with their implementation "
    f"repro_eval. {_DEFINITIONS}\n"
)
METHODS_TEX = (
    "\\subsection{Reproducibility and replicability}\n"
    "Reproductions are measured as Breuer et al.~\\cite{breuer2020} define it, with their "
    "implementation repro\\_eval. "
    + _DEFINITIONS.replace("ΔRI", "$\\Delta$RI").replace("_", "\\_")
    + "\n"
)
