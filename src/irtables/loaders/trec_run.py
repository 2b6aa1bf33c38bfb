"""Read TREC run files (``qid Q0 docid rank score tag``) and tidy TSV/Parquet runs.

Columns are separated by any whitespace; ``#`` comment lines and blank lines are
skipped, and the comment lines at the top are read first, by
:func:`~irtables.loaders.ir_metadata.read_header`, for the run's ``ir_metadata`` block
(a malformed one is an error naming its line; a valid one changes no value); files may
be compressed (gzip, bzip2, xz, Zstandard: :func:`~irtables.loaders.source.open_input`,
which also bounds line length and expansion); columns after the sixth are ignored, as
trec_eval ignores them. The rank column is not read: trec_eval orders by score.

A plain single-space file is streamed through pyarrow's CSV reader, keeping only the
query id (as int32 codes), the document id and the score of each block, so that memory
stays close to the size of those three columns; anything else (tabs, repeated spaces,
comments below the header, extra columns, a malformed line) goes through a line-by-line
reader that names the file and line of the first problem. The header (its comment lines,
at most :data:`MAX_HEADER_BYTES`) is read past before the rest is handed to pyarrow.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from irtables.base.arrow import from_numpy, to_numpy
from irtables.base.numbers import check_finite, parse_number
from irtables.errors import DataWarning, InputError, user_stacklevel
from irtables.loaders.arrow_csv import csv_batches, read_csv_bytes
from irtables.loaders.base import check_name
from irtables.loaders.ir_metadata import read_header
from irtables.loaders.source import (
    COMPRESSED_EXTENSIONS,
    CheckedStream,
    content_lines,
    more_lines_than_fit,
    open_input,
)
from irtables.model.runs import Run, encode_queries, run_from_frame

if TYPE_CHECKING:  # tabular runs only: a TREC run file is read without pandas
    import pandas as pd

Progress = Callable[[str, int, int], None]

_RUN_EXPECTED = "6 columns (qid Q0 docid rank score tag)"
#: A plain text file no longer is read whole into memory (and parsed as one block);
#: a longer one is streamed, its memory bounded by the block size.
IN_MEMORY_BYTES = 16 * 2**20
_TABULAR_SUFFIXES = {".tsv": "\t", ".csv": ","}
#: The most bytes of comment lines at the top of a run the fast reader reads past (a
#: longer header sends the file to the line-by-line reader).
MAX_HEADER_BYTES = 1 << 20


def read_run(path: str | Path, *, name: str | None = None, progress: Progress | None = None) -> Run:
    """Read a run file: TREC format, or tidy ``.tsv``/``.csv``/``.parquet``.

    Parameters
    ----------
    path
        The run file, possibly compressed.
    name
        The system name; defaults to the file's stem (``runs/bm25.trec.gz`` → ``bm25``).
    progress
        Called as ``progress("read <name>", bytes_done, bytes_total)`` while a TREC run
        file is read (bytes of the file on disk, compressed or not).

    Returns
    -------
    Run
        Query ids, document ids and scores, in file order.

    Raises
    ------
    InputError
        A malformed line or ``ir_metadata`` block, with the file and line number.

    Examples
    --------
    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "bm25.run"
    >>> _ = p.write_text("1 Q0 d1 1 2.5 bm25\\n1\\tQ0\\td2\\t2\\t1.5\\tbm25\\n")
    >>> run = read_run(p)
    >>> run.name, len(run), run.docid.to_pylist()
    ('bm25', 2, ['d1', 'd2'])
    """
    p = Path(path)
    system = name if name is not None else system_name(p)
    check_name(system, "run name", str(p))
    suffixes = [s.lower() for s in p.suffixes if s.lower()[1:] not in COMPRESSED_EXTENSIONS]
    last = suffixes[-1] if suffixes else ""
    if last == ".parquet":
        return _not_empty(run_from_frame(_read_parquet(p), name=system, source=str(p)))
    if last in _TABULAR_SUFFIXES:
        frame = _read_delimited(p, _TABULAR_SUFFIXES[last])
        return _not_empty(run_from_frame(frame, name=system, source=str(p)))
    if not p.exists():
        raise InputError("no such file", path=str(p))
    header = read_header(p)  # a malformed ir_metadata block fails here
    fast = _stream_run(p, system, progress, header.lines)
    if fast is not None:  # pyarrow reads "nan" and "inf" as floats
        check_finite(fast.score, fast.source, fast.line_of, "a finite number in column 5 (score)")
        return _not_empty(fast)
    table, rows, final = _read_slow(
        p, 6, {0: pa.string(), 2: pa.string(), 4: pa.float64()}, _RUN_EXPECTED, _check_score
    )
    score = to_numpy(_one_chunk(table.column(2)))
    run = Run(
        name=system,
        qid=encode_queries(table.column(0)),
        docid=_one_chunk(table.column(1)),
        score=score.astype(np.float64, copy=False),
        source=str(p),
        runid=final[5] if final else "",  # trec_eval's runid: the last line's tag
        rows=rows,
    )
    return _not_empty(run)  # every score was parsed as a finite number


def _stream_run(path: Path, system: str, progress: Progress | None, header: int = 0) -> Run | None:
    """Read a single-space TREC run block by block; ``None`` if it needs the slow path.

    ``header``: the first lines are comment lines (read past, not parsed again).

    Each block's query ids become int32 codes at once (their strings are dropped), the
    document ids stay Arrow strings and the scores float64. Of the tags (bytes: not
    checked as UTF-8, as the slow path does not check them) only the last row's is kept:
    the ``runid`` (a compressed file cannot be read from its end).
    """
    names = [f"c{i}" for i in range(6)]
    convert = pacsv.ConvertOptions(
        column_types={"c0": pa.string(), "c2": pa.string(), "c4": pa.float64(), "c5": pa.binary()},
        include_columns=["c0", "c2", "c4", "c5"],
        null_values=[],
        strings_can_be_null=False,
    )
    parse = pacsv.ParseOptions(
        delimiter=" ", quote_char=False, escape_char=False, ignore_empty_lines=False
    )
    read = pacsv.ReadOptions(column_names=names, block_size=1 << 20)
    total = path.stat().st_size
    compressed = _is_compressed(path)
    queries: dict[str, int] = {}
    # filled in place, block by block: no list of chunks, no concatenation
    capacity = max(_row_estimate(path, total, compressed), 1)
    codes = np.empty(capacity, dtype=np.int32)
    score = np.empty(capacity, dtype=np.float64)
    docids: list[pa.Array] = []
    n = 0
    tag = b""
    try:
        with open_input(path, text=True, defer=True) as stream:
            rest = _past_header(stream, header) if header else b""
            if rest is None:
                return None
            watched = _UntilShortLines(stream, len(names), rest)
            with csv_batches(watched, read, parse, convert) as batches:
                for batch in batches:
                    if watched.stopped:
                        return None  # the exact path reads it
                    local = pc.dictionary_encode(batch.column(0))
                    if _needs_exact_path(local.dictionary):
                        return None  # a comment or blank line (pyarrow reads a row of each)
                    values = local.dictionary.to_pylist()
                    lut = np.array([queries.setdefault(v, len(queries)) for v in values], np.int32)
                    rows = batch.num_rows
                    if n + rows > len(codes):
                        size = max(n + rows, len(codes) + len(codes) // 2)
                        codes, score = np.resize(codes, size), np.resize(score, size)
                    codes[n : n + rows] = lut[to_numpy(local.indices)]
                    score[n : n + rows] = to_numpy(batch.column(2))
                    docids.append(batch.column(1))
                    if rows:
                        tag = batch.column(3)[rows - 1].as_py()
                    n += rows
                    del batch, local
                    if progress is not None:
                        progress(f"read {system}", min(stream.compressed_tell, total), total)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, UnicodeDecodeError):
        return None  # the slow path names the line, or reads what this one cannot
    if watched.stopped:
        return None
    if n < len(codes):  # a compressed or small file's estimate: give the rest back
        codes, score = codes[:n].copy(), score[:n].copy()
    return Run(
        name=system,
        qid=pa.DictionaryArray.from_arrays(
            from_numpy(codes), pa.array(list(queries), type=pa.string())
        ),
        docid=pa.chunked_array(docids, type=pa.string()),
        score=score,
        source=str(path),
        runid=tag.decode("utf-8", errors="replace"),
        first_line=header + 1,
    )


def _past_header(stream: CheckedStream, lines: int) -> bytes | None:
    """Read past the first ``lines`` lines of a stream, comment or blank lines all
    (:func:`~irtables.loaders.ir_metadata.read_header`): the bytes read after them, or
    None when the exact path must read the file (the lines are longer than
    :data:`MAX_HEADER_BYTES`, or end otherwise than in ``\\n`` as
    :meth:`str.splitlines` counts them)."""
    chunks: list[bytes] = []
    found = 0
    size = 0
    while found < lines:
        chunk = stream.read(1 << 16)
        size += len(chunk)
        if not chunk or size > MAX_HEADER_BYTES + (1 << 16):
            return None
        chunks.append(chunk)
        found += chunk.count(b"\n")
    data = b"".join(chunks)
    end = -1
    for _ in range(lines):
        end = data.index(b"\n", end + 1)
    try:
        text = data[: end + 1].decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        return None
    kept = text.splitlines()
    if len(kept) != lines or any(k.strip() and not k.lstrip().startswith("#") for k in kept):
        return None
    return data[end + 1 :]


def _row_estimate(path: Path, size: int, compressed: bool) -> int:
    """Rows to make room for: a large plain file's lines, counted (its arrays are then
    exact); a small one's most lines (12 bytes the shortest: ``1 Q0 d 1 1 r``), not
    counted, the rest given back once read; a compressed file's guess (it may grow)."""
    if compressed:
        return size // 8
    if size <= IN_MEMORY_BYTES:
        return size // 12 + 1
    return _count_lines(path)


