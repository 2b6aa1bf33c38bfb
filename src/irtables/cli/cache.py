"""`irtables cache`: what the cache of evaluated runs holds, and emptying it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from irtables.cli.common import CONFIG_OPT, RESULTS_ARG, handle_errors, main

if TYPE_CHECKING:
    from irtables.tables.memo import CheckedTests


@main.group("cache")
def cache_group() -> None:
    """The cache of per-query values evaluated from runs (DIR/.irtables-cache).

    Datasets given as qrels + runs in irtables.toml are evaluated once per content of
    their files: a rebuild re-evaluates only the runs (or qrels, options, evaluation
    semantics) that changed. The supplement keeps the results of its significance tests
    there too (tests/), one entry per dataset and metric, reused while their data and
    settings are the same. Entries are checked when read; a damaged one is computed
    again, with a warning. The cache is as trusted as its folder: `cache verify`
    computes again and compares; `--no-cache` on tables, compare, diff and supplement
    skips it.
    """


@cache_group.command("info")
@RESULTS_ARG
@CONFIG_OPT
@handle_errors
def cache_info(results: Path, config_path: Path | None) -> None:
    """Where the cache of a study is, how many entries it holds and their size."""
    from irtables.cache import CACHE_DIR_NAME, entries
    from irtables.cache.results import result_entries
    from irtables.study.load import study_config

    _, base = study_config(results, config_path)
    found, tested = entries(base), result_entries(base)
    size = sum(p.stat().st_size for p in found)
    size_tested = sum(p.stat().st_size for p in tested)
    click.echo(
        f"{base / CACHE_DIR_NAME}: {len(found)} entries, {size / 2**20:.1f} MiB; "
        f"{len(tested)} test results, {size_tested / 2**20:.1f} MiB"
    )


@cache_group.command("clear")
@RESULTS_ARG
@CONFIG_OPT
@handle_errors
def cache_clear(results: Path, config_path: Path | None) -> None:
    """Remove the cache of a study (only the files irtables wrote there)."""
    from irtables.cache import CACHE_DIR_NAME, clear
    from irtables.cache.results import clear_results
    from irtables.study.load import study_config

    _, base = study_config(results, config_path)
    tested = clear_results(base)  # first: the folder is removed once empty
    removed = clear(base)
    click.echo(f"removed {removed} entries and {tested} test results from {base / CACHE_DIR_NAME}")


@cache_group.command("verify")
@RESULTS_ARG
@CONFIG_OPT
@click.option(
    "--sample",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Check N entries chosen at random (default: all).",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=None,
    help="Seed of the random choice of --sample (repeatable).",
)
@handle_errors
def cache_verify(
    results: Path, config_path: Path | None, sample: int | None, seed: int | None
) -> None:
    """Evaluate the cached runs again and run the cached tests again; report every entry
    that differs (exit 1).

    The cache is as trusted as the folder it is in: an entry someone forged checks out
    when read. Run this (or build with --no-cache) before the numbers go into a paper.
    The tests are those of the study's tables as they are now: a test result computed
    from other data or settings is counted, not checked (--sample applies to the runs).
    """
    from irtables.cache.results import result_entries
    from irtables.study.load import study_config
    from irtables.study.verify import verify_cache

    config, base = study_config(results, config_path)
    report = verify_cache(config, base, sample=sample, seed=seed, jobs=None)
    for line in report.lines():
        click.echo(line)
    differ = bool(report.differing)
    if result_entries(base):
        tested = _verify_tested(results, config_path, base)
        for line in tested.lines():
            click.echo(line)
        differ = differ or bool(tested.differing)
    if differ:
        click.get_current_context().exit(1)


def _verify_tested(results: Path, config_path: Path | None, base: Path) -> CheckedTests:
    """Run the tests of the study's tables again (``build_all``, the runs evaluated
    without the cache) and compare each with its cached result."""
    from irtables.study.load import open_study
    from irtables.study.request import study_request
    from irtables.tables import build_all
    from irtables.tables.memo import verify_tested

    study = open_study(study_request(results, config=config_path, jobs=None, cache=False))
    return verify_tested(base, lambda memo: build_all(study.results, study.config, memo=memo))
