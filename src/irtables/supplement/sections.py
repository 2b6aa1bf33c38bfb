"""The sections of the supplement, in the one order its three outlines follow: the
LaTeX document (``supplement.tex``), the folder's ``README.md`` and ``index.html``.

Each outline lays out a section its own way; which sections there are, what each is
called and in which order they come is decided here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Section:
    """One section: ``key`` names it in the templates and is the context entry whose
    content decides whether it is shown (None: always shown); ``title`` its heading;
    ``anchor`` its id in ``index.html``."""

    key: str
    title: str
    anchor: str
    shown_by: str | None = None


#: Every section of the supplement, in order.
SECTIONS: tuple[Section, ...] = (
    Section("methods", "Methods", "methods"),
    Section("tables", "Results", "tables"),
    Section("significance", "Significance tests", "significance", "significance"),
    Section("per_query", "Per-query analysis", "per-query", "wtl"),
    Section("meta", "Meta-analysis across datasets", "meta-analysis", "meta"),
    Section("tss", "Topic-set size", "topic-set-size", "tss"),
    Section("figures", "Figures", "figures", "figures"),
    Section("notes", "Notes", "notes", "notes"),
)


def present_sections(context: Mapping[str, object]) -> list[Section]:
    """The sections a supplement shows: those whose context entry has content.

    Examples
    --------
    >>> [s.key for s in present_sections({"significance": [1], "wtl": [], "figures": [2]})]
    ['methods', 'tables', 'significance', 'figures']
    """
    return [s for s in SECTIONS if s.shown_by is None or context.get(s.shown_by)]
