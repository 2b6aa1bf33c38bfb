"""The compute function of each built-in measure family, named by its record.

Each takes a :class:`~irtables.evaluator.ranking.Judged` view (a ranking at the
measure's relevance threshold) and the :class:`~irtables.measures.Measure`, and returns
one value per query of the ranking. :attr:`irtables.measures.Family.compute` refers to
them by name, so that the records stay importable without numpy.
"""

from __future__ import annotations

import numpy as np

from irtables.errors import InputError
from irtables.evaluator import ranking as r
from irtables.evaluator.ranking import FloatArray, Judged
from irtables.measures import FAMILIES, Measure


def _k(m: Measure) -> int:
    if m.k is None:
        raise InputError(f"measure {m.name} needs a cutoff")
    return m.k


def _param(m: Measure) -> float:
    value = FAMILIES[m.family].param_default if m.param is None else m.param
    return 0.0 if value is None else value


def precision_at(j: Judged, m: Measure) -> FloatArray:
    """P@K."""
    return r.precision(j, _k(m))


def recall_at(j: Judged, m: Measure) -> FloatArray:
    """R@K."""
    return r.recall(j, _k(m))


def success_at(j: Judged, m: Measure) -> FloatArray:
    """Success@K."""
    return r.success(j, _k(m))


def average_precision_at(j: Judged, m: Measure) -> FloatArray:
    """AP, AP@K."""
    return r.average_precision(j, m.k)


def reciprocal_rank_at(j: Judged, m: Measure) -> FloatArray:
    """RR, RR@K."""
    return r.reciprocal_rank(j, m.k)


def r_precision_of(j: Judged, m: Measure) -> FloatArray:
    """R-Prec."""
    return r.r_precision(j)


def bpref_of(j: Judged, m: Measure) -> FloatArray:
    """bpref."""
    return r.bpref(j)


def ndcg_linear(j: Judged, m: Measure) -> FloatArray:
    """nDCG, nDCG@K; a level stated in the name (``nDCG(rel=2)``) drops lower grades."""
    return r.ndcg(j, m.k, level=m.rel)


def ndcg_exponential(j: Judged, m: Measure) -> FloatArray:
    """nDCG with gain ``2**grade - 1``; a stated level drops lower grades."""
    return r.ndcg(j, m.k, exponential=True, level=m.rel)


def err_at(j: Judged, m: Measure) -> FloatArray:
    """ERR@K, the highest grade of the qrels as the top of the scale."""
    return r.err(j, _k(m), max(j.index.top_grade, 1))


def rbp_of(j: Judged, m: Measure) -> FloatArray:
    """RBP with persistence p (the name's, every digit of it)."""
    return r.rbp(j, _param(m))


def interpolated_precision_at(j: Judged, m: Measure) -> FloatArray:
    """IPrec at the recall level of the name."""
    return r.interpolated_precision(j, (_param(m),))[0]


def eleven_point_of(j: Judged, m: Measure) -> FloatArray:
    """11-point interpolated average precision."""
    return r.eleven_point(j)


def judged_at(j: Judged, m: Measure) -> FloatArray:
    """Judged@K."""
    return r.judged(j, _k(m))


def num_ret(j: Judged, m: Measure) -> FloatArray:
    """Documents retrieved."""
    return j.ranking.lengths.astype(np.float64)


def num_rel(j: Judged, m: Measure) -> FloatArray:
    """Relevant documents in the qrels."""
    return j.num_rel.astype(np.float64)


def num_rel_ret(j: Judged, m: Measure) -> FloatArray:
    """Relevant documents retrieved."""
    return j.num_rel_ret.astype(np.float64)
