"""The study options, declared once: :func:`study_options` gives a command the ones it
takes and hands it one :class:`~irtables.study.request.StudyRequest` (as ``request``)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from irtables.loaders.registry import LOADERS
from irtables.model.policy import MISSING_POLICIES, check_missing
from irtables.workers.cluster import SCHEDULER_ENV, check_address
from irtables.workers.executor import check_jobs

if TYPE_CHECKING:
    from irtables.study.request import StudyRequest

F = TypeVar("F", bound=Callable[..., Any])


class StudyOption(click.Option):
    """An option of :data:`STUDY_OPTIONS`: ``study_field`` names the request field it sets."""

    def __init__(self, *args: Any, study_field: str, **kwargs: Any) -> None:
        self.study_field = study_field
        super().__init__(*args, **kwargs)


def _checked(check: Callable[[Any], object], param: click.Parameter, value: Any) -> Any:
    """``value`` after ``check``, the check :func:`~irtables.study.load_study` makes: its
    message as click's, after the option's name (which click puts first)."""
    from irtables.errors import IrtablesError

    if value is not None:
        try:
            check(value)
        except IrtablesError as e:
            raise click.BadParameter(str(e).removeprefix(f"{param.name}: ")) from None
    return value


def _check_scheduler(address: str | None) -> str | None:
    """``address`` after the check of :mod:`irtables.workers.cluster` (empty: none),
    before any work: its one ``Error:`` line (exit status 2), as when a client tries it."""
    from irtables.errors import IrtablesError

    if address:
        try:
            check_address(address)
        except IrtablesError as e:
            raise _AddressError(str(e)) from None
    return address


class _AddressError(click.ClickException):
    """A malformed scheduler address: ``Error: <message>``, exit status 2."""

    exit_code = 2


def check_config_file(path: Path) -> None:
    """The configuration check of :mod:`irtables.config`, imported when an option is read."""
    from irtables.config import check_config_file as check

    check(path)


#: Each study option: its field of the request -> (its declarations, its click settings).
STUDY_OPTIONS: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "config": (
        ("--config", "config_path"),
        {
            "type": click.Path(path_type=Path),
            "callback": lambda ctx, param, value: _checked(check_config_file, param, value),
            "help": "Configuration file (default: DIR/irtables.toml if present).",
        },
    ),
    "input_format": (
        ("--input-format",),
        {
            "type": click.Choice(sorted(LOADERS)),
            "help": "Read every result file in this format instead of detecting it.",
        },
    ),
    "missing": (
        ("--missing",),
        {
            "metavar": f"[{'|'.join(MISSING_POLICIES)}]",
            "callback": lambda ctx, param, value: _checked(check_missing, param, value),
            "help": "When systems of a dataset cover different queries: error (default), "
            "intersect (keep common queries) or zero (score missing queries 0).",
        },
    ),
    "templates": (
        ("--templates", "template_dir"),
        {
            "type": click.Path(exists=True, file_okay=False, path_type=Path),
            "help": "Folder of templates that override the built-in ones by name.",
        },
    ),
    "baselines": (
        ("--baseline", "baselines"),
        {
            "multiple": True,
            "help": "Baseline system; repeatable; DATASET=SYSTEM for one dataset "
            "(default: compare.baseline of the config, else the first system).",
        },
    ),
    "force": (
        ("--force",),
        {
            "is_flag": True,
            "help": "Overwrite output files that irtables did not generate (its own it "
            "rewrites anyway).",
        },
    ),
    "jobs": (
        ("-j", "--jobs"),
        {
            "type": int,
            "default": 0,
            "callback": lambda ctx, param, value: _checked(check_jobs, param, value),
            "help": "Processes working at the same time: runs evaluated (and the "
            "supplement's figures drawn), one process each (default 0: as many as the work "
            "pays for, at most one per core; 1: all in this process). The results do not "
            "depend on it.",
        },
    ),
    "scheduler": (
        ("--scheduler",),
        {
            "envvar": SCHEDULER_ENV,
            "metavar": "ADDRESS",
            "callback": lambda ctx, param, value: _check_scheduler(value),
            "help": "Evaluate runs on the Dask cluster of this scheduler (tcp://host:8786; "
            "also IRTABLES_SCHEDULER) instead of local processes; its workers read the files "
            "at the same paths (a shared filesystem). Needs irtables[dask].",
        },
    ),
    "cache": (
        ("--no-cache",),
        {
            "is_flag": True,
            "help": "Evaluate every run given as qrels + runs again, without reading or "
            "writing the cache (DIR/.irtables-cache; `irtables cache clear` empties it).",
        },
    ),
}


def study_option(name: str, *, help: str | None = None) -> Callable[[F], F]:
    """The click decorator of one study option (``help`` over its own, where a command
    says what the option does there)."""
    decls, settings = STUDY_OPTIONS[name]
    if help is not None:
        settings = {**settings, "help": help}
    return click.option(*decls, cls=StudyOption, study_field=name, **settings)


def _parameter(name: str) -> str:
    """The keyword argument click passes an option's value as."""
    decls = STUDY_OPTIONS[name][0]
    explicit = [d for d in decls if d.isidentifier()]
    return explicit[0] if explicit else decls[-1].lstrip("-").replace("-", "_")


def study_options(*names: str, baseline_help: str | None = None) -> Callable[[F], F]:
    """Give a command the study options ``names`` (fields of
    :class:`~irtables.study.request.StudyRequest`; all of them when none is named) and
    pass it ``request``, the request they make with its ``results`` argument (if it has
    one) as the path; options a command does not take keep the request's defaults.
    ``--jobs 0`` becomes None (as many processes as pay), ``--no-cache`` ``cache=False``.
    """
    chosen = names or tuple(STUDY_OPTIONS)
    unknown = set(chosen) - set(STUDY_OPTIONS)
    if unknown:
        raise ValueError(f"not study options: {sorted(unknown)}")

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            values = {name: kwargs.pop(_parameter(name)) for name in chosen}
            kwargs["request"] = request_of(values, kwargs.get("results"))
            return func(*args, **kwargs)

        decorated: Any = wrapper
        for name in reversed(chosen):
            text = baseline_help if name == "baselines" else None
            decorated = study_option(name, help=text)(decorated)
        return decorated  # type: ignore[no-any-return]

    return decorate


def request_of(values: dict[str, Any], path: Path | None = None) -> StudyRequest:
    """The :class:`~irtables.study.request.StudyRequest` of the study options' values as
    click parses them (keyed by request field), checked as :func:`~irtables.load_study`
    checks its arguments."""
    from irtables.study.request import StudyRequest

    fields = dict(values)
    if "jobs" in fields:
        fields["jobs"] = fields["jobs"] or None
    if "cache" in fields:
        fields["cache"] = not fields["cache"]
    if "scheduler" in fields:
        fields["scheduler"] = fields["scheduler"] or None
    return StudyRequest(path=path if path is not None else Path("."), **fields)
