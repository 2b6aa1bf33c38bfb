"""Forest plots of the meta-analyses: a panel per metric, a block of rows per comparison.

Each dataset's standardized effect (Hedges' g) is a square sized by its random-effects
weight, with its 95% interval; the pooled effect is a diamond spanning its interval, and
the comparison's heterogeneity (I²) is written on its row. The panels of a figure share
the rows (labelled once, on the left) and the x scale: Hedges' g is standardized, so the
same width is the same effect in every panel. One figure holds up to
:data:`MAX_PANELS` metrics, so that the text of the rows is laid out and drawn once for
all of them; the rows are labelled by text beside the first panel, not by y ticks (which
every shared panel would make, place and draw, labels hidden or not).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from irtables.stats.meta import MetaAnalysis
from irtables.supplement.figures import GAIN_COLOR, LOSS_COLOR, MAX_HEIGHT, WIDTH, _style

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

Names = Callable[[str], str]
#: A panel: the metric's label and its meta-analyses (one per comparison).
Panel = tuple[str, Sequence[MetaAnalysis]]
#: Rows of a forest plot at most (a comparison takes a row per dataset and two more): a
#: parameter sweep compares hundreds of systems, and the plot keeps those with the
#: largest pooled effects, in their order; meta_analysis.csv holds them all.
MAX_ROWS = 36
#: Metrics of one figure at most: about an inch per panel beside the row labels.
MAX_PANELS = 5
ROW_HEIGHT = 0.22  # inches


@dataclass(frozen=True)
class Comparison:
    """A block of rows: ``system`` against ``baseline``, a row for each of ``datasets``
    (those of any panel), and the largest absolute pooled effect over the panels."""

    system: str
    baseline: str
    datasets: tuple[str, ...]
    effect: float

    @property
    def rows(self) -> int:
        """Rows of the block: its heading, a row per dataset and the pooled effect."""
        return len(self.datasets) + 2


def comparisons(panels: Sequence[Panel]) -> list[Comparison]:
    """The comparisons of the panels, in the order they first appear."""
    found: dict[tuple[str, str], tuple[list[str], float]] = {}
    for _, analyses in panels:
        for m in analyses:
            datasets, effect = found.setdefault((m.system, m.baseline), ([], 0.0))
            datasets += [s.dataset for s in m.studies if s.dataset not in datasets]
            found[(m.system, m.baseline)] = (datasets, max(effect, abs(m.pooled.effect)))
    return [Comparison(s, b, tuple(d), e) for (s, b), (d, e) in found.items()]


def shown(found: Sequence[Comparison]) -> list[Comparison]:
    """The comparisons a forest plot shows: all if their rows fit in :data:`MAX_ROWS`,
    else as many as fit (at least one) with the largest absolute pooled effect, in their
    given order.

    Examples
    --------
    >>> many = [Comparison(f"s{e}", "b", ("d1", "d2"), abs(e)) for e in range(-10, 10)]
    >>> [c.system for c in shown(many)]
    ['s-10', 's-9', 's-8', 's-7', 's-6', 's6', 's7', 's8', 's9']
    """
    if sum(c.rows for c in found) <= MAX_ROWS:
        return list(found)
    order = sorted(range(len(found)), key=lambda i: -found[i].effect)
    keep: set[int] = set()
    rows = 0
    for i in order:
        rows += found[i].rows
        if keep and rows > MAX_ROWS:
            break
        keep.add(i)
    return [c for i, c in enumerate(found) if i in keep]


def panel_groups(panels: Sequence[Panel]) -> list[list[Panel]]:
    """The panels split into figures of at most :data:`MAX_PANELS`, as even as can be.

    Examples
    --------
    >>> [[label for label, _ in g] for g in panel_groups([(m, []) for m in "ABCDEFG"])]
    [['A', 'B', 'C', 'D'], ['E', 'F', 'G']]
    """
    if not panels:
        return []
    figures = -(-len(panels) // MAX_PANELS)
    size = -(-len(panels) // figures)
    return [list(panels[i : i + size]) for i in range(0, len(panels), size)]


def forest_plot(title: str, panels: Sequence[Panel], dataset: Names, system: Names) -> Figure:
    """A forest plot of the meta-analyses of each panel's metric (rows top to bottom):
    the comparisons that fit in :data:`MAX_ROWS` rows (:func:`shown`), at most
    :data:`~.figures.MAX_HEIGHT` inches tall."""
    from matplotlib.figure import Figure  # here, so that only drawing processes load it
    from matplotlib.ticker import MaxNLocator
    from matplotlib.transforms import offset_copy

    blocks = shown(comparisons(panels))
    labels, rows = _rows(blocks, panels, dataset, system)
    with _style():
        height = min(MAX_HEIGHT, 1.1 + ROW_HEIGHT * len(labels))
        fig = Figure(figsize=(WIDTH, height), layout="constrained")
        axes = fig.subplots(1, max(len(panels), 1), sharex=True, sharey=True, squeeze=False)[0]
        for ax in axes:  # the limits are set once below: no autoscaling of every shared
            ax.set_autoscale_on(False)  # axis each time a panel adds an artist
        for ax, (label, analyses) in zip(axes, panels, strict=False):
            _panel(ax, analyses, rows)
            ax.set_title(label)
        first = axes[0]
        first.set_xlim(*_x_limits(panels, rows))
        first.set_yticks([])  # the rows are labelled by text: no ticks on any panel
        first.set_ylim(-len(labels) - 0.5, -0.5)
        at = offset_copy(first.get_yaxis_transform(), fig=fig, x=-4, units="points")
        for i, label in enumerate(labels):
            first.text(0, -(i + 1), label, transform=at, ha="right", va="center")
        first.xaxis.set_major_locator(MaxNLocator(4 if len(panels) > 2 else 6))
        fig.supxlabel(
            "standardized mean difference (Hedges' g), 95% interval; "
            "I², heterogeneity between datasets",
            fontsize=9,
        )
        fig.suptitle(title, fontsize=10)
    return fig


def _x_limits(
    panels: Sequence[Panel], rows: dict[tuple[str, str], BlockRows]
) -> tuple[float, float]:
    """The x limits autoscaling would give the panels (their intervals and zero, with
    matplotlib's default margin of 5% on each side), computed once."""
    import matplotlib as mpl

    ends = [0.0]
    for _, analyses in panels:
        for m in analyses:
            if (m.system, m.baseline) in rows:
                ends += [m.pooled.ci_low, m.pooled.ci_high]
                ends += [v for s in m.studies for v in (s.ci_low, s.ci_high)]
    low, high = min(ends), max(ends)
    margin = mpl.rcParams["axes.xmargin"] * (high - low)
    return low - margin, high + margin


@dataclass(frozen=True)
class BlockRows:
    """Where a comparison's rows are (y, counted from -1 downwards)."""

    heading: int
    datasets: dict[str, int]
    pooled: int


def _rows(
    blocks: Sequence[Comparison], panels: Sequence[Panel], dataset: Names, system: Names
) -> tuple[list[str], dict[tuple[str, str], BlockRows]]:
    """The row labels, top to bottom, and the rows of each comparison shown.

    A dataset's query count is in its label when it is the same in every panel."""
    counts: dict[str, set[int]] = {}
    for _, analyses in panels:
        for m in analyses:
            for s in m.studies:
                counts.setdefault(s.dataset, set()).add(s.n)
    labels: list[str] = []
    rows: dict[tuple[str, str], BlockRows] = {}
    for c in blocks:
        labels.append(f"{system(c.system)} vs {system(c.baseline)}")
        heading = -len(labels)
        at: dict[str, int] = {}
        for d in c.datasets:
            n, *more = counts[d]
            labels.append(f"  {dataset(d)}" + ("" if more else f" (n={n})"))
            at[d] = -len(labels)
        labels.append("  pooled")
        rows[(c.system, c.baseline)] = BlockRows(heading, at, -len(labels))
    return labels, rows


def _panel(
    ax: Axes, analyses: Sequence[MetaAnalysis], rows: dict[tuple[str, str], BlockRows]
) -> None:
    """One metric's effects on the rows of :func:`_rows` (comparisons not shown are left
    out): the intervals as one set of lines, the squares as one scatter, the diamonds as
    one set of polygons, I² on the comparison's heading row."""
    from matplotlib.collections import PolyCollection

    ys: list[int] = []
    lows: list[float] = []
    highs: list[float] = []
    effects: list[float] = []
    sizes: list[float] = []
    diamonds: list[list[tuple[float, float]]] = []
    for m in analyses:
        block = rows.get((m.system, m.baseline))
        if block is None:
            continue
        for s in m.studies:
            ys.append(block.datasets[s.dataset])
            lows.append(s.ci_low)
            highs.append(s.ci_high)
            effects.append(s.effect)
            sizes.append((3 + 9 * s.weight) ** 2)  # marker area, points²
        p, y = m.pooled, block.pooled
        diamonds.append([(p.ci_low, y), (p.effect, y + 0.35), (p.ci_high, y), (p.effect, y - 0.35)])
        ax.text(0.97, block.heading, f"I² {p.i2 * 100:.0f}%", transform=ax.get_yaxis_transform(),
                ha="right", va="center", fontsize=7)  # fmt: skip
    ax.hlines(ys, lows, highs, color="black", linewidth=0.8)
    ax.scatter(effects, ys, s=sizes, marker="s", color=GAIN_COLOR, linewidths=0)
    ax.add_collection(PolyCollection(diamonds, facecolors=LOSS_COLOR, linewidths=0))
    ax.axvline(0.0, color="black", linewidth=0.5)
    ax.grid(True, axis="x", linewidth=0.3)
    ax.tick_params(axis="x", labelsize=7)
