"""Choices shared by the configured layouts: which datasets and systems, the title; rows
of cells from columns."""

from __future__ import annotations

from collections.abc import Sequence

from irtables.config import Config
from irtables.config.tables import TableSpec
from irtables.errors import IrtablesError
from irtables.tables.layouts import Means
from irtables.tables.model import Cell


def chosen_datasets(spec: TableSpec, m: Means, where: str) -> list[str]:
    """The datasets a table names (in its order), else every dataset; unknown ids are errors."""
    if not spec.datasets:
        return list(m.datasets)
    for d in spec.dataset_ids:
        if d not in m.datasets:
            raise IrtablesError(
                f"{where}.datasets: unknown dataset {d!r} (known: {', '.join(m.datasets)})"
            )
    return list(spec.dataset_ids)


def chosen_systems(
    spec: TableSpec, m: Means, datasets: Sequence[str], config: Config
) -> tuple[str, ...]:
    """The systems a table names (in its order), else those of ``datasets`` in display order."""
    present = tuple(dict.fromkeys(s for d in datasets for s in m.systems.get(d, ())))
    if not spec.systems:
        preferred = [s.id for s in config.systems]
        first = [p for p in preferred if p in present]
        return tuple(first + [p for p in present if p not in first])
    for s in spec.systems:
        if s not in present:
            raise IrtablesError(
                f"tables.{spec.name}.systems: system {s!r} has no results on "
                f"{', '.join(datasets)} (known: {', '.join(present)})"
            )
    return spec.systems


def table_title(spec: TableSpec) -> str:
    """The configured title, else ``Table 1`` for the main table, else ``""``: the table
    gets its number among the study's tables (:func:`~irtables.tables.build.number_tables`)."""
    if spec.title:
        return spec.title
    return "Table 1" if spec.name == "main" else ""


def transpose(columns: Sequence[Sequence[Cell]]) -> list[tuple[Cell, ...]]:
    """Rows of cells from columns of cells."""
    return [tuple(row) for row in zip(*columns, strict=True)]
