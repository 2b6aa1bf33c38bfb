"""A run's values as an Arrow table, and back: how results travel from a cluster's workers.

One row per query (``query_index``, ``retrieved``), one float64 column per metric
(``m0``, ``m1``, ...), and the rest (system, runid, metric names, relevant total, notes)
as JSON in the schema's metadata. Arrow keeps the numbers bit for bit, so values that
come back this way are the values computed (``tests/unit/test_dask.py`` compares bytes).
"""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa

from irtables.base.arrow import to_numpy
from irtables.evaluator.values import RunValues

_META = b"irtables.run_values"


def to_table(values: RunValues) -> pa.Table:
    """The values of a run as an Arrow table (see the module's text)."""
    columns: dict[str, pa.Array] = {
        "query_index": pa.array(values.query_index, type=pa.int64()),
        "retrieved": pa.array(values.retrieved, type=pa.bool_()),
    }
    for i in range(len(values.metrics)):
        columns[f"m{i}"] = pa.array(values.values[i], type=pa.float64())
    meta = {
        "system": values.system,
        "runid": values.runid,
        "metrics": list(values.metrics),
        "relevant_total": values.relevant_total,
        "notes": list(values.notes),
    }
    return pa.table(columns).replace_schema_metadata({_META: json.dumps(meta).encode()})


def from_table(table: pa.Table) -> RunValues:
    """The values of a run from :func:`to_table`'s table."""
    meta = json.loads((table.schema.metadata or {})[_META])
    metrics = tuple(str(m) for m in meta["metrics"])
    rows = table.num_rows
    matrix = np.zeros((len(metrics), rows), dtype=np.float64)
    for i in range(len(metrics)):
        matrix[i] = to_numpy(table.column(f"m{i}"))
    return RunValues(
        system=str(meta["system"]),
        runid=str(meta["runid"]),
        query_index=to_numpy(table.column("query_index")).astype(np.int64),
        retrieved=to_numpy(table.column("retrieved")).astype(np.bool_),
        metrics=metrics,
        values=matrix,
        relevant_total=int(meta["relevant_total"]),
        notes=tuple(str(n) for n in meta["notes"]),
    )


def to_ipc(values: RunValues) -> bytes:
    """The values of a run as an Arrow IPC stream."""
    table = to_table(values)
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    return bytes(sink.getvalue())


def from_ipc(data: bytes) -> RunValues:
    """The values of a run from :func:`to_ipc`'s stream."""
    with pa.ipc.open_stream(pa.BufferReader(data)) as reader:
        return from_table(reader.read_all())
