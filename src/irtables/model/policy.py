"""What to do when systems of a dataset cover different queries (no heavy imports: the
command line's choices come from here)."""

from __future__ import annotations

from typing import Literal

from irtables.errors import UnknownNameError, unknown_name_message

MissingPolicy = Literal["error", "intersect", "zero"]
MISSING_POLICIES: tuple[str, ...] = ("error", "intersect", "zero")


def check_missing(missing: str | None) -> str | None:
    """``missing`` if it is None or a policy of :data:`MISSING_POLICIES`; the one check of
    ``--missing`` and of :func:`irtables.load_study`'s ``missing``.

    Examples
    --------
    >>> check_missing("zero")
    'zero'
    """
    if missing is None or (isinstance(missing, str) and missing in MISSING_POLICIES):
        return missing
    message = unknown_name_message("missing-query policy", str(missing), MISSING_POLICIES)
    raise UnknownNameError(f"missing: {message}")
