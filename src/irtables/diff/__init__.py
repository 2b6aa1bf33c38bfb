"""What changed between two studies (``irtables diff``): the comparison, its reports, and
``REV:path`` operands read from git."""

from __future__ import annotations

from irtables.diff.compute import CellChange, DiffReport, MeanChange, Presence, QueryChange, diff
from irtables.diff.report import format_diff

__all__ = [
    "CellChange",
    "DiffReport",
    "MeanChange",
    "Presence",
    "QueryChange",
    "diff",
    "format_diff",
]
