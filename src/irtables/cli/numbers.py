"""`irtables numbers`, and the paper check of `irtables check --paper`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import click

from irtables.cli.common import (
    CONFIG_OPT,
    FORCE_OPT,
    JOBS_OPT,
    NO_CACHE_OPT,
    RESULTS_ARG,
    VERBOSE_OPT,
    handle_errors,
    main,
    printable,
    resolve_for_command,
)
from irtables.render import FORMATS


@main.command("numbers")
@RESULTS_ARG
@CONFIG_OPT
@click.option(
    "-o",
    "--output",
    "outdir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Output folder (default: output.dir of the config, else DIR/tables).",
)
@click.option(
    "-f",
    "--format",
    "formats",
    multiple=True,
    type=click.Choice(list(FORMATS)),
    help="numbers.tex is written with latex (default: the formats of the config).",
)
@FORCE_OPT
@JOBS_OPT
@NO_CACHE_OPT
@VERBOSE_OPT
@handle_errors
def numbers_cmd(
    results: Path,
    config_path: Path | None,
    outdir: Path | None,
    formats: tuple[str, ...],
    force: bool,
    jobs: int,
    no_cache: bool,
    verbose: bool,
) -> None:
    """Write only numbers.json and numbers.tex: every number the tables show, citable.

    Each number has a key <table>/<dataset>/<system>/<metric> (ids, e.g.
    table1/robust03/bm25/nDCG@10); numbers.tex defines \\irtnum{KEY}, \\irtdelta{KEY},
    \\irtrel{KEY}, \\irtp{KEY} and \\irtcount{DATASET/topics}, DATASET/systems.
    """
    from irtables.output.history import history_files
    from irtables.output.writers import write_files
    from irtables.render.citable import NUMBERS_JSON, numbers_files
    from irtables.study.citable import study_numbers

    study = resolve_for_command(
        results,
        config_path=config_path,
        input_format=None,
        missing=None,
        jobs=jobs,
        no_cache=no_cache,
        progress=None,
        verbose=verbose,
    )
    target = outdir or study.base / study.config.output.dir
    chosen = formats or study.config.output.formats
    files = numbers_files(study_numbers(study.results, study.config), chosen)
    files.update(history_files(target, files[NUMBERS_JSON]))
    for item in write_files(target, files, by="tables", force=force):
        click.echo(f"{item.status:>9}  {printable(str(item.path))}")


def check_paper_cmd(
    results: Path,
    config_path: Path | None,
    papers: Sequence[Path],
    against: Sequence[str],
    tables_dir: Path | None,
) -> None:
    """Check ``papers`` against the study's numbers; exit status 1 on a stale number
    or an unknown key (a hand-typed current number is a warning)."""
    from irtables.diff.gitsource import open_operand
    from irtables.lint.paper import Earlier, check_paper, earlier_of
    from irtables.output.history import read_history
    from irtables.study.citable import study_numbers
    from irtables.study.paper import read_paper

    sources, generated = read_paper(papers)
    study = resolve_for_command(
        results, config_path=config_path, input_format=None, missing=None, jobs=1,
        no_cache=False, progress=None,
    )  # fmt: skip
    current = study_numbers(study.results, study.config)
    folders = [tables_dir] if tables_dir else [study.base / study.config.output.dir, *generated]
    earlier = []
    for folder in dict.fromkeys(f.resolve() for f in folders):  # the paper's numbers.tex too
        earlier += [Earlier(v.texts, v.until) for v in read_history(folder)]
    for spec in against:
        with open_operand(spec) as where:
            old = resolve_for_command(
                where.results, config_path=where.config, input_format=None, missing=None,
                jobs=1, no_cache=False, progress=None,
            )  # fmt: skip
            earlier.append(earlier_of(study_numbers(old.results, old.config), spec))
    findings = check_paper(sources, current, earlier)
    for f in findings:
        click.echo(printable(str(f)))
    failed = [f for f in findings if f.kind != "current"]
    if failed:
        click.echo(f"{len(failed)} stale number(s) or unknown key(s) in the paper", err=True)
        click.get_current_context().exit(1)
    if not findings:
        click.echo("the paper cites no number by hand", err=True)
