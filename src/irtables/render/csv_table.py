"""The CSV format: the displayed numbers for a program to read, one row per table row."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from irtables.tables.model import Row, RowGroup, TableModel


def escape(text: str) -> str:
    """CSV quotes a field itself (:mod:`csv`): a user string is written as it is."""
    return text


def typeset(text: str) -> str:
    """CSV keeps the model's plain ASCII numbers (``-0.034``)."""
    return text


def render_table(model: TableModel, dirs: Sequence[str | Path], _: object) -> str:
    """The displayed numbers; markers and an ablation's Δ in columns of their own, and
    which columns each row has bold (``best``) and underlined (``second_best``), then the
    ids of the labels (``Dataset id``, ``System id``). Numbers are the model's, in plain
    ASCII (``-0.034``), for a program to read."""
    from irtables.base.texttable import csv_text
    from irtables.render.flat import flat_cells, flat_headers, has_spans
    from irtables.tables.numbers import MISSING

    del dirs  # CSV has no template
    grouped = len(model.stub) == 1 and any(g.label for g in model.groups)
    spans = has_spans(model)
    labels = flat_headers(
        model, [c.label for c in model.columns], [g.label for g in model.column_groups], spans
    )
    rows: list[tuple[RowGroup, Row, list[str], list[str], list[str]]] = []
    for group in model.groups:
        for row in group.rows:
            shown = ["" if c.text == MISSING else typeset(c.text) for c in row.cells]
            marks = [c.markers for c in row.cells]
            deltas = [typeset(c.delta) for c in row.cells]
            rows.append(
                (
                    group,
                    row,
                    flat_cells(model, row.cells, shown, "", spans),
                    flat_cells(model, row.cells, marks, "", spans),
                    flat_cells(model, row.cells, deltas, "", spans),
                )
            )
    flags = _flag_columns(model, labels, spans)
    marked = [any(r[3][j] for r in rows) for j in range(len(labels))]
    delta = [any(r[4][j] for r in rows) for j in range(len(labels))]
    header = [*(["Group"] if grouped else []), *model.stub]
    for j, label in enumerate(labels):
        header += [label, *([f"{label} markers"] if marked[j] else [])]
        header += [f"{label} Δ"] if delta[j] else []
    header += [name for name, rows_flags in flags.items() if any(rows_flags)]
    if model.description_header:
        header.append(model.description_header)
    # the ids of the group's and the row's labels (a dataset's, a system's), after them all
    group_ids = (grouped or len(model.stub) > 1) and any(g.key for g in model.groups)
    header += [f"{'Group' if grouped else model.stub[0]} id"] if group_ids else []
    header.append(f"{model.stub[-1]} id")  # the row's id: a system's, or a parameter's
    lines: list[list[str]] = []
    for i, (group, row, shown, marks, deltas) in enumerate(rows):
        stub = [group.label or "", row.label][-len(model.stub) - int(grouped) :]
        values: list[str] = []
        for j, text in enumerate(shown):
            values += [text, *([marks[j]] if marked[j] else []), *([deltas[j]] if delta[j] else [])]
        values += [row_flags[i] for row_flags in flags.values() if any(row_flags)]
        line = [*stub, *values]
        if model.description_header:
            line.append(row.description or "")
        line += [group.key or ""] if group_ids else []
        line.append(row.key)
        lines.append(line)
    return csv_text(header, lines)  # no comment line: pandas.read_csv reads it as it is


def _flag_columns(model: TableModel, labels: list[str], spans: bool) -> dict[str, list[str]]:
    """Per row, the columns (as headed in the CSV) whose value is bold (``best``) and
    underlined (``second_best``), joined by ``; ``."""
    from irtables.render.flat import flat_cells

    flags: dict[str, list[str]] = {"best": [], "second_best": []}
    for group in model.groups:
        for row in group.rows:
            best = flat_cells(model, row.cells, [c.best for c in row.cells], False, spans)
            second = flat_cells(model, row.cells, [c.second for c in row.cells], False, spans)
            flags["best"].append("; ".join(h for h, b in zip(labels, best, strict=True) if b))
            flags["second_best"].append(
                "; ".join(h for h, b in zip(labels, second, strict=True) if b)
            )
    return flags
