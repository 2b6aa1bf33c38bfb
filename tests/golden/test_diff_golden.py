"""Golden file of `irtables diff --format markdown` on the example, with a changed rerun.

`make golden` (pytest --update-golden) rewrites it; review the diff before committing.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import numpy as np
import pytest

from irtables.diff import diff
from irtables.diff.report import format_diff
from irtables.model import ResultSet
from irtables.study.pipeline import resolve_study

GOLDEN = Path(__file__).parent / "diff"
REPO = GOLDEN.parents[2]


def _rerun(results: ResultSet) -> ResultSet:
    """The example after a 'fixed bug': ANCE's nDCG@10 up 0.08, a CACM query gone."""
    frame = results.frame.copy()
    hit = (frame["system"] == "org_manual_ance") & (frame["metric"] == "nDCG@10")
    frame.loc[hit, "value"] = np.minimum(frame.loc[hit, "value"] + 0.08, 1.0)
    frame = frame[~((frame["dataset"] == "cacm") & (frame["query"] == "10"))]
    return ResultSet.from_frame(frame)


def test_diff_markdown_golden(update_golden: bool) -> None:
    results, config, _ = resolve_study(REPO / "results")
    report = diff(
        results,
        _rerun(results),
        old_config=config,
        new_config=config,
        tolerance=0.005,
        labels=("HEAD~1:results", "results"),
    )
    actual = format_diff(report, "markdown")
    path = GOLDEN / "diff.md"
    if update_golden:
        path.write_text(actual, encoding="utf-8")
    expected = path.read_text(encoding="utf-8") if path.exists() else ""
    if actual != expected:
        lines = difflib.unified_diff(
            expected.splitlines(True), actual.splitlines(True), "golden/diff/diff.md", "rendered"
        )
        pytest.fail("diff report differs from the golden file:\n" + "".join(lines))
