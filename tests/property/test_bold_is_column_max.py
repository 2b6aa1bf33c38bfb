"""Property: the bold cells of table1.md are exactly the per-dataset column maxima, where a
column of a dataset shows at least two distinct values (else nothing is bold)."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from irtables.cli import main

METRICS = ["nDCG@10", "RR@10", "AP", "P@10", "R@100"]
LABELS = ["NDCG@10", "MRR@10", "MAP", "P@10", "R@100"]


@st.composite
def studies(draw: st.DrawFn) -> dict[str, dict[str, list[list[float]]]]:
    """dataset -> system -> queries x metrics values, drawn from a coarse grid to force ties."""
    n_data = draw(st.integers(1, 3))
    study = {}
    for d in range(n_data):
        n_sys = draw(st.integers(1, 4))
        n_q = draw(st.integers(1, 4))
        grid = st.sampled_from([0.0, 0.1, 0.25, 0.3333, 0.5, 0.5004, 0.9996, 1.0])
        study[f"d{d}"] = {
            f"s{s}": draw(
                st.lists(st.lists(grid, min_size=5, max_size=5), min_size=n_q, max_size=n_q)
            )
            for s in range(n_sys)
        }
    return study


@given(studies())
def test_bold_cells_are_column_maxima(
    tmp_path_factory: object, study: dict[str, dict[str, list[list[float]]]]
) -> None:
    root = Path(tmp_path_factory.mktemp("study"))  # type: ignore[attr-defined]
    expected_bold = set()
    for dataset, systems in study.items():
        (root / dataset).mkdir()
        means = {}
        for system, rows in systems.items():
            lines = ["query\tmetric\tvalue"]
            for q, values in enumerate(rows):
                lines += [f"q{q}\t{m}\t{v!r}" for m, v in zip(METRICS, values, strict=True)]
            (root / dataset / f"{system}.tsv").write_text("\n".join(lines) + "\n")
            frame = pd.DataFrame(rows, columns=LABELS)
            means[system] = {m: f"{frame[m].mean():.3f}" for m in LABELS}
        for m in LABELS:
            shown = {float(means[s][m]) for s in systems}
            if len(shown) < 2:
                continue
            top = max(shown)
            expected_bold |= {(dataset, s, m) for s in systems if float(means[s][m]) == top}
    out = root / "out"
    result = CliRunner().invoke(main, ["tables", str(root), "-o", str(out), "-f", "markdown"])
    assert result.exit_code == 0, result.output
    bold = set()
    dataset = ""
    for line in (out / "table1.md").read_text().splitlines():
        if not line.startswith("| ") or line.startswith("| Dataset"):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        dataset = cells[0] or dataset
        for label, cell in zip(LABELS, cells[2:], strict=True):
            if re.fullmatch(r"\*\*[0-9.]+\*\*", cell):
                bold.add((dataset, cells[1], label))
    assert bold == expected_bold
