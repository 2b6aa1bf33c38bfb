"""PyTerrier per-query results: ``pt.Experiment(..., perquery=True)`` saved as CSV.

The columns are ``name, qid, measure, value`` (maybe after a pandas index column);
``name`` is the system.
"""

from __future__ import annotations

from irtables.loaders.base import Parsed, check_not_empty
from irtables.loaders.tabular import read_tidy_text

EXPECTED = "a PyTerrier per-query CSV with the header name,qid,measure,value"


def read_pyterrier(data: bytes, path: str) -> Parsed:
    """Read a PyTerrier per-query CSV.

    Examples
    --------
    >>> p = read_pyterrier(b"name,qid,measure,value\\nBM25,1,nDCG@10,0.5\\n", "x.csv")
    >>> p.as_frame().astype(str).values.tolist()
    [['BM25', '1', 'nDCG@10', '0.5']]
    """
    check_not_empty(data, path, EXPECTED)
    return read_tidy_text(data, path, require_system=True)
