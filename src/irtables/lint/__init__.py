"""Numbers that cannot all be true (``irtables lint``): the checks and the report."""

from __future__ import annotations

from irtables.lint.checks import CHECKS
from irtables.lint.report import LintReport, Violation, lint

__all__ = ["CHECKS", "LintReport", "Violation", "lint"]
