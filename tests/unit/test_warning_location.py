"""Warnings point at the user's call (their script or notebook cell), not at the line of
irtables that emits them: ``stacklevel`` is counted to the first frame outside irtables."""

from __future__ import annotations

import warnings
from pathlib import Path

import irtables
from irtables.errors import DroppedMetricWarning


def test_a_table_without_default_metrics_warns_at_the_callers_line(tmp_path: Path) -> None:
    folder = tmp_path / "results" / "toy"
    folder.mkdir(parents=True)
    for system, values in (("a", (0.5, 0.25)), ("b", (0.75, 0.5))):
        rows = "".join(f"{q}\tAP\t{v}\n" for q, v in enumerate(values, 1))
        (folder / f"{system}.tsv").write_text("query\tmetric\tvalue\n" + rows)
    study = irtables.load_study(tmp_path / "results")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        study.table("main")  # the line the warning must name
    dropped = [w for w in caught if issubclass(w.category, DroppedMetricWarning)]
    assert dropped, [str(w.message) for w in caught]
    assert {(w.filename, w.lineno) for w in dropped} == {(__file__, _line("study.table"))}


def _line(text: str) -> int:
    """The line of this file that calls ``text``, marked as the line the warning names."""
    lines = Path(__file__).read_text(encoding="utf-8").splitlines()
    return next(
        i for i, line in enumerate(lines, 1) if text in line and "the warning must name" in line
    )
