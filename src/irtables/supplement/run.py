"""The ``irtables supplement`` job: read, build, compile, write. The I/O lives here."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from irtables.base.record import read_record, sha256_hex
from irtables.config import Config
from irtables.errors import InputError
from irtables.model import ResultSet
from irtables.output.aside import aside_note
from irtables.output.writers import Written, write_files
from irtables.study.load import open_study
from irtables.study.request import StudyRequest, study_request
from irtables.study.run_metadata import configured_run_metadata
from irtables.supplement.build import build_supplement, readme
from irtables.supplement.drawing import warm_up
from irtables.supplement.index_page import index_page
from irtables.supplement.manifest import MANIFEST, Manifest, read_manifest, relative
from irtables.supplement.outputs import Output
from irtables.supplement.pdf import compile_pdf, pdflatex_available
from irtables.supplement.reproduction import reproduction_section
from irtables.supplement.rerun import build_manifest, kept_pdf, kept_warnings, options_record
from irtables.supplement.reuse import KeptFigure, kept_figures
from irtables.supplement.study import default_outdir
from irtables.tables.memo import StoredTests

Progress = Callable[[str, int, int], None]
PR_MEASURES = tuple(f"IPrec@{i / 10:g}" for i in range(11))
PDF = "supplement.pdf"


@dataclass(frozen=True)
class SupplementRun:
    """What ``make_supplement`` did: the folder, every file's status and the notes."""

    outdir: Path
    written: tuple[Written, ...]
    notes: tuple[str, ...]
    skipped: tuple[Path, ...] = ()  # files and folders of the results that hold no results
    drawn: tuple[str, ...] = ()  # the figures drawn (stems)
    kept: tuple[str, ...] = ()  # the figures kept from the earlier build (:mod:`.reuse`)
    compiled: bool = False  # whether pdflatex ran (else the PDF was kept, or not made)
    #: the units of tests run, (dataset, metric), and those whose results were reused
    tests_run: tuple[tuple[str, str], ...] = ()
    tests_reused: tuple[tuple[str, str], ...] = ()


def make_supplement(
    results_path: str | Path | StudyRequest,
    *,
    config_path: str | Path | None = None,
    outdir: str | Path | None = None,
    force: bool = False,
    template_dirs: Sequence[str | Path] = (),
    pdf: bool = True,
    progress: Progress | None = None,
    workers: int | None = 1,
    scheduler: str | None = None,
    rebuild: bool = False,
) -> SupplementRun:
    """Build the supplement of a study and write it into ``outdir`` with its manifest.

    ``outdir`` defaults to ``supplement/`` beside the configuration (or in the results
    folder). Files whose content is unchanged are not rewritten; files that irtables did
    not generate are not overwritten unless ``force``. The PDF is compiled when ``pdf``
    and pdflatex is available; otherwise a note says why it is missing. Runs given as
    qrels + runs are evaluated, and the figures drawn, in ``workers`` processes
    (``None``: as many as the work pays for, at most one per core), or the runs on the
    Dask cluster of ``scheduler`` (:mod:`irtables.workers.cluster`); a script that asks for more
    than one must guard its entry point with ``if __name__ == "__main__":``, as for any
    :mod:`multiprocessing` code.

    ``results_path`` may be a :class:`~irtables.study.request.StudyRequest` (as the
    command passes its options): it then gives the configuration, ``force``, the
    processes, the scheduler and a templates folder (after ``template_dirs``), and
    ``config_path``, ``force``, ``workers`` and ``scheduler`` are not read.
    pdflatex runs only when a source it reads (``.tex``, figure ``.pdf``) differs from
    what the manifest of ``outdir`` recorded, or ``rebuild``; otherwise the PDF there, as
    recorded, is kept (pdflatex gives the same bytes). Likewise a figure is drawn only
    when what it draws differs from what the manifest recorded (:mod:`.reuse`), or
    ``rebuild``; otherwise its files there are kept. And the tests of each dataset and
    metric run only when what they are computed from differs from the results kept in
    the study's cache (:mod:`irtables.tables.memo`), or ``rebuild`` (they are then run
    and kept), or the request says not to use the cache.
    """
    if isinstance(results_path, StudyRequest):
        request = results_path
    else:
        request = study_request(
            results_path, config=config_path, jobs=workers, scheduler=scheduler, force=force
        )
    workers, scheduler = request.jobs, request.scheduler
    warm_up(workers)  # the workers' fork server starts while the results are read

    def evaluated(stage: str, done: int, total: int) -> None:
        if progress is not None and stage == "evaluate":
            progress("runs evaluated", done, total)

    with kept_warnings() as warned:  # kept in the manifest, for a rerun to give again
        study = open_study(request, progress=evaluated)
        results, config, base = study.results, study.config, study.base
        target = Path(outdir) if outdir is not None else default_outdir(base)
        dirs = [*(Path(d) for d in template_dirs), *study.template_dirs]
        pr = _pr_results(config, base, progress, workers, scheduler, request.cache)
        memo = StoredTests.of_study(base, cache=request.cache, rebuild=rebuild)
        built = build_supplement(
            results,
            config,
            pr_results=pr,
            template_dirs=dirs,
            progress=progress,
            workers=workers,
            reproduction=reproduction_section(config, base, dirs),
            earlier=None if rebuild else _earlier_figures(target),
            memo=memo,
        )
        outputs, notes = list(built.outputs), list(built.notes)
        compiling = pdf and pdflatex_available()
        if pdf and not compiling:
            notes.append(f"{PDF} was not compiled: pdflatex was not found.")
        earlier = None if compiling else _earlier_pdf(target)
        if earlier is not None:  # not asked to replace it: kept as it is, not moved aside
            outputs.append(Output(PDF, earlier))
            notes.append(
                f"{PDF} is kept from an earlier build (not compiled in this run): it may not "
                "show these sources; compile supplement.tex, or rerun without --no-pdf."
            )
        with ThreadPoolExecutor(1) as latex:  # pdflatex runs while the indexes are rendered
            sources = [(o.path, o.data) for o in outputs if o.path.endswith((".tex", ".pdf"))]
            kept = None if rebuild or not compiling else kept_pdf(target, sources, PDF)
            if compiling and kept is None and progress is not None:
                progress("pdflatex", 0, 1)
            pending = latex.submit(compile_pdf, sources) if compiling and kept is None else None
            outputs.append(readme(built, pdf=compiling, template_dirs=dirs))
            outputs.append(index_page(built, pdf=compiling, template_dirs=dirs))
            if kept is not None:
                outputs.append(Output(PDF, kept))
            if pending is not None:
                outputs.append(Output(PDF, pending.result()))  # a LaTeX error is raised here
                if progress is not None:
                    progress("pdflatex", 1, 1)
    hashes = {o.path: sha256_hex(o.data) for o in outputs}
    options = options_record({"pdf": compiling}, dirs, target)
    blocks = configured_run_metadata(config, base).values()  # the runs' ir_metadata
    manifest = build_manifest(
        request.path,
        config,
        base,
        target,
        hashes,
        notes=notes,
        options=options,
        warned=warned,
        run_metadata={relative(path, target): data for path, data in blocks},
        figures=built.figures,
    )
    written = _write(target, outputs, manifest, force=request.force)
    grown = aside_note(target) if any(w.status == "moved aside" for w in written) else None
    notes += [grown] if grown is not None else []
    return SupplementRun(
        target,
        tuple(written),
        tuple(notes),
        study.skipped,
        drawn=built.drawn,
        kept=built.kept,
        compiled=pending is not None,
        tests_run=tuple(memo.ran),
        tests_reused=tuple(memo.reused),
    )


