"""Numbers that cannot all be true (``irtables lint``): the checks and the report."""

from __future__ import annotations

from typing import TYPE_CHECKING

from irtables.base.lazy import lazy_exports

if TYPE_CHECKING:
    from irtables.lint.checks import CHECKS
    from irtables.lint.report import LintReport, Violation, lint

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "irtables.lint.checks": ("CHECKS",),
        "irtables.lint.report": (
            "LintReport",
            "Violation",
            "lint",
        ),
    },
)

__all__ = ["CHECKS", "LintReport", "Violation", "lint"]
