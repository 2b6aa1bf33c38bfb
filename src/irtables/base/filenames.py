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

MAX_SLUG = 80  # a dataset's part of a file name
MAX_STEM = 160  # a whole file name without extension ("tableS1-" + a dataset's slug)
_OTHER = re.compile(r"[^A-Za-z0-9_-]+")
_RESERVED = frozenset(
    {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}
)


def slug(name: str, *, max_length: int = MAX_SLUG) -> str:
    """A readable, file-name-safe form of ``name`` (never empty, at most ``max_length``
    characters; a slug is its own slug).

    Examples
    --------
    >>> slug("TREC DL 2019"), slug("x/../../../escaped"), slug("Université")
    ('TREC_DL_2019', 'x_escaped', 'Universite')
    >>> slug("cast2021"), slug("中文")
    ('cast2021', 'n-72726d88')
    """
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    text = _OTHER.sub("_", folded).strip("_-")
    text = re.sub(r"__+", "_", text)[:max_length].rstrip("_-")
    if not text:
        return f"n-{_digest(name)}"
    if text.lower() in _RESERVED:
        return f"{text}_"
    return text


def file_slugs(names: Iterable[str], *, max_length: int = MAX_SLUG) -> dict[str, str]:
    """A distinct slug for each of ``names`` (distinct even ignoring case).

    A name whose slug no other name shares keeps it; among names that share one (also
    ignoring case), the first name equal to the slug keeps it and the others get ``-``
    and 8 hex digits of their SHA-256: the result depends on the set of names, not on
    their order.

    Examples
    --------
    >>> file_slugs(["x y", "x_y", "cacm"])
    {'x y': 'x_y-887fcea6', 'x_y': 'x_y', 'cacm': 'cacm'}
    """
    unique = list(dict.fromkeys(names))
    plain = {n: slug(n, max_length=max_length) for n in unique}
    groups: dict[str, list[str]] = {}
    for n in unique:
        groups.setdefault(plain[n].casefold(), []).append(n)
    out: dict[str, str] = {}
    for n in unique:
        members = groups[plain[n].casefold()]
        exact = sorted(m for m in members if m == plain[m])  # BM25 and bm25: one keeps it
        keeps = len(members) == 1 or (bool(exact) and n == exact[0])
        out[n] = plain[n] if keeps else f"{plain[n]}-{_digest(n)}"
    check_distinct(out.items(), what="names")
    return out


def file_stems(names: Iterable[str]) -> dict[str, str]:
    """File names (without extension) for outputs named ``names`` (``table1``,
    ``tableS1-<dataset>``, a configured table's name): their distinct slugs.

    Examples
    --------
    >>> file_stems(["table1", "tableS1-cast2021", "../../x"])
    {'table1': 'table1', 'tableS1-cast2021': 'tableS1-cast2021', '../../x': 'x'}
    """
    return file_slugs(names, max_length=MAX_STEM)


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
