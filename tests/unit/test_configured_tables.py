"""[tables.<name>] sections: dataset column groups, grid, sensitivity; their rendering."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from irtables.config import parse_config
from irtables.errors import ConfigError, IrtablesError, LayoutWarning
from irtables.model import ResultSet
from irtables.render import render
from irtables.render.latex import LatexOptions, latex_options
from irtables.tables import build_all, build_table
from irtables.tables.configured.params import parse_system_id
from irtables.tables.model import TableModel
from tests.conftest import results_from_rows

LAYOUTS = Path(__file__).resolve().parents[1] / "data" / "layouts"


def _rs() -> ResultSet:
    rng = np.random.default_rng(7)
    rows = []
    for dataset, systems in {"d1": ("a", "b", "c"), "d2": ("a", "b")}.items():
        for system in systems:
            for metric in ("AP", "nDCG@10"):
                for q in range(5):
                    rows.append((dataset, system, f"q{q}", metric, float(rng.uniform())))
    return results_from_rows(rows)


def _means(rs: ResultSet) -> dict[tuple[str, str, str], float]:
    """Reference means straight from the frame with pandas (not the code under test)."""
    g = rs.frame.groupby(["dataset", "system", "metric"], observed=True)["value"].mean()
    return {k: float(v) for k, v in g.items()}


def _cells(model: TableModel) -> dict[tuple[str, str], tuple[str, bool, bool]]:
    out = {}
    for group in model.groups:
        for row in group.rows:
            for column, cell in zip(model.columns, row.cells, strict=True):
                out[row.key, column.key] = (cell.text, cell.best, cell.second)
    return out


CONFIG = {
    "output": {"second_best": True},
    "tables": {
        "cols": {
            "layout": "dataset_columns",
            "datasets": [
                {"id": "d1", "metrics": ["MAP", "NDCG@10"]},
                {"id": "d2", "metrics": ["MAP"]},
            ],
            "average": ["MAP"],
        },
        "partial": {
            "layout": "dataset_columns",
            "metrics": ["MAP"],
            "average": "MAP",
            "average_partial": True,
        },
        "beir": {"layout": "grid", "metric": "MAP"},
    },
}


def test_dataset_columns_values_groups_missing_and_average() -> None:
    rs = _rs()
    ref = _means(rs)
    model = build_table(rs, "cols", config=parse_config(CONFIG))
    assert [(g.label, g.span) for g in model.column_groups] == [
        ("d1", 2),
        ("d2", 1),
        ("Average", 1),
    ]
    cells = _cells(model)
    assert cells["a", "d1/AP"][0] == f"{ref['d1', 'a', 'AP']:.3f}"
    assert cells["c", "d2/AP"][0] == "–"  # c has no results on d2: shown, not an error
    for s in ("a", "b"):
        expected = (ref["d1", s, "AP"] + ref["d2", s, "AP"]) / 2
        assert cells[s, "average/AP"][0] == f"{expected:.3f}"
    assert cells["c", "average/AP"][0] == "–"  # not on every dataset: no average
    column = [ref["d1", s, "AP"] for s in ("a", "b", "c")]
    best = ("a", "b", "c")[int(np.argmax(column))]
    assert cells[best, "d1/AP"][1] is True
    assert sum(cells[s, "d1/AP"][1] for s in ("a", "b", "c")) == 1
    assert "a system without results on all of them has none" in model.full_caption


def test_dataset_columns_partial_average_says_so() -> None:
    rs = _rs()
    ref = _means(rs)
    model = build_table(rs, "partial", config=parse_config(CONFIG))
    assert _cells(model)["c", "average/AP"][0] == f"{ref['d1', 'c', 'AP']:.3f}"
    assert "averaged over those it has results on" in model.full_caption


def test_grid_rows_are_datasets_best_per_row_and_average_row() -> None:
    rs = _rs()
    ref = _means(rs)
    model = build_table(rs, "beir", config=parse_config(CONFIG))
    assert model.stub == ("Dataset",) and [c.key for c in model.columns] == ["a", "b", "c"]
    cells = _cells(model)
    for d, systems in (("d1", "abc"), ("d2", "ab")):
        values = [ref[d, s, "AP"] for s in systems]
        assert [cells[d, s][1] for s in systems] == [v == max(values) for v in values]
    assert cells["average", "a"][0] == f"{(ref['d1', 'a', 'AP'] + ref['d2', 'a', 'AP']) / 2:.3f}"
    assert cells["average", "c"][0] == "–"
    assert "Best value per row" in model.full_caption


@pytest.mark.parametrize(
    ("system", "base", "values"),
    [
        ("bm25_k1=0.9_b=0.4", "bm25", {"k1": "0.9", "b": "0.4"}),
        ("rrf_k=60", "rrf", {"k": "60"}),
        ("dense_lr=1e-5_warmup_steps=100", "dense", {"lr": "1e-5", "warmup_steps": "100"}),
        ("monot5", "monot5", {}),
    ],
    ids=["two", "one", "underscore-name", "none"],
)
def test_parameters_from_system_ids(system: str, base: str, values: dict[str, str]) -> None:
    parsed = parse_system_id(system)
    assert (parsed.base, parsed.values) == (base, values)


def _sweep() -> ResultSet:
    rows = []
    for k1 in ("0.6", "1.2", "0.9"):
        for b in ("0.4", "0.75"):
            for q in range(3):
                value = float(k1) / 2 + float(b) / 10 + q / 100
                rows.append(("d", f"bm25_k1={k1}_b={b}", f"q{q}", "AP", value))
    rows += [("d", "dense", "q0", "AP", 0.1), ("d", "dense", "q1", "AP", 0.1)]
    rows += [("d", "dense", "q2", "AP", 0.1)]
    return results_from_rows(rows)


def test_sensitivity_one_parameter_needs_the_other_fixed() -> None:
    cfg = {"tables": {"s": {"layout": "sensitivity", "parameters": ["k1"], "metrics": ["MAP"]}}}
    with pytest.raises(IrtablesError, match=r"both at k1=0\.6; fix b with tables\.s\.fixed"):
        build_table(_sweep(), "s", config=parse_config(cfg))
    cfg["tables"]["s"]["fixed"] = {"b": 0.75}
    model = build_table(_sweep(), "s", config=parse_config(cfg))
    rows = model.groups[0].rows
    assert [r.label for r in rows] == ["0.6", "0.9", "1.2"]  # numeric order
    expected = [float(k1) / 2 + 0.075 + 0.01 for k1 in ("0.6", "0.9", "1.2")]
    assert [r.cells[0].text for r in rows] == [f"{v:.3f}" for v in expected]
    assert [r.cells[0].best for r in rows] == [False, False, True]


def test_sensitivity_values_that_are_not_finite_numbers_sort_as_text() -> None:
    """Numbers in numeric order, then other values (nan, inf, 1e999, hex) in text order;
    a NaN once made the order arbitrary and a fixed nan never matched."""
    values = ["1.2", "nan", "0x10", "1e999", "0.9", "inf", "10"]
    rows = [
        ("d", f"bm25_k1={k1}_b={b}", f"q{q}", "AP", 0.1 * q)
        for k1 in values
        for b in ("0.4", "nan")
        for q in range(3)
    ]
    rs = results_from_rows(rows)
    for b in ("0.4", "nan"):
        cfg = {
            "tables": {
                "s": {
                    "layout": "sensitivity",
                    "parameters": ["k1"],
                    "metrics": ["MAP"],
                    "fixed": {"b": b},
                }
            }
        }
        model = build_table(rs, "s", config=parse_config(cfg))
        labels = [r.label for r in model.groups[0].rows]
        assert labels == ["0.9", "1.2", "10", "0x10", "1e999", "inf", "nan"]


def test_sensitivity_figure_places_text_values_evenly() -> None:
    from irtables.supplement.sensitivity import _positions

    assert _positions(["0.9", "1.2", "10"]) == ([0.9, 1.2, 10.0], True)
    assert _positions(["0.9", "1.2", "nan"]) == ([0.0, 1.0, 2.0], False)
    assert _positions(["0.9", "inf"]) == ([0.0, 1.0], False)


def test_sensitivity_two_parameters_is_a_grid_with_one_best() -> None:
    cfg = {
        "tables": {"s": {"layout": "sensitivity", "parameters": ["k1", "b"], "metrics": ["MAP"]}}
    }
    model = build_table(_sweep(), "s", config=parse_config(cfg))
    assert [c.label for c in model.columns] == ["0.4", "0.75"]
    assert [(g.label, g.span) for g in model.column_groups] == [("b", 2)]
    flags = [c.best for r in model.groups[0].rows for c in r.cells]
    assert flags == [False, False, False, False, False, True]


def test_sensitivity_points_from_the_config() -> None:
    cfg = {
        "tables": {
            "s": {
                "layout": "sensitivity",
                "parameters": ["alpha"],
                "metrics": ["MAP"],
                "points": [
                    {"system": "bm25_k1=0.6_b=0.4", "alpha": 0.1},
                    {"system": "dense", "alpha": 0.9},
                ],
            }
        }
    }
    model = build_table(_sweep(), "s", config=parse_config(cfg))
    assert [(r.label, r.key) for r in model.groups[0].rows] == [
        ("0.1", "bm25_k1=0.6_b=0.4"),
        ("0.9", "dense"),
    ]


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"layout": "gird"}, "tables.x.layout: expected one of main, k_breakdown"),
        ({"metric": "MAP"}, "tables.x.layout: expected a non-empty string"),
        ({"layout": "grid", "metrics": ["MAP"]}, "unknown key 'tables.x.metrics'"),
        ({"layout": "sensitivity"}, "tables.x.parameters: expected one or two parameter names"),
        ({"layout": "grid", "wide": "yes"}, "tables.x.wide: expected true or false"),
    ],
    ids=["typo", "no-layout", "wrong-key", "no-parameters", "wide"],
)
def test_bad_sections_name_the_key(section: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_config({"tables": {"x": section}})


def test_built_in_sections_keep_working_next_to_configured_ones() -> None:
    cfg = parse_config({"tables": {"main": {"metrics": ["MAP"]}, "g": {"layout": "grid"}}})
    main = cfg.table("main")
    assert main is not None and (main.layout, main.metrics) == ("main", ("MAP",))
    assert [s.name for s in cfg.tables] == ["main", "k_breakdown", "g"]


def test_the_caption_notes_of_a_section_apply_to_every_table_it_makes() -> None:
    # before: a per-dataset section's tables (per_k-d1, ...) and a [tables.main] of
    # another layout (table1) were not found by name: their caption_notes were ignored
    sections = {
        "per_k": {"layout": "k_breakdown", "k": [10], "caption_notes": "none"},
        "main": {"layout": "dataset_columns", "metrics": ["MAP"], "caption_notes": "short"},
    }
    built = build_all(_rs(), parse_config({"tables": sections})).tables
    notes = {t.name: t.caption_notes for t in built}
    assert notes == {
        "table1": "short",
        "tableS1-d1": "full",
        "tableS1-d2": "full",
        "per_k-d1": "none",
        "per_k-d2": "none",
    }


def test_a_main_table_shows_its_systems_in_their_order() -> None:
    # a configured main table, like Table 1: rows in the order of `systems`
    config = parse_config({"tables": {"m": {"layout": "main", "systems": ["c", "a"]}}})
    model = build_table(_rs(), "m", config=config)
    assert [[r.key for r in g.rows] for g in model.groups] == [["c", "a"], ["a"]]


def test_main_section_with_another_layout_replaces_table_1() -> None:
    cfg = parse_config({"tables": {"main": {"layout": "dataset_columns", "metrics": ["MAP"]}}})
    names = [(t.name, t.layout, t.title) for t in build_all(_rs(), cfg).tables]
    assert names[0] == ("table1", "dataset_columns", "Table 1")
    assert not any(layout == "main" for _, layout, _ in names)


def test_markdown_and_csv_put_a_measure_without_cutoff_in_its_own_column() -> None:
    rows = [("d", "a", "1", m, v) for m, v in (("P@1", 1.0), ("P@5", 0.4), ("AP", 0.75))]
    rs = results_from_rows(rows)
    model = build_table(rs, "k_breakdown", dataset="d")
    md = render(model, "markdown").splitlines()
    header = next(line for line in md if line.startswith("| Metric"))
    assert [h.strip() for h in header.strip("|").split("|")] == [
        "Metric", "System", "K=1", "K=5", "no cutoff"
    ]  # fmt: skip
    ap = next(line for line in md if line.startswith("| MAP"))
    # one system: nothing to compare, nothing bold
    assert [c.strip() for c in ap.strip("|").split("|")] == ["MAP", "a", "", "", "0.750"]
    csv = render(model, "csv").splitlines()
    # no comment line: pandas reads it; the ids after the values
    assert csv[0] == "Metric,System,K=1,K=5,no cutoff,Metric id,System id"
    assert csv[-1] == "MAP,a,,,0.750,AP,a"
    html = render(model, "html")
    assert '<td class="num span" colspan="2">0.750</td>' in html


def test_html_escapes_every_user_string_and_is_accessible() -> None:
    rows = [("<d>", "<script>x</script>", "1", "AP", 0.5), ("<d>", "b&c", "1", "AP", 0.25)]
    rs = results_from_rows(rows)
    cfg = parse_config({"tables": {"main": {"caption": 'A "quoted" <caption> & more'}}})
    html = render(build_table(rs, "main", config=cfg), "html")
    assert "<script>" not in html and "&lt;script&gt;x&lt;/script&gt;" in html
    assert "b&amp;c" in html and "&lt;d&gt;" in html
    assert "A &quot;quoted&quot; &lt;caption&gt; &amp; more" in html
    for tag in ("<caption", "<thead>", '<th scope="col"', '<th scope="row"', "<strong>0.500"):
        assert tag in html
    assert html.startswith("<!-- generated by irtables")
    assert '<html lang="en">' in html and "<title>" in html


def test_table_or_table_star_from_the_content_and_overrides() -> None:
    rs = _rs()
    narrow = parse_config({"tables": {"main": {"metrics": ["MAP"]}}})
    assert "\\begin{table}[" in render(build_table(rs, "main", config=narrow), "latex")
    many = {"layout": "dataset_columns", "metrics": ["MAP", "NDCG@10"], "average": ["MAP"]}
    auto = parse_config({"tables": {"w": many}})
    wide = build_table(rs, "w", config=auto)
    assert latex_options(auto, wide) == LatexOptions()
    assert "\\begin{table*}[" in render(wide, "latex", latex=latex_options(auto, wide))
    forced = parse_config({"tables": {"w": {**many, "wide": False}}})
    narrowed = build_table(rs, "w", config=forced)
    assert "\\begin{table}[" in render(narrowed, "latex", latex=latex_options(forced, narrowed))
    assert "\\begin{table*}[" in render(narrowed, "latex")  # no options: from the content
    everywhere = parse_config({"output": {"wide": True}, "tables": {"main": {"metrics": ["MAP"]}}})
    table1 = build_all(rs, everywhere).tables[0]
    assert "\\begin{table*}[" in render(table1, "latex", latex=latex_options(everywhere, table1))
    assert "\\begin{table}[" in render(table1, "latex")


def test_to_frame_and_notebook_reprs() -> None:
    rs = _rs()
    model = build_table(rs, "cols", config=parse_config(CONFIG))
    frame = model.to_frame()
    assert list(frame.columns[:6]) == [
        "group",
        "row",
        "row_key",
        "column_group",
        "column",
        "column_key",
    ]
    assert len(frame) == 3 * 4
    best = frame[frame["best"]]
    assert set(best["column_key"]) == {c.key for c in model.columns}
    assert model._repr_html_().startswith('<table class="irtables"')
    # the first configured table after Table 1 (no ablation): Table 2, never "Table (cols)"
    assert model._repr_markdown_().lstrip().startswith("**Table 2.**")


def test_supplement_holds_sensitivity_figures_and_honours_supplement_false() -> None:
    from dataclasses import replace

    from irtables.loaders import load_results
    from irtables.supplement.build import build_supplement
    from irtables.supplement.index_page import index_page

    rs = load_results(LAYOUTS)
    config = parse_config(
        {
            "tables": {
                "k1_b": {"layout": "sensitivity", "parameters": ["k1", "b"], "dataset": "alpha"},
                "hidden": {"layout": "grid", "supplement": False},
            }
        }
    )
    with pytest.warns(LayoutWarning, match=r"tableS1-alpha.*more than a page"):  # 57 rows
        built = build_supplement(rs, replace(config, path=str(LAYOUTS / "irtables.toml")))
    paths = {o.path for o in built.outputs}
    assert {"figures/sensitivity-k1_b.png", "figures/sensitivity-k1_b.pdf"} <= paths
    assert "tables/k1_b.tex" in paths and not any("hidden" in p for p in paths)
    page = index_page(built, pdf=False).data.decode()
    assert 'id="k1_b"' in page and 'src="figures/sensitivity-k1_b.png"' in page
    assert 'id="hidden"' not in page
    assert "http://" not in page and "https://" not in page  # readable offline
