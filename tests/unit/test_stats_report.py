"""The comparison report is written without pandas: the same text as pandas writes it.

``format_comparisons`` builds its CSV with the csv module and its tables from plain rows;
the expected text comes from pandas (``Comparisons.to_frame().to_csv`` and a frame of the
displayed columns), which infers each column's type from its values: numbers with a gap
become floats, a column of gaps stays empty.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from tabulate import tabulate

from irtables.base.markdown import escape_markdown
from irtables.model import ResultSet
from irtables.stats import compare
from irtables.stats.comparisons import Comparisons
from irtables.stats.report import format_comparisons
from irtables.stats.result import ConfidenceInterval, PairedTestResult
from tests.conftest import results_from_rows


def _study(seed: int, ties: bool = False) -> ResultSet:
    rng = np.random.default_rng(seed)
    rows = []
    for ds in ("d1", "d2"):
        for metric in ("AP", "P@10", "NumRet"):
            base = rng.random(25)
            for j, system in enumerate("abcd"):
                vals = base if ties and system == "d" else base + rng.normal(0.02 * j, 0.1, 25)
                if metric == "NumRet":
                    vals = np.round(vals * 100)
                rows += [(ds, system, f"q{i:02d}", metric, float(v)) for i, v in enumerate(vals)]
    return results_from_rows(rows)


def _pandas_csv(c: Comparisons) -> str:
    return str(c.to_frame().to_csv(index=False, lineterminator="\n"))


# (field of Comparisons.to_frame(), label in the table), in the table's order
SHOWN = (
    ("dataset", "dataset"), ("metric", "metric"), ("system", "system"),
    ("baseline", "baseline"), ("system_mean", "mean"), ("baseline_mean", "base mean"),
    ("mean_diff", "diff"), ("n", "n"), ("pvalue", "p"), ("pvalue_adjusted", "p adj"),
    ("outcome", "sig"), ("effect_size", "d_z"), ("method", "method"),
)  # fmt: skip


def _pandas_table(c: Comparisons, fmt: str, digits: int = 4) -> str:
    """The report table as pandas and tabulate made it before (the reference)."""
    frame = c.to_frame()
    columns = list(SHOWN)
    if frame["effect_size_e"].notna().any():  # Sakai's ES_E, from the ANOVA's procedures
        columns.insert(-1, ("effect_size_e", "ES_E"))
    shown = pd.DataFrame({label: frame[col] for col, label in columns})
    for label in ("mean", "base mean", "diff", "d_z", "ES_E")[: 4 + ("ES_E" in shown)]:
        shown[label] = [
            "" if v is None or math.isnan(v) else f"{v:.{digits}f}"
            for v in shown[label].astype(object)
        ]
    for label in ("p", "p adj"):
        shown[label] = [
            "" if v is None else f"{v:.4f}" if v >= 1e-4 else f"{v:.1e}"
            for v in shown[label].astype(object)
        ]
    shown["sig"] = shown["sig"].map({"better": "+", "worse": "-", "none": ""})
    rows = shown.to_numpy(dtype=object).tolist()
    headers = list(shown.columns)
    if fmt == "markdown":  # the names from the data are escaped as Markdown text
        rows = [[escape_markdown(str(v)) for v in row] for row in rows]
        headers = [escape_markdown(h) for h in headers]
    table = tabulate(
        rows,
        headers=headers,
        tablefmt="github" if fmt == "markdown" else "simple",
        showindex=False,
        disable_numparse=True,
    )
    gap = "\n\n" if fmt == "markdown" else "\n"
    meaning = {  # a one-sided test explains only the sign it can give
        "two-sided": "+/-: significantly better/worse",
        "greater": "+: significantly higher",
        "less": "-: significantly lower",
    }[c.alternative]
    sided = "" if c.alternative == "two-sided" else " (one-sided test)"
    legend = (
        f"test: {c.test} ({c.alternative}); correction: {c.correction} per {c.family}; "
        f"{meaning} than the baseline at alpha = {c.alpha}{sided}"
    )
    return f"{table}{gap}{escape_markdown(legend) if fmt == 'markdown' else legend}\n"


CASES = [
    {"test": "t"},
    {"test": "wilcoxon"},
    {"test": "sign"},
    {"test": "bootstrap", "options": {"n_resamples": 200}},
    {"test": "randomization", "options": {"n_resamples": 200}, "alternative": "greater"},
    {"test": "t", "pairs": "all", "correction": "bh"},
    {"test": "tukey", "pairs": "all", "correction": None},
    {"test": "t", "correction": "none", "family": "dataset"},
]


@pytest.mark.parametrize("case", CASES, ids=[str(c) for c in CASES])
@pytest.mark.parametrize("ties", [False, True])
def test_csv_and_tables_are_those_pandas_writes(case: dict[str, object], ties: bool) -> None:
    c = compare(_study(3, ties=ties), **case)  # type: ignore[arg-type]
    assert format_comparisons(c, "csv") == _pandas_csv(c)
    assert format_comparisons(c, "terminal") == _pandas_table(c, "terminal")
    markdown = format_comparisons(c, "markdown")
    assert markdown.split("\n", 2)[2] == _pandas_table(c, "markdown")


def _result(**fields: object) -> PairedTestResult:
    base: dict[str, object] = {
        "test": "t",
        "method": "paired t-test, with a comma",
        "n": 7,
        "mean_diff": 0.1,
        "statistic": 2.5,
        "pvalue": 0.04,
        "dataset": "d",
        "metric": "AP",
        "system": 'say "b"',
        "baseline": "a",
    }
    base.update(fields)
    return PairedTestResult(**base)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "values",
    [
        [1e-05, 1e16, 123456789.125, -0.0, 1 / 3, 5e-324, 1.7976931348623157e308, 2.5e-7],
        [math.inf, -math.inf, 0.1 + 0.2, 100.0, 1e15, 12345678901234567.0, 1e-4, 0.0001234],
    ],
)
def test_numbers_gaps_and_quotes_as_pandas(values: list[float]) -> None:
    results = []
    for i, v in enumerate(values):
        results.append(
            _result(
                mean_diff=v,
                statistic=v,
                pvalue=min(abs(v), 1.0),
                system_mean=v,
                pvalue_adjusted=None if i % 2 else 0.5,
                family_size=None if i % 3 == 0 else 4,
                family=None if i % 3 == 0 else "metric",
                effect_size=None if i % 2 else v,
                ci=ConfidenceInterval(v, math.inf) if i % 4 == 1 else None,
                dropped=("q1", "q,2") if i == 2 else (),
            )
        )
    c = Comparisons(tuple(results), test="t", correction="holm", family="metric", alpha=0.05)
    assert format_comparisons(c, "csv") == _pandas_csv(c)
    assert format_comparisons(c, "terminal") == _pandas_table(c, "terminal")
