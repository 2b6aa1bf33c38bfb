"""Tables of ``[tables.<name>]`` sections: any number, any layout.

:func:`build_configured` turns one :class:`~irtables.config.tables.TableSpec` into its
table models with the builder its layout's record names
(:data:`~irtables.config.tables.LAYOUTS`): one per dataset for ``k_breakdown``, else one.
"""

from __future__ import annotations

from dataclasses import replace

from irtables.config import Config
from irtables.config.tables import TableSpec, layout_builder
from irtables.tables.layouts import Markers, Means
from irtables.tables.model import TableModel


def build_configured(
    config: Config, spec: TableSpec, means: Means, *, markers: Markers | None = None
) -> list[TableModel]:
    """The table models of one ``[tables.<name>]`` section, built by its layout's builder
    (every builder takes the configuration, the section, the means and the markers).

    A single table is named after the section's file stem (``[tables.main]``: ``table1``);
    a layout made per dataset names each of its tables ``<stem>-<dataset>``.
    """
    built = layout_builder(spec.layout)(config, spec, means, markers=markers)
    if isinstance(built, list):
        return built
    return [replace(built, name=spec.stem)]


__all__ = ["build_configured"]