def _count_lines(path: Path) -> int:
    """Lines of a plain file (an upper bound of its rows), counted 4 MiB at a time."""
    count, last = 0, b"\n"
    with path.open("rb") as fh:
        while chunk := fh.read(1 << 22):
            count += chunk.count(b"\n")
            last = chunk[-1:]
    return count + (last != b"\n")


def _is_compressed(path: Path) -> bool:
    from irtables.loaders.source import compressed_format

    with path.open("rb") as fh:
        return compressed_format(fh.read(16)) is not None


def system_name(path: Path) -> str:
    """The system name of a run file: its name without its known extensions only.

    A dot that starts no known extension (:data:`~irtables.loaders.source.KNOWN_EXTENSIONS`)
    is part of the name, so runs named with parameter values keep them.

    Examples
    --------
    >>> system_name(Path("runs/bm25.trec.gz")), system_name(Path("dl19.run"))
    ('bm25', 'dl19')
    >>> system_name(Path("fuse_alpha=0.5_depth=1000")), system_name(Path("bm25.k1=0.9.run"))
    ('fuse_alpha=0.5_depth=1000', 'bm25.k1=0.9')
    >>> system_name(Path("runs/bm25.trec.zst")), system_name(Path("x.run.xz"))
    ('bm25', 'x')
    """
    from irtables.loaders.source import name_parts

    return name_parts(path)[0] or path.name


