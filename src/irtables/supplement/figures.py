"""The supplement's figures, drawn with matplotlib and returned as bytes (PDF and PNG).

Every text is plain (``text.parse_math`` off): a name with ``$`` is shown as written.
Deterministic: matplotlib's own defaults (not the user's matplotlibrc), fixed sizes and
resolution, and no dates, producer or software name in the files, so the same data gives
byte-identical files. Text is set in a cut-down DejaVu Sans (:mod:`.fonts`), embedded as
TrueType (never Type 3), one font subset per PDF. No pyplot: each figure is a standalone
:class:`Figure` (thread-safe, no global backend switch). matplotlib is imported when a
figure is drawn, not with this module: when worker processes draw the figures, the main
process never loads it.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from irtables.supplement.analysis import PerQuery
from irtables.supplement.fonts import font_families

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

FIGURE_FORMATS = ("pdf", "png")
DPI = 150
#: zlib level of the PNGs: 1 costs a third of the default level's time (6) on these
#: figures, for files a few per cent larger (large flat areas compress well at any level).
PNG_COMPRESSION = 1
#: Steps of a per-query difference panel at most: past that, each step covers several
#: queries (a step is then about half a point wide in a 6.4-inch figure) and has the
#: largest difference among them, so the file and the drawing stay small and the extremes
#: stay exact, however many queries there are.
MAX_STEPS = 800
#: A per-query difference figure with more systems than this is one heat map (a row per
#: system), not one panel per system: its size stays bounded whatever the sweep.
MAX_PANELS = 8
#: A line plot with more systems than this shows their spread (median, quartiles, range)
#: and the best system, not one line and one legend entry per system.
MAX_LINES = 12
#: Columns of the difference heat map at most: each row shows the quantiles of the sorted
#: differences, not every query (more than the axes' width in pixels cannot be seen).
MAX_COLUMNS = 400
#: Tallest figure, in inches (1,350 pixels in the PNG).
MAX_HEIGHT = 9.0
GAIN_COLOR = "#2b7bba"
LOSS_COLOR = "#d7301f"
WIDTH = 6.4  # inches, about a LaTeX text width
_RC: dict[str, Any] = {
    "svg.hashsalt": "irtables",
    "pdf.compression": 6,
    "pdf.fonttype": 42,
    "ps.fonttype": 42,  # matplotlib sizes the PDF's font subsets by it: one subset, not two
    "font.size": 9,
    "axes.titlesize": 9,
    "legend.fontsize": 7,
    "savefig.dpi": DPI,
    "figure.dpi": DPI,
    # names are plain text: "cost $$" or "x_$\\alpha^2$" is shown as written, never
    # parsed as mathtext (which stops on the first and typesets the second)
    "text.parse_math": False,
}
_METADATA = {
    "pdf": {"CreationDate": None, "ModDate": None, "Producer": None, "Creator": None},
    "png": {"Software": None},
}
#: Recall levels of the 11-point interpolated precision-recall curve.
RECALL_LEVELS = tuple(i / 10 for i in range(11))


@dataclass(frozen=True)
class Series:
    """One line of a plot: a label, its (x, y) points and optional error-bar half-widths."""

    label: str
    points: tuple[tuple[float, float], ...]
    errors: tuple[float, ...] = ()  # one per point (e.g. a 95% interval), or none


@contextmanager
def _style() -> Iterator[None]:
    import matplotlib
    import matplotlib.style

    rc = {**_RC, "font.family": font_families()}
    with matplotlib.style.context("default"), matplotlib.rc_context(rc):  # type: ignore[arg-type]
        yield


def figure_bytes(fig: Figure, fmt: str) -> bytes:
    """The figure as a PDF or PNG file, without dates or tool names in its metadata.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> with _style():
    ...     fig = Figure(figsize=(1, 1))
    ...     _ = fig.add_subplot().plot([0, 1], [0, 1])
    ...     data = figure_bytes(fig, "png")
    >>> data[:4], data == figure_bytes(fig, "png")
    (b'\\x89PNG', True)
    """
    buffer = io.BytesIO()
    with _style():
        if fmt == "png":
            _save_png(fig, buffer)
        else:
            fig.savefig(buffer, format=fmt, metadata=_METADATA[fmt], dpi=DPI)
    return buffer.getvalue()


def _save_png(fig: Figure, buffer: io.BytesIO) -> None:
    """The figure drawn by Agg at :data:`DPI`, saved as an RGB PNG: the figures are
    opaque (a white background), so the alpha channel matplotlib would save is all 255
    and a quarter of the bytes to compress."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from PIL import Image

    fig.set_dpi(DPI)
    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    canvas.draw()  # type: ignore[no-untyped-call]
    rgba = canvas.buffer_rgba()  # type: ignore[no-untyped-call]
    image = Image.frombuffer("RGBA", canvas.get_width_height(), rgba)
    image = image.convert("RGB")
    image.save(buffer, format="png", compress_level=PNG_COMPRESSION, dpi=(DPI, DPI))


