"""The two inputs of an evaluation: a run (ranked scores) and qrels (judgements).

Both are columnar: query and document ids are Arrow strings (never numbers: ``"0301"``
is not ``301``), scores float64 and grades int64. A run's query ids are dictionary-encoded
(int32 codes into the distinct ids), so that millions of rows never become Python strings.
Build them from frames with :func:`run_from_frame` and :func:`qrels_from_frame`, or read files with
:mod:`irtables.loaders.trec_run` and :mod:`irtables.loaders.qrels`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from irtables.base.arrow import to_numpy
from irtables.errors import InputError

if TYPE_CHECKING:  # frames are only one way in: reading files needs no pandas
    import pandas as pd

_QUERY_COLUMNS = ("query", "qid", "query_id")
_DOC_COLUMNS = ("docid", "doc_id", "docno", "doc")
_SCORE_COLUMNS = ("score", "sim")
_GRADE_COLUMNS = ("relevance", "rel", "grade", "judgement", "judgment", "label")


@dataclass(frozen=True, eq=False)
class Run:
    """A ranked run: one row per retrieved document.

    ``rows`` maps row ``i`` to its 1-based line in ``source`` (``None``: row ``i`` is on
    line ``i + first_line``, or the run did not come from a file); ``first_line`` is the
    line of the first row when the rows are consecutive lines after a header.
    """

    name: str
    qid: pa.DictionaryArray  # int32 codes into the distinct query ids
    docid: pa.Array | pa.ChunkedArray  # strings
    score: npt.NDArray[np.float64]
    source: str = "<frame>"
    runid: str = ""
    rows: npt.NDArray[np.int64] | None = field(default=None, repr=False)
    first_line: int = field(default=1, repr=False)

    def __len__(self) -> int:
        return len(self.score)

    def line_of(self, row: int) -> int | None:
        """The file line of a row, when the run came from a file."""
        if self.source == "<frame>":
            return None
        return int(self.rows[row]) if self.rows is not None else row + self.first_line

    @property
    def query_codes(self) -> npt.NDArray[np.int32]:
        """The query of each row, as a code into ``qid.dictionary`` (no copy)."""
        codes: npt.NDArray[np.int32] = to_numpy(self.qid.indices).astype(np.int32, copy=False)
        return codes


@dataclass(frozen=True, eq=False)
class Qrels:
    """Relevance judgements: one row per judged (query, document)."""

    qid: pa.Array
    docid: pa.Array
    grade: npt.NDArray[np.int64]
    source: str = "<frame>"
    rows: npt.NDArray[np.int64] | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.grade)

    @cached_property
    def queries(self) -> tuple[str, ...]:
        """Judged queries in byte-wise order (trec_eval's order)."""
        values = pc.unique(self.qid).to_pylist()
        return tuple(sorted(values, key=lambda s: s.encode()))


def run_from_frame(frame: pd.DataFrame, *, name: str, source: str = "<frame>") -> Run:
    """Build a :class:`Run` from a frame with query, docid and score columns.

    Column names are matched case-insensitively (``query``/``qid``/``query_id``,
    ``docid``/``doc_id``/``docno``, ``score``).

    Examples
    --------
    >>> import pandas as pd
    >>> run = run_from_frame(pd.DataFrame(
    ...     {"qid": ["1", "1"], "docid": ["a", "b"], "score": [2.0, 1.0]}), name="bm25")
    >>> len(run), run.name
    (2, 'bm25')
    """
    qcol = _find_column(frame, _QUERY_COLUMNS, source)
    dcol = _find_column(frame, _DOC_COLUMNS, source)
    scol = _find_column(frame, _SCORE_COLUMNS, source)
    from irtables.base.numbers import numbers_from_column

    what = f"a finite number in column {scol}"
    score = numbers_from_column(frame[scol], source, _line_of(source), what)
    return Run(
        name=name,
        qid=encode_queries(_strings(frame[qcol])),
        docid=_strings(frame[dcol]),
        score=score,
        source=source,
    )


def qrels_from_frame(frame: pd.DataFrame, *, source: str = "<frame>") -> Qrels:
    """Build :class:`Qrels` from a frame with query, docid and relevance columns.

    Examples
    --------
    >>> import pandas as pd
    >>> qrels = qrels_from_frame(pd.DataFrame(
    ...     {"query": ["1", "1"], "docid": ["a", "b"], "relevance": [1, 0]}))
    >>> qrels.queries
    ('1',)
    """
    qcol = _find_column(frame, _QUERY_COLUMNS, source)
    dcol = _find_column(frame, _DOC_COLUMNS, source)
    gcol = _find_column(frame, _GRADE_COLUMNS, source)
    grades = _integers(frame[gcol], source, f"an integer relevance grade in column {gcol}")
    return Qrels(
        qid=_strings(frame[qcol]),
        docid=_strings(frame[dcol]),
        grade=grades,
        source=source,
    )


def _line_of(source: str) -> Callable[[int], int | None]:
    """Rows of a frame read from a file with a header line: row ``i`` is line ``i + 2``."""
    return (lambda row: None) if source == "<frame>" else (lambda row: row + 2)


def _integers(column: pd.Series, source: str, what: str) -> npt.NDArray[np.int64]:
    """Strictly parsed int64 grades: ``1e30`` or ``1.5`` is an error, not a cast."""
    import pandas as pd

    from irtables.base.numbers import integers_from_strings, whole_numbers

    line_of = _line_of(source)
    if pd.api.types.is_integer_dtype(column):
        return column.to_numpy(dtype=np.int64)
    if pd.api.types.is_float_dtype(column):
        return whole_numbers(column.to_numpy(dtype=np.float64), source, line_of, what)
    return integers_from_strings(column.astype(str).tolist(), source, line_of, what)


def _find_column(frame: pd.DataFrame, names: tuple[str, ...], source: str) -> str:
    lowered = {str(c).lower(): str(c) for c in frame.columns}
    for name in names:
        if name in lowered:
            return lowered[name]
    raise InputError(
        f"expected a column named one of {', '.join(names)}; "
        f"got {', '.join(map(str, frame.columns))}",
        path=source,
    )


def _strings(series: pd.Series) -> pa.Array:
    values = series.astype(str).to_numpy(dtype=object)
    return pa.array(values, type=pa.string())


def encode_queries(qid: pa.Array | pa.ChunkedArray) -> pa.DictionaryArray:
    """Dictionary-encode query ids with int32 codes (one dictionary for all rows)."""
    if isinstance(qid, pa.ChunkedArray):
        qid = qid.combine_chunks() if qid.num_chunks != 1 else qid.chunk(0)
    if pa.types.is_dictionary(qid.type):
        qid = qid.cast(pa.string())
    return pc.dictionary_encode(qid)
