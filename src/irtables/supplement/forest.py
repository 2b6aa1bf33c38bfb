"""Forest plots of the meta-analyses: one figure per metric, one block per comparison.

Each dataset's standardized effect (Hedges' g) is a square sized by its random-effects
weight, with its 95% interval; the pooled effect is a diamond spanning its interval.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from irtables.stats.meta import MetaAnalysis
from irtables.supplement.figures import GAIN_COLOR, LOSS_COLOR, WIDTH, _style

if TYPE_CHECKING:
    from matplotlib.figure import Figure

Names = Callable[[str], str]


def forest_plot(
    title: str, analyses: Sequence[MetaAnalysis], dataset: Names, system: Names
) -> Figure:
    """A forest plot of the meta-analyses of one metric (rows top to bottom)."""
    from matplotlib.figure import Figure  # here, so that only drawing processes load it

    labels: list[str] = []
    with _style():
        rows = sum(len(m.studies) + 2 for m in analyses)
        fig = Figure(figsize=(WIDTH, 0.9 + 0.22 * rows), layout="constrained")
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
