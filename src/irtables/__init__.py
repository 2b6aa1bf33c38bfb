"""irtables: paper tables, significance tests and supplementary material from IR results.

:func:`load_study` reads a study (a results folder and its ``irtables.toml``) as every
command sees it; ``study.table("main")`` and ``study.compare()`` return what the commands
write. The steps one by one: :func:`load_results` reads per-query
results into a :class:`ResultSet` (or :func:`evaluate` computes them from runs and qrels),
:func:`build_table` makes a table model and :func:`render` writes it as LaTeX, Markdown or
CSV.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from irtables.base.lazy import lazy_exports

# Eager, and light: the subpackage irtables.render would otherwise shadow the function.
from irtables.render import render

if TYPE_CHECKING:
    from irtables._version import __version__
    from irtables.config import Config, load_config
    from irtables.errors import IrtablesError
    from irtables.evaluator import evaluate
    from irtables.loaders import load_results
    from irtables.measures import Measure, parse_measure
    from irtables.model import Aligned, ResultSet
    from irtables.study import Study, load_study
    from irtables.tables import build_table

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "irtables._version": ("__version__",),
        "irtables.config": ("Config", "load_config"),
        "irtables.errors": ("IrtablesError",),
        "irtables.evaluator": ("evaluate",),
        "irtables.loaders": ("load_results",),
        "irtables.measures": ("Measure", "parse_measure"),
        "irtables.model": ("Aligned", "ResultSet"),
        "irtables.study": ("Study", "load_study"),
        "irtables.tables": ("build_table",),
    },
)

__all__ = [
    "Aligned",
    "Config",
    "IrtablesError",
    "Measure",
    "ResultSet",
    "Study",
    "__version__",
    "build_table",
    "evaluate",
    "load_config",
    "load_results",
    "load_study",
    "parse_measure",
    "render",
]
