"""`irtables numbers`, and the paper check of `irtables check --paper`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from irtables.cli.common import (
    RESULTS_ARG,
    TABLES_OUT_OPT,
    VERBOSE_OPT,
    handle_errors,
    main,
    printable,
    resolve_for_command,
)
from irtables.cli.study_options import study_options
from irtables.render import FORMATS

if TYPE_CHECKING:
    from irtables.study.request import StudyRequest


@main.command("numbers")
@RESULTS_ARG
@study_options("config", "force", "jobs", "cache")
@TABLES_OUT_OPT
@click.option(
    "-f",
    "--format",
    "formats",
    multiple=True,
    type=click.Choice(list(FORMATS)),
    help="numbers.tex is written with latex (default: the formats of the config).",
)
@VERBOSE_OPT
@handle_errors
def numbers_cmd(
    results: Path,
    outdir: Path | None,
    formats: tuple[str, ...],
    verbose: bool,
    request: StudyRequest,
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

    study = resolve_for_command(request, progress=None, verbose=verbose)
    target = outdir or study.base / study.config.output.dir
    chosen = formats or study.config.output.formats
    files = numbers_files(study_numbers(study.results, study.config), chosen)
    files.update(history_files(target, files[NUMBERS_JSON]))
    for item in write_files(target, files, by="tables", force=request.force):
        click.echo(f"{item.status:>9}  {printable(str(item.path))}")


def check_paper_cmd(
    request: StudyRequest,
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
    from irtables.study.request import study_request

    sources, generated = read_paper(papers)
    study = resolve_for_command(request, progress=None)
    current = study_numbers(study.results, study.config)
    folders = [tables_dir] if tables_dir else [study.base / study.config.output.dir, *generated]
    earlier = []
    for folder in dict.fromkeys(f.resolve() for f in folders):  # the paper's numbers.tex too
        earlier += [Earlier(v.texts, v.until) for v in read_history(folder)]
    for spec in against:
        with open_operand(spec) as where:
            old = resolve_for_command(
                study_request(where.results, config=where.config), progress=None
            )
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
