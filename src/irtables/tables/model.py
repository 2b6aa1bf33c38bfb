"""Table models: what a table shows, before any output format is chosen.

A :class:`TableModel` holds cells with their display text, best and second-best flags
and significance markers. Templates only lay it out; all decisions are made here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from irtables.base.display import TABLE, shown

if TYPE_CHECKING:
    import pandas as pd


class KeyNote(str):
    """A caption note that explains marks in the cells (what bold or † means): a
    ``short`` caption keeps it."""

    __slots__ = ()


#: The column of a value that spans several columns (MAP in a K breakdown) in the flat
#: views of a table: its data frame, Markdown and CSV.
NO_CUTOFF = "no cutoff"


class CellSource(NamedTuple):
    """Where a cell's number comes from, by id: its dataset (empty for an average over
    datasets), system, the metric the value is of (None for a derived value) and the
    canonical name of the measure its column shows."""

    dataset: str
    system: str
    metric: str | None
    column: str


@dataclass(frozen=True)
class Cell:
    """One displayed number, in no particular output format.

    ``text`` is the formatted value (``"0.512"``, ``"-0.100"`` or ``"–"``); ``value`` the
    unrounded mean; ``delta`` an ablation row's difference from its full model, as
    displayed (``"-0.034"``, ``"+0.010"``; empty for none); ``span`` > 1 when one value
    stands for several columns (MAP in a K breakdown); ``spread`` the ``± 0.010`` shown
    right after the number (the standard deviation over a system's seeds, with
    ``output.seeds = "mean_std"``, or the mean's confidence interval); ``source`` the ids
    the number is of, which make its citable key (:mod:`irtables.tables.citable`).

    Numbers are plain ASCII (``-`` for minus); each renderer typesets them for its format
    (a typographic minus, the Δ in parentheses: :mod:`irtables.render.numbers`).
    """

    value: float | None
    text: str
    best: bool = False
    second: bool = False
    markers: str = ""
    span: int = 1
    spread: str = ""  # "± 0.010": standard deviation over seeds, shown after the number
    delta: str = ""  # "-0.034": an ablation row's difference from its full model, as displayed
    source: CellSource | None = field(default=None, compare=False, repr=False)


#: An empty cell: the place of a row in a column that is not its (in a K breakdown with
#: one K, the ``no cutoff`` column of the measures at that K, and the other way round).
#: It is no number: not cited, not in :meth:`TableModel.to_frame`.
BLANK = Cell(None, "")


@dataclass(frozen=True)
class Column:
    """A value column: its key in the data (canonical metric, or K) and its header."""

    key: str
    label: str
    higher_is_better: bool = True


@dataclass(frozen=True)
class ColumnGroup:
    """A spanned header over consecutive value columns (a dataset in a column-group layout)."""

    label: str
    span: int


@dataclass(frozen=True)
class Row:
    """One table row: a label (system display name), its cells, an optional description."""

    key: str
    label: str
    cells: tuple[Cell, ...]
    description: str | None = None


@dataclass(frozen=True)
class RowGroup:
    """Rows that share a label (a dataset in Table 1, a metric in Table S1); ``key``, the
    id of what the label names (the dataset's id, the measure family's), if any."""

    label: str | None
    rows: tuple[Row, ...]
    key: str | None = None


@dataclass(frozen=True)
class TableModel:
    """A whole table, independent of the output format.

    ``stub`` are the headers of the label columns left of the values (``("Dataset",
    "System")``); ``description_header`` is set when rows carry a description column.
    ``notes`` are sentences for the caption (what the numbers are, the legend).
    ``column_groups`` span consecutive ``columns`` (their spans add up to the number of
    columns) under a shared header, e.g. one group per dataset; empty for one header row.
    ``caption_notes`` (one of
    :data:`irtables.config.CAPTION_NOTES`; None: ``full``) says where the notes go.
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
    column_groups: tuple[ColumnGroup, ...] = ()
    caption_notes: str | None = None  # "full", "short", "footnote", "none"; None: "full"

    @property
    def full_caption(self) -> str:
        """The caption followed by every note."""
        return " ".join(part for part in (self.caption, *self.notes) if part)

    @property
    def caption_text(self) -> str:
        """The caption as the table shows it: followed by the notes ``caption_notes`` keeps.

        Examples
        --------
        >>> from dataclasses import replace
        >>> t = TableModel("main", "t", "Table 1", ("System",), (), (), "Main results.",
        ...     "tab:t", notes=("Means over 50 queries.", KeyNote("Best in bold.")))
        >>> [replace(t, caption_notes=c).caption_text for c in ("full", "short", "none")]
        ... # doctest: +NORMALIZE_WHITESPACE
        ['Main results. Means over 50 queries. Best in bold.', 'Main results. Best in bold.',
         'Main results.']
        """
        shown = {"full": self.notes, "short": self._key_notes}.get(self.caption_notes or "full")
        return " ".join(part for part in (self.caption, *(shown or ())) if part)

    @property
    def footnote(self) -> str:
        """The notes set below the table (``caption_notes = "footnote"``), else empty."""
        return " ".join(self.notes) if self.caption_notes == "footnote" else ""

    @property
    def dropped_notes(self) -> tuple[str, ...]:
        """The notes the table does not show (``short``, ``none``): the supplement's
        methods list them."""
        if self.caption_notes == "short":
            return tuple(n for n in self.notes if not isinstance(n, KeyNote))
        return self.notes if self.caption_notes == "none" else ()

    @property
    def _key_notes(self) -> tuple[str, ...]:
        return tuple(n for n in self.notes if isinstance(n, KeyNote))

    def to_frame(self) -> pd.DataFrame:
        """The displayed cells as a tidy frame: one row per cell, flags and markers as columns.

        Columns: ``group``, ``row`` (label), ``row_key``, ``column_group``, ``column``
        (label), ``column_key``, ``text`` (as displayed), ``value`` (unrounded mean, NaN
        when missing), ``best``, ``second``, ``markers``, ``spread`` and ``delta`` (an
        ablation's Δ). The texts are the model's, as CSV has them: plain ASCII numbers
        (``-0.034``), which ``float`` reads. A cell spanning several columns (MAP in a K
        breakdown) is one row, under its first column.

        Examples
        --------
        >>> model = TableModel("main", "t", "Table 1", ("System",), (Column("AP", "MAP"),),
        ...     (RowGroup(None, (Row("a", "BM25", (Cell(0.5, "0.500", best=True),)),)),),
        ...     "Caption.", "tab:t")
        >>> model.to_frame()[["row", "column", "text", "best"]].values.tolist()
        [['BM25', 'MAP', '0.500', True]]
        """
        import pandas as pd

        heads: list[str | None] = []
        for head in self.column_groups:
            heads += [head.label] * head.span
        heads += [None] * (len(self.columns) - len(heads))
        records = []
        for group in self.groups:
            for row in group.rows:
                j = 0
                for cell in row.cells:
                    column = self.columns[min(j, len(self.columns) - 1)]
                    j += cell.span
                    if cell == BLANK:
                        continue
                    whole = cell.span > 1 or column.key == NO_CUTOFF
                    records.append(
                        {
                            "group": group.label,
                            "row": row.label,
                            "row_key": row.key,
                            "column_group": heads[min(j, len(heads) - 1)],
                            "column": NO_CUTOFF if whole else column.label,
                            "column_key": None if whole else column.key,
                            "text": cell.text,
                            "value": float("nan") if cell.value is None else cell.value,
                            "best": cell.best,
                            "second": cell.second,
                            "markers": cell.markers,
                            "spread": cell.spread,
                            "delta": cell.delta,
                        }
                    )
        return pd.DataFrame.from_records(records, columns=FRAME_COLUMNS)

    def _repr_html_(self) -> str:
        """How a notebook shows the table: the accessible HTML table with its caption
        (:func:`irtables.render.table_html`)."""
        return shown(self, TABLE, "text/html")

    def _repr_markdown_(self) -> str:
        """The Markdown table, without the generated-by comment
        (:func:`irtables.render.table_markdown`)."""
        return shown(self, TABLE, "text/markdown")


FRAME_COLUMNS = (
    "group", "row", "row_key", "column_group", "column", "column_key", "text", "value",
    "best", "second", "markers", "spread", "delta",
)  # fmt: skip
