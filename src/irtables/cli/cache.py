"""`irtables cache`: what the cache of evaluated runs holds, and emptying it."""

from __future__ import annotations

from pathlib import Path

import click

from irtables.cli.common import CONFIG_OPT, RESULTS_ARG, handle_errors, main


@main.group("cache")
def cache_group() -> None:
    """The cache of per-query values evaluated from runs (DIR/.irtables-cache).

    Datasets given as qrels + runs in irtables.toml are evaluated once per content of
    their files: a rebuild re-evaluates only the runs (or qrels, options, evaluation
    semantics) that changed. Entries are checked when read; a damaged one is evaluated
    again, with a warning. The cache is as trusted as its folder: `cache verify`
    evaluates again and compares; `--no-cache` on tables, compare and diff skips it.
    """


@cache_group.command("info")
@RESULTS_ARG
@CONFIG_OPT
@handle_errors
def cache_info(results: Path, config_path: Path | None) -> None:
    """Where the cache of a study is, how many entries it holds and their size."""
    from irtables.cache import CACHE_DIR_NAME, entries
    from irtables.study.load import study_config

    _, base = study_config(results, config_path)
    found = entries(base)
    size = sum(p.stat().st_size for p in found)
    click.echo(f"{base / CACHE_DIR_NAME}: {len(found)} entries, {size / 2**20:.1f} MiB")


@cache_group.command("clear")
@RESULTS_ARG
@CONFIG_OPT
@handle_errors
def cache_clear(results: Path, config_path: Path | None) -> None:
    """Remove the cache of a study (only the files irtables wrote there)."""
    from irtables.cache import CACHE_DIR_NAME, clear
    from irtables.study.load import study_config

    _, base = study_config(results, config_path)
    removed = clear(base)
    click.echo(f"removed {removed} entries from {base / CACHE_DIR_NAME}")


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
    """Evaluate the cached runs again and report every entry that differs (exit 1).

    The cache is as trusted as the folder it is in: an entry someone forged checks out
    when read. Run this (or build with --no-cache) before the numbers go into a paper.
    """
    from irtables.study.load import study_config
    from irtables.study.verify import verify_cache

    config, base = study_config(results, config_path)
    report = verify_cache(config, base, sample=sample, seed=seed, jobs=None)
    for line in report.lines():
        click.echo(line)
    if report.differing:
        click.get_current_context().exit(1)
