"""`irtables supplement` and `irtables check`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from irtables.cli.common import (
    REBUILD_OPT,
    RESULTS_ARG,
    VERBOSE_OPT,
    handle_errors,
    main,
    print_skipped,
    print_unchanged,
    printable,
    stage_progress,
)
from irtables.cli.study_options import study_options

if TYPE_CHECKING:
    from irtables.study.request import StudyRequest

SUPPLEMENT_OUT_OPT = click.option(
    "-o",
    "--output",
    "outdir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Supplement folder (default: supplement/ beside the configuration, else in DIR).",
)


@main.command("supplement")
@RESULTS_ARG
@study_options("config", "templates", "force", "jobs", "scheduler", "cache")
@SUPPLEMENT_OUT_OPT
@click.option("--no-pdf", is_flag=True, help="Do not compile supplement.pdf.")
@REBUILD_OPT
@VERBOSE_OPT
@handle_errors
def supplement_cmd(
    results: Path,
    request: StudyRequest,
    outdir: Path | None,
    no_pdf: bool,
    rebuild: bool,
    verbose: bool,
) -> None:
    """Write the supplementary material: tables, tests, per-query analysis, figures,
    methods text with references.bib, supplement.tex (and .pdf) and manifest.json.

    Deterministic: a rerun on the same inputs rewrites nothing, and when nothing is stale
    for `irtables check` (and the options are the same) it only says so (--rebuild builds
    anyway). The significance tests of each dataset and metric are kept in the cache
    (DIR/.irtables-cache/tests) and run again only when their data or settings changed
    (--rebuild and --no-cache run them all).
    """
    from irtables.supplement.pdf import pdflatex_available
    from irtables.supplement.rerun import unchanged_request

    options = {"pdf": not no_pdf and pdflatex_available()}
    same = unchanged_request(request, outdir, options, rebuild=rebuild)
    if same is not None:
        print_unchanged(same.paths, same.notes, same.warnings)
        return
    from irtables.supplement.run import make_supplement

    update, finish = stage_progress()
    try:
        done = make_supplement(
            request, outdir=outdir, pdf=not no_pdf, progress=update, rebuild=rebuild
        )
    finally:
        finish()
    for item in done.written:
        moved = f" -> {printable(str(item.moved_to))}" if item.moved_to is not None else ""
        click.echo(f"{item.status:>9}  {printable(str(item.path))}{moved}")
    for note in done.notes:
        click.echo(f"Note: {printable(note)}", err=True)
    print_skipped(done.skipped, verbose=verbose)


@main.command("check")
@RESULTS_ARG
@study_options("config")
@SUPPLEMENT_OUT_OPT
@click.option(
    "--paper",
    "papers",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Check this LaTeX paper (repeatable) against the numbers of the tables instead.",
)
@click.option(
    "--against",
    multiple=True,
    metavar="REV:path",
    help="With --paper: an earlier version of the results (git REV:path, or a folder) "
    "whose numbers count as stale when the paper still has them; repeatable.",
)
@click.option(
    "--tables",
    "tables_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="With --paper: the tables folder whose history of numbers is read (default: "
    "output.dir of the config, and the folder of each generated file the paper inputs).",
)
@handle_errors
def check_cmd(
    results: Path,
    request: StudyRequest,
    outdir: Path | None,
    papers: tuple[Path, ...],
    against: tuple[str, ...],
    tables_dir: Path | None,
) -> None:
    """Check that the supplement is current; exit status 1 naming what is stale.

    Stale: an input file or the configuration changed, was added or removed, irtables'
    version differs, or an output was edited by hand (all against manifest.json).

    With --paper: report each number typed by hand in the paper (and the files it
    \\input/\\include/\\subfile-s) that a table shows, with the key to cite it by (a warning),
    each number that a key showed before the tables were last regenerated (stale,
    exit status 1), and each \\irtnum, \\irtdelta, \\irtrel, \\irtp or \\irtcount of an
    unknown key (exit status 1).
    """
    from irtables.supplement.check import check_supplement

    if papers:
        from irtables.cli.numbers import check_paper_cmd

        check_paper_cmd(request, papers, against, tables_dir)
        return
    target, stale = check_supplement(results, config_path=request.config, outdir=outdir)
    for item in stale:
        click.echo(f"stale  {printable(str(item))}")  # paths read from the manifest
    if stale:
        click.echo(f"{target} is stale; rerun irtables supplement", err=True)
        if outdir is None and _looks_like_a_supplement(results, target):
            hint = f"{results} holds a supplement's manifest.json: to check that folder, run "
            hint += f"`irtables check RESULTS -o {results}`"
            click.echo(f"Note: {printable(hint)}", err=True)
        click.get_current_context().exit(1)
    click.echo(f"{target} is current")


def _looks_like_a_supplement(results: Path, target: Path) -> bool:
    """Whether ``results`` is itself a supplement folder (it has a manifest.json, the
    folder checked has none): a likely mix-up of the results and the supplement."""
    return (results / "manifest.json").is_file() and not (Path(target) / "manifest.json").exists()
