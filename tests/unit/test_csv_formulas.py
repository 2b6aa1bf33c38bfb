"""A CSV cell written from a name never reads as a spreadsheet formula (issue 34, also
seen): names starting with ``=``, ``+``, ``-`` or ``@`` are prefixed with ``'`` (OWASP's
CSV-injection advice) in every CSV irtables writes; numbers, negative ones included,
are written as numbers."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pandas as pd
import pytest

from irtables.base.spreadsheet import spreadsheet_text
from tests.conftest import invoke

HOSTILE = ("=1+2", "+rm3", "-rm3", "@SUM(A1)", '=HYPERLINK("http://x.test","y")')
DATASET = "=dl"
QUERIES = ("=q0", "@q1", "q2", "-q3")


@pytest.mark.parametrize("char", ["=", "+", "-", "@", "\t", "\r"])
def test_each_formula_start_is_quoted(char: str) -> None:
    assert spreadsheet_text(f"{char}x") == f"'{char}x"
    assert spreadsheet_text(f"x{char}") == f"x{char}"


@pytest.mark.parametrize("number", ["-0.034", "-1", "+2.5", "-1e-05", "-.5", "12"])
def test_numbers_stay_numbers(number: str) -> None:
    assert spreadsheet_text(number) == number


def _study(root: Path) -> Path:
    folder = root / "r"
    folder.mkdir(parents=True)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["dataset", "system", "query", "metric", "value"])
    for i, system in enumerate(("bm25", *HOSTILE)):
        for q, query in enumerate(QUERIES):
            value = 0.6 - 0.07 * i + 0.05 * q + 0.013 * ((i * q) % 3)
            writer.writerow([DATASET, system, query, "AP", f"{value:.3f}"])
            writer.writerow([DATASET, system, query, "nDCG@10", f"{value + 0.1:.3f}"])
    (folder / "all.csv").write_text(buffer.getvalue(), encoding="utf-8")
    (folder / "irtables.toml").write_text('[compare]\nbaseline = "bm25"\n')
    return folder


def _cells(path: Path) -> list[str]:
    with path.open(newline="", encoding="utf-8") as fh:
        return [cell for row in csv.reader(fh) for cell in row]


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


@pytest.fixture(scope="module")
def csv_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("formulas")
    study = _study(tmp)
    out = tmp / "sup"
    results = [
        invoke("supplement", str(study), "-o", str(out), "--no-pdf"),
        invoke("tables", str(study), "-o", str(tmp / "tables"), "-f", "csv"),
        invoke("compare", str(study), "-o", str(tmp / "sig.csv")),
        invoke("compare", str(study), "--anova", "-o", str(tmp / "anova.csv")),
    ]
    for result in results:
        assert result.exit_code == 0, result.output
    paths = [*out.rglob("*.csv"), *(tmp / "tables").rglob("*.csv")]
    paths += [tmp / "sig.csv", tmp / "anova.csv"]
    return {str(p.relative_to(tmp)): p for p in paths}


def test_no_csv_cell_is_a_formula(csv_files: dict[str, Path]) -> None:
    assert {"sig.csv", "anova.csv", "sup/per_query.csv", "sup/failures.csv"} <= set(csv_files)
    assert any(name.startswith("tables/") for name in csv_files)
    for name, path in csv_files.items():
        for cell in _cells(path):
            formula = cell.startswith(("=", "+", "-", "@", "\t", "\r"))
            assert not formula or _is_number(cell), (name, cell)


def test_names_are_kept_behind_the_quote(csv_files: dict[str, Path]) -> None:
    for name in ("sig.csv", "sup/per_query.csv"):
        cells = set(_cells(csv_files[name]))
        assert {f"'{s}" for s in HOSTILE} <= cells, name
        assert f"'{DATASET}" in cells, name
    table = next(p for n, p in csv_files.items() if n.startswith("tables/table1"))
    assert {f"'{s}" for s in HOSTILE} <= set(_cells(table))
    assert f"'{DATASET}" in set(_cells(csv_files["anova.csv"]))
    failures = set(_cells(csv_files["sup/failures.csv"]))
    assert failures & {"'=q0", "'@q1", "'-q3"}


def test_numeric_columns_stay_numbers(csv_files: dict[str, Path]) -> None:
    sig = pd.read_csv(csv_files["sig.csv"])
    assert sig["mean_diff"].dtype == "float64"
    assert (sig["mean_diff"] < 0).all()  # every system is below the baseline
    failures = pd.read_csv(csv_files["sup/failures.csv"])
    assert failures["Δ"].dtype == "float64" and (failures["Δ"] < 0).any()
