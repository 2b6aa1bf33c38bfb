"""`irtables supplement` and `irtables check`."""

from __future__ import annotations

from pathlib import Path

import click

from irtables.cli.common import (
    CONFIG_OPT,
    FORCE_OPT,
    JOBS_OPT,
    REBUILD_OPT,
    RESULTS_ARG,
    SCHEDULER_OPT,
    VERBOSE_OPT,
    handle_errors,
    main,
    print_skipped,
    print_unchanged,
    printable,
    stage_progress,
)

SUPPLEMENT_OUT_OPT = click.option(
    "-o",
    "--output",
    "outdir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Supplement folder (default: supplement/ beside the configuration, else in DIR).",
)


@main.command("supplement")
@RESULTS_ARG
@CONFIG_OPT
@SUPPLEMENT_OUT_OPT
@click.option(
    "--templates",
    "template_dir",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Folder of templates that override the built-in ones by name.",
)
@click.option("--no-pdf", is_flag=True, help="Do not compile supplement.pdf.")
@REBUILD_OPT
@FORCE_OPT
@JOBS_OPT
@SCHEDULER_OPT
@VERBOSE_OPT
@handle_errors
def supplement_cmd(
    results: Path,
    config_path: Path | None,
    outdir: Path | None,
    template_dir: Path | None,
    no_pdf: bool,
    rebuild: bool,
    force: bool,
    jobs: int,
    scheduler: str | None,
    verbose: bool,
) -> None:
    """Write the supplementary material: tables, tests, per-query analysis, figures,
    methods text with references.bib, supplement.tex (and .pdf) and manifest.json.

    Deterministic: a rerun on the same inputs rewrites nothing, and when nothing is stale
    for `irtables check` (and the options are the same) it only says so (--rebuild builds
    anyway).
    """
    from irtables.supplement.pdf import pdflatex_available
    from irtables.supplement.rerun import unchanged_build

    options = {"pdf": not no_pdf and pdflatex_available()}
    extra = [template_dir] if template_dir else []
    same = (
        None
        if rebuild
        else unchanged_build(
            results, config_path=config_path, outdir=outdir, options=options, template_dirs=extra
        )
    )
    if same is not None:
        print_unchanged(same.paths, same.notes, same.warnings)
        return
    from irtables.supplement.run import make_supplement

    update, finish = stage_progress()
    try:
        done = make_supplement(
            results,
            config_path=config_path,
            outdir=outdir,
            force=force,
            template_dirs=[template_dir] if template_dir else [],
            pdf=not no_pdf,
            progress=update,
            workers=jobs or None,
            scheduler=scheduler or None,
            rebuild=rebuild,
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
@CONFIG_OPT
@SUPPLEMENT_OUT_OPT
@handle_errors
def check_cmd(results: Path, config_path: Path | None, outdir: Path | None) -> None:
    """Check that the supplement is current; exit status 1 naming what is stale.

    Stale: an input file or the configuration changed, was added or removed, irtables'
    version differs, or an output was edited by hand (all against manifest.json).
    """
    from irtables.supplement.check import check_supplement

    target, stale = check_supplement(results, config_path=config_path, outdir=outdir)
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
