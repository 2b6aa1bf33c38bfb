"""Significance markers in the tables agree with scipy and statsmodels, and the legend says how."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

from irtables.config import parse_config
from irtables.model import ResultSet
from irtables.render import render
from irtables.render.latex import latex_options
from irtables.tables import build_all
from tests.conftest import results_from_rows

RNG = np.random.default_rng(7)
N = 40
BASE = RNG.uniform(0.2, 0.6, N)
SYSTEMS = {
    "base": BASE,
    "better": np.clip(BASE + RNG.normal(0.08, 0.05, N), 0, 1),
    "worse": np.clip(BASE - RNG.normal(0.08, 0.05, N), 0, 1),
    "noise": np.clip(BASE + RNG.normal(0.0, 0.05, N), 0, 1),
    "same": BASE.copy(),
}


def _results() -> ResultSet:
    rows = [
        ("d", system, f"q{i}", "AP", float(v))
        for system, values in SYSTEMS.items()
        for i, v in enumerate(values)
    ]
    return results_from_rows(rows)


def _expected_markers(alpha: float = 0.05) -> dict[str, str]:
    """scipy's paired t-test, Holm over the four comparisons (statsmodels)."""
    others = [s for s in SYSTEMS if s != "base"]
    raw = []
    for s in others:
        diff = SYSTEMS[s] - BASE
        raw.append(1.0 if not diff.any() else stats.ttest_rel(SYSTEMS[s], BASE).pvalue)
    reject, _, _, _ = multipletests(raw, alpha=alpha, method="holm")
    out = {"base": ""}
    for s, r in zip(others, reject, strict=True):
        sign = np.mean(SYSTEMS[s] - BASE)
        out[s] = ("†" if sign > 0 else "‡") if r else ""
    return out


def test_markers_match_scipy_and_statsmodels() -> None:
    config = parse_config({"compare": {"baseline": "base"}})
    built = build_all(_results(), config)
    main = built.tables[0]
    got = {r.key: r.cells[0].markers for r in main.groups[0].rows}
    expected = _expected_markers()
    assert got == expected
    assert expected["better"] == "†" and expected["worse"] == "‡" and expected["same"] == ""
    assert "significantly better and worse than base (paired t-test" in main.full_caption
    assert "Holm correction" in main.full_caption
    assert built.comparisons is not None and len(built.comparisons) == 4


def test_no_baseline_no_markers_no_legend() -> None:
    built = build_all(_results(), parse_config({}))
    assert built.comparisons is None
    assert all(c.markers == "" for r in built.tables[0].groups[0].rows for c in r.cells)
    assert "significantly" not in built.tables[0].full_caption


def test_markers_can_be_switched_off_and_renamed() -> None:
    off = build_all(_results(), parse_config({"compare": {"baseline": "base", "markers": False}}))
    assert off.comparisons is None
    cfg = parse_config({"compare": {"baseline": "base", "better": "*", "worse": "-"}})
    rows = build_all(_results(), cfg).tables[0].groups[0].rows
    assert {r.key: r.cells[0].markers for r in rows}["better"] == "*"


def test_latex_pads_unmarked_cells_with_phantom() -> None:
    config = parse_config({"compare": {"baseline": "base"}})
    tex = render(build_all(_results(), config).tables[0], "latex")
    assert r"\textsuperscript{\dag{}}" in tex
    assert r"\textsuperscript{\phantom{\dag{}}}" in tex


def test_all_pairs_letters() -> None:
    config = parse_config({"compare": {"all_pairs": True, "correction": "none"}})
    rows = {
        r.key: r.cells[0].markers for r in build_all(_results(), config).tables[0].groups[0].rows
    }
    # letters follow display order: base a, better b, worse c, noise d, same e
    assert "a" in rows["better"] and "c" in rows["better"]
    assert rows["worse"] == ""
    table = build_all(_results(), config).tables[0]
    assert "Superscript letters" in table.full_caption
    assert [r.label for r in table.groups[0].rows][:2] == ["base (a)", "better (b)"]


@pytest.mark.parametrize("key, bad", [("test", "ttest"), ("correction", "holmes"), ("alpha", 2)])
def test_bad_compare_config_is_an_error(key: str, bad: object) -> None:
    from irtables.errors import ConfigError

    with pytest.raises(ConfigError, match=f"compare.{key}"):
        parse_config({"compare": {key: bad}})


def test_wide_and_resize_options_compile(tmp_path: Path) -> None:
    from tests.conftest import compile_latex

    config = parse_config({"output": {"wide": True, "resize": True}})
    table = build_all(_results(), config).tables[0]
    tex = render(table, "latex", latex=latex_options(config, table))
    assert r"\begin{table*}" in tex and r"\end{table*}" in tex
    assert r"\resizebox{\linewidth}{!}{%" in tex
    result = compile_latex(tex, tmp_path, packages=("graphicx",))
    assert result.returncode == 0, result.stdout[-2000:]