def render_all(fig: Figure) -> dict[str, bytes]:
    """The figure in every format of :data:`FIGURE_FORMATS`, from one layout.

    The layout (constrained) is computed once, at the PNG's resolution, and then kept: the
    PDF and the PNG show the same positions, and saving does not lay the figure out again.
    The layout measures the text with the Agg renderer that then draws the PNG, so the
    PNG finds every text's size in matplotlib's cache (without a canvas of its own, each
    measurement of the layout would make a renderer, and measure again).
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    with _style():
        fig.set_dpi(DPI)
        FigureCanvasAgg(fig)  # the figure's canvas from now on
        engine = fig.get_layout_engine()
        if engine is not None:
            engine.execute(fig)
            fig.set_layout_engine(None)  # "none" would still draw once more per save
        _fix_ticks(fig)
    return {fmt: figure_bytes(fig, fmt) for fmt in FIGURE_FORMATS}


def _fix_ticks(fig: Figure) -> None:
    """Keep the ticks and labels the layout found: each later draw (PDF, PNG) would ask
    the locator and the formatter again for the same ticks (a fifth of a figure's tick
    work). Only axes with matplotlib's automatic ticks and plain labels (no offset text
    such as ``1e6``) are fixed; the same positions and strings are drawn."""
    from matplotlib.ticker import (
        FixedFormatter,
        FixedLocator,
        MaxNLocator,
        ScalarFormatter,
    )

    seen: set[int] = set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            ticker = axis.major  # shared axes share it: fixed once
            if id(ticker) in seen:
                continue
            seen.add(id(ticker))
            locator, formatter = ticker.locator, ticker.formatter
            if type(locator).__name__ not in ("AutoLocator", "MaxNLocator") or not isinstance(
                locator, MaxNLocator
            ):
                continue
            if type(formatter) is not ScalarFormatter:
                continue
            locs: Any = axis.get_majorticklocs()  # an array, as matplotlib passes it
            labels = formatter.format_ticks(locs)
            if formatter.get_offset():
                continue
            axis.set_major_locator(FixedLocator(locs))
            axis.set_major_formatter(FixedFormatter(labels))


def k_curves(title: str, panels: Mapping[str, Sequence[Series]]) -> Figure:
    """Metric vs K: one panel per measure family, one line per system, K on a log axis."""
    from matplotlib.figure import Figure

    with _style():
        n = max(len(panels), 1)
        cols = min(n, 2)
        rows = (n + cols - 1) // cols
        fig = Figure(figsize=(WIDTH, 2.4 * rows), layout="constrained")
        ticks = {
            tuple(sorted({k for s in lines for k, _ in s.points})) for lines in panels.values()
        }
        shared = len(ticks) == 1  # every panel has the same K: their x axes are one
        for i, (label, lines) in enumerate(panels.items()):
            ax = fig.add_subplot(rows, cols, i + 1)
            if len(lines) > MAX_LINES:
                _spread(ax, lines)
            for s in lines if len(lines) <= MAX_LINES else ():
                ks, values = zip(*s.points, strict=True)
                if s.errors:
                    ax.errorbar(ks, values, yerr=s.errors, marker="o", markersize=3,
                                capsize=2, elinewidth=0.6, label=s.label)  # fmt: skip
                else:
                    ax.plot(ks, values, marker="o", markersize=3, label=s.label)
            ax.set_xscale("log")
            ks_all = sorted({k for s in lines for k, _ in s.points})
            ax.set_xticks(ks_all, [f"{k:g}" for k in ks_all])
            ax.minorticks_off()
            if shared and i + cols < n:  # a panel below shows the same K
                ax.tick_params(labelbottom=False)
            else:
                ax.set_xlabel("K")
            ax.set_ylabel(f"{label}@K")
            ax.grid(True, linewidth=0.3)
        _legend(fig)
        fig.suptitle(title, fontsize=10)
    return fig


def difference_bars(title: str, metric: str, panels: Sequence[tuple[str, PerQuery]]) -> Figure:
    """Per-query differences from the baseline, sorted, one panel per system (as IR papers).

    Each query is a bar one unit wide, largest gain first; gains are blue, losses red and
    ties (within :data:`~irtables.supplement.analysis.TIE_TOLERANCE`) have no height. The
    bars of one colour are drawn as one filled step outline (:meth:`Axes.stairs`) of at
    most :data:`MAX_STEPS` steps, so the cost of drawing and the size of the file do not
    grow with the number of queries, and everything stays vector. The panels share one
    y-scale, so that the same height is the same difference in every panel. More than
    :data:`MAX_PANELS` systems (a parameter sweep) are one heat map instead
    (:func:`difference_map`).
    """
    from matplotlib.figure import Figure

    if len(panels) > MAX_PANELS:
        return difference_map(title, metric, panels)
    with _style():
        fig = Figure(figsize=(WIDTH, 1.9 * max(len(panels), 1)), layout="constrained")
        first: Axes | None = None
        for i, (name, pq) in enumerate(panels):
            ax = fig.add_subplot(len(panels), 1, i + 1, sharey=first)  # one scale: comparable
            first = first or ax
            _difference_panel(ax, pq)
            ax.set_title(f"{name}: {pq.wins} better, {pq.ties} tied, {pq.losses} worse", loc="left")
        if panels:
            fig.axes[-1].set_xlabel("queries, sorted by difference")
            fig.supylabel(f"Δ {metric}", fontsize=9)  # one scale, one label
        fig.suptitle(title, fontsize=10)
    return fig


def _difference_panel(ax: Axes, pq: PerQuery) -> None:
    """The sorted differences of one system: a blue area for the gains, a red one for the
    losses, a black line at zero; the x axis spans every query, ties included."""
    diffs = pq.diffs
    edges = np.arange(pq.n + 1, dtype=np.float64) - 0.5
    parts = (  # changes are sorted: gains first, losses last
        (slice(0, pq.wins), GAIN_COLOR, np.maximum),
        (slice(pq.n - pq.losses, pq.n), LOSS_COLOR, np.minimum),
    )
    width = max(1, -(-pq.n // MAX_STEPS))  # queries per step
    for part, color, extreme in parts:
        if part.start < part.stop:
            heights, at = _steps(diffs[part], extreme, width)
            _add_area(ax, heights, edges[part.start + at], facecolor=color)
    ax.autoscale_view()
    ax.axhline(0.0, color="black", linewidth=0.5)
    ax.set_xlim(-0.5, max(pq.n, 1) - 0.5)
    ax.set_xticks([])


def _steps(
    values: npt.NDArray[np.float64], extreme: np.ufunc, width: int
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.intp]]:
    """Step heights and their edges (as offsets into ``values``): one step per ``width``
    values, holding the ``extreme`` (largest gain, largest loss) of those it covers.

    Examples
    --------
    >>> h, at = _steps(np.array([5.0, 4.0, 3.0]), np.maximum, 1)
    >>> h.tolist(), at.tolist()
    ([5.0, 4.0, 3.0], [0, 1, 2, 3])
    >>> h, at = _steps(np.array([-1.0, -2.0, -3.0, -4.0, -5.0]), np.minimum, 2)
    >>> h.tolist(), at.tolist()
    ([-2.0, -4.0, -5.0], [0, 2, 4, 5])
    """
    starts = np.arange(0, len(values), width, dtype=np.intp)
    heights: npt.NDArray[np.float64] = extreme.reduceat(values, starts)
    return heights, np.append(starts, np.intp(len(values)))


def _add_area(
    ax: Axes, heights: npt.NDArray[np.float64], edges: npt.NDArray[np.float64], **style: Any
) -> None:
    """A filled step outline from zero to ``heights`` over ``edges``, as ``ax.stairs`` draws
    it, with the data limits set from the extremes (``stairs`` walks every vertex in Python
    to find them, which costs more than drawing)."""
    from matplotlib.patches import StepPatch

    patch = StepPatch(heights, edges, baseline=0.0, fill=True, linewidth=0, **style)
    patch.sticky_edges.y.append(0.0)
    ax.add_artist(patch)
    low, high = min(0.0, float(heights.min())), max(0.0, float(heights.max()))
    ax.update_datalim([(edges[0], low), (edges[-1], high)])


def pr_curves(title: str, lines: Sequence[Series]) -> Figure:
    """11-point interpolated precision-recall curves, one line per system."""
    from matplotlib.figure import Figure

    with _style():
        fig = Figure(figsize=(WIDTH * 0.6, WIDTH * 0.5), layout="constrained")
        ax = fig.add_subplot()
        if len(lines) > MAX_LINES:
            _spread(ax, lines)
        for s in lines if len(lines) <= MAX_LINES else ():
            recall, precision = zip(*s.points, strict=True)
            ax.plot(recall, precision, marker="o", markersize=3, label=s.label)
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1.02)
        ax.set_xticks(RECALL_LEVELS)
        ax.set_xlabel("recall")
        ax.set_ylabel("interpolated precision")
        ax.grid(True, linewidth=0.3)
        ax.legend(loc="upper right")
        ax.set_title(title)
    return fig


def difference_map(title: str, metric: str, panels: Sequence[tuple[str, PerQuery]]) -> Figure:
    """The per-query differences of many systems as one heat map: a row per system (in
    the given order), its queries sorted by difference, largest gain on the left; blue
    gains, red losses, white ties, on one colour scale symmetric around zero.

    Rows with more than :data:`MAX_COLUMNS` queries show the quantiles of their sorted
    differences at that many evenly spaced ranks; at most about 40 system names label the
    rows. The figure is at most :data:`MAX_HEIGHT` inches tall whatever the number of
    systems, and the map is one image in the PDF.
    """
    from matplotlib.colors import LinearSegmentedColormap
    from matplotlib.figure import Figure
    from matplotlib.ticker import FixedLocator

    rows = [_row(pq) for _, pq in panels]
    width = max((len(r) for r in rows), default=1) or 1
    grid = np.full((len(rows), width), np.nan)
    for i, row in enumerate(rows):
        grid[i, : len(row)] = row
    finite = grid[np.isfinite(grid)]
    bound = float(np.abs(finite).max()) if finite.size else 1.0
    with _style():
        height = min(MAX_HEIGHT, 1.6 + 0.12 * len(rows))
        fig = Figure(figsize=(WIDTH, height), layout="constrained")
        ax = fig.add_subplot()
        cmap = LinearSegmentedColormap.from_list("gain-loss", [LOSS_COLOR, "#ffffff", GAIN_COLOR])
        image = ax.imshow(
            grid, cmap=cmap, vmin=-(bound or 1.0), vmax=bound or 1.0, aspect="auto",
            interpolation="nearest",
        )  # fmt: skip
        step = max(1, -(-len(rows) // 40))
        ticks = list(range(0, len(rows), step))
        ax.yaxis.set_major_locator(FixedLocator(ticks))
        ax.set_yticks(ticks, [panels[i][0] for i in ticks], fontsize=6)
        ax.set_xticks([])
        n = max((pq.n for _, pq in panels), default=0)
        ax.set_xlabel(f"{n} queries, sorted by difference (largest gain left)")
        ax.set_ylabel(f"{len(rows)} systems")
        fig.colorbar(image, ax=ax, label=f"Δ {metric}", shrink=0.8)
        fig.suptitle(title, fontsize=10)
    return fig


def _row(pq: PerQuery) -> npt.NDArray[np.float64]:
    """The sorted differences of one system, or their quantiles at :data:`MAX_COLUMNS`
    evenly spaced ranks when there are more queries than that."""
    diffs = pq.diffs
    if pq.n <= MAX_COLUMNS:
        return diffs
    at = np.linspace(0, pq.n - 1, MAX_COLUMNS).round().astype(np.intp)
    quantiles: npt.NDArray[np.float64] = diffs[at]  # sorted already: these are quantiles
    return quantiles


def _spread(ax: Axes, lines: Sequence[Series]) -> None:
    """Many systems on one axes: the median, the quartiles and the range of their values
    at each x, and the best system (highest mean over the x values) as a line of its own."""
    xs = sorted({x for s in lines for x, _ in s.points})
    at = {x: i for i, x in enumerate(xs)}
    values = np.full((len(lines), len(xs)), np.nan)
    for row, s in enumerate(lines):
        for x, y in s.points:
            values[row, at[x]] = y
    counted = np.isfinite(values).any(axis=0)
    xs_kept = [x for x, keep in zip(xs, counted, strict=True) if keep]
    kept = values[:, counted]
    if not xs_kept:
        return
    low, q1, median, q3, high = np.nanpercentile(kept, [0, 25, 50, 75, 100], axis=0)
    ax.fill_between(
        xs_kept, low, high, color="#cccccc", linewidth=0, label=f"range of {len(lines)} systems"
    )
    ax.fill_between(xs_kept, q1, q3, color="#999999", linewidth=0, label="middle half")
    ax.plot(xs_kept, median, color="black", linewidth=1, label="median")
    counts = np.isfinite(kept).sum(axis=1)
    means = np.where(counts > 0, np.nansum(kept, axis=1) / np.maximum(counts, 1), -np.inf)
    best = int(np.argmax(means))
    bx, by = zip(*lines[best].points, strict=True)
    ax.plot(bx, by, marker="o", markersize=3, color=GAIN_COLOR, label=f"best: {lines[best].label}")


def _legend(fig: Figure) -> None:
    handles, labels = fig.axes[0].get_legend_handles_labels() if fig.axes else ([], [])
    if handles:
        fig.legend(handles, labels, loc="outside lower center", ncols=min(len(labels), 4))
