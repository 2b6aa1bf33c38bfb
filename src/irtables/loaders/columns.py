"""Column names of tabular inputs: which header spelling plays which role."""

from __future__ import annotations

from collections.abc import Sequence

from irtables.errors import InputError

#: Accepted spellings (lower case) of each role.
ROLE_NAMES: dict[str, tuple[str, ...]] = {
    "query": ("query", "qid", "query_id", "queryid", "topic"),
    "metric": ("metric", "measure"),
    "value": ("value",),
    "system": ("system", "name", "run", "runid"),
    "dataset": ("dataset",),
    "seed": ("seed", "fold"),
}
_BY_NAME = {alias: role for role, aliases in ROLE_NAMES.items() for alias in aliases}
#: Names pandas gives an unnamed index column written by ``DataFrame.to_csv``.
INDEX_NAMES = frozenset({"", "unnamed: 0", "index"})


def role_of(name: str) -> str | None:
    """The role of a header name, or None.

    Examples
    --------
    >>> role_of(" QID "), role_of("measure"), role_of("nDCG@10")
    ('query', 'metric', None)
    """
    return _BY_NAME.get(name.strip().lower())


def is_index(name: str, position: int) -> bool:
    """Whether a column is a leftover pandas index (only as the first column)."""
    return position == 0 and name.strip().lower() in INDEX_NAMES


def tidy_roles(header: Sequence[str], path: str, line: int | None) -> list[str | None]:
    """Roles of the columns of a tidy header (None: a dropped index column).

    Raises
    ------
    InputError
        On a missing required column, an unexpected column or a repeated role.

    Examples
    --------
    >>> tidy_roles(["", "name", "qid", "measure", "value"], "x.csv", 1)
    [None, 'system', 'query', 'metric', 'value']
    """
    roles: list[str | None] = []
    for i, name in enumerate(header):
        role = role_of(name)
        if role is None and not is_index(name, i):
            raise InputError(
                f"unexpected column {name!r}; expected query, metric, value "
                "and optionally system, dataset, seed",
                path=path,
                line=line,
            )
        if role is not None and role in roles:
            raise InputError(f"column {role!r} given twice (as {name!r})", path=path, line=line)
        roles.append(role)
    missing = [r for r in ("query", "metric", "value") if r not in roles]
    if missing:
        raise InputError(
            f"missing column(s) {', '.join(missing)}; expected a header with "
            "query, metric, value (or qid, measure, value)",
            path=path,
            line=line,
        )
    return roles


def wide_roles(header: Sequence[str], path: str, line: int | None) -> list[str | None]:
    """Roles of a wide header: ``query``, ``system``, ``dataset``, None (index) or ``metric``.

    Examples
    --------
    >>> wide_roles(["qid", "P_10", "map"], "x.csv", 1)
    ['query', 'metric', 'metric']
    """
    roles: list[str | None] = []
    for i, name in enumerate(header):
        role = role_of(name)
        if role in ("metric", "value"):
            role = "metric"  # a measure literally called "value" is not one we know
        if role is None:
            role = None if is_index(name, i) else "metric"
        elif role in roles:
            raise InputError(f"column {role!r} given twice (as {name!r})", path=path, line=line)
        roles.append(role)
    if "query" not in roles:
        raise InputError(
            "expected a query column (query, qid or query_id) and one column per metric",
            path=path,
            line=line,
        )
    if "metric" not in roles:
        raise InputError("expected at least one metric column", path=path, line=line)
    return roles
