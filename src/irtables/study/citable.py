"""The citable numbers of a study as files: ``numbers.json`` and ``numbers.tex``."""

from __future__ import annotations

from collections.abc import Container, Sequence
from typing import TYPE_CHECKING

from irtables.config import Config
from irtables.errors import ConfigError
from irtables.model import ResultSet
from irtables.render.citable import numbers_files
from irtables.tables.citable import Citable, cite_table_set

if TYPE_CHECKING:
    from irtables.tables.build import TableSet


def numbers_of(
    built: TableSet, config: Config, formats: Sequence[str], *, taken: Container[str] = ()
) -> dict[str, str]:
    """``numbers.json`` (and ``numbers.tex`` with the LaTeX format) of the tables of
    ``built``: file name -> text. ``taken``: the file names (or stems) of the tables.

    Raises
    ------
    ConfigError
        A table's own file has one of these names (a table named ``numbers``).
    """
    files = numbers_files(cite_table_set(built, config), formats)
    for name in files:
        if name in taken or name.rsplit(".", 1)[0] in taken:
            raise ConfigError(
                f"{config.path or '<config>'}: a table writes {name}, which irtables keeps "
                "for the citable numbers; rename the table"
            )
    return files


def study_numbers(results: ResultSet, config: Config) -> Citable:
    """Every citable number of the study's tables, built as ``irtables tables`` builds them."""
    from irtables.tables import build_all

    return cite_table_set(build_all(results, config), config)
