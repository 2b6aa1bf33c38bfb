"""`irtables reproduce`: an original study against its reproductions, as repro_eval measures it."""

from __future__ import annotations

from pathlib import Path

import click

from irtables.base.formats import FORMATS
from irtables.base.repro_defaults import DEFAULT_CUTOFFS, DEFAULT_MEASURES, RBO_DEPTH, RBO_P
from irtables.cli.common import FORCE_OPT, OUTPUT_FILE_OPT, RELEVANCE_OPT, handle_errors, main
from irtables.evaluator.versions import DEFAULT_TREC_EVAL, TREC_EVAL_VERSIONS

#: The format of an output file, by its suffix (the format records'; .txt: the terminal's).
_SUFFIXES = {f".{f.suffix}": name for name, f in FORMATS.items()} | {".txt": "text"}


@main.command("reproduce")
@click.argument(
    "original",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    metavar="ORIGINAL_DIR",
)
@click.argument(
    "reproduced",
    nargs=-1,
    required=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    metavar="REPRODUCED_DIR...",
)
@click.option(
    "--pair",
    "pairs",
    nargs=2,
    multiple=True,
    metavar="BASE ADV",
    help="A baseline and an advanced system (run file names without extension): ER and "
    "DeltaRI of ADV over BASE; repeatable.",
)
@click.option(
    "-s",
    "--system",
    "systems",
    multiple=True,
    help="A system compared alone (KTU, RBO, RMSE, p-value); repeatable. Default, without "
    "--pair or --system: every run of ORIGINAL_DIR.",
)
@click.option(
    "-m",
    "--measure",
    "measures",
    multiple=True,
    help="Measure (trec_eval, ir_measures or ranx spelling); repeatable. "
    f"Default: {', '.join(DEFAULT_MEASURES)}.",
)
@click.option(
    "--cutoff",
    "cutoffs",
    multiple=True,
    type=click.IntRange(min=1),
    help=f"Cutoff of KTU and RBO; repeatable. Default: {', '.join(map(str, DEFAULT_CUTOFFS))}.",
)
@click.option(
    "--rbo-p",
    type=click.FloatRange(min=0, max=1, min_open=True, max_open=True),
    default=RBO_P,
    show_default=True,
    help="RBO's persistence p (repro_eval's RBO_P).",
)
@click.option(
    "--rbo-depth",
    type=click.IntRange(min=1),
    default=RBO_DEPTH,
    show_default=True,
    help="RBO's depth (repro_eval's RBO_DEPTH).",
)
@RELEVANCE_OPT
@click.option(
    "--trec-eval",
    "trec_eval",
    type=click.Choice(TREC_EVAL_VERSIONS),
    default=DEFAULT_TREC_EVAL,
    show_default=True,
    help="Whose semantics rank and evaluate the runs (9.0.8: scores equal as 32-bit floats "
    "tie, broken by document id descending).",
)
@click.option(
    "-f",
    "--format",
    "fmt",
    type=click.Choice(["text", *FORMATS]),
    help="Output format. Default: from the -o file's extension ("
    + " ".join(f".{f.suffix}" for f in FORMATS.values())
    + "), else a terminal table.",
)
@OUTPUT_FILE_OPT
@FORCE_OPT
@handle_errors
def reproduce_cmd(
    original: Path,
    reproduced: tuple[Path, ...],
    pairs: tuple[tuple[str, str], ...],
    systems: tuple[str, ...],
    measures: tuple[str, ...],
    cutoffs: tuple[int, ...],
    rbo_p: float,
    rbo_depth: int,
    relevance: int,
    trec_eval: str,
    fmt: str | None,
    output: Path | None,
    force: bool,
) -> None:
    """Compare the runs of ORIGINAL_DIR with those of each REPRODUCED_DIR (Breuer et al.,
    SIGIR 2020; the numbers of repro_eval 0.5.0).

    Each folder holds one qrels file (its name contains 'qrels') and one run file per
    system (beside it or in a runs/ folder). A reproduction with the same judgements (by
    content) as the original is a reproducibility study: KTU and RBO at each cutoff, RMSE,
    nRMSE, ER, DeltaRI and a paired t-test; with other judgements a replicability study:
    ER, DeltaRI and an unpaired t-test.
    """
    from irtables.errors import InputError
    from irtables.render.reproduction import render_reproduction
    from irtables.study.reproduction import folder_side, reproduce
    from irtables.tables.reproduction import reproduction_table

    if fmt is None:
        fmt = _SUFFIXES.get(output.suffix.lower(), "text") if output is not None else "text"
    if output is not None:
        from irtables.output.writers import check_destination

        check_destination(output, force=force)
    side = folder_side(original)
    sides = [folder_side(p) for p in reproduced]
    names = [s.name for s in sides]
    if len(set(names)) != len(names) or side.name in names:
        raise InputError(
            "expected folders of different names (the reproductions are named by them)"
        )
    if not pairs and not systems:
        systems = tuple(side.runs)
    rows = reproduce(
        side,
        sides,
        pairs=list(pairs),
        systems=systems,
        metrics=measures or DEFAULT_MEASURES,
        cutoffs=cutoffs or DEFAULT_CUTOFFS,
        rbo_p=rbo_p,
        rbo_depth=rbo_depth,
        relevance=relevance,
        trec_eval="10" if trec_eval == "10" else "9.0.8",
    )
    table = reproduction_table(rows, original=side.name, rbo_p=rbo_p, rbo_depth=rbo_depth)
    text = render_reproduction(table, rows, fmt)
    if output is None:
        click.echo(text, nl=False)
    else:
        from irtables.output.writers import write_atomic

        status = write_atomic(output, text, by="reproduce", force=force)
        click.echo(f"{status:>9}  {output}", err=True)
