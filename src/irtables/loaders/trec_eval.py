"""``trec_eval -q`` output and ``ir_measures -q`` output: three tab-separated fields.

trec_eval writes ``measure<TAB>query<TAB>value`` (the measure name padded with spaces),
a ``runid`` line, ``num_q``/``relstring`` lines and one ``all`` row per measure with the
mean; ir_measures writes ``query<TAB>measure<TAB>value``. ``all`` rows become the
file's summary; ``runid``, ``num_q`` and ``relstring`` lines are not measures, but the
``num_q all`` line says how many queries the means average over (with ``trec_eval -c``,
every judged query, including those the run lacks).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from irtables.base.numbers import parse_number
from irtables.errors import InputError
from irtables.loaders.base import Parsed, check_not_empty
from irtables.loaders.delimited import DICT_STRING, fast_read, field_count_message, records
from irtables.measures import TREC_EVAL_NON_MEASURES

SUMMARY_QUERY = "all"
TREC_EVAL_FIELDS = ("measure", "query", "value")
IR_MEASURES_FIELDS = ("query", "measure", "value")


def read_trec_eval(data: bytes, path: str) -> Parsed:
    """Read ``trec_eval -q`` output.

    Examples
    --------
    >>> text = b"runid   \\tall\\tbm25\\nP_10    \\t301\\t0.5000\\nP_10    \\tall\\t0.5000\\n"
    >>> p = read_trec_eval(text, "bm25.txt")
    >>> p.runid, p.frame.astype(str).values.tolist(), p.line(0)
    ('bm25', [['301', 'P_10', '0.5']], 2)
    >>> p.summary[["metric", "value"]].values.tolist()
    [['P_10', 0.5]]
    >>> read_trec_eval(b"P_10\\t301\\t0.5\\nnum_q\\tall\\t2\\nP_10\\tall\\t0.25\\n", "c.txt").num_q
    2
    """
    return _read_three(data, path, TREC_EVAL_FIELDS)


def read_ir_measures(data: bytes, path: str) -> Parsed:
    """Read ``ir_measures -q`` output (headerless ``query<TAB>measure<TAB>value``).

    Examples
    --------
    >>> p = read_ir_measures(b"0301\\tAP(rel=2)\\t0.25\\n", "bm25.tsv")
    >>> p.as_frame().astype(str).values.tolist()
    [['0301', 'AP(rel=2)', '0.25']]
    """
    return _read_three(data, path, IR_MEASURES_FIELDS)


def _read_three(data: bytes, path: str, fields: tuple[str, ...]) -> Parsed:
    check_not_empty(data, path, "lines of " + "<TAB>".join(fields))
    types = {"measure": DICT_STRING, "query": DICT_STRING, "value": pa.string()}
    table = fast_read(data, names=fields, skip_rows=0, delimiter="\t", quoting=False, types=types)
    if table is None:
        return _slow(data, path, fields)
    measure = pc.utf8_trim_whitespace(table.column("measure").cast(pa.string()))
    query = table.column("query").cast(pa.string())
    values = table.column("value")
    is_measure = pc.invert(pc.is_in(measure, pa.array(sorted(TREC_EVAL_NON_MEASURES))))
    is_summary = pc.equal(query, SUMMARY_QUERY)
    keep = pc.and_(is_measure, pc.invert(is_summary))
    summary_mask = pc.and_(is_measure, is_summary)
    try:
        numbers = pc.cast(pc.filter(values, keep), pa.float64())
        summary_numbers = pc.cast(pc.filter(values, summary_mask), pa.float64())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return _slow(data, path, fields)
    rows = np.arange(table.num_rows, dtype=np.int64) + 1
    frame = pd.DataFrame(
        {
            "query": pc.filter(query, keep).dictionary_encode().to_pandas(),
            "metric": pc.filter(measure, keep).dictionary_encode().to_pandas(),
            "value": numbers.to_numpy(),
        }
    )
    summary = pd.DataFrame(
        {
            "metric": pc.filter(measure, summary_mask).to_pylist(),
            "value": summary_numbers.to_numpy(),
            "line": rows[summary_mask.to_numpy(zero_copy_only=False)],
        }
    )
    lines = rows[keep.to_numpy(zero_copy_only=False)]
    return Parsed(
        frame=frame,
        lines=lines,
        summary=summary,
        runid=_runid(measure, values),
        num_q=_num_q(measure, query, values),
    )


def _runid(measure: pa.ChunkedArray, values: pa.ChunkedArray) -> str | None:
    found = pc.filter(values, pc.equal(measure, "runid"))
    return str(found[0].as_py()) if len(found) else None


def _num_q(measure: pa.ChunkedArray, query: pa.ChunkedArray, values: pa.ChunkedArray) -> int | None:
    """The ``num_q all`` line's count: the queries the ``all`` rows average over."""
    at = pc.and_(pc.equal(measure, "num_q"), pc.equal(query, SUMMARY_QUERY))
    found = pc.filter(values, at)
    return _count(str(found[0].as_py())) if len(found) else None


def _count(text: str) -> int | None:
    """A whole number of queries, or None for anything else (the line is then not used)."""
    text = text.strip()
    return int(text) if text.isdigit() else None


def _slow(data: bytes, path: str, fields: tuple[str, ...]) -> Parsed:
    """Exact line-by-line parse; raises with the line of the first problem."""
    rows: dict[str, list[object]] = {"query": [], "metric": [], "value": []}
    summary: dict[str, list[object]] = {"metric": [], "value": [], "line": []}
    lines: list[int] = []
    runid, num_q = None, None
    m_at, q_at = fields.index("measure"), fields.index("query")
    for line, parts in records(data, path, delimiter="\t", quoting=False):
        if len(parts) != 3:
            raise InputError(field_count_message(fields, len(parts), "\t"), path=path, line=line)
        measure, query, text = parts[m_at].strip(), parts[q_at], parts[2]
        if measure in TREC_EVAL_NON_MEASURES:
            runid = text if measure == "runid" and runid is None else runid
            if measure == "num_q" and query == SUMMARY_QUERY and num_q is None:
                num_q = _count(text)
            continue
        value = _number(text, path, line)
        if query == SUMMARY_QUERY:
            summary["metric"].append(measure)
            summary["value"].append(value)
            summary["line"].append(line)
        else:
            rows["query"].append(query)
            rows["metric"].append(measure)
            rows["value"].append(value)
            lines.append(line)
    return Parsed(
        frame=pd.DataFrame(rows).astype({"value": "float64"}),
        lines=np.array(lines, dtype=np.int64),
        summary=pd.DataFrame(summary).astype({"value": "float64", "line": "int64"}),
        runid=runid,
        num_q=num_q,
    )


def _number(text: str, path: str, line: int) -> float:
    return parse_number(text, path, line, "a number as value (third field)")
