"""The command-line group, its error handling, shared options and progress displays."""

from __future__ import annotations

import functools
import os
import re
import signal
import sys
import threading
import warnings
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from irtables._version import __version__
from irtables.cli.study_options import study_option
from irtables.errors import IrtablesError

if TYPE_CHECKING:
    from irtables.study import Study, StudyRequest

F = TypeVar("F", bound=Callable[..., Any])


#: Characters shown escaped in messages: controls, line breaks, bidirectional overrides.
_HIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
DEBUG_ENV = "IRTABLES_DEBUG"


class _CliError(click.ClickException):
    """An irtables error shown to the user: ``Error: <message>``, exit status 2."""

    exit_code = 2


def printable(text: str) -> str:
    r"""``text`` on one line, with control characters and the like shown escaped.

    Data reaches messages (names, file contents): a newline would split the message, an
    escape sequence would drive the terminal, a bidirectional override reorder it.

    Examples
    --------
    >>> printable("bad\x1b[2Jname\nline 2")
    'bad\\x1b[2Jname\\nline 2'
    """
    return _HIDDEN.sub(lambda m: _NAMED.get(m.group(0)) or _escape(m.group(0)), text)


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def error_message(e: BaseException) -> str:
    """One line saying what went wrong, for any exception a command can raise."""
    kind = type(e).__module__.split(".")[0]
    if isinstance(e, IrtablesError):
        text = str(e)
    elif isinstance(e, OSError):
        where = e.filename if e.filename is not None else ""
        text = f"{where}: {e.strerror or e}" if where else f"{e.strerror or e}"
    elif isinstance(e, UnicodeDecodeError):
        text = f"expected UTF-8 text, got byte 0x{e.object[e.start]:02x} at offset {e.start}"
    elif isinstance(e, EOFError | zlib.error):
        text = f"broken or truncated compressed data ({e or type(e).__name__})"
    elif isinstance(e, MemoryError):
        text = "out of memory (is an input or output a device such as /dev/zero?)"
    elif isinstance(e, RecursionError):
        text = "an input is nested too deeply"
    elif kind in ("pyarrow", "tarfile"):
        text = f"unreadable input ({type(e).__name__}: {e})"
    else:
        name = type(e).__name__
        text = f"internal error ({name}: {e}); please report it ({DEBUG_ENV}=1 shows where)"
    return printable(" ".join(text.split()) if "\n" in text else text)


def handle_errors(func: F) -> F:
    """Every failure becomes one line ``Error: ...`` and exit status 2, never a traceback;
    warnings are printed as ``Warning: ...`` lines. Data in both is shown escaped."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                return func(*args, **kwargs)
            except (click.exceptions.ClickException, click.exceptions.Exit, click.Abort):
                raise
            except Exception as e:
                if os.environ.get(DEBUG_ENV) and not isinstance(e, IrtablesError):
                    raise
                message = error_message(e)
                if isinstance(e, OSError) and e.filename is None and _stdout_fails(e):
                    message = f"writing to standard output: {message}"
                raise _CliError(message) from e
            finally:
                from irtables.model.results import merged_warnings

                for message in merged_warnings([_as_warning(w.message) for w in caught]):
                    click.echo(f"Warning: {printable(message)}", err=True)

    return wrapper  # type: ignore[return-value]


def _stdout_fails(e: OSError) -> bool:
    """Whether ``e`` (an error without a file name: a full disk, ``> /dev/full``) came
    from writing to standard output: the frame it was raised in holds the stream it was
    writing to (``click.echo``'s ``file``), and that stream is the standard output."""
    tb = e.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return False
    return any(_is_stdout(v) for v in tb.tb_frame.f_locals.values())


def _is_stdout(value: object) -> bool:
    if value is sys.stdout or value is sys.__stdout__:
        return True
    fileno = getattr(value, "fileno", None)
    if sys.__stdout__ is None or not hasattr(value, "write") or not callable(fileno):
        return False
    try:
        return bool(fileno() == sys.__stdout__.fileno())  # click's wrapper of it
    except (OSError, ValueError, AttributeError):
        return False


def _as_warning(message: Warning | str) -> Warning:
    return message if isinstance(message, Warning) else Warning(message)


class LayoutsInHelp(click.Command):
    """A command whose help names the table layouts where it says ``{layouts}``: read
    from the layout records (:data:`irtables.config.tables.LAYOUTS`) when the help is
    shown, so listing the commands imports no configuration code.

    Its ``short_help`` (the line in ``irtables --help``) must be given: the first
    sentence of the help, without the placeholder.
    """

    @property
    def help(self) -> str | None:
        """The help text, the layouts named."""
        if self._help is None or "{layouts}" not in self._help:
            return self._help
        from irtables.config.tables import LAYOUTS

        return self._help.replace("{layouts}", ", ".join(LAYOUTS))

    @help.setter
    def help(self, value: str | None) -> None:
        self._help = value


class RecordChoice(click.Choice):  # type: ignore[type-arg]
    """A choice among the ids of a registry, read when they are asked for (a record
    registered after the command was built is accepted and listed)."""

    def __init__(self, names: Callable[[], Sequence[str]]) -> None:
        self._names = names
        super().__init__(names())

    @property
    def choices(self) -> tuple[str, ...]:
        """The registry's ids, now."""
        return tuple(self._names())

    @choices.setter
    def choices(self, value: object) -> None:
        pass  # always read from the registry


class RecordOption(click.Option):
    """An option whose help is generated from the records when it is shown: pass
    ``describe`` (a function returning the help) instead of ``help``."""

    def __init__(self, *args: Any, describe: Callable[[], str], **kwargs: Any) -> None:
        self._describe = describe
        super().__init__(*args, **kwargs)

    @property
    def help(self) -> str | None:
        """The help, generated now."""
        return self._describe() + self._suffix

    @help.setter
    def help(self, value: str | None) -> None:
        self._suffix = f" {value}" if value else ""


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="irtables")
@click.pass_context
def main(ctx: click.Context) -> None:
    """irtables: paper tables, significance tests and supplements from IR results.

    Point it at a folder of per-query results laid out as DIR/<dataset>/<system>.<ext>
    (trec_eval -q output, tidy or wide CSV/TSV/Parquet/JSONL, pytrec_eval JSON, PyTerrier
    CSV) and optionally an irtables.toml. The documentation (docs/, or make docs) describes
    the formats and every configuration key.
    """
    ctx.with_resource(terminate_as_exit())
    from irtables.workers.leftovers import remove_dead

    remove_dead()  # the temporary folders of irtables processes killed outright


