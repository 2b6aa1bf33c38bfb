"""Forest plots of the meta-analyses: one figure per metric, one block per comparison.

Each dataset's standardized effect (Hedges' g) is a square sized by its random-effects
weight, with its 95% interval; the pooled effect is a diamond spanning its interval.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from irtables.stats.meta import MetaAnalysis
from irtables.supplement.figures import GAIN_COLOR, LOSS_COLOR, MAX_HEIGHT, WIDTH, _style

if TYPE_CHECKING:
    from matplotlib.figure import Figure

Names = Callable[[str], str]
#: Rows of a forest plot at most (a comparison takes a row per dataset and two more): a
#: parameter sweep compares hundreds of systems, and the plot keeps those with the
#: largest pooled effects, in their order; meta_analysis.csv holds them all.
MAX_ROWS = 36
ROW_HEIGHT = 0.22  # inches


def shown(analyses: Sequence[MetaAnalysis]) -> list[MetaAnalysis]:
    """The comparisons a forest plot shows: all if their rows fit in :data:`MAX_ROWS`,
    else as many as fit (at least one) with the largest absolute pooled effect, in their
    given order.

    Examples
    --------
    >>> from types import SimpleNamespace as NS
    >>> many = [NS(studies=(1, 2), pooled=NS(effect=e)) for e in range(-10, 10)]
    >>> [m.pooled.effect for m in shown(many)]
    [-10, -9, -8, -7, -6, 6, 7, 8, 9]
    """
    if sum(len(m.studies) + 2 for m in analyses) <= MAX_ROWS:
        return list(analyses)
    order = sorted(range(len(analyses)), key=lambda i: -abs(analyses[i].pooled.effect))
    keep: set[int] = set()
    rows = 0
    for i in order:
        rows += len(analyses[i].studies) + 2
        if keep and rows > MAX_ROWS:
            break
        keep.add(i)
    return [m for i, m in enumerate(analyses) if i in keep]


def forest_plot(
    title: str, analyses: Sequence[MetaAnalysis], dataset: Names, system: Names
) -> Figure:
    """A forest plot of the meta-analyses of one metric (rows top to bottom); those that
    fit in :data:`MAX_ROWS` rows (:func:`shown`), at most :data:`~.figures.MAX_HEIGHT`
    inches tall."""
    from matplotlib.figure import Figure  # here, so that only drawing processes load it

    analyses = shown(analyses)
    labels: list[str] = []
    with _style():
        rows = sum(len(m.studies) + 2 for m in analyses)
        height = min(MAX_HEIGHT, 0.9 + ROW_HEIGHT * rows)
        fig = Figure(figsize=(WIDTH, height), layout="constrained")
        ax = fig.add_subplot()
        y = -1.0
        for m in analyses:
            labels.append(f"{system(m.system)} vs {system(m.baseline)}")
            y -= 1
            for s in m.studies:
                ax.plot([s.ci_low, s.ci_high], [y, y], color="black", linewidth=0.8)
                ax.plot(
                    [s.effect], [y], marker="s", color=GAIN_COLOR, linestyle="none",
                    markersize=3 + 9 * s.weight,
                )  # fmt: skip
                labels.append(f"  {dataset(s.dataset)} (n={s.n})")
                y -= 1
            p = m.pooled
            ax.fill(
                [p.ci_low, p.effect, p.ci_high, p.effect],
                [y, y + 0.35, y, y - 0.35],
                color=LOSS_COLOR,
            )
            labels.append(f"  pooled (τ²={p.tau2:.3f}, I²={p.i2 * 100:.0f}%)")
            y -= 1
        ticks = [-(i + 1) for i in range(len(labels))]
        ax.set_yticks(ticks, labels)
        ax.set_ylim(y + 0.5, -0.5)
        ax.axvline(0.0, color="black", linewidth=0.5)
        ax.set_xlabel("standardized mean difference (Hedges' g), 95% interval")
        ax.grid(True, axis="x", linewidth=0.3)
        ax.set_title(title)
    return fig
