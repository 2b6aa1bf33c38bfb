"""What to do when systems of a dataset cover different queries (no heavy imports: the
command line's choices come from here)."""

from __future__ import annotations

from typing import Literal

MissingPolicy = Literal["error", "intersect", "zero"]
MISSING_POLICIES: tuple[str, ...] = ("error", "intersect", "zero")
