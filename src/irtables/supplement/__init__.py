"""Supplementary material in one command (``irtables supplement``) and its staleness check.

Modules: ``analysis`` (wins/ties/losses, largest changes), ``figures`` (matplotlib, bytes),
``methods`` (the methods-text model), ``methods_text`` (its sentences, written once),
``prose`` (their layout as LaTeX or Markdown), ``bibliography`` (references as data), ``report``
(formatted rows), ``build`` (every output as bytes), ``pdf`` (pdflatex), ``manifest``,
``study`` (config and input files), ``check`` and ``run`` (the I/O).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from irtables.base.lazy import lazy_exports

if TYPE_CHECKING:
    from irtables.supplement.check import StaleItem, check_supplement
    from irtables.supplement.run import SupplementRun, make_supplement

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "irtables.supplement.check": (
            "StaleItem",
            "check_supplement",
        ),
        "irtables.supplement.run": (
            "SupplementRun",
            "make_supplement",
        ),
    },
)

__all__ = ["StaleItem", "SupplementRun", "check_supplement", "make_supplement"]
