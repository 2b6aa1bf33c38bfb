"""A parameter sweep (hundreds of systems) gives figures of bounded size and work.

The issue's case: 300 systems drew a per-query difference PNG 85,215 pixels tall (one
1.9-inch panel per system) and 1,600 systems never finished. Counted here: axes, artists,
pixels and the size of what is drawn; expected values are worked out with numpy.
"""

from __future__ import annotations

import struct

import numpy as np
import pytest
from matplotlib.collections import PolyCollection
from matplotlib.image import AxesImage

from irtables.config import parse_config
from irtables.supplement.analysis import PerQuery, QueryChange
from irtables.supplement.build import build_supplement
from irtables.supplement.figures import (
    DPI,
    MAX_COLUMNS,
    MAX_HEIGHT,
    MAX_LINES,
    MAX_PANELS,
    WIDTH,
    Series,
    difference_bars,
    k_curves,
    pr_curves,
    render_all,
)
from irtables.tables.model import Cell, Column, ColumnGroup, Row, RowGroup, TableModel
from tests.conftest import results_from_rows

MAX_PIXELS = (round(WIDTH * DPI), round(MAX_HEIGHT * DPI))


def _png_size(data: bytes) -> tuple[int, int]:
    width, height = struct.unpack(">II", data[16:24])  # the IHDR chunk
    return width, height


def _per_query(
    systems: int, queries: int, seed: int = 0
) -> tuple[list[tuple[str, PerQuery]], np.ndarray]:
    """Panels of ``systems`` systems against a baseline, and their differences (a row per
    system, sorted largest first)."""
    rng = np.random.default_rng(seed)
    base = rng.random(queries)
    values = rng.random((systems, queries))
    panels, diffs = [], []
    for i, row in enumerate(values):
        order = sorted(range(queries), key=lambda q: -(row[q] - base[q]))
        changes = tuple(QueryChange(f"q{q}", float(base[q]), float(row[q])) for q in order)
        panels.append((f"s{i:04d}", PerQuery.from_changes("d", "AP", f"s{i:04d}", "base", changes)))
        diffs.append(np.sort(row - base)[::-1])
    return panels, np.array(diffs)


def test_a_sweep_of_difference_panels_is_one_heat_map_of_bounded_size() -> None:
    panels, diffs = _per_query(1_600, 3)
    fig = difference_bars("T", "AP", panels)
    images = [a for ax in fig.axes for a in ax.get_children() if isinstance(a, AxesImage)]
    assert len(fig.axes) == 2  # the map and its colour bar, not 1,599 panels
    (image,) = images
    np.testing.assert_allclose(image.get_array(), diffs)  # a row per system, sorted
    width, height = _png_size(render_all(fig)["png"])
    assert width <= MAX_PIXELS[0] and height <= MAX_PIXELS[1]
    assert len(fig.axes[0].get_yticklabels()) <= 40  # names stay readable


def test_the_heat_map_shows_quantiles_when_queries_are_many() -> None:
    panels, diffs = _per_query(MAX_PANELS + 1, 5_000, seed=1)
    fig = difference_bars("T", "AP", panels)
    (image,) = [a for a in fig.axes[0].get_children() if isinstance(a, AxesImage)]
    shown = np.asarray(image.get_array())
    assert shown.shape == (MAX_PANELS + 1, MAX_COLUMNS)  # drawn work bounded by the axes
    at = np.round(np.linspace(0, 4_999, MAX_COLUMNS)).astype(int)
    np.testing.assert_allclose(shown, diffs[:, at])
    assert shown[:, 0].tolist() == diffs[:, 0].tolist()  # largest gain and loss kept
    assert shown[:, -1].tolist() == diffs[:, -1].tolist()


def test_up_to_the_bound_each_system_keeps_its_panel() -> None:
    panels, _ = _per_query(MAX_PANELS, 20)
    fig = difference_bars("T", "AP", panels)
    assert len(fig.axes) == MAX_PANELS


