"""Names that become file names: readable ASCII slugs, distinct for distinct names.

A dataset called ``TREC DL 2019`` or ``msmarco/dev`` gives the file ``tableS1-<slug>``
and the figure ``k-<slug>``. The slug keeps letters, digits, ``-`` and ``_`` (accents are
dropped: ``Université`` → ``Universite``); anything else becomes ``_``. It is safe in
any file system and in LaTeX's ``\\input`` and ``\\includegraphics``. Two names with the
same slug (``x y`` and ``x_y``; ``BM25`` and ``bm25`` on a case-insensitive disk) get
distinct ones, so one output never replaces another.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable

from irtables.errors import OutputError

MAX_SLUG = 80
_OTHER = re.compile(r"[^A-Za-z0-9_-]+")
_RESERVED = frozenset(
    {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}
)


def slug(name: str) -> str:
    """A readable, file-name-safe form of ``name`` (never empty, at most 80 characters).

    Examples
    --------
    >>> slug("TREC DL 2019"), slug("x/../../../escaped"), slug("Université")
    ('TREC_DL_2019', 'x_escaped', 'Universite')
    >>> slug("cast2021"), slug("中文")
    ('cast2021', 'n-72726d88')
    """
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    text = _OTHER.sub("_", folded).strip("_-")
    text = re.sub(r"__+", "_", text)[:MAX_SLUG].rstrip("_-")
    if not text:
        return f"n-{_digest(name)}"
    if text.lower() in _RESERVED:
        return f"{text}_"
    return text


def file_slugs(names: Iterable[str]) -> dict[str, str]:
    """A distinct slug for each of ``names`` (distinct even ignoring case).

    A name whose slug no other name shares keeps it; among names that share one, a name
    equal to the slug keeps it and the others get ``-`` and 8 hex digits of their
    SHA-256, so the result depends on the set of names, not on their order.

    Examples
    --------
    >>> file_slugs(["x y", "x_y", "cacm"])
    {'x y': 'x_y-887fcea6', 'x_y': 'x_y', 'cacm': 'cacm'}
    """
    unique = list(dict.fromkeys(names))
    plain = {n: slug(n) for n in unique}
    groups: dict[str, list[str]] = {}
    for n in unique:
        groups.setdefault(plain[n].casefold(), []).append(n)
    out: dict[str, str] = {}
    for n in unique:
        shared = len(groups[plain[n].casefold()]) > 1
        out[n] = f"{plain[n]}-{_digest(n)}" if shared and n != plain[n] else plain[n]
    check_distinct(out.items(), what="names")
    return out


def check_distinct(pairs: Iterable[tuple[str, str]], *, what: str = "outputs") -> None:
    """Raise :class:`~irtables.errors.OutputError` naming two sources of one file name.

    ``pairs`` are (source, file name); names equal ignoring case clash too, because a
    case-insensitive file system (macOS, Windows) would store them as one file.

    Examples
    --------
    >>> check_distinct([("a", "t.tex"), ("b", "T.tex")])
    Traceback (most recent call last):
    ...
    irtables.errors.OutputError: two outputs would be the same file: 'a' and 'b' both become 'T.tex'
    """
    seen: dict[str, str] = {}
    for source, name in pairs:
        key = name.casefold()
        if key in seen and seen[key] != source:
            raise OutputError(
                f"two {what} would be the same file: {seen[key]!r} and {source!r} "
                f"both become {name!r}"
            )
        seen[key] = source


def _digest(name: str) -> str:
    return hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
