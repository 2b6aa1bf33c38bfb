"""Rendering the supplement's page templates (methods text, supplement.tex, README index)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from irtables.render import render_named


def render_page(
    fmt: str, name: str, context: Mapping[str, object], dirs: Sequence[str | Path] = ()
) -> str:
    """Render ``latex/<name>``, ``markdown/<name>`` or ``html/<name>`` with ``context``.

    User template folders (``dirs``) override the built-in templates by name, as for tables.
    """
    return render_named(fmt, name, context, dirs)