def test_many_lines_become_their_spread_and_the_best_system() -> None:
    rng = np.random.default_rng(2)
    ks = (1.0, 5.0, 10.0, 100.0)
    values = rng.random((1_600, len(ks)))
    lines = [
        Series(f"s{i}", tuple(zip(ks, map(float, v), strict=True))) for i, v in enumerate(values)
    ]
    best = f"s{int(np.argmax(values.mean(axis=1)))}"
    for fig in (k_curves("K", {"NDCG": lines}), pr_curves("PR", lines)):
        ax = fig.axes[0]
        assert len(ax.lines) == 2  # the median and the best system
        assert sum(isinstance(c, PolyCollection) for c in ax.collections) == 2  # range, quartiles
        np.testing.assert_allclose(ax.lines[0].get_ydata(), np.median(values, axis=0))
        legend = fig.legends[0] if fig.legends else ax.get_legend()
        labels = [t.get_text() for t in legend.get_texts()]
        assert labels == ["range of 1600 systems", "middle half", "median", f"best: {best}"]
    few = k_curves("K", {"NDCG": lines[:MAX_LINES]})
    assert len(few.axes[0].lines) == MAX_LINES  # one line a system up to the bound


def _sweep_table(size: int) -> TableModel:
    rows = tuple(
        Row(
            f"a={i}", f"a={i}", tuple(Cell(float(i * j) / size**2, f"{i * j}") for j in range(size))
        )
        for i in range(size)
    )
    columns = tuple(Column(f"b{j}", f"b={j}") for j in range(size))
    return TableModel(
        "sensitivity", "sweep", "T", ("a",), columns, (RowGroup(None, rows),), "c", "l",
        column_groups=(ColumnGroup("b", size),),
    )  # fmt: skip


def test_a_two_parameter_sweep_heat_map_is_bounded() -> None:
    from irtables.supplement.sensitivity import sensitivity_figure

    fig = sensitivity_figure(_sweep_table(40))
    ax = fig.axes[0]
    assert len(ax.texts) == 0  # 1,600 values as text would be unreadable
    assert len(ax.get_yticks()) <= 20 and len(ax.get_xticks()) <= 8  # labels readable
    small = sensitivity_figure(_sweep_table(5)).axes[0]
    assert len(small.texts) == 25  # a small grid keeps its values


# Table 1 of 300 systems is more than a page tall: that it warns is tested in
# test_caption_notes.py; here only the figures are looked at.
@pytest.mark.filterwarnings("ignore::irtables.errors.LayoutWarning")
def test_the_supplement_of_a_sweep_has_bounded_figures() -> None:
    rng = np.random.default_rng(3)
    rows = [
        (d, f"s{i:03d}", f"q{j}", m, float(rng.random()))
        for d in ("d1", "d2")
        for i in range(300)
        for j in range(3)
        for m in ("AP", "P@5", "P@10")
    ]
    config = parse_config(
        {
            "compare": {"baseline": "s000"},
            "tables": {
                "main": {"metrics": ["AP", "P@10"]},
                "k_breakdown": {"metrics": ["P"], "k": [5, 10]},
            },
        }
    )
    built = build_supplement(results_from_rows(rows), config, workers=1)
    pngs = {o.path: _png_size(o.data) for o in built.outputs if o.path.endswith(".png")}
    assert {"figures/diff-d1.png", "figures/k-d1.png"} <= set(pngs)
    for path, (width, height) in pngs.items():
        assert width <= MAX_PIXELS[0] and height <= MAX_PIXELS[1], (path, width, height)
    captions = [f.caption for f in built.context["figures"]]  # type: ignore[attr-defined]
    forest = [c for c in captions if c.startswith("Meta-analysis of")]
    # two datasets: four rows a comparison, nine comparisons in 36 rows
    assert forest == [
        "Meta-analysis of MAP and P@10 across datasets (the 9 of 299 comparisons with the "
        "largest pooled effects; all in meta_analysis.csv)"
    ]