def read_columns(
    path: Path,
    *,
    ncols: int,
    keep: dict[int, pa.DataType],
    expected: str,
    check: Callable[[int, list[str]], str | None],
) -> tuple[pa.Table, npt.NDArray[np.int64] | None]:
    """Read a whitespace-separated text file with at least ``ncols`` columns per line.

    Returns the ``keep`` columns (in index order) and, when comment or blank lines were
    skipped, the 1-based line number of every row (otherwise ``None``: row i is line i+1).
    ``check(column, fields)`` validates a line on the slow path and returns an error text.
    """
    if not path.exists():
        raise InputError("no such file", path=str(path))
    table = _read_fast(path, ncols, keep)
    if table is not None:
        return table, None
    table, rows, _ = _read_slow(path, ncols, keep, expected, check)
    return table, rows


def _read_fast(path: Path, ncols: int, keep: dict[int, pa.DataType]) -> pa.Table | None:
    """The ``keep`` columns of a single-space file read by pyarrow; ``None`` when the
    exact path must read it (tabs, comments, blank lines, a malformed line).

    A small plain file is parsed from memory as one block, unless its lines are too short
    to be rows (:func:`~irtables.loaders.source.more_lines_than_fit`: a row of ``ncols``
    fields takes :func:`_shortest_row` bytes). Anything else streams in 1 MiB blocks,
    looked at as they come (:class:`_UntilShortLines`), so that a file of blank lines is
    handed to the exact path after its first block, not after pyarrow made a row of each.
    """
    names = [f"c{i}" for i in range(ncols)]
    convert = pacsv.ConvertOptions(
        column_types={names[i]: t for i, t in keep.items()},
        include_columns=[names[i] for i in sorted(keep)],
        null_values=[],
        strings_can_be_null=False,
    )
    parse = pacsv.ParseOptions(
        delimiter=" ", quote_char=False, escape_char=False, ignore_empty_lines=False
    )
    try:
        with open_input(path, text=True, defer=True) as stream:
            if stream.format is None and path.stat().st_size <= IN_MEMORY_BYTES:
                data = stream.readall()
                if more_lines_than_fit(data, _shortest_row(ncols)):
                    return None
                read = pacsv.ReadOptions(column_names=names, block_size=IN_MEMORY_BYTES)
                table = read_csv_bytes(data, read, parse, convert)
                return None if _needs_exact_path(table.column(0)) else table
            read = pacsv.ReadOptions(column_names=names, block_size=1 << 20)
            watched = _UntilShortLines(stream, ncols)
            batches = []
            with csv_batches(watched, read, parse, convert) as reader:
                for batch in reader:
                    if watched.stopped or _needs_exact_path(batch.column(0)):
                        return None
                    batches.append(batch)
            if watched.stopped:
                return None
            return pa.Table.from_batches(batches, schema=_schema(keep, names))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, UnicodeDecodeError):
        return None


