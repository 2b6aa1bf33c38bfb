"""What a table section chooses: its datasets, its systems, its title.

Shared by every layout's builder; takes the datasets and systems the results have, so it
needs no table code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from irtables.config import Config
from irtables.config.tables import TableSpec, built_in_tables
from irtables.errors import IrtablesError


def chosen_datasets(spec: TableSpec, present: Sequence[str], where: str) -> list[str]:
    """The datasets a table names (in its order), else every dataset of ``present``;
    unknown ids are errors."""
    if not spec.datasets:
        return list(present)
    for d in spec.dataset_ids:
        if d not in present:
            raise IrtablesError(
                f"{where}.datasets: unknown dataset {d!r} (known: {', '.join(present)})"
            )
    return list(spec.dataset_ids)


def chosen_systems(
    spec: TableSpec,
    present: Mapping[str, Sequence[str]],
    datasets: Sequence[str],
    config: Config,
) -> tuple[str, ...]:
    """The systems a table names (in its order), else those of ``datasets`` in display
    order; ``present`` holds the systems of each dataset."""
    found = tuple(dict.fromkeys(s for d in datasets for s in present.get(d, ())))
    if not spec.systems:
        return config.systems_in_order(found)
    for s in spec.systems:
        if s not in found:
            raise IrtablesError(
                f"tables.{spec.name}.systems: system {s!r} has no results on "
                f"{', '.join(datasets)} (known: {', '.join(found)})"
            )
    return spec.systems


def table_title(spec: TableSpec) -> str:
    """The configured title, else ``Table 1`` for the main table (``Table 2`` for the
    ablation), else ``""``: the table gets its number among the study's tables
    (:func:`~irtables.tables.build.number_tables`)."""
    found = built_in_tables().get(spec.name)
    return spec.title or (found.title if found is not None else "")
