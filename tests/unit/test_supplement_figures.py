"""The per-query difference figure at scale, and drawing figures in worker processes.

Expected values come from the numbers the tests make up (numpy on the raw values), the
colours from the figure as it has always been drawn; never from the figure code.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import numpy as np
import pytest
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.patches import StepPatch

from irtables.errors import IrtablesWarning
from irtables.model import ResultSet
from irtables.study.pipeline import resolve_study
from irtables.supplement import drawing
from irtables.supplement.analysis import PerQuery, compare_queries
from irtables.supplement.build import build_supplement
from irtables.supplement.drawing import FigureDrawing, render_jobs
from irtables.supplement.figures import (
    MAX_STEPS,
    Series,
    difference_bars,
    k_curves,
    render_all,
)
from tests.conftest import results_from_rows

EXAMPLE = Path(__file__).resolve().parents[2] / "results"
BLUE, RED = to_rgba("#2b7bba"), to_rgba("#d7301f")  # gains, losses: the figure's colours


def _study(n: int, seed: int = 0, ties: int = 0) -> tuple[ResultSet, np.ndarray, np.ndarray]:
    """One dataset, a baseline and two systems over ``n`` queries; the first ``ties``
    queries score the same for every system. Returns the results and the values."""
    rng = np.random.default_rng(seed)
    base = rng.random(n)
    others = rng.random((2, n))
    others[:, :ties] = base[:ties]
    rows = [
        ("d", system, f"q{i:05d}", "AP", float(v))
        for system, values in (("base", base), ("x", others[0]), ("y", others[1]))
        for i, v in enumerate(values)
    ]
    return results_from_rows(rows), base, others


def _panels(results: ResultSet) -> list[tuple[str, PerQuery]]:
    per_query = compare_queries(results, "d", "AP", ["base", "x", "y"], "base")
    return [(p.system.upper(), p) for p in per_query]


def test_panels_keep_counts_colours_and_sorted_order() -> None:
    results, base, others = _study(300, ties=7)
    fig = difference_bars("T", "AP", _panels(results))
    for ax, values, name in zip(fig.axes, others, ("X", "Y"), strict=True):
        diffs = values - base
        wins, losses = int((diffs > 1e-9).sum()), int((diffs < -1e-9).sum())
        ties = len(diffs) - wins - losses
        assert ties == 7
        assert ax.get_title(loc="left") == f"{name}: {wins} better, {ties} tied, {losses} worse"
        gains, drops = ax.patches  # one area per colour, whatever the number of queries
        assert isinstance(gains, StepPatch) and isinstance(drops, StepPatch)
        assert gains.get_facecolor() == BLUE and drops.get_facecolor() == RED
        ordered = np.sort(diffs)[::-1]
        g, d = gains.get_data(), drops.get_data()
        np.testing.assert_array_equal(g.values, ordered[:wins])
        np.testing.assert_array_equal(d.values, ordered[len(diffs) - losses :])
        np.testing.assert_array_equal(g.edges, np.arange(wins + 1) - 0.5)  # one unit a query
        np.testing.assert_array_equal(d.edges, np.arange(wins + ties, len(diffs) + 1) - 0.5)
        assert g.baseline == d.baseline == 0.0
        assert ax.get_xlim() == (-0.5, len(diffs) - 0.5)  # ties keep their place
        low, high = ax.get_ylim()
        assert low < ordered[-1] and high > ordered[0]  # every bar inside the axes


def test_number_of_artists_does_not_grow_with_the_queries() -> None:
    small = difference_bars("T", "AP", _panels(_study(40)[0]))
    large = difference_bars("T", "AP", _panels(_study(20_000)[0]))
    for a, b in zip(small.axes, large.axes, strict=True):
        assert len(a.get_children()) == len(b.get_children())
        assert len(b.patches) == 2


def _pdf_kib(n: int) -> float:
    pdf = render_all(difference_bars("T", "AP", _panels(_study(n)[0])))["pdf"]
    return len(pdf) / 1024


def test_pdf_size_does_not_grow_with_the_queries() -> None:
    sizes = {n: _pdf_kib(n) for n in (100, 2_000, 30_000)}
    assert sizes[30_000] - sizes[2_000] < 5  # dense panels are one image each: flat
    assert sizes[30_000] - sizes[100] < 40  # a few tens of kB over a small vector figure
    assert max(sizes.values()) < 100


def test_dense_panels_are_bounded_steps_that_keep_the_extremes() -> None:
    n = 30_000
    results, base, others = _study(n)
    fig = difference_bars("T", "AP", _panels(results))
    for ax, values in zip(fig.axes, others, strict=True):
        diffs = np.sort(values - base)[::-1]
        gains, drops = (p.get_data() for p in ax.patches)
        assert len(gains.values) + len(drops.values) <= MAX_STEPS + 2
        assert gains.edges[0] == -0.5 and drops.edges[-1] == n - 0.5  # every query spanned
        for step in (gains, drops):  # each step: the largest change among its queries
            lows = np.round(step.edges[:-1] + 0.5).astype(int)
            highs = np.round(step.edges[1:] + 0.5).astype(int)
            largest = [
                diffs[a:b][np.argmax(np.abs(diffs[a:b]))] for a, b in zip(lows, highs, strict=True)
            ]
            np.testing.assert_array_equal(step.values, largest)
        assert gains.values[0] == diffs[0] and drops.values[-1] == diffs[-1]
    assert b"/Subtype /Image" not in render_all(fig)["pdf"]  # vector, not a raster


def test_both_formats_come_from_one_layout() -> None:
    fig = difference_bars("T", "AP", _panels(_study(50)[0]))
    render_all(fig)
    positions = [ax.get_position().bounds for ax in fig.axes]
    render_all(fig)  # saving again does not move anything
    assert [ax.get_position().bounds for ax in fig.axes] == positions


def _jobs(n: int) -> list[partial[Figure]]:
    results = _study(n)[0]
    lines = [Series("a", ((1.0, 0.2), (10.0, 0.4))), Series("b", ((1.0, 0.3), (10.0, 0.5)))]
    return [
        partial(difference_bars, "T", "AP", _panels(results)),
        partial(k_curves, "K", {"NDCG": lines}),
        partial(difference_bars, "U", "AP", _panels(results)[:1]),
    ]


def test_figures_are_the_same_bytes_in_worker_processes() -> None:
    jobs = _jobs(800)
    seen: list[tuple[int, int]] = []
    serial = render_jobs(jobs, workers=1)
    parallel = render_jobs(jobs, workers=2, progress=lambda d, t: seen.append((d, t)))
    assert parallel == serial  # job order, byte for byte
    assert seen == [(1, 3), (2, 3), (3, 3)]
    assert serial == render_jobs(jobs, workers=1)  # and the same again
    assert [set(r) for r in serial] == [{"pdf", "png"}] * 3
    assert len({r["png"] for r in serial}) == 3  # three different figures


def test_a_job_that_cannot_go_to_a_worker_is_drawn_here() -> None:
    jobs = _jobs(50)
    results = _study(50)[0]
    closure = [jobs[0], lambda: difference_bars("T", "AP", _panels(results))]
    drawn = render_jobs(closure, workers=2)
    assert drawn[0] == drawn[1] == render_jobs(jobs[:1], workers=1)[0]


def test_the_example_supplement_is_the_same_with_and_without_workers() -> None:
    results, config, _ = resolve_study(EXAMPLE)
    serial = build_supplement(results, config, workers=1)
    parallel = build_supplement(results, config, workers=2)
    assert [o.path for o in serial.outputs] == [o.path for o in parallel.outputs]
    for a, b in zip(serial.outputs, parallel.outputs, strict=True):
        assert a.data == b.data, a.path
    assert any(o.path.endswith("diff-cast2021.pdf") for o in serial.outputs)


@pytest.mark.parametrize("n", [0, 1])
def test_tiny_panels_draw(n: int) -> None:
    results, _, _ = _study(max(n, 1))
    panels = _panels(results)
    if n == 0:
        panels = [
            (name, PerQuery.from_changes(p.dataset, p.metric, p.system, p.baseline, ()))
            for name, p in panels
        ]
    files = render_all(difference_bars("T", "AP", panels))
    assert files["pdf"].startswith(b"%PDF") and files["png"].startswith(b"\x89PNG")


def test_without_worker_processes_the_figures_are_drawn_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_processes(*args: object, **kwargs: object) -> None:
        raise OSError("no semaphores in this sandbox")

    monkeypatch.setattr(drawing, "make_executor", no_processes)
    jobs = _jobs(50)
    with pytest.warns(IrtablesWarning, match="no semaphores"):
        drawn = render_jobs(jobs, workers=2)
    monkeypatch.undo()
    assert drawn == render_jobs(jobs, workers=1)


def test_jobs_submitted_in_two_batches_come_back_in_order() -> None:
    jobs = _jobs(60)
    with FigureDrawing(jobs[:1], workers=2) as drawing:
        drawing.submit(jobs[1:])
        parallel = drawing.results()
    assert parallel == render_jobs(jobs, workers=1)


def test_difference_panels_share_one_y_scale() -> None:
    rng = np.random.default_rng(3)
    base = rng.random(200)
    small = base + rng.normal(0, 0.01, 200)  # differences of about 0.01
    large = base + rng.normal(0, 0.3, 200)  # of about 0.3
    rows = [
        ("d", system, f"q{i:03d}", "AP", float(v))
        for system, values in (("base", base), ("x", small), ("y", large))
        for i, v in enumerate(values)
    ]
    fig = difference_bars("T", "AP", _panels(results_from_rows(rows)))
    render_all(fig)
    limits = {ax.get_ylim() for ax in fig.axes}
    assert len(limits) == 1  # the same scale in every panel
    (low, high), diffs = limits.pop(), np.concatenate([small - base, large - base])
    assert low <= diffs.min() and high >= diffs.max()  # the largest difference of all fits


def test_difference_panels_are_labelled_once_for_their_one_scale() -> None:
    """One y label for the figure (the panels share their scale), none per panel."""
    rng = np.random.default_rng(5)
    rows = [
        ("d", system, f"q{i:03d}", "AP", float(v))
        for system in ("base", "x", "y")
        for i, v in enumerate(rng.random(50))
    ]
    fig = difference_bars("T", "AP", _panels(results_from_rows(rows)))
    render_all(fig)
    assert [ax.get_ylabel() for ax in fig.axes] == ["", ""]
    assert fig.get_supylabel() == "Δ AP"


def test_k_panels_above_others_leave_k_to_the_panels_below() -> None:
    """Panels with the same K: the tick labels and the "K" of the bottom row only, as
    shared axes show them; panels with different K each keep theirs."""
    same = [Series("a", ((1.0, 0.2), (10.0, 0.4), (100.0, 0.5)))]
    fig = k_curves("T", {"NDCG": same, "P": same, "R": same, "MRR": same})
    render_all(fig)
    shown = [
        (ax.get_xlabel(), any(t.get_visible() and t.get_text() for t in ax.get_xticklabels()))
        for ax in fig.axes
    ]
    assert shown == [("", False), ("", False), ("K", True), ("K", True)]
    other = [Series("a", ((5.0, 0.2), (20.0, 0.4)))]
    fig = k_curves("T", {"NDCG": same, "P": other, "R": same})
    render_all(fig)
    assert [ax.get_xlabel() for ax in fig.axes] == ["K", "K", "K"]


def test_the_png_is_opaque_rgb_with_the_pixels_matplotlib_draws() -> None:
    import io

    from PIL import Image

    from irtables.supplement.figures import DPI, _style

    fig = k_curves("T", {"NDCG": [Series("a", ((1.0, 0.2), (10.0, 0.4)))]})
    png = render_all(fig)["png"]
    reference = io.BytesIO()
    with _style():
        fig.savefig(reference, format="png", dpi=DPI)  # matplotlib's own RGBA PNG
    ours, theirs = (np.asarray(Image.open(io.BytesIO(b))) for b in (png, reference.getvalue()))
    assert ours.shape == (*theirs.shape[:2], 3)  # no alpha channel
    assert (theirs[..., 3] == 255).all()  # none lost: the figure is opaque
    assert (ours == theirs[..., :3]).all()
    assert (ours != 255).any()  # something was drawn


def test_figures_drawn_here_leave_the_heap_out_of_collections_and_put_it_back() -> None:
    import gc

    if gc.get_freeze_count():
        pytest.skip("the test process froze its heap itself")
    frozen: list[int] = []

    def job() -> Figure:  # a closure: drawn in this process
        frozen.append(gc.get_freeze_count())
        return k_curves("T", {"NDCG": [Series("a", ((1.0, 0.2), (10.0, 0.4)))]})

    render_jobs([job, job], workers=1)
    assert len(frozen) == 2 and min(frozen) > 0  # the objects of before, not scanned
    assert gc.get_freeze_count() == 0  # put back


def test_a_heap_frozen_by_the_caller_stays_as_the_caller_left_it() -> None:
    import gc

    if gc.get_freeze_count():
        pytest.skip("the test process froze its heap itself")
    gc.freeze()
    try:
        count = gc.get_freeze_count()
        with drawing.heap_frozen():
            assert gc.get_freeze_count() == count
        assert gc.get_freeze_count() == count  # not unfrozen: the caller's to do
    finally:
        gc.unfreeze()


@pytest.mark.parametrize("offset", [0.0, 1e6], ids=["plain labels", "offset text"])
def test_ticks_fixed_after_the_layout_draw_the_same_bytes(
    offset: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ticks the layout found are kept for the PDF and the PNG (not asked of the
    locator again), with the same files as before; labels with an offset text (``1e6``)
    keep matplotlib's own ticks."""
    from matplotlib.ticker import FixedLocator

    from irtables.supplement import figures

    points = ((1.0, offset + 0.2), (10.0, offset + 0.4), (100.0, offset + 0.35))
    lines = [Series("a", points), Series("b", tuple((k, v + 0.1) for k, v in points))]
    fixed_fig = k_curves("K", {"NDCG": lines, "P": lines})
    fixed = render_all(fixed_fig)
    y_locators = {type(ax.yaxis.get_major_locator()) for ax in fixed_fig.axes}
    assert (y_locators == {FixedLocator}) == (offset == 0.0)
    monkeypatch.setattr(figures, "_fix_ticks", lambda fig: None)
    assert render_all(k_curves("K", {"NDCG": lines, "P": lines})) == fixed
