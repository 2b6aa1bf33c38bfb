"""Golden files: every table of the example in results/, in every format.

`make golden` rewrites them (pytest --update-golden); review the diff before committing.
Every LaTeX golden is also compiled with pdflatex.
"""

from __future__ import annotations

import difflib
import warnings
from pathlib import Path

import pytest

from irtables.errors import LayoutWarning
from irtables.render import FORMATS, render
from irtables.study.pipeline import resolve_study, significance_files
from irtables.tables import build_all
from irtables.tables.model import TableModel

from ..conftest import compile_latex

GOLDEN = Path(__file__).parent
REPO = GOLDEN.parents[1]


LAYOUTS_STUDY = REPO / "tests" / "data" / "layouts"  # synthetic values, every layout


def _layout_tables() -> list[TableModel]:
    """The tables of the synthetic study that configures every layout."""
    results, config, _ = resolve_study(LAYOUTS_STUDY)
    return list(build_all(results, config).tables)


LAYOUT_TABLES = _layout_tables()


def _rendered() -> dict[str, str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = _render_all()
    LAYOUT_WARNINGS.extend(str(w.message) for w in caught if w.category is LayoutWarning)
    others = [w for w in caught if w.category is not LayoutWarning]
    assert not others, [str(w.message) for w in others]
    return out


#: What rendering the goldens warned about the page (LaTeX's sizes of a two-column paper).
LAYOUT_WARNINGS: list[str] = []


def _render_all() -> dict[str, str]:
    results, config, _ = resolve_study(REPO / "results")
    out = {}
    built = build_all(results, config)
    for model in built.tables:
        for fmt, spec in FORMATS.items():
            out[f"{model.name}.{spec.suffix}"] = render(model, fmt)
    for model in LAYOUT_TABLES:
        for fmt, spec in FORMATS.items():
            out[f"layouts/{model.name}.{spec.suffix}"] = render(model, fmt)
    assert built.comparisons is not None  # the example configures a baseline
    out.update(significance_files(built, config))  # as `irtables tables` writes them
    return out


RENDERED = _rendered()


def test_only_the_tall_table_warns() -> None:
    """The layouts study's Table S1 of Alpha has 57 rows: taller than an acmart page
    (tests/acceptance/test_caption_fit.py compiles it); no other golden table warns."""
    warned = sorted({m.split(":")[0] for m in LAYOUT_WARNINGS})
    assert warned == ["Table S1 (tableS1-alpha)"], LAYOUT_WARNINGS
    assert all("more than a page" in m for m in LAYOUT_WARNINGS)


@pytest.mark.parametrize("name", sorted(RENDERED), ids=sorted(RENDERED))
def test_golden(name: str, update_golden: bool) -> None:
    path = GOLDEN / name
    actual = RENDERED[name]
    if update_golden:
        path.write_text(actual, encoding="utf-8")
    expected = path.read_text(encoding="utf-8") if path.exists() else ""
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(True), actual.splitlines(True), f"golden/{name}", "rendered"
            )
        )
        pytest.fail(f"rendered output differs from the golden file:\n{diff}")


def test_no_stale_golden_files() -> None:
    suffixes = {f".{spec.suffix}" for spec in FORMATS.values()}
    on_disk = {
        str(p.relative_to(GOLDEN))
        for folder in (GOLDEN, GOLDEN / "layouts")
        for p in folder.iterdir()
        if p.suffix in suffixes
    }
    assert on_disk == set(RENDERED)


def test_every_layout_in_every_format_has_a_golden_file() -> None:
    from irtables.tables import LAYOUTS

    # a reproduction table is built from runs, not from these results: its goldens are
    # those of test_reproduction_golden.py
    assert {model.layout for model in LAYOUT_TABLES} == set(LAYOUTS) - {"reproduction"}
    missing = [
        f"layouts/{model.name}.{spec.suffix}"
        for model in LAYOUT_TABLES
        for spec in FORMATS.values()
        if not (GOLDEN / "layouts" / f"{model.name}.{spec.suffix}").is_file()
    ]
    assert missing == []


@pytest.mark.latex
@pytest.mark.parametrize("name", sorted(n for n in RENDERED if n.endswith(".tex")))
def test_golden_latex_compiles(name: str, tmp_path: Path) -> None:
    result = compile_latex((GOLDEN / name).read_text(encoding="utf-8"), tmp_path)
    assert result.returncode == 0, result.stdout[-3000:]
