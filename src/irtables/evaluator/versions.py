"""The two trec_eval semantics irtables reproduces: 9.0.8 (the default) and 10.

They differ where a reviewer comparing numbers would notice:

- **scores**: 9.0.8 holds a run's score as a C ``float`` (``trec_format.h``: ``float
  sim``), so scores equal in single precision are ties, broken by document id
  descending; 10 holds doubles;
- **interpolated precision** (``iprec_at_recall``, ``11pt_avg``): recall level p becomes the
  relevant-document count ``(long)(p * R + 0.9)`` in 9.0.8 and ``lround(p * R)`` in 10;
- **-c per-query lines**: with ``-c``, 10 prints a per-query line for a judged query the
  run lacks; 9.0.8 only counts it in ``all``.

Both versions print the tag of the run's last line as ``runid``, and ``num_rel``'s ``all``
value under ``-c`` counts grades >= 1 whatever ``-l`` says. Without ``-c``, 10 refuses a
run that lacks a judged query (exit 4, "not found in qrels"); irtables averages over the
queries the run has under both, as 9.0.8 does, and warns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from irtables.errors import UnknownNameError, unknown_name_message

if TYPE_CHECKING:  # the names are light: the command line's choices come from here
    import numpy as np
    import numpy.typing as npt

TrecEvalVersion = Literal["9.0.8", "10"]
TREC_EVAL_VERSIONS: tuple[TrecEvalVersion, ...] = ("9.0.8", "10")
DEFAULT_TREC_EVAL: TrecEvalVersion = "9.0.8"


def trec_eval_version(value: str) -> TrecEvalVersion:
    """Check a version name (``"9.0.8"`` or ``"10"``; ``"10.0"`` is accepted for 10).

    Examples
    --------
    >>> trec_eval_version("10.0")
    '10'
    """
    text = str(value).strip()
    if text in ("10.0", "10.0.0"):
        text = "10"
    if text not in TREC_EVAL_VERSIONS:
        raise UnknownNameError(unknown_name_message("trec_eval version", text, TREC_EVAL_VERSIONS))
    return text


def ranking_scores(
    score: npt.NDArray[np.float64], version: TrecEvalVersion
) -> npt.NDArray[np.float32] | npt.NDArray[np.float64]:
    """Scores as the version holds them: float32 for 9.0.8 (C ``double`` to ``float``).

    A score beyond single precision's range becomes infinite, as the C conversion does.

    Examples
    --------
    >>> import numpy as np
    >>> s = np.array([0.5312761631712271, 0.5312761561400384])
    >>> bool(ranking_scores(s, "9.0.8")[0] == ranking_scores(s, "9.0.8")[1])
    True
    >>> bool(ranking_scores(s, "10")[0] == ranking_scores(s, "10")[1])
    False
    """
    import numpy as np

    if version == "10":
        return score
    with np.errstate(over="ignore"):
        return score.astype(np.float32)


def recall_cutoffs(
    level: float, num_rel: npt.NDArray[np.int64], version: TrecEvalVersion
) -> npt.NDArray[np.int64]:
    """The relevant-document count a recall level stands for (m_iprec_at_recall.c).

    Examples
    --------
    >>> import numpy as np
    >>> r = np.array([5, 15])
    >>> recall_cutoffs(0.5, r, "9.0.8").tolist(), recall_cutoffs(0.5, r, "10").tolist()
    ([3, 8], [3, 8])
    >>> recall_cutoffs(0.1, r, "9.0.8").tolist(), recall_cutoffs(0.1, r, "10").tolist()
    ([1, 2], [1, 2])
    >>> one = np.array([1])
    >>> recall_cutoffs(0.3, one, "9.0.8").tolist(), recall_cutoffs(0.3, one, "10").tolist()
    ([1], [0])
    """
    import numpy as np

    x = level * num_rel.astype(np.float64)
    if version == "9.0.8":
        return np.floor(x + 0.9).astype(np.int64)
    down = np.floor(x)  # lround: halves away from zero; x - floor(x) is exact here
    return np.where(x - down >= 0.5, down + 1.0, down).astype(np.int64)
