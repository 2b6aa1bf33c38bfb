"""The documented API returns exactly what ``irtables tables`` writes: on the example in
results/, every table in every format, byte for byte (markers, legend, wide, Δ, ...)."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from irtables import build_table, load_config, load_results, load_study, render
from irtables.cli import main
from irtables.errors import LayoutWarning
from irtables.render import FORMATS
from irtables.render.latex import latex_options
from tests.conftest import REPO

EXAMPLE = REPO / "results"


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cli")
    every_format = [a for f in FORMATS for a in ("-f", f)]
    result = CliRunner().invoke(main, ["tables", str(EXAMPLE), "-o", str(out), *every_format])
    assert result.exit_code == 0, result.output
    return out


def _tables() -> list[tuple[str, str | None, str]]:
    datasets = load_results(EXAMPLE).datasets()
    return [
        ("main", None, "table1"),
        *(("k_breakdown", d, f"tableS1-{d}") for d in datasets),
        ("ablation", None, "ablation"),
    ]


@pytest.mark.parametrize("fmt", list(FORMATS))
@pytest.mark.parametrize(("layout", "dataset", "name"), _tables(), ids=lambda v: str(v))
def test_build_table_renders_the_file_the_cli_writes(
    written: Path, layout: str, dataset: str | None, name: str, fmt: str
) -> None:
    results = load_results(EXAMPLE)
    config = load_config(EXAMPLE / "irtables.toml")
    table = build_table(results, layout, config=config, dataset=dataset)
    expected = (written / f"{name}.{FORMATS[fmt].suffix}").read_text(encoding="utf-8")
    assert render(table, fmt, latex=latex_options(config, table)) == expected


def test_every_written_table_is_covered(written: Path) -> None:
    stems = {
        p.stem
        for p in written.iterdir()
        # the record of written files, the tests, the citable numbers (not tables)
        if not p.name.startswith((".", "significance", "numbers."))
    }
    assert stems == {name for _, _, name in _tables()}


def test_output_options_reach_the_api() -> None:
    """``output.wide`` was once ignored by build_table; it is a LaTeX option now, which
    :func:`latex_options` reads from the configuration as ``irtables tables`` does."""
    results = load_results(EXAMPLE)
    config = load_config(EXAMPLE / "irtables.toml")
    narrow = replace(config, output=replace(config.output, wide=False))
    table = build_table(results, "main", config=narrow)
    assert "\\begin{table*}" in render(table, "latex")  # wider than a column
    with pytest.warns(LayoutWarning, match="set wide = true"):  # forced into a column
        tex = render(table, "latex", latex=latex_options(narrow, table))
    assert "\\begin{table}[" in tex
    assert any(c.markers for g in table.groups for r in g.rows for c in r.cells)


@pytest.mark.parametrize("fmt", list(FORMATS))
@pytest.mark.parametrize(("layout", "dataset", "name"), _tables(), ids=lambda v: str(v))
def test_study_render_is_the_file_the_cli_writes(
    written: Path, layout: str, dataset: str | None, name: str, fmt: str
) -> None:
    study = load_study(EXAMPLE)
    expected = (written / f"{name}.{FORMATS[fmt].suffix}").read_text(encoding="utf-8")
    assert study.render(layout, fmt, dataset=dataset) == expected


def test_study_render_applies_the_configured_latex_placement(tmp_path: Path) -> None:
    """A configuration that forces Table 1 into a column (``output.wide = false``): the
    file ``tables`` writes and ``Study.render`` agree, and both differ from the model
    rendered without the configuration (which decides from the width)."""
    study_dir = tmp_path / "study"
    shutil.copytree(EXAMPLE, study_dir, ignore=shutil.ignore_patterns("tables", "supplement"))
    toml = study_dir / "irtables.toml"
    text = toml.read_text(encoding="utf-8")
    toml.write_text(text.replace("[output]", "[output]\nwide = false", 1), encoding="utf-8")
    assert "wide = false" in toml.read_text(encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["tables", str(study_dir), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "set wide = true" in result.output  # the command says what the option costs
    written_tex = (out / "table1.tex").read_text(encoding="utf-8")
    study = load_study(study_dir)
    with pytest.warns(LayoutWarning, match="set wide = true"):
        assert study.render("main", "latex") == written_tex
    assert "\\begin{table}[" in written_tex
    assert "\\begin{table*}" in render(study.table("main"), "latex")