def _schema(keep: dict[int, pa.DataType], names: list[str]) -> pa.Schema:
    """The schema of the ``keep`` columns as pyarrow's CSV reader gives them."""
    return pa.schema([(names[i], keep[i]) for i in sorted(keep)])


def _shortest_row(ncols: int) -> int:
    """Bytes of the shortest single-space row of ``ncols`` fields, its line end included
    (a character per field, a space between two)."""
    return 2 * ncols


class _UntilShortLines(io.RawIOBase):
    """The bytes of a stream up to a chunk with more line ends than rows of the format
    could fill (:func:`~irtables.loaders.source.more_lines_than_fit`), where they end
    (:attr:`stopped` then says so): pyarrow, reading ahead, would otherwise make a row of
    each blank line of the whole file (millions, from a small compressed one) before its
    first block is looked at."""

    def __init__(self, stream: CheckedStream, ncols: int, first: bytes = b"") -> None:
        super().__init__()
        self._stream = stream
        self._row_bytes = _shortest_row(ncols)
        self._first = first  # bytes already read from the stream, handed out first
        self.stopped = False

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> bytes:
        if self.stopped:
            return b""
        if self._first:
            cut = len(self._first) if size is None or size < 0 else size
            data, self._first = self._first[:cut], self._first[cut:]
        else:
            data = self._stream.read(size)
        if more_lines_than_fit(data, self._row_bytes, partial=True):
            self.stopped = True
            return b""
        return data

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def _needs_exact_path(first: pa.Array | pa.ChunkedArray) -> bool:
    """Whether a first column read by pyarrow holds a comment (``#``) or a blank line
    (an empty string: no single-space line of the format starts with a space)."""
    if not len(first):
        return False
    if first.null_count:
        return True
    unique = pc.unique(first)
    if pc.min(pc.binary_length(unique)).as_py() == 0:
        return True  # (no comparison with a scalar "": it would make pyarrow import pandas)
    return bool(pc.any(pc.starts_with(unique, "#")).as_py())


