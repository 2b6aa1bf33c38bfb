"""Rendering a template of a templated format (:attr:`Format.template_folder
<irtables.base.formats.Format>`), the user's folders first."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from irtables.base.formats import FORMATS
from irtables.errors import TemplateError

if TYPE_CHECKING:
    from irtables.tables.model import TableModel


def render_named(
    fmt: str, name: str, context: Mapping[str, object], dirs: Sequence[str | Path] = ()
) -> str:
    """Render the template ``<folder>/<name>`` of a templated format with ``context``.

    User template folders (``dirs``) override the built-in templates by name; a missing
    or failing template is a :class:`~irtables.errors.TemplateError`.
    """
    import jinja2  # imported where used: the command line's choices come from FORMATS

    from irtables.render.env import make_environment

    env = make_environment(fmt, dirs)
    path = f"{FORMATS[fmt].template_folder}/{name}"
    try:
        return str(env.get_template(path).render(**context))
    except jinja2.TemplateNotFound as e:
        raise TemplateError(
            f"template not found: {e.name} (looked in {', '.join(map(str, dirs)) or 'built-ins'})"
        ) from None
    except jinja2.TemplateError as e:
        raise TemplateError(f"template {path}: {e}") from None


def render_layout(
    fmt: str, model: TableModel, context: Mapping[str, object], dirs: Sequence[str | Path]
) -> str:
    """Render the template of ``model``'s layout in ``fmt``: ``<layout>.<suffix>.j2``."""
    return render_named(fmt, f"{model.layout}.{FORMATS[fmt].suffix}.j2", context, dirs)
