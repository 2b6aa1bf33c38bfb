"""What a LaTeX label may hold: the rule the configuration checks and ``render()`` enforces."""

from __future__ import annotations

import re

#: What a LaTeX label may hold: it goes into \label{...} and \ref{...} unescaped.
LABEL_PATTERN = re.compile(r"[A-Za-z0-9:._/-]+")
LABEL_CHARACTERS = "letters, digits and : . _ / -"


def label_problem(label: str) -> str | None:
    r"""Why ``label`` cannot be a LaTeX label, or None when it can.

    A label is written into ``\label{}`` as it is (escaping would change what
    ``\ref`` must say), so it may only hold :data:`LABEL_CHARACTERS`.

    Examples
    --------
    >>> label_problem("tab:s1-dl19") is None
    True
    >>> label_problem("tab:x}{y")
    "'tab:x}{y' holds '}'; a label may only hold letters, digits and : . _ / -"
    """
    if LABEL_PATTERN.fullmatch(label):
        return None
    bad = next((c for c in label if not LABEL_PATTERN.fullmatch(c)), "")
    what = f"holds {bad!r}" if label else "is empty"
    return f"{label!r} {what}; a label may only hold {LABEL_CHARACTERS}"