@contextmanager
def terminate_as_exit() -> Iterator[None]:
    """While a command runs, ``SIGTERM`` ends it as ``^C`` does: an exception (exit
    status 143) that stops the worker processes and removes temporary files on its way
    out, instead of an end that leaves both behind. The handler before is restored after
    (nothing is changed outside the main thread, where signals cannot be handled)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _terminated(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


# Not click's exists=True: a missing DIR is one `Error:` line, as every other failure.
RESULTS_ARG = click.argument(
    "results", default=".", type=click.Path(path_type=Path), metavar="[DIR]"
)
CONFIG_OPT = study_option("config")
FORCE_OPT = study_option("force")
JOBS_OPT = study_option("jobs")
SCHEDULER_OPT = study_option("scheduler")
TABLES_OUT_OPT = click.option(
    "-o",
    "--output",
    "outdir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Output folder (default: output.dir of the config, else DIR/tables).",
)
OUTPUT_FILE_OPT = click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Output file (default: standard output).",
)
RELEVANCE_OPT = click.option(
    "-l",
    "relevance",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
    help="Lowest relevant grade for binary measures (trec_eval -l).",
)
REBUILD_OPT = click.option(
    "--rebuild",
    is_flag=True,
    help="Build every output again, even when nothing changed since the last build "
    "(by default a rerun with nothing stale only says so).",
)


VERBOSE_OPT = click.option(
    "-v",
    "--verbose",
    is_flag=True,
    help="List every file and folder skipped as not results (default: one note).",
)


def resolve_for_command(
    request: StudyRequest,
    *,
    progress: Callable[[str, int, int], None] | None,
    verbose: bool = False,
    bounds: bool = True,
) -> Study:
    """:func:`~irtables.study.open_study` of the command's study options; prints the
    note on what was skipped as not results."""
    from irtables.study import open_study

    study = open_study(request, progress=progress, bounds=bounds)
    print_skipped(study.skipped, verbose=verbose)
    return study


def print_unchanged(
    paths: Sequence[Path], notes: Sequence[str] = (), warned: Sequence[str] = ()
) -> None:
    """What a rerun with nothing to do prints: ``unchanged`` for every output, then the
    notes and the warnings of the build it kept."""
    for path in paths:
        click.echo(f"{'unchanged':>9}  {printable(str(path))}")
    for note in notes:
        click.echo(f"Note: {printable(note)}", err=True)
    for message in warned:
        click.echo(f"Warning: {printable(message)}", err=True)


def print_skipped(skipped: tuple[Path, ...], *, verbose: bool) -> None:
    """The note on standard error about files and folders skipped as not results."""
    from irtables.loaders.discover import skipped_note

    for i, line in enumerate(skipped_note(skipped, verbose=verbose)):
        click.echo(f"{'Note: ' if i == 0 else ''}{printable(line)}", err=True)


def study_progress() -> tuple[
    Callable[[str, int, int], None], Callable[[int, int], None], Callable[[], None]
]:
    """Progress bars on standard error (a terminal only) for the steps of a study:
    ``(evaluated, tested, finish)``: runs evaluated, then significance tests."""
    update, finish = stage_progress()

    def evaluated(stage: str, done: int, total: int) -> None:
        if stage == "evaluate":
            update("runs evaluated", done, total)

    def tested(done: int, total: int) -> None:
        update("significance tests", done, total)

    return evaluated, tested, finish


def progress_bar(label: str) -> tuple[Callable[[int, int], None], Callable[[], None]]:
    """A click progress bar on stderr, opened on the first ``update(done, total)``."""
    bars: list[Any] = []

    def update(done: int, total: int) -> None:
        if not sys.stderr.isatty():
            return
        if not bars:
            bars.append(click.progressbar(length=total, label=label, file=sys.stderr))
        bars[0].update(done - bars[0].pos)

    def finish() -> None:
        for bar in bars:
            bar.render_finish()

    return update, finish


def stage_progress() -> tuple[Callable[[str, int, int], None], Callable[[], None]]:
    """Progress bars on stderr (a terminal only), one per stage: ``update(stage, done, total)``."""
    bars: dict[str, Any] = {}

    def update(stage: str, done: int, total: int) -> None:
        if not sys.stderr.isatty() or total <= 0:
            return
        if stage not in bars:
            for bar in bars.values():
                bar.render_finish()
            bars[stage] = click.progressbar(length=total, label=stage, file=sys.stderr)
        bars[stage].update(done - bars[stage].pos)

    def finish() -> None:
        for bar in bars.values():
            bar.render_finish()
        bars.clear()

    return update, finish
