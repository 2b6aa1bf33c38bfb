"""Names of the statistics settings that have no record of their own, without loading the
statistics (numpy, scipy). The tests and corrections are named by their records
(:func:`irtables.base.procedures.test_names`, :func:`~irtables.base.procedures.correction_names`).
"""

from __future__ import annotations

FAMILY_NAMES: tuple[str, ...] = ("metric", "dataset", "table", "all")
