"""Records shared by the loaders: a parsed file, a loaded file and a loader.

A loader's ``read`` function is pure: it takes the (decompressed) bytes of a file and
returns a :class:`Parsed` frame with raw metric names and the physical line of every
row. :func:`irtables.loaders.normalize.finish` then resolves the metric names, checks
the values and turns it into a :class:`LoadedFile`.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from irtables.base.controls import CONTROLS
from irtables.errors import InputError

if TYPE_CHECKING:  # the records are light: readers import numpy (and pandas) when they run
    import numpy as np
    import numpy.typing as npt
    import pandas as pd

    from irtables.model.factor import Factor
    from irtables.model.parts import PartShape

#: Canonical names of the optional columns a per-query frame may carry.
OPTIONAL_COLUMNS = ("system", "dataset", "seed")


@dataclass(frozen=True)
class Parsed:
    """What a reader found in one file, before metric names are resolved.

    ``frame`` has the columns ``query`` (strings), ``metric`` (raw names), ``value``
    (float64) and optionally ``system`` and ``dataset``. A reader may instead give the
    same columns without pandas: ``factors`` (a :class:`~irtables.model.factor.Factor`
    per key column) and ``values``. Row ``i`` sits on physical line ``lines[i]`` of the
    file, or on ``first_line + i`` when ``lines`` is None; both are None for formats
    without lines (Parquet, JSON). ``summary`` holds the file's own means (columns
    ``metric``, ``value``, ``line`` and maybe ``system``); ``num_q``, the number of
    queries those means average over where the file says it (trec_eval's ``num_q all``:
    more than the file's queries when ``trec_eval -c`` averaged over every judged query).
    """

    frame: pd.DataFrame | None = None
    lines: npt.NDArray[np.int64] | None = None
    first_line: int | None = None
    summary: pd.DataFrame | None = None
    runid: str | None = None
    num_q: int | None = None
    factors: Mapping[str, Factor] | None = None
    values: npt.NDArray[np.float64] | None = None

    def as_frame(self) -> pd.DataFrame:
        """The rows as a frame: ``frame``, or the ``factors`` and ``values`` as one."""
        if self.frame is not None:
            return self.frame
        if self.factors is None or self.values is None:
            raise ValueError("a reader returned neither a frame nor factors")
        from irtables.model.factor import factors_frame

        return factors_frame(self.factors, self.values)

    def line(self, row: int) -> int | None:
        """Physical (1-based) line of row ``row`` of ``frame``, if the format has lines."""
        if self.lines is not None:
            return int(self.lines[row])
        if self.first_line is not None:
            return self.first_line + row
        return None


@dataclass(frozen=True, eq=False)
class LoadedFile:
    """One per-query file, read into columns.

    Attributes
    ----------
    path : str
        The file, as given.
    format : str
        The :data:`~irtables.loaders.LOADERS` key that read it.
    factors : mapping of str to Factor
        The key columns of its rows: ``query`` and ``metric`` (canonical measure names)
        and, only if the file has them, ``system``, ``dataset`` and ``seed`` (one run of
        a system: a seed or a fold).
    values : numpy.ndarray
        The value of each row (float64).
    own_means : pandas.DataFrame or None
        The file's own means where it has them (trec_eval ``all`` rows): columns
        ``[system], metric, value``; None otherwise (see :attr:`summary`).
    runid : str or None
        The ``runid`` line of a trec_eval dump, if any (not used as the system name).
    num_q : int or None
        The queries the file's own means average over, where it says (trec_eval's
        ``num_q all``; with ``trec_eval -c`` every judged query, the run's or not).
    system, dataset : str or None
        Filled in by :func:`~irtables.loaders.load_study` for files without such columns.
    seed : str or None
        The run (file stem) of a file in a system folder ``<dataset>/<system>/<seed>.<ext>``.
    shape : PartShape or None
        For a file with query and metric columns only (one dataset and one system): what
        the tables need of it (:class:`~irtables.model.parts.PartShape`), computed by the
        thread that read it.
    """

    path: str
    format: str
    factors: Mapping[str, Factor]
    values: npt.NDArray[np.float64]
    own_means: pd.DataFrame | None = None
    runid: str | None = None
    num_q: int | None = None
    system: str | None = None
    dataset: str | None = None
    seed: str | None = None
    shape: PartShape | None = None

    @functools.cached_property
    def frame(self) -> pd.DataFrame:
        """Per-query rows as a frame: the :attr:`factors` as categorical columns (in the
        order ``system, dataset, seed, query, metric``, those the file has) and ``value``."""
        from irtables.model.factor import factors_frame

        return factors_frame(self.factors, self.values)

    @property
    def summary(self) -> pd.DataFrame:
        """The file's own means (columns ``[system], metric, value``); empty if none."""
        if self.own_means is not None:
            return self.own_means
        import pandas as pd

        return pd.DataFrame(
            {"metric": pd.Series([], dtype=str), "value": pd.Series([], dtype=float)}
        )


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
CONTROL_CHARACTERS = re.compile(f"[{CONTROLS}\\ud800-\\udfff]")


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
