"""Evaluate TREC runs against qrels with trec_eval 9.0.8 semantics.

``evaluate`` returns the same :class:`~irtables.model.ResultSet` the tables use. Files
are read by :func:`irtables.loaders.trec_run.read_run` and
:func:`irtables.loaders.qrels.read_qrels` (``evaluate`` also accepts paths directly).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from irtables.base.lazy import lazy_exports

if TYPE_CHECKING:
    from irtables.evaluator.api import SUPPORTED_FAMILIES, evaluate, means
    from irtables.model.runs import Qrels, Run, qrels_from_frame, run_from_frame

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "irtables.evaluator.api": (
            "SUPPORTED_FAMILIES",
            "evaluate",
            "means",
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
    "SUPPORTED_FAMILIES",
    "Qrels",
    "Run",
    "evaluate",
    "means",
    "qrels_from_frame",
    "run_from_frame",
]