def _pr_results(
    config: Config,
    base: Path,
    progress: Progress | None,
    workers: int | None,
    scheduler: str | None,
    cache: bool = True,
) -> ResultSet | None:
    """Interpolated precision at the 11 recall levels, for datasets given as qrels + runs:
    evaluated as :func:`~irtables.study.load_study` evaluates them (``workers``, the cache
    unless ``cache`` is False)."""
    from irtables.study.runsets import evaluate_datasets

    def evaluated(stage: str, done: int, total: int) -> None:
        if progress is not None and stage == "evaluate":
            progress("evaluation (precision-recall)", done, total)

    datasets = tuple(
        replace(d, measures=PR_MEASURES) if d.evaluated else d for d in config.datasets
    )
    return evaluate_datasets(
        replace(config, datasets=datasets),
        base,
        progress=evaluated,
        jobs=workers,
        cache=cache,
        scheduler=scheduler or config.scheduler,
    )


def _earlier_figures(target: Path) -> dict[str, KeptFigure]:
    """The figures of the build in ``target`` that may be kept (:func:`kept_figures`):
    none when there is no readable manifest there."""
    try:
        manifest = read_manifest(target) if target.is_dir() else None
    except InputError:
        return {}  # not ours to read: every figure is drawn
    if manifest is None:
        return {}
    return kept_figures(manifest.figures, manifest.outputs, target)


def _earlier_pdf(target: Path) -> bytes | None:
    """The PDF an earlier build wrote into ``target``, if it is still what it wrote
    (the record of written files says so); None otherwise."""
    entry = read_record(target, warn=False).files.get(PDF) if target.is_dir() else None
    path = target / PDF
    if entry is None or entry.by != "supplement" or not path.is_file() or path.is_symlink():
        return None
    data = path.read_bytes()
    return data if sha256_hex(data) == entry.sha256 else None


def _write(
    target: Path, outputs: Sequence[Output], manifest: Manifest, *, force: bool
) -> list[Written]:
    """Write every output and the manifest at once; outputs of an earlier build that
    this one no longer makes are removed if untouched (the record of written files
    says what irtables wrote: :mod:`irtables.base.record`)."""
    files = [(o.path, o.data) for o in outputs]
    files.append((MANIFEST, manifest.to_json().encode("utf-8")))
    return write_files(target, files, by="supplement", force=force, remove_dropped=True)
