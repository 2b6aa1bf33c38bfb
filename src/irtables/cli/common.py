"""The command-line group, its error handling, shared options and progress displays."""

from __future__ import annotations

import functools
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from irtables._version import __version__
from irtables.errors import IrtablesError
from irtables.loaders.registry import LOADERS
from irtables.model.policy import MISSING_POLICIES

F = TypeVar("F", bound=Callable[..., Any])


class _CliError(click.ClickException):
    """An irtables error shown to the user: ``Error: <message>``, exit status 2."""

    exit_code = 2


def handle_errors(func: F) -> F:
    """Turn irtables errors into exit status 2 and print warnings without tracebacks."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                return func(*args, **kwargs)
            except IrtablesError as e:
                raise _CliError(str(e)) from e
            finally:
                for w in caught:
                    click.echo(f"Warning: {w.message}", err=True)

    return wrapper  # type: ignore[return-value]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="irtables")
def main() -> None:
    """irtables: paper tables, significance tests and supplements from IR results.

    Point it at a folder of per-query results laid out as DIR/<dataset>/<system>.<ext>
    (trec_eval -q output, tidy or wide CSV/TSV/Parquet/JSONL, pytrec_eval JSON, PyTerrier
    CSV) and optionally an irtables.toml; see README.md for the formats and config keys.
    """


RESULTS_ARG = click.argument(
    "results", default=".", type=click.Path(exists=True, path_type=Path), metavar="[DIR]"
)
CONFIG_OPT = click.option(
    "--config",
    "config_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Configuration file (default: DIR/irtables.toml if present).",
)
INPUT_FORMAT_OPT = click.option(
    "--input-format",
    type=click.Choice(sorted(LOADERS)),
    help="Read every result file in this format instead of detecting it.",
)
MISSING_OPT = click.option(
    "--missing",
    type=click.Choice(MISSING_POLICIES),
    help="When systems of a dataset cover different queries: error (default), intersect "
    "(keep common queries) or zero (score missing queries 0).",
)

JOBS_OPT = click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=0),
    default=0,
    help="Runs evaluated at the same time, one process each (default 0: one per core; "
    "1: in this process). The results do not depend on it.",
)
NO_CACHE_OPT = click.option(
    "--no-cache",
    is_flag=True,
    help="Evaluate every run given as qrels + runs again, without reading or writing the "
    "cache (DIR/.irtables-cache; `irtables cache clear` empties it).",
)


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
