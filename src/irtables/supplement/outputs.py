"""What the parts of the supplement hand to its assembly: files and figure entries.

Kept apart from :mod:`.build`, which imports the parts (:mod:`.across`, ...): a part
that makes files or figures imports this module, never the assembly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from matplotlib.figure import Figure


@dataclass(frozen=True)
class Output:
    """One file of the supplement: its path inside the output folder and its bytes."""

    path: str
    data: bytes


@dataclass(frozen=True)
class FigureEntry:
    """A figure for the LaTeX and Markdown indexes: file stem (no extension) and caption."""

    stem: str
    caption: str


#: A figure to draw: its entry and a picklable callable that draws it (see :mod:`.drawing`).
Plan = tuple[FigureEntry, Callable[[], "Figure"]]
