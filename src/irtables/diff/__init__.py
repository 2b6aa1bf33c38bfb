"""What changed between two studies (``irtables diff``): the comparison, its reports, and
``REV:path`` operands read from git."""

from __future__ import annotations

from typing import TYPE_CHECKING

from irtables.base.lazy import lazy_exports

if TYPE_CHECKING:
    from irtables.diff.compute import (
        CellChange,
        DiffReport,
        MeanChange,
        Presence,
        QueryChange,
        diff,
    )
    from irtables.diff.report import format_diff

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "irtables.diff.compute": (
            "CellChange",
            "DiffReport",
            "MeanChange",
            "Presence",
            "QueryChange",
            "diff",
        ),
        "irtables.diff.report": ("format_diff",),
    },
)

__all__ = [
    "CellChange",
    "DiffReport",
    "MeanChange",
    "Presence",
    "QueryChange",
    "diff",
    "format_diff",
]
