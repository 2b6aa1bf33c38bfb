"""A table laid out as a study's configuration asks: what ``irtables tables`` writes.

The table model is format-neutral; the choices of one output format that the
configuration makes (LaTeX's placement: ``output.wide``, ``output.resize``, a section's
``wide``) and the user's templates are applied here, for the command and for
:meth:`irtables.Study.render` alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from irtables.config import Config
    from irtables.tables.model import TableModel


def render_configured(
    model: TableModel, fmt: str, config: Config, template_dirs: Sequence[str | Path] = ()
) -> str:
    """The text of the file ``irtables tables`` writes for ``model`` in ``fmt``."""
    from irtables.render import render
    from irtables.render.latex import latex_options

    return render(model, fmt, template_dirs=template_dirs, latex=latex_options(config, model))


def template_dirs_for(config: Config, base: Path, extra: Sequence[str | Path] = ()) -> list[Path]:
    """User template folders: ``--templates`` first, then the configured one.

    Raises
    ------
    ConfigError
        If ``output.templates`` names no folder (a typo would silently give the built-in
        templates).
    """
    dirs = [Path(d) for d in extra]
    if config.output.templates:
        folder = base / config.output.templates
        if not folder.is_dir():
            from irtables.errors import ConfigError

            raise ConfigError(
                f"{config.path or '<config>'}: output.templates: {str(folder)!r} is not a folder"
            )
        dirs.append(folder)
    return dirs
