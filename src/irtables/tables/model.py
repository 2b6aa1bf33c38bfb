"""Table models: what a table shows, before any output format is chosen.

A :class:`TableModel` holds cells with their display text, best and second-best flags
and significance markers. Templates only lay it out; all decisions are made here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Cell:
    """One displayed number.

    ``text`` is the formatted value (``"0.512"`` or ``"–"``); ``value`` the unrounded
    mean; ``note`` an optional annotation shown after the number (an ablation's Δ,
    ``"(−0.034)"``), ``delta`` that difference alone (``"−0.034"``, for CSV);
    ``span`` > 1 when one value stands for several columns (MAP in a K breakdown);
    ``spread`` the ``± 0.010`` shown right after the number (the standard deviation over
    a system's seeds, with ``output.seeds = "mean_std"``).
    """

    value: float | None
    text: str
    best: bool = False
    second: bool = False
    markers: str = ""
    note: str = ""
    span: int = 1
    pad: str = ""  # invisible marker text that aligns this cell with marked ones (LaTeX)
    spread: str = ""  # "± 0.010": standard deviation over seeds, shown after the number
    delta: str = ""  # an ablation row's difference from its full model, as displayed


@dataclass(frozen=True)
class Column:
    """A value column: its key in the data (canonical metric, or K) and its header."""

    key: str
    label: str
    higher_is_better: bool = True


@dataclass(frozen=True)
class Row:
    """One table row: a label (system display name), its cells, an optional description."""

    key: str
    label: str
    cells: tuple[Cell, ...]
    description: str | None = None


@dataclass(frozen=True)
class RowGroup:
    """Rows that share a label (a dataset in Table 1, a metric in Table S1)."""

    label: str | None
    rows: tuple[Row, ...]


@dataclass(frozen=True)
class TableModel:
    """A whole table, independent of the output format.

    ``stub`` are the headers of the label columns left of the values (``("Dataset",
    "System")``); ``description_header`` is set when rows carry a description column.
    ``notes`` are sentences for the caption (what the numbers are, the legend).
    """

    layout: str
    name: str  # file name stem: table1, tableS1-<dataset>, ablation
    title: str  # "Table 1", "Table S1", "Table 2"
    stub: tuple[str, ...]
    columns: tuple[Column, ...]
    groups: tuple[RowGroup, ...]
    caption: str
    label: str
    notes: tuple[str, ...] = ()
    description_header: str | None = None
    metrics: tuple[str, ...] = ()  # canonical metrics shown, for the significance tests
    datasets: tuple[str, ...] = ()  # dataset ids whose results the table shows
    wide: bool = False  # LaTeX table* instead of table
    resize: bool = False  # LaTeX: scale the tabular to the line width

    @property
    def full_caption(self) -> str:
        """The caption followed by the notes."""
        return " ".join(part for part in (self.caption, *self.notes) if part)
