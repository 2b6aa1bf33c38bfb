"""Which loader reads a file: from its extension and its first line."""

from __future__ import annotations

import json
import os

import pyarrow as pa
import pyarrow.parquet as pq

from irtables.errors import InputError
from irtables.loaders.columns import role_of, tidy_roles
from irtables.loaders.delimited import sniff_delimiter
from irtables.loaders.source import PARQUET_MAGIC, main_extension, read_bytes
from irtables.measures import TREC_EVAL_NON_MEASURES, is_measure_name

_HINT = (
    "expected trec_eval -q output, ir_measures -q output, a tidy or wide CSV/TSV, "
    "JSON, JSON Lines, Parquet or a PyTerrier CSV; name the format with --input-format"
)
_PYTERRIER = frozenset({"name", "qid", "measure", "value"})
#: The first line of a Git LFS pointer (a file checked out without ``git lfs pull``).
LFS_POINTER = b"version https://git-lfs.github.com/spec/"


class UnknownFormatError(InputError):
    """A file whose format cannot be told from its first line: in a folder, no result file."""


class RunOrQrelsError(UnknownFormatError):
    """A file that starts like a TREC run or qrels: input to evaluate, not per-query results."""


def detect_format(path: str | os.PathLike[str]) -> str:
    """Name of the loader that reads ``path`` (a key of :data:`~irtables.loaders.LOADERS`).

    Raises
    ------
    InputError
        If the file is empty or looks like none of the formats.
    """
    name = os.fspath(path)
    return detect_bytes(read_bytes(name), name)


def detect_bytes(data: bytes, path: str) -> str:
    """Detect the format of (decompressed) file contents; ``path`` gives the extension.

    Examples
    --------
    >>> detect_bytes(b"map                   \\t301\\t0.25\\n", "x.txt")
    'trec_eval'
    >>> detect_bytes(b"301\\tnDCG@10\\t0.5\\n", "x.tsv")
    'ir_measures'
    >>> detect_bytes(b"qid,measure,value\\n301,P_10,0.5\\n", "x.csv")
    'tidy'
    >>> detect_bytes(b"qid,P_10,map\\n301,0.5,0.2\\n", "x.csv")
    'wide'
    >>> detect_bytes(b'{"301": {"P_10": 0.5}}', "x.json")
    'json'
    """
    if data.startswith(PARQUET_MAGIC):
        return _parquet_kind(data, path)
    if not data or data.isspace():
        raise InputError("empty file; " + _HINT, path=path)
    if data.lstrip().startswith(LFS_POINTER):
        raise InputError(
            "a Git LFS pointer, not the file's content: run `git lfs pull` to fetch it",
            path=path,
            line=1,
        )
    ext = main_extension(path)
    if ext in ("jsonl", "ndjson"):
        return "tidy"
    first = _first_line(data)
    if first.lstrip().startswith(("{", "[")):
        return "tidy" if _is_json_line(first) and ext != "json" else "json"
    if ext == "json":
        return "json"
    try:
        return _text_kind(first, ext, path)
    except UnknownFormatError:
        if not _is_run_or_qrels(data):
            raise
    raise RunOrQrelsError(
        "a TREC run or qrels, not per-query results (name it in irtables.toml to evaluate it)",
        path=path,
        line=1,
    )


def _first_line(data: bytes) -> str:
    for raw in data[: 1 << 16].splitlines():
        if raw.strip():
            return raw.decode("utf-8", errors="replace")
    return ""


def _is_json_line(line: str) -> bool:
    try:
        obj = json.loads(line)
    except (json.JSONDecodeError, RecursionError):  # the reader names the file and why
        return False
    return isinstance(obj, dict) and not any(isinstance(v, dict) for v in obj.values())


def _text_kind(first: str, ext: str, path: str) -> str:
    fields = first.split("\t")
    if len(fields) == 3 and not all(role_of(f) for f in fields):
        if fields[0].strip() in TREC_EVAL_NON_MEASURES or is_measure_name(fields[0]):
            return "trec_eval"
        if is_measure_name(fields[1]):
            return "ir_measures"
    delimiter = sniff_delimiter(first, ext)
    header = [h.strip().strip('"') for h in first.split(delimiter)]
    lowered = {h.lower() for h in header}
    if lowered >= _PYTERRIER and len(lowered - _PYTERRIER) <= 1:
        return "pyterrier"
    roles = {role_of(h) for h in header}
    if roles & {"metric", "value"}:
        return "tidy"  # tidy_roles() reports what is missing or unexpected
    if "query" in roles and len(header) > 1:
        return "wide"
    raise UnknownFormatError(
        "cannot tell the format from the first line; " + _HINT, path=path, line=1
    )


def _is_run_or_qrels(data: bytes) -> bool:
    """Whether the first line of ``data`` that is neither blank nor a ``#`` comment reads
    as a TREC run line (``qid Q0 docid rank score tag``) or a qrels line (``qid iter
    docid grade``).

    Examples
    --------
    >>> _is_run_or_qrels(b"# bm25\\n301 Q0 d1 1 2.5 bm25\\n"), _is_run_or_qrels(b"301 0 d1 2")
    (True, True)
    >>> _is_run_or_qrels(b"version https://git-lfs.github.com/spec/v1\\n")
    False
    """
    for raw in data[: 1 << 16].splitlines():
        fields = raw.split()
        if not fields or fields[0].startswith(b"#"):
            continue
        try:
            if len(fields) == 6:
                return bool((int(fields[3]), float(fields[4])))
            return len(fields) == 4 and bool(int(fields[3]) + 1)
        except ValueError:
            return False
    return False


def _parquet_kind(data: bytes, path: str) -> str:
    try:
        names = pq.read_schema(pa.BufferReader(data)).names
    except (pa.ArrowException, OSError) as exc:
        raise InputError(f"unreadable Parquet file: {exc}", path=path) from exc
    try:
        tidy_roles(names, path, None)
    except InputError:
        return "wide"
    return "tidy"
