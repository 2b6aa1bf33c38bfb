"""Helpers shared by the configured layouts: rows of cells from columns."""

from __future__ import annotations

from collections.abc import Sequence

from irtables.tables.model import Cell


def transpose(columns: Sequence[Sequence[Cell]]) -> list[tuple[Cell, ...]]:
    """Rows of cells from columns of cells."""
    return [tuple(row) for row in zip(*columns, strict=True)]
