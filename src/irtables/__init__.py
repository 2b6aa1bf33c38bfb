"""irtables: paper tables, significance tests and supplementary material from IR results."""

from __future__ import annotations

from irtables.errors import IrtablesError
from irtables.measures import Measure, parse_measure
from irtables.model import Aligned, ResultSet

__version__ = "0.1.0"

__all__ = [
    "Aligned",
    "IrtablesError",
    "Measure",
    "ResultSet",
    "__version__",
    "parse_measure",
]
