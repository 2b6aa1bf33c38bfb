"""The figure of a sensitivity table: a line plot (one parameter) or a heat map (two).

Drawn from the table model itself, so the figure shows exactly the means of the table.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from matplotlib.figure import Figure

from irtables.measures import parse_measure
from irtables.render.numbers import typeset
from irtables.supplement.figures import WIDTH, _style
from irtables.tables.model import Row, TableModel

Matrix = npt.NDArray[np.float64]
#: Cells of a heat map at most that carry their value as text (beyond, unreadable).
MAX_CELL_TEXTS = 400
#: Tick labels at most along the x and y axes of these small figures; every n-th beyond.
MAX_X_TICKS = 8
MAX_Y_TICKS = 20


def _thinned(count: int, most: int) -> list[int]:
    """Positions of the tick labels shown out of ``count``: all, or every n-th.

    Examples
    --------
    >>> len(_thinned(1600, 20)), _thinned(1600, 20)[:3], _thinned(5, 8)
    (20, [0, 80, 160], [0, 1, 2, 3, 4])
    """
    step = max(1, -(-count // most))
    return list(range(0, count, step))


def sensitivity_figure(model: TableModel) -> Figure:
    """Line plot of each metric against the parameter, or a heat map over two parameters.

    Examples
    --------
    >>> from irtables.tables.model import Cell, Column, Row, RowGroup, TableModel
    >>> rows = tuple(Row(f"s{v}", v, (Cell(float(v) / 10, f"{float(v) / 10:.3f}"),))
    ...              for v in ("1", "2", "3"))
    >>> model = TableModel("sensitivity", "k1", "T", ("k1",), (Column("AP", "MAP"),),
    ...                    (RowGroup(None, rows),), "c", "l")
    >>> len(sensitivity_figure(model).axes)
    1
    """
    rows = [r for g in model.groups for r in g.rows]
    values = np.array(
        [[np.nan if c.value is None else c.value for c in r.cells] for r in rows], dtype=float
    )
    x_name = model.stub[0]
    if model.column_groups:
        return _heat_map(model, rows, values, x_name, model.column_groups[0].label)
    return _lines(model, rows, values, x_name)


def _positions(labels: list[str]) -> tuple[list[float], bool]:
    """x positions: the values when every label is a finite number, else 0, 1, 2, ..."""
    from irtables.tables.configured.params import sort_key

    keys = [sort_key(x) for x in labels]
    if all(kind == 0 for kind, _, _ in keys):
        return [number for _, number, _ in keys], True
    return [float(i) for i in range(len(labels))], False


def _lines(model: TableModel, rows: Sequence[Row], values: Matrix, x_name: str) -> Figure:
    labels = [r.label for r in rows]
    xs, numeric = _positions(labels)
    with _style():
        fig = Figure(figsize=(WIDTH * 0.6, WIDTH * 0.45), layout="constrained")
        ax = fig.add_subplot()
        for j, column in enumerate(model.columns):
            ax.plot(xs, values[:, j], marker="o", markersize=3, label=column.label)
        if not numeric:
            ticks = _thinned(len(xs), MAX_X_TICKS)
            ax.set_xticks([xs[i] for i in ticks], [labels[i] for i in ticks])
        ax.set_xlabel(x_name)
        ax.set_ylabel("mean over queries")
        ax.grid(True, linewidth=0.3)
        ax.legend(loc="best")
        ax.set_title(model.caption, wrap=True)
    return fig


def _heat_map(
    model: TableModel, rows: Sequence[Row], values: Matrix, y_name: str, x_name: str
) -> Figure:
    with _style():
        fig = Figure(figsize=(WIDTH * 0.6, WIDTH * 0.5), layout="constrained")
        ax = fig.add_subplot()
        image = ax.imshow(values, cmap="viridis", aspect="auto", origin="upper")
        columns = _thinned(len(model.columns), MAX_X_TICKS)
        ax.set_xticks(columns, [model.columns[j].label for j in columns])
        ticks = _thinned(len(rows), MAX_Y_TICKS)
        ax.set_yticks(ticks, [rows[i].label for i in ticks])
        ax.set_xlabel(x_name)
        ax.set_ylabel(y_name)
        low, high = np.nanmin(values), np.nanmax(values)
        middle = (low + high) / 2
        texts = len(rows) * len(model.columns) <= MAX_CELL_TEXTS
        for i, row in enumerate(rows if texts else ()):
            for j, cell in enumerate(row.cells):
                if cell.value is None:
                    continue
                color = "black" if cell.value > middle else "white"
                weight = "bold" if cell.best else "normal"
                ax.text(
                    j,
                    i,
                    typeset(cell.text),
                    ha="center",
                    va="center",
                    color=color,
                    fontsize=7,
                    fontweight=weight,
                )
        label = parse_measure(model.metrics[0]).label if model.metrics else None
        fig.colorbar(image, ax=ax, label=label)
        ax.set_title(model.caption, wrap=True)
    return fig
