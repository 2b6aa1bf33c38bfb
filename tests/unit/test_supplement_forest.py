"""Forest plots: a panel per metric sharing rows and x scale, comparisons that fit kept.

The meta-analyses are made up here (their numbers chosen by the tests); what is checked
is what the figure shows: its panels, labels, marks and where they are.
"""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection, PathCollection, PolyCollection

from irtables.stats.meta import MetaAnalysis, Pooled, StudyEffect
from irtables.supplement.forest import (
    MAX_PANELS,
    MAX_ROWS,
    comparisons,
    forest_plot,
    panel_groups,
    shown,
)


def _meta(
    metric: str, system: str, effects: dict[str, float], pooled: float, i2: float = 0.25
) -> MetaAnalysis:
    studies = tuple(
        StudyEffect(d, 50, e / 10, e, 0.01, e - 0.2, e + 0.2, 1 / len(effects))
        for d, e in effects.items()
    )
    weights = tuple(s.weight for s in studies)
    p = Pooled(pooled, 0.05, pooled - 0.1, pooled + 0.1, 2.0, 0.04, 0.001, 1.0, 1, 0.3, i2, weights)
    return MetaAnalysis(metric, system, "base", studies, p)


def _rows(ax: Axes) -> list[str]:
    """The row labels written on a panel (the I² notes left out)."""
    return [t.get_text() for t in ax.texts if not t.get_text().startswith("I²")]


def _notes(ax: Axes) -> list[str]:
    return [t.get_text() for t in ax.texts if t.get_text().startswith("I²")]


def test_one_figure_a_panel_per_metric_rows_labelled_once() -> None:
    panels = [
        ("AP", [_meta("AP", "x", {"d1": 0.3, "d2": 0.5}, 0.4, i2=0.45)]),
        ("P@10", [_meta("P@10", "x", {"d1": -0.2, "d2": 0.1}, -0.05)]),
    ]
    fig = forest_plot("T", panels, str.upper, str.title)
    ap, p10 = fig.axes
    assert [ax.get_title() for ax in fig.axes] == ["AP", "P@10"]
    assert _rows(ap) == ["X vs Base", "  D1 (n=50)", "  D2 (n=50)", "  pooled"]
    assert _rows(p10) == []  # labelled once, on the left
    label_rows = [t.get_position()[1] for t in ap.texts if t.get_text() in _rows(ap)]
    assert label_rows == [-1, -2, -3, -4]
    assert ap.get_shared_x_axes().joined(ap, p10)  # one scale: effects compare across panels
    assert ap.get_shared_y_axes().joined(ap, p10)
    (squares,) = [c for c in p10.collections if isinstance(c, PathCollection)]
    np.testing.assert_allclose(squares.get_offsets(), [[-0.2, -2], [0.1, -3]])
    (intervals,) = [c for c in p10.collections if isinstance(c, LineCollection)]
    ends = np.array([seg[:, 0] for seg in intervals.get_segments()])
    np.testing.assert_allclose(ends, [[-0.4, 0.0], [-0.1, 0.3]])  # the 95% intervals
    (diamond,) = [c for c in ap.collections if type(c) is PolyCollection]
    xs = diamond.get_paths()[0].vertices[:, 0]
    assert min(xs) == pytest.approx(0.3) and max(xs) == pytest.approx(0.5)  # pooled interval
    assert _notes(ap) == ["I² 45%"] and _notes(p10) == ["I² 25%"]


def test_a_comparison_missing_from_a_panel_leaves_its_rows_empty_there() -> None:
    x = _meta("AP", "x", {"d1": 0.3, "d2": 0.5}, 0.4)
    y = _meta("AP", "y", {"d1": 0.1, "d3": 0.2}, 0.1)
    panels = [("AP", [x, y]), ("P@10", [_meta("P@10", "y", {"d1": 0.2, "d3": 0.1}, 0.15)])]
    found = comparisons(panels)
    assert [(c.system, c.datasets) for c in found] == [("x", ("d1", "d2")), ("y", ("d1", "d3"))]
    assert [c.effect for c in found] == [0.4, 0.15]  # the largest over the panels
    fig = forest_plot("T", panels, str, str)
    _, p10 = fig.axes
    (squares,) = [c for c in p10.collections if isinstance(c, PathCollection)]
    assert squares.get_offsets()[:, 1].tolist() == [-6, -7]  # y's rows: below x's four


def test_a_dataset_whose_query_count_differs_between_panels_has_no_count() -> None:
    a = _meta("AP", "x", {"d1": 0.3, "d2": 0.5}, 0.4)
    b = _meta("P@10", "x", {"d1": 0.3, "d2": 0.5}, 0.4)
    studies = (b.studies[0], StudyEffect("d2", 49, 0.05, 0.5, 0.01, 0.3, 0.7, 0.5))
    b = MetaAnalysis(b.metric, b.system, b.baseline, studies, b.pooled)
    fig = forest_plot("T", [("AP", [a]), ("P@10", [b])], str, str)
    assert _rows(fig.axes[0]) == ["x vs base", "  d1 (n=50)", "  d2", "  pooled"]


def test_too_many_comparisons_keep_the_largest_effects_in_order() -> None:
    effects = [0.1 * i * (-1) ** i for i in range(20)]  # 4 rows each: 9 fit in 36
    analyses = [_meta("AP", f"s{i:02d}", {"d1": e, "d2": e}, e) for i, e in enumerate(effects)]
    kept = shown(comparisons([("AP", analyses)]))
    assert sum(c.rows for c in kept) <= MAX_ROWS
    largest = sorted(range(20), key=lambda i: -abs(effects[i]))[: len(kept)]
    assert [c.system for c in kept] == [f"s{i:02d}" for i in sorted(largest)]
    fig = forest_plot("T", [("AP", analyses)], str, str)
    assert len(_rows(fig.axes[0])) == 4 * len(kept)


@pytest.mark.parametrize("count", [1, MAX_PANELS, MAX_PANELS + 1, 12])
def test_metrics_split_into_even_figures_of_at_most_max_panels(count: int) -> None:
    panels = [(f"m{i}", []) for i in range(count)]
    groups = panel_groups(panels)
    sizes = [len(g) for g in groups]
    assert sum(sizes) == count and max(sizes) <= MAX_PANELS
    assert len(groups) == -(-count // MAX_PANELS) and max(sizes) - min(sizes) <= 1
    assert [label for g in groups for label, _ in g] == [label for label, _ in panels]
