"""The registry of input formats and :func:`load_file`, which reads one file."""

from __future__ import annotations

import os

from irtables.errors import UnknownNameError, unknown_name_message
from irtables.loaders.base import LoadedFile, Loader
from irtables.loaders.detect import detect_bytes
from irtables.loaders.json_dict import read_json_dict
from irtables.loaders.normalize import finish
from irtables.loaders.pyterrier import read_pyterrier
from irtables.loaders.source import read_bytes
from irtables.loaders.tabular import read_tidy, read_wide
from irtables.loaders.trec_eval import read_ir_measures, read_trec_eval

LOADERS: dict[str, Loader] = {
    loader.name: loader
    for loader in (
        Loader(
            "trec_eval",
            "trec_eval -q output: measure<TAB>query<TAB>value, with runid and 'all' rows",
            ("txt", "eval", "trec"),
            read_trec_eval,
        ),
        Loader(
            "ir_measures",
            "ir_measures -q output: query<TAB>measure<TAB>value, no header",
            ("tsv", "txt"),
            read_ir_measures,
        ),
        Loader(
            "tidy",
            "one row per (query, metric): CSV, TSV, Parquet or JSON Lines with columns "
            "query, metric, value (also qid, query_id, measure) and optional system, dataset",
            ("csv", "tsv", "parquet", "pq", "jsonl", "ndjson"),
            read_tidy,
        ),
        Loader(
            "wide",
            "a query column and one column per metric: CSV, TSV or Parquet",
            ("csv", "tsv", "parquet"),
            read_wide,
        ),
        Loader(
            "json",
            "JSON {query: {metric: value}} as dumped from pytrec_eval or ir_measures",
            ("json",),
            read_json_dict,
        ),
        Loader(
            "pyterrier",
            "PyTerrier per-query CSV: name,qid,measure,value (name is the system)",
            ("csv",),
            read_pyterrier,
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


def load_file(path: str | os.PathLike[str], *, input_format: str | None = None) -> LoadedFile:
    """Read one per-query file (plain or gzip-compressed) into a tidy frame.

    Parameters
    ----------
    path
        The file.
    input_format
        A :data:`LOADERS` key; detected from the extension and the content if None.

    Returns
    -------
    LoadedFile
        Per-query rows with canonical metric names, and the file's own means.

    Raises
    ------
    InputError
        ``path:line: what was expected`` for anything the file gets wrong.
    """
    name = os.fspath(path)
    loader = get_loader(input_format) if input_format is not None else None
    data = read_bytes(name)
    fmt = loader.name if loader is not None else detect_bytes(data, name)
    return finish(LOADERS[fmt].read(data, name), name, fmt)
