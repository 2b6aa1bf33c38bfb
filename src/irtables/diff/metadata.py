"""What changed in the runs' ``ir_metadata`` blocks between two versions of a study."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from irtables.loaders.ir_metadata import summary


@dataclass(frozen=True)
class MetadataChange:
    """One PRIMAD component of one run whose ir_metadata differs (None: absent)."""

    dataset: str
    system: str
    component: str
    old: str | None
    new: str | None


def metadata_changes(
    old: Mapping[tuple[str, str], Mapping[str, Any]],
    new: Mapping[tuple[str, str], Mapping[str, Any]],
) -> tuple[MetadataChange, ...]:
    """Every (dataset, system, component) whose flattened value differs, sorted.

    Examples
    --------
    >>> metadata_changes({("d", "s"): {"method": {"k1": 0.9}}},
    ...                  {("d", "s"): {"method": {"k1": 1.2}}})
    (MetadataChange(dataset='d', system='s', component='method', old='k1=0.9', new='k1=1.2'),)
    """
    changes = []
    for key in sorted(set(old) | set(new)):
        a = summary(old.get(key, {}))
        b = summary(new.get(key, {}))
        for component in [*a, *(c for c in b if c not in a)]:
            if a.get(component) != b.get(component):
                changes.append(MetadataChange(*key, component, a.get(component), b.get(component)))
    return tuple(changes)
