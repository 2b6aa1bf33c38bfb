"""The data model: per-query results (:class:`ResultSet`) and the inputs of an evaluation
(:class:`Run`, :class:`Qrels`). Every other layer builds on these; they import none of it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from irtables.base.lazy import lazy_exports

if TYPE_CHECKING:
    from irtables.model.factor import Factor, combine_codes, distinct_keys
    from irtables.model.layout import Layout
    from irtables.model.policy import MISSING_POLICIES, MissingPolicy
    from irtables.model.results import COLUMNS, KEY, Aligned, ResultSet
    from irtables.model.runs import Qrels, Run, qrels_from_frame, run_from_frame

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "irtables.model.factor": ("Factor", "combine_codes", "distinct_keys"),
        "irtables.model.layout": ("Layout",),
        "irtables.model.policy": ("MISSING_POLICIES", "MissingPolicy"),
        "irtables.model.results": (
            "COLUMNS",
            "KEY",
            "Aligned",
            "ResultSet",
        ),
        "irtables.model.runs": (
            "Qrels",
            "Run",
            "qrels_from_frame",
            "run_from_frame",
        ),
    },
)

__all__ = [
    "COLUMNS",
    "KEY",
    "MISSING_POLICIES",
    "Aligned",
    "Factor",
    "Layout",
    "MissingPolicy",
    "Qrels",
    "ResultSet",
    "Run",
    "combine_codes",
    "distinct_keys",
    "qrels_from_frame",
    "run_from_frame",
]
