"""Small pieces of English text shared by captions, notes and the methods text."""

from __future__ import annotations

from collections.abc import Sequence


def join_and(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``: a list as a sentence names it.

    Examples
    --------
    >>> join_and(["a"]), join_and(["a", "b"]), join_and(["a", "b", "c"])
    ('a', 'a and b', 'a, b and c')
    """
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
