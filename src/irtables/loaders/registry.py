"""The registry of input formats and :func:`load_file`, which reads one file."""

from __future__ import annotations

import os

from irtables.errors import UnknownNameError, unknown_name_message
from irtables.loaders.base import LoadedFile, Loader

LOADERS: dict[str, Loader] = {
    loader.name: loader
    for loader in (
        Loader(
            "trec_eval",
            "trec_eval -q output: measure<TAB>query<TAB>value, with runid and 'all' rows",
            ("txt", "eval", "trec"),
            "irtables.loaders.trec_eval:read_trec_eval",
        ),
        Loader(
            "ir_measures",
            "ir_measures -q output: query<TAB>measure<TAB>value, no header",
            ("tsv", "txt"),
            "irtables.loaders.trec_eval:read_ir_measures",
        ),
        Loader(
            "tidy",
            "one row per (query, metric): CSV, TSV, Parquet or JSON Lines with columns "
            "query, metric, value (also qid, query_id, measure) and optional system, dataset",
            ("csv", "tsv", "parquet", "pq", "jsonl", "ndjson"),
            "irtables.loaders.tabular:read_tidy",
        ),
        Loader(
            "wide",
            "a query column and one column per metric: CSV, TSV or Parquet",
            ("csv", "tsv", "parquet"),
            "irtables.loaders.tabular:read_wide",
        ),
        Loader(
            "json",
            "JSON {query: {metric: value}} as dumped from pytrec_eval or ir_measures",
            ("json",),
            "irtables.loaders.json_dict:read_json_dict",
        ),
        Loader(
            "pyterrier",
            "PyTerrier per-query CSV: name,qid,measure,value (name is the system)",
            ("csv",),
            "irtables.loaders.pyterrier:read_pyterrier",
        ),
    )
}


def get_loader(name: str) -> Loader:
    """The loader called ``name``; :class:`UnknownNameError` with suggestions otherwise.

    Examples
    --------
    >>> get_loader("trec_eval").name
    'trec_eval'
    """
    try:
        return LOADERS[name]
    except KeyError:
        raise UnknownNameError(unknown_name_message("input format", name, LOADERS)) from None


def load_file(
    path: str | os.PathLike[str], *, input_format: str | None = None, bounds: bool = True
) -> LoadedFile:
    """Read one per-query file (plain or gzip-compressed) into a tidy frame.

    Parameters
    ----------
    path
        The file.
    input_format
        A :data:`LOADERS` key; detected from the extension and the content if None.
    bounds
        Refuse values outside a measure's range (false: keep them, for ``lint``).

    Returns
    -------
    LoadedFile
        Per-query rows with canonical metric names, and the file's own means.

    Raises
    ------
    InputError
        ``path:line: what was expected`` for anything the file gets wrong.
    """
    from irtables.loaders.detect import detect_bytes
    from irtables.loaders.normalize import finish
    from irtables.loaders.source import read_bytes

    name = os.fspath(path)
    loader = get_loader(input_format) if input_format is not None else None
    data = read_bytes(name)
    fmt = loader.name if loader is not None else detect_bytes(data, name)
    return finish(LOADERS[fmt].read(data, name), name, fmt, bounds=bounds)