def _read_slow(
    path: Path,
    ncols: int,
    keep: dict[int, pa.DataType],
    expected: str,
    check: Callable[[int, list[str]], str | None],
) -> tuple[pa.Table, npt.NDArray[np.int64] | None, list[str] | None]:
    """Read line by line, naming the line of the first problem: the ``keep`` columns,
    the line number of each row (``None`` when row i is line i+1) and the fields of the
    last row (``None`` without rows)."""
    columns: dict[int, list[str]] = {i: [] for i in sorted(keep)}
    rows: list[int] = []
    last: list[str] | None = None
    for lineno, line in content_lines(path):
        fields = line.split()
        if fields[0].startswith("#"):
            continue
        if len(fields) < ncols:
            raise InputError(f"expected {expected}, got {len(fields)}", path=str(path), line=lineno)
        problem = check(ncols, fields)
        if problem is not None:
            raise InputError(problem, path=str(path), line=lineno)
        for i, values in columns.items():
            values.append(fields[i])
        rows.append(lineno)
        last = fields
    arrays = [pa.array(columns[i], type=pa.string()).cast(keep[i]) for i in sorted(keep)]
    table = pa.table(arrays, names=[f"c{i}" for i in sorted(keep)])
    line_numbers = np.asarray(rows, dtype=np.int64)
    consecutive = bool(np.array_equal(line_numbers, np.arange(1, len(rows) + 1)))
    return table, None if consecutive else line_numbers, last


def _check_score(ncols: int, fields: list[str]) -> str | None:
    try:
        parse_number(fields[4], "", None, "a number in column 5 (score)")
    except InputError as e:
        return e.reason
    return None


def _not_empty(run: Run) -> Run:
    """The run; an empty one is read but warned about: it retrieves nothing for any query."""
    if len(run) == 0:
        warnings.warn(
            f"{run.source}: run {run.name} is empty (no ranked documents): it scores 0 "
            "or is left out, depending on the queries' policy",
            DataWarning,
            stacklevel=user_stacklevel(),
        )
    return run


def _one_chunk(column: pa.ChunkedArray) -> pa.Array:
    if column.num_chunks == 1:
        return column.chunk(0)
    if column.num_chunks == 0:
        return pa.array([], type=column.type)
    return column.combine_chunks()


def _read_parquet(path: Path) -> pd.DataFrame:
    import pyarrow.parquet as pq

    from irtables.loaders.source import check_parquet_size

    try:
        with path.open("rb") as handle:
            parquet = pq.ParquetFile(handle)
            check_parquet_size(parquet, path.stat().st_size, str(path))
            frame: pd.DataFrame = parquet.read(use_pandas_metadata=True).to_pandas()
            return frame
    except InputError:
        raise
    except Exception as exc:  # pyarrow raises many types for a bad file
        raise InputError(f"not a readable Parquet file ({exc})", path=str(path)) from exc


def _read_delimited(path: Path, sep: str) -> pd.DataFrame:
    import pandas as pd

    try:
        with open_input(path, text=True) as stream:
            return pd.read_csv(stream, sep=sep, dtype=str, comment=None, keep_default_na=False)
    except (ValueError, pd.errors.ParserError) as exc:
        raise InputError(f"not a readable table ({exc})", path=str(path)) from exc
