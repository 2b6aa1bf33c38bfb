"""Read qrels files (``qid iter docid rel``), compressed or not, and tidy tables.

Columns are separated by any whitespace; ``#`` comment lines and blank lines are skipped
(trec_eval refuses both). The relevance grade must be an integer; negative grades are
kept (trec_eval: judged "not in pool").
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from irtables.base.numbers import integers_from_strings, parse_integer
from irtables.errors import InputError
from irtables.loaders.source import COMPRESSED_EXTENSIONS
from irtables.loaders.trec_run import (
    _TABULAR_SUFFIXES,
    _one_chunk,
    _read_delimited,
    _read_parquet,
    read_columns,
)
from irtables.model.runs import Qrels, qrels_from_frame

_QRELS_EXPECTED = "4 columns (qid iter docid rel)"
_GRADE = "an integer relevance grade in column 4"


def read_qrels(path: str | Path) -> Qrels:
    """Read a qrels file: TREC format, or tidy ``.tsv``/``.csv``/``.parquet``.

    Parameters
    ----------
    path
        The qrels file, possibly compressed (gzip, bzip2, xz, Zstandard).

    Returns
    -------
    Qrels
        Query ids, document ids and integer grades, in file order.

    Raises
    ------
    InputError
        A malformed line, with the file and line number.

    Examples
    --------
    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "qrels.txt"
    >>> _ = p.write_text("# judged\\n1 0 d1 2\\n1 0 d2 0\\n")
    >>> qrels = read_qrels(p)
    >>> qrels.grade.tolist(), qrels.queries
    ([2, 0], ('1',))
    """
    p = Path(path)
    suffixes = [s.lower() for s in p.suffixes if s.lower()[1:] not in COMPRESSED_EXTENSIONS]
    last = suffixes[-1] if suffixes else ""
    if last == ".parquet":
        return qrels_from_frame(_read_parquet(p), source=str(p))
    if last in _TABULAR_SUFFIXES:
        return qrels_from_frame(_read_delimited(p, _TABULAR_SUFFIXES[last]), source=str(p))
    table, rows = read_columns(
        p,
        ncols=4,
        keep={0: pa.string(), 2: pa.string(), 3: pa.string()},
        expected=_QRELS_EXPECTED,
        check=_check_line,
    )

    def line_of(row: int) -> int:
        return int(rows[row]) if rows is not None else row + 1

    grade = integers_from_strings(table.column(2), str(p), line_of, _GRADE)
    return Qrels(
        qid=_one_chunk(table.column(0)),
        docid=_one_chunk(table.column(1)),
        grade=grade,
        source=str(p),
        rows=rows,
    )


def _check_line(ncols: int, fields: list[str]) -> str | None:
    if len(fields) > ncols:
        return f"expected {_QRELS_EXPECTED}, got {len(fields)}"
    try:
        parse_integer(fields[3], "", None, _GRADE)
    except InputError as e:
        return e.reason
    return None
