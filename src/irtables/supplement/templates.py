"""Rendering the supplement's page templates (methods text, supplement.tex, README index)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import jinja2

from irtables.errors import TemplateError
from irtables.render import TEMPLATE_FOLDERS
from irtables.render.env import make_environment


def render_page(
    fmt: str, name: str, context: Mapping[str, object], dirs: Sequence[str | Path] = ()
) -> str:
    """Render ``latex/<name>``, ``markdown/<name>`` or ``html/<name>`` with ``context``.

    User template folders (``dirs``) override the built-in templates by name, as for tables.
    """
    env = make_environment(fmt, dirs)
    path = f"{TEMPLATE_FOLDERS[fmt][0]}/{name}"
    try:
        return str(env.get_template(path).render(**context))
    except jinja2.TemplateNotFound as e:
        raise TemplateError(f"template not found: {e.name}") from None
    except jinja2.TemplateError as e:
        raise TemplateError(f"template {path}: {e}") from None
