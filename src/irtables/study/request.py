"""What a study is asked with: :class:`StudyRequest`, the options every study command and
:func:`~irtables.study.load_study` share, checked once (:func:`check_request`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from irtables.errors import InputError, UnknownNameError, unknown_name_message


@dataclass(frozen=True)
class StudyRequest:
    """The study options: one value, built by :func:`~irtables.study.load_study` from its
    keyword arguments or by the commands from their options, and checked when built.

    Attributes
    ----------
    path
        A results folder, a result file, or an ``irtables.toml`` (``DIR`` of the commands).
    config
        A configuration file other than ``<folder>/irtables.toml`` (``--config``).
    input_format
        Read every result file in this format, a :data:`~irtables.loaders.LOADERS` key
        (``--input-format``).
    missing
        ``output.missing`` over the configured one: error, intersect or zero (``--missing``).
    jobs
        Processes that evaluate runs given as qrels + runs; None: as many as the work
        pays for (``--jobs``, where 0 stands for None).
    scheduler
        The address of a Dask scheduler that evaluates the runs (``--scheduler``).
    cache
        Read and write the evaluated values in the study's cache (not ``--no-cache``).
    baselines
        Baselines over ``compare.baseline`` and every ``[tables.<name>.compare]``: system
        ids, ``DATASET=SYSTEM`` entries or ``none`` (``--baseline``, repeatable).
    templates
        A folder of templates that override the built-in ones by name (``--templates``).
    force
        Overwrite output files that irtables did not generate (``--force``).
    """

    path: Path = Path(".")
    config: Path | None = None
    input_format: str | None = None
    missing: str | None = None
    jobs: int | None = 1
    scheduler: str | None = None
    cache: bool = True
    baselines: tuple[str, ...] = ()
    templates: Path | None = None
    force: bool = False

    def __post_init__(self) -> None:
        check_request(self)


def study_request(
    path: str | Path = ".",
    *,
    config: str | Path | None = None,
    input_format: str | None = None,
    missing: str | None = None,
    jobs: int | None = 1,
    scheduler: str | None = None,
    cache: bool = True,
    baseline: str | Sequence[str] | None = None,
    templates: str | Path | None = None,
    force: bool = False,
) -> StudyRequest:
    """The request of :func:`~irtables.study.load_study`'s keyword arguments (paths as
    :class:`~pathlib.Path`, one baseline as a tuple of one, an empty scheduler as None)."""
    baselines = (baseline,) if isinstance(baseline, str) else tuple(baseline or ())
    return StudyRequest(
        path=Path(path),
        config=Path(config) if config is not None else None,
        input_format=input_format,
        missing=missing,
        jobs=None if type(jobs) is int and jobs == 0 else jobs,
        scheduler=scheduler or None,
        cache=cache,
        baselines=baselines,
        templates=Path(templates) if templates is not None else None,
        force=force,
    )


def check_request(request: StudyRequest) -> None:
    """Refuse study options no command accepts: the one check of the API and the CLI.

    Raises
    ------
    UnknownNameError
        An unknown input format or missing-query policy, naming the closest choice.
    InputError
        A number of processes that is not a whole number of at least 0 (0 and None stand
        for as many as pay), with the message ``--jobs`` gives; a malformed scheduler
        address (:func:`~irtables.workers.cluster.check_address`); a templates folder
        that is not a folder (``--templates`` as the command line checks it).
    """
    from irtables.loaders.registry import LOADERS
    from irtables.model.policy import check_missing
    from irtables.workers.cluster import check_address
    from irtables.workers.executor import check_jobs

    if request.input_format is not None and request.input_format not in LOADERS:
        what = unknown_name_message("input format", request.input_format, sorted(LOADERS))
        raise UnknownNameError(what)
    check_missing(request.missing)  # the checks of --missing, --jobs and --scheduler
    check_jobs(request.jobs)
    if request.scheduler:
        check_address(request.scheduler)
    if request.templates is not None and not request.templates.is_dir():
        raise InputError(f"templates: {str(request.templates)!r} is not a folder of templates")
