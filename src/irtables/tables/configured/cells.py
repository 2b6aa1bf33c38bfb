"""Cells of the configured layouts: formatted, flagged best / second best, marked.

The rules are the shared ones (:func:`~irtables.tables.numbers.rank_flags` on the
displayed values, ``output.second_best``, ``output.lower_is_better``), applied to
whichever cells a layout compares: a column, a row, or a whole grid.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from irtables.config import Config
from irtables.measures import Measure
from irtables.tables.layouts import Markers, Means, _higher, _spread_text
from irtables.tables.model import Cell
from irtables.tables.numbers import format_number, rank_flags


@dataclass(frozen=True)
class Spot:
    """Where a cell's value comes from; ``metric`` is None for a derived value (an average)."""

    dataset: str
    system: str
    metric: str | None
    value: float | None


def spot(m: Means, dataset: str, system: str, measure: Measure) -> Spot:
    """The mean of ``measure`` (resolved on ``dataset``) for ``system``, or a missing value."""
    key = m.metrics.resolve(dataset, measure)
    return Spot(dataset, system, key, m.get(dataset, system, key))


def flagged(
    config: Config,
    m: Means,
    spots: Sequence[Spot],
    measure: Measure,
    markers: Markers | None,
) -> list[Cell]:
    """Cells for ``spots`` compared with one another: best and second best among them."""
    out = config.output
    texts = [format_number(s.value, out.decimals, leading_zero=out.leading_zero) for s in spots]
    best, second = rank_flags(texts, higher_is_better=_higher(config, measure))
    cells = []
    for s, text, b, sec in zip(spots, texts, best, second, strict=True):
        present = s.value is not None and s.metric is not None
        mark = markers(s.dataset, s.system, s.metric) if markers and present and s.metric else ""
        spread = _spread_text(m, config, s.dataset, s.system, s.metric) if present else ""
        cells.append(Cell(s.value, text, b, sec and out.second_best, mark, spread=spread))
    return cells


def transpose(columns: Sequence[Sequence[Cell]]) -> list[tuple[Cell, ...]]:
    """Rows of cells from columns of cells."""
    return [tuple(row) for row in zip(*columns, strict=True)]
