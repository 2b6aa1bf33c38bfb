"""Records shared by the loaders: a parsed file, a loaded file and a loader.

A loader's ``read`` function is pure: it takes the (decompressed) bytes of a file and
returns a :class:`Parsed` frame with raw metric names and the physical line of every
row. :func:`irtables.loaders.normalize.finish` then resolves the metric names, checks
the values and turns it into a :class:`LoadedFile`.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from irtables.errors import InputError

if TYPE_CHECKING:  # the records are light: readers import pandas when they run
    import numpy as np
    import numpy.typing as npt
    import pandas as pd

#: Canonical names of the optional columns a per-query frame may carry.
OPTIONAL_COLUMNS = ("system", "dataset", "seed")


@dataclass(frozen=True)
class Parsed:
    """What a reader found in one file, before metric names are resolved.

    ``frame`` has the columns ``query`` (strings), ``metric`` (raw names), ``value``
    (float64) and optionally ``system`` and ``dataset``. Row ``i`` sits on physical
    line ``lines[i]`` of the file, or on ``first_line + i`` when ``lines`` is None;
    both are None for formats without lines (Parquet, JSON). ``summary`` holds the
    file's own means (columns ``metric``, ``value``, ``line`` and maybe ``system``).
    """

    frame: pd.DataFrame
    lines: npt.NDArray[np.int64] | None = None
    first_line: int | None = None
    summary: pd.DataFrame | None = None
    runid: str | None = None

    def line(self, row: int) -> int | None:
        """Physical (1-based) line of row ``row`` of ``frame``, if the format has lines."""
        if self.lines is not None:
            return int(self.lines[row])
        if self.first_line is not None:
            return self.first_line + row
        return None


@dataclass(frozen=True)
class LoadedFile:
    """One per-query file, read into a tidy frame.

    Attributes
    ----------
    path : str
        The file, as given.
    format : str
        The :data:`~irtables.loaders.LOADERS` key that read it.
    frame : pandas.DataFrame
        Per-query rows: ``query`` (str), ``metric`` (canonical measure name), ``value``
        (float64) and, only if the file has them, ``system``, ``dataset`` and ``seed``
        (one run of a system: a seed or a fold).
    summary : pandas.DataFrame
        The file's own means where it has them (trec_eval ``all`` rows): columns
        ``[system], metric, value``; empty otherwise.
    runid : str or None
        The ``runid`` line of a trec_eval dump, if any (not used as the system name).
    system, dataset : str or None
        Filled in by :func:`~irtables.loaders.load_study` for files without such columns.
    seed : str or None
        The run (file stem) of a file in a system folder ``<dataset>/<system>/<seed>.<ext>``.
    """

    path: str
    format: str
    frame: pd.DataFrame
    summary: pd.DataFrame
    runid: str | None = None
    system: str | None = None
    dataset: str | None = None
    seed: str | None = None


ReadFunction = Callable[[bytes, str], Parsed]


@dataclass(frozen=True)
class Loader:
    """A registered input format.

    ``read(data, path)`` parses the decompressed bytes of a file; ``path`` is used in
    messages and to choose between variants (``.parquet``, ``.jsonl``) of a format.
    ``reader`` is that function, or its ``"module:function"`` name, imported on first
    use (so that the registry, and the command line's choices, load no reader).
    """

    name: str
    description: str
    extensions: tuple[str, ...]
    reader: ReadFunction | str

    def read(self, data: bytes, path: str) -> Parsed:
        """Parse the decompressed bytes of a file (``path`` for messages and variants)."""
        reader = self.reader
        if isinstance(reader, str):
            module, _, function = reader.partition(":")
            reader = getattr(importlib.import_module(module), function)
            object.__setattr__(self, "reader", reader)
        parsed: Parsed = reader(data, path)
        return parsed


def input_error(message: str, path: str, line: int | None = None) -> InputError:
    """Build an :class:`InputError` located at ``path:line``."""
    return InputError(message, path=path, line=line)


#: Characters no name may hold: C0 and C1 controls, DEL, line and paragraph separators,
#: and unpaired surrogates (JSON can write them; no file can hold them as text).
CONTROL_CHARACTERS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def check_name(name: str, what: str, path: str, line: int | None = None) -> None:
    """Refuse a dataset, system, run or query name holding a control character.

    A TAB or newline in a name would corrupt every TSV and CSV written from it; an
    escape sequence would be replayed on the terminal.

    Examples
    --------
    >>> check_name("bm25\\tx", "system", "r.run")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    irtables.errors.InputError: r.run: system 'bm25\\tx' holds a control character (U+0009); ...
    """
    found = CONTROL_CHARACTERS.search(name)
    if found is not None:
        code = f"U+{ord(found.group(0)):04X}"
        reason = f"{what} {name!r} holds a control character ({code}); names must be printable"
        raise input_error(reason, path, line)


def check_not_empty(data: bytes, path: str, expected: str) -> None:
    """Raise :class:`InputError` if ``data`` holds nothing but whitespace."""
    if not data or data.isspace():  # isspace() stops at the first other byte: no copy
        raise input_error(f"empty file; expected {expected}", path)
