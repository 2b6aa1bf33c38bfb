"""Errors and warnings that irtables raises.

Every user-facing failure is an :class:`IrtablesError`; the CLI prints its message on
one line and exits with status 2. Library code never calls ``sys.exit``.
"""

from __future__ import annotations

import difflib
import os
import sys
from collections.abc import Iterable


class IrtablesError(Exception):
    """A user-facing failure. The CLI prints it and exits 2."""


class InputError(IrtablesError):
    """Bad input data, located as precisely as possible.

    The message reads ``path:line: what was expected``.
    """

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None):
        self.path = path
        self.line = line
        self.reason = message
        where = ""
        if path is not None:
            where = f"{path}:{line}: " if line is not None else f"{path}: "
        super().__init__(f"{where}{message}")

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle with path and line (an error raised in a worker process keeps them)."""
        return (_rebuild_input_error, (type(self), self.reason, self.path, self.line))


def _rebuild_input_error(
    cls: type[InputError], reason: str, path: str | None, line: int | None
) -> InputError:
    return cls(reason, path=path, line=line)


class UnknownNameError(InputError):
    """An unknown measure, format, test or layout name; the message suggests the closest."""


class ConfigError(IrtablesError):
    """A bad configuration file: names the file, the key and what was expected."""


class QueryMismatchError(IrtablesError):
    """Systems of one dataset were evaluated on different queries."""


class TemplateError(IrtablesError):
    """A template could not be found or rendered."""


class OutputError(IrtablesError):
    """An output cannot be written: a path leaves the output folder, two outputs would be
    one file, a destination is not a regular file, or the system refused (disk full)."""


class OverwriteError(OutputError):
    """Refusing to overwrite a file that irtables did not generate (or that was edited)."""


#: The folder of irtables' modules: frames there are irtables' own.
_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def user_stacklevel() -> int:
    """The ``stacklevel`` for :func:`warnings.warn` called by the caller of this function
    that points at the first frame outside irtables: the user's call (their script or
    notebook cell), not irtables' own source line.

    Examples
    --------
    >>> user_stacklevel()  # called from outside irtables: the caller itself
    1
    """
    frame = sys._getframe(1)
    level = 1
    while frame.f_back is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame = frame.f_back
        level += 1
    return level


class IrtablesWarning(UserWarning):
    """Base class of the warnings irtables emits."""


class PolicyWarning(IrtablesWarning):
    """A missing-query policy changed the data (dropped or zero-filled queries).

    ``dataset`` and ``metric`` name what it changed and ``change`` says how (the message
    after ``dataset/metric: ``), so that the warnings of one change over many metrics can
    be given as one (:func:`irtables.model.results.merged_warnings`).
    """

    def __init__(
        self, message: str, *, dataset: str = "", metric: str = "", change: str = ""
    ) -> None:
        super().__init__(message)
        self.dataset, self.metric, self.change = dataset, metric, change


class DataWarning(IrtablesWarning):
    """Something in the data looks suspicious but is not an error."""


class DroppedMetricWarning(DataWarning):
    """A table leaves out a default metric that the results do not hold."""


class DroppedCutoffWarning(DataWarning):
    """A table leaves out configured cutoffs (``tables.k_breakdown.k``) that the results
    do not hold, or is not written for lack of any."""


class LayoutWarning(IrtablesWarning):
    """A LaTeX table will not read well on the page: scaled to small type, or taller
    than a page (LaTeX then moves it to the end or loses it)."""


def unknown_name_message(kind: str, name: str, known: Iterable[str]) -> str:
    """Say that ``name`` is unknown, suggest the closest known name and list the choices.

    Examples
    --------
    >>> unknown_name_message("format", "latx", ["latex", "markdown"])
    "unknown format 'latx'; did you mean 'latex'? (known: latex, markdown)"
    """
    choices = sorted(set(known), key=str.lower)
    lowered = {c.lower(): c for c in choices}
    close = difflib.get_close_matches(name.lower(), list(lowered), n=1, cutoff=0.5)
    hint = f"; did you mean '{lowered[close[0]]}'?" if close else ""
    shown = ", ".join(choices[:20]) + (", ..." if len(choices) > 20 else "")
    return f"unknown {kind} '{name}'{hint} (known: {shown})"


class LatexError(IrtablesError):
    """pdflatex failed, or cannot typeset a character of the LaTeX irtables writes (one
    line)."""
