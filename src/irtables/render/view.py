"""A table model as plain data for a template, every string escaped for one format.

Each typeset format (:mod:`~irtables.render.latex`, :mod:`~irtables.render.markdown`,
:mod:`~irtables.render.html_page`, :mod:`~irtables.render.typst`) renders from this view
with its own ``escape`` and ``typeset``; nothing else escapes a user string.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from irtables.render.columns import marker_pads
from irtables.render.numbers import delta_note
from irtables.tables.model import Cell, TableModel


def escaped_view(
    model: TableModel, esc: Callable[[str], str], typeset: Callable[[str], str]
) -> dict[str, Any]:
    """The model as plain data, every string escaped for the target format (``esc``);
    numbers typeset (``typeset``: a typographic minus) and an ablation's Δ as the
    ``note`` after the value."""

    pads = marker_pads(model)

    def cell(c: Cell, pad: str) -> dict[str, Any]:
        return {
            "text": esc(typeset(c.text)),
            "best": c.best,
            "second": c.second,
            "markers": esc(c.markers),
            "pad": esc(pad),
            "note": esc(delta_note(c, typeset)),
            "spread": esc(typeset(c.spread)),
            "span": c.span,
        }

    return {
        "name": model.name,
        "title": esc(model.title),
        "layout": model.layout,
        "stub": [esc(s) for s in model.stub],
        "columns": [{"key": c.key, "label": esc(c.label)} for c in model.columns],
        "groups": [
            {
                "label": esc(g.label) if g.label else None,
                "rows": [
                    {
                        "label": esc(r.label),
                        "description": esc(r.description) if r.description else None,
                        "cells": [cell(c, pads.get((i, k, n), "")) for n, c in enumerate(r.cells)],
                    }
                    for k, r in enumerate(g.rows)
                ],
            }
            for i, g in enumerate(model.groups)
        ],
        "column_groups": [{"label": esc(g.label), "span": g.span} for g in model.column_groups],
        "caption": esc(model.caption_text),
        "footnote": esc(model.footnote) if model.footnote else None,
        "label": model.label,
        "description_header": esc(model.description_header) if model.description_header else None,
    }
