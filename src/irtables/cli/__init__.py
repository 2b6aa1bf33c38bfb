"""The command line: one short function per command; the only package that exits.

Errors of irtables (:class:`~irtables.errors.IrtablesError`) become a one-line message on
standard error and exit status 2; warnings are printed as ``Warning: ...`` lines.
"""

from __future__ import annotations

from irtables.cli import (  # noqa: F401  (registers commands)
    cache,
    checks,
    evaluate,
    numbers,
    reproduce,
    supplement,
    tables,
)
from irtables.cli.common import handle_errors, main

__all__ = ["handle_errors", "main"]
