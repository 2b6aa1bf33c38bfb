"""``irtables check``: is a supplement current? Compares the inputs, the configuration,
the user's templates, the irtables version and the outputs with what ``manifest.json``
recorded. The same rule decides whether a rerun of ``supplement`` or ``tables`` has
anything to do (:mod:`irtables.supplement.rerun`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from irtables._version import __version__
from irtables.base.code import code_digest
from irtables.base.paths import inside, regular_or_absent
from irtables.base.record import file_sha256, read_record
from irtables.config import Config
from irtables.errors import OutputError
from irtables.supplement.manifest import (
    MANIFEST,
    Manifest,
    hash_inputs,
    hash_templates,
    read_manifest,
    relative,
)
from irtables.supplement.study import config_file, default_outdir, input_files, locate

StaleKind = Literal["manifest", "version", "config", "input", "template", "output"]


@dataclass(frozen=True)
class StaleItem:
    """One reason why the supplement is not current.

    Examples
    --------
    >>> str(StaleItem("input", "../cacm/bm25.tsv", "changed since the supplement was built"))
    'input ../cacm/bm25.tsv: changed since the supplement was built'
    """

    kind: StaleKind
    path: str
    reason: str

    def __str__(self) -> str:
        return f"{self.kind} {self.path}: {self.reason}"


def check_supplement(
    results_path: str | Path,
    *,
    config_path: str | Path | None = None,
    outdir: str | Path | None = None,
) -> tuple[Path, list[StaleItem]]:
    """The supplement folder checked and what is stale in it (empty: everything is current)."""
    checked = check_build(results_path, config_path=config_path, outdir=outdir)
    return checked.target, checked.stale


@dataclass(frozen=True)
class Checked:
    """An output folder against its manifest: what is stale (empty: current)."""

    target: Path
    config: Config
    base: Path
    manifest: Manifest | None
    stale: list[StaleItem]


def check_build(
    results_path: str | Path,
    *,
    config_path: str | Path | None = None,
    outdir: str | Path | None = None,
    manifest_name: str = MANIFEST,
    default_target: Callable[[Config, Path], Path] = lambda _, base: default_outdir(base),
    command: str = "supplement",
) -> Checked:
    """Check the folder of a build (``outdir``, else ``default_target(config, base)``)
    against its manifest ``manifest_name``: irtables' version, the results folder, the
    configuration, the input files, the user's templates and the outputs must be as
    recorded."""
    config, base = locate(results_path, config_path)
    target = Path(outdir) if outdir is not None else default_target(config, base)
    manifest = read_manifest(target, manifest_name)
    if manifest is None:
        missing = StaleItem("manifest", manifest_name, f"missing: run irtables {command}")
        return Checked(target, config, base, None, [missing])
    stale: list[StaleItem] = []
    if manifest.version != __version__:
        reason = f"built by irtables {manifest.version}, this is {__version__}"
        stale.append(StaleItem("version", "irtables", reason))
    elif manifest.code != code_digest():
        reason = (
            f"built by other code of irtables {__version__} "
            f"({manifest.code[:12] or 'not recorded'}, this is {code_digest()[:12]})"
        )
        stale.append(StaleItem("version", "irtables", reason))
    stale += _results(manifest, Path(results_path), target)
    stale += _config(manifest, config_file(config), target)
    current = hash_inputs(input_files(results_path, config, base), target)
    stale += _compare("input", manifest.inputs, current)
    stale += _templates(manifest, target)
    stale += _outputs(manifest, target)
    stale += _left_over(manifest, target)
    return Checked(target, config, base, manifest, stale)


def _templates(manifest: Manifest, target: Path) -> list[StaleItem]:
    """The user's template folders the build read, hashed again."""
    folders = manifest.options.get("template_dirs", [])
    was = manifest.options.get("templates", {})
    if not isinstance(folders, list) or not isinstance(was, dict):
        return [StaleItem("template", "(options)", "not as irtables records them")]
    current = hash_templates([target / str(d) for d in folders], target)
    return _compare("template", was, current)


def _results(manifest: Manifest, results: Path, target: Path) -> list[StaleItem]:
    """The results folder the build was made from, if not the one checked (the manifest
    records it relative to ``target``; an absolute path, as an edit may leave, is taken
    as it is). Compared as resolved paths: another spelling of one folder is the same."""
    try:
        same = (target / manifest.results).resolve() == results.resolve()
    except (OSError, RuntimeError):  # a symlink loop: not the folder checked
        same = False
    if same:
        return []
    reason = f"the supplement was built from {manifest.results}"
    return [StaleItem("input", relative(results, target), reason)]


def _config(manifest: Manifest, path: Path | None, target: Path) -> list[StaleItem]:
    now = relative(path, target) if path is not None else None
    if now != manifest.config:
        was = manifest.config or "(none: defaults)"
        return [StaleItem("config", now or "(none)", f"the configuration was {was}")]
    if path is not None and file_sha256(path) != manifest.config_sha256:
        return [StaleItem("config", now or "", "changed since the supplement was built")]
    return []


def _compare(
    kind: StaleKind, was: Mapping[str, str], current: Mapping[str, str]
) -> list[StaleItem]:
    out = []
    for path in sorted(set(was) | set(current)):
        if path not in current:
            out.append(StaleItem(kind, path, "removed since the supplement was built"))
        elif path not in was:
            out.append(StaleItem(kind, path, "new since the supplement was built"))
        elif was[path] != current[path]:
            out.append(StaleItem(kind, path, "changed since the supplement was built"))
    return out


def _outputs(manifest: Manifest, target: Path) -> list[StaleItem]:
    """Outputs that are missing or edited; paths come checked from the manifest and are
    only read inside ``target`` (never through a symlink)."""
    out = []
    for rel, sha in sorted(manifest.outputs.items()):
        try:
            path = inside(target, rel)
            present = regular_or_absent(path)
        except OutputError:
            out.append(StaleItem("output", rel, "not a regular file inside the folder"))
            continue
        if not present:
            out.append(StaleItem("output", rel, "missing"))
        elif file_sha256(path) != sha:
            out.append(StaleItem("output", rel, "edited since it was generated"))
    return out


def _left_over(manifest: Manifest, target: Path) -> list[StaleItem]:
    """Outputs of an earlier build that this one no longer makes and that are still there
    as irtables wrote them (a run killed before it moved them aside, or one that could
    not): the next run moves them aside."""
    out = []
    for rel, entry in sorted(read_record(target, warn=False).files.items()):
        if entry.by != "supplement" or rel == MANIFEST or rel in manifest.outputs:
            continue
        try:
            path = inside(target, rel)
            if regular_or_absent(path) and entry.accepts(file_sha256(path)):
                out.append(StaleItem("output", rel, "no longer made: the next run moves it aside"))
        except (OutputError, OSError):
            continue
    return out
