"""A rerun costs what changed: when nothing did, ``tables`` and ``supplement`` say so
without reading the results, testing, drawing or compiling anything.

A build records what it was made from in a manifest (:class:`Manifest`): irtables'
version, the configuration, the SHA-256 of every input file, the command's options that
shape the outputs (formats, baselines, PDF or not, the user's template files) and the
SHA-256 of every output. ``supplement`` keeps it in ``manifest.json``, ``tables`` in
:data:`TABLES_MANIFEST` (hidden, like the record of written files). A rerun asks the
rule of ``irtables check`` (:func:`~irtables.supplement.check.check_build`) whether
anything is stale, then compares the options: one rule decides "current" for both.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from irtables._version import __version__
from irtables.base.code import code_digest
from irtables.base.record import file_sha256, sha256_hex
from irtables.config import Config
from irtables.errors import InputError
from irtables.output.writers import Written, write_files
from irtables.render.configured import template_dirs_for
from irtables.study.request import StudyRequest
from irtables.supplement.check import check_build
from irtables.supplement.manifest import (
    MANIFEST,
    Manifest,
    hash_inputs,
    hash_templates,
    read_manifest,
    relative,
)
from irtables.supplement.study import config_file, input_files

#: The manifest of ``irtables tables`` in its output folder.
TABLES_MANIFEST = ".irtables-tables.json"


def options_record(
    options: Mapping[str, Any], template_dirs: Sequence[Path], target: Path
) -> dict[str, Any]:
    """The options as a manifest records them: JSON values, with the user's template
    folders (relative to ``target``) and the SHA-256 of every file in them.

    Examples
    --------
    >>> options_record({"pdf": True}, [], Path("out"))
    {'pdf': True, 'template_dirs': [], 'templates': {}}
    """
    record: dict[str, Any] = {k: list(v) if isinstance(v, tuple) else v for k, v in options.items()}
    record["template_dirs"] = [relative(d, target) for d in template_dirs]
    record["templates"] = hash_templates(list(template_dirs), target)
    return record


def build_manifest(
    results_path: str | Path,
    config: Config,
    base: Path,
    target: Path,
    outputs: Mapping[str, str],
    *,
    notes: Sequence[str] = (),
    options: Mapping[str, Any] | None = None,
    warned: Sequence[str] = (),
    run_metadata: Mapping[str, Mapping[str, Any]] | None = None,
    figures: Mapping[str, str] | None = None,
) -> Manifest:
    """The manifest of a build into ``target``: ``outputs`` maps each output's path
    (relative to ``target``) to its SHA-256; ``options`` come from :func:`options_record`;
    ``figures`` maps each figure's stem to its recipe (:mod:`.reuse`)."""
    path = config_file(config)
    return Manifest(
        version=__version__,
        results=relative(Path(results_path), target),
        config=relative(path, target) if path is not None else None,
        config_sha256=sha256_hex(path.read_bytes()) if path is not None else None,
        settings=dict(config.raw),
        inputs=hash_inputs(input_files(results_path, config, base), target),
        outputs=dict(outputs),
        notes=tuple(notes),
        evaluation={
            d.id: {
                "trec_eval": d.trec_eval,
                "relevance": d.relevance,
                "depth": d.depth,
                "complete": d.complete,
            }
            for d in config.datasets
            if d.evaluated
        },
        run_metadata=dict(run_metadata or {}),
        options=dict(options or {}),
        warnings=tuple(warned),
        figures=dict(figures or {}),
        code=code_digest(),
    )


@dataclass(frozen=True)
class Unchanged:
    """A build a rerun would make again byte for byte: its files (the manifest
    ``manifest.json`` included, as a build lists it) and the notes and warnings it gave."""

    paths: tuple[Path, ...]
    notes: tuple[str, ...]
    warnings: tuple[str, ...] = ()


@contextmanager
def kept_warnings() -> Iterator[list[str]]:
    """Collect the messages of the warnings given inside (each once, in order) into the
    list yielded, filled on leaving, and give the warnings again there: a build's
    manifest keeps them, so that a rerun that does nothing still shows them."""
    messages: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            yield messages
        finally:
            messages.extend(dict.fromkeys(str(w.message) for w in caught))
    for w in caught:
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)


def unchanged_request(
    request: StudyRequest,
    outdir: str | Path | None,
    options: Mapping[str, Any],
    *,
    rebuild: bool = False,
    tables: bool = False,
) -> Unchanged | None:
    """:func:`unchanged_build` of a command's study request (its path, configuration and
    templates folder); None when ``rebuild`` asks for a build anyway."""
    if rebuild:
        return None
    return unchanged_build(
        request.path,
        config_path=request.config,
        outdir=outdir,
        options=options,
        template_dirs=[request.templates] if request.templates else [],
        tables=tables,
    )


def unchanged_build(
    results_path: str | Path,
    *,
    config_path: str | Path | None,
    outdir: str | Path | None,
    options: Mapping[str, Any],
    template_dirs: Sequence[str | Path] = (),
    tables: bool = False,
) -> Unchanged | None:
    """The files of the build in ``outdir`` if a rerun with ``options`` would make
    exactly what it holds (nothing is stale for ``irtables check`` and the options and
    template files are the recorded ones), else None: the command must run.

    ``tables``: the build of ``irtables tables`` (its manifest :data:`TABLES_MANIFEST`,
    its folder ``output.dir`` by default), else of ``irtables supplement``.
    """
    try:  # a manifest that cannot be read is stale: the build writes a new one
        if tables:
            checked = check_build(
                results_path,
                config_path=config_path,
                outdir=outdir,
                manifest_name=TABLES_MANIFEST,
                default_target=lambda config, base: base / config.output.dir,
                command="tables",
            )
        else:
            checked = check_build(results_path, config_path=config_path, outdir=outdir)
    except InputError:
        return None
    if checked.stale or checked.manifest is None:
        return None
    dirs = template_dirs_for(checked.config, checked.base, template_dirs)
    if options_record(options, dirs, checked.target) != checked.manifest.options:
        return None
    manifest = checked.manifest
    names = sorted(manifest.outputs) + ([] if tables else [MANIFEST])
    paths = tuple(checked.target / n for n in names)
    return Unchanged(paths, tuple(manifest.notes), tuple(manifest.warnings))


def kept_pdf(target: Path, sources: Sequence[tuple[str, bytes]], pdf: str) -> bytes | None:
    """The bytes of the PDF in ``target`` if pdflatex would make it again: its manifest
    records exactly these ``sources`` (the ``.tex`` and ``.pdf`` files pdflatex reads,
    byte for byte) and the PDF there is the one recorded; else None (compile)."""
    try:
        manifest = read_manifest(target)
    except InputError:
        return None
    if manifest is None or pdf not in manifest.outputs:
        return None
    recorded = {
        p: h for p, h in manifest.outputs.items() if p.endswith((".tex", ".pdf")) and p != pdf
    }
    if recorded != {path: sha256_hex(data) for path, data in sources}:
        return None
    path = target / pdf
    if path.is_symlink() or not path.is_file():
        return None
    data = path.read_bytes()
    return data if sha256_hex(data) == manifest.outputs[pdf] else None


def write_tables_manifest(
    results_path: str | Path,
    config: Config,
    base: Path,
    target: Path,
    written: Sequence[Written],
    options: Mapping[str, Any],
    template_dirs: Sequence[Path],
    *,
    warned: Sequence[str] = (),
    force: bool = False,
) -> None:
    """Write :data:`TABLES_MANIFEST` into ``target`` after ``irtables tables`` wrote
    ``written`` there with ``options`` and the user's ``template_dirs``, giving the
    warnings ``warned`` (:func:`kept_warnings`)."""
    outputs = {relative(w.path, target): file_sha256(w.path) for w in written}
    record = options_record(options, template_dirs, target)
    manifest = build_manifest(
        results_path, config, base, target, outputs, options=record, warned=warned
    )
    write_files(target, {TABLES_MANIFEST: manifest.to_json()}, by="tables", force=force)
