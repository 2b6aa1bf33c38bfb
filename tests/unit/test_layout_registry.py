"""The layout registry (``irtables.config.tables.LAYOUTS``) is the one source of layouts:
a layout registered there is parsed by its own reader (its keys accepted, others
refused), built by its own builder, listed by the configuration reference, and the
built-in tables are sections read the same way."""

from __future__ import annotations

import importlib.util
import sys
import types
import warnings
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from scipy import stats

from irtables.config import Config, parse_config
from irtables.config.keys import accepted_keys, description, layout_keys
from irtables.config.reader import TomlReader
from irtables.config.schema import checked_entries
from irtables.config.tables import (
    LAYOUTS,
    AblationGroup,
    AblationRow,
    BuiltIn,
    Key,
    Layout,
    TableSpec,
    section_keys,
)
from irtables.errors import ConfigError, DroppedMetricWarning, IrtablesError, UnknownNameError
from irtables.measures import parse_measure
from irtables.tables import build_all, build_table
from irtables.tables.layouts import Markers, Means, flagged, spot
from irtables.tables.model import Column, Row, RowGroup, TableModel
from tests.conftest import invoke, results_from_rows, runs_study

ROWS = [("d", "a", "1", "AP", 0.1), ("d", "a", "2", "AP", 0.3), ("d", "b", "1", "AP", 0.5)]
ROWS += [("d", "b", "2", "AP", 0.5)]
#: The keys of every section that names its layout, as the configuration reference lists them.
CONFIGURED = {"layout", "title", "wide", "systems", "datasets", "supplement"}


def _toy_options(r: TomlReader, t: Mapping[str, Any], w: str) -> dict[str, Any]:
    return {"metrics": (r.opt_str(t, w, "measure") or "AP",)}


def build_toy(
    config: Config, spec: TableSpec, m: Means, *, markers: Markers | None = None
) -> TableModel:
    """One row per system of the first dataset, one column: the measure of the section."""
    dataset = m.datasets[0]
    measure = parse_measure(spec.metrics[0])
    systems = m.systems[dataset]
    cells = flagged(config, m, [spot(m, dataset, s, measure) for s in systems], measure, markers)
    rows = tuple(Row(s, s, (c,)) for s, c in zip(systems, cells, strict=True))
    return TableModel(
        layout="toy",
        name=spec.name,
        title="",
        stub=("System",),
        columns=(Column(measure.name, measure.label),),
        groups=(RowGroup(None, rows),),
        caption=spec.caption or "A toy.",
        label=spec.label or spec.default_label,
        metrics=(measure.name,),
        datasets=(dataset,),
    )


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy layout in the registry, its builder in a module of its own."""
    module = types.ModuleType("toy_layouts")
    module.build_toy = build_toy  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "toy_layouts", module)
    measure = Key("measure", "The toy's one measure.")
    record = Layout("toy", "a toy", "toy_layouts:build_toy", (measure,), _toy_options)
    monkeypatch.setitem(LAYOUTS, "toy", record)


def test_an_unregistered_layout_is_refused_naming_the_registered_ones() -> None:
    with pytest.raises(ConfigError, match=r"tables\.x\.layout: expected one of main, k_breakdown"):
        parse_config({"tables": {"x": {"layout": "toy"}}})


@pytest.mark.usefixtures("toy")
def test_a_registered_layout_is_read_by_its_own_reader() -> None:
    config = parse_config({"tables": {"x": {"layout": "toy", "measure": "P@5", "title": "T"}}})
    spec = config.table("x")
    assert spec is not None
    assert (spec.layout, spec.metrics, spec.title) == ("toy", ("P@5",), "T")


@pytest.mark.usefixtures("toy")
def test_a_registered_layout_refuses_the_keys_of_other_layouts() -> None:
    with pytest.raises(ConfigError) as info:
        parse_config({"tables": {"x": {"layout": "toy", "metric": "AP"}}})
    message = str(info.value)
    assert "unknown key 'tables.x.metric'" in message and "measure" in message


@pytest.mark.usefixtures("toy")
def test_build_table_builds_a_registered_layout_with_its_builder() -> None:
    config = parse_config({"tables": {"x": {"layout": "toy", "caption": "Mine."}}})
    model = build_table(results_from_rows(ROWS), "x", config=config)
    assert (model.layout, model.name, model.caption, model.label) == ("toy", "x", "Mine.", "tab:x")
    # means: a (0.1 + 0.3) / 2 = 0.2, b 0.5; the higher is best
    cells = [(r.key, r.cells[0].text, r.cells[0].best) for r in model.groups[0].rows]
    assert cells == [("a", "0.200", False), ("b", "0.500", True)]
    # with no section of its own: built with the defaults its reader gives
    default = build_table(results_from_rows(ROWS), "toy")
    assert (default.layout, default.columns[0].label) == ("toy", "MAP")


@pytest.mark.usefixtures("toy")
def test_the_configuration_reference_lists_a_registered_layout_and_its_keys() -> None:
    keys = layout_keys()
    assert "measure" in keys["toy"] and "metrics" not in keys["toy"]
    assert "caption" in keys["toy"] and "layout" in keys["toy"]


@pytest.mark.usefixtures("toy")
def test_the_record_schema_is_what_the_parser_accepts_and_the_reference_describes() -> None:
    """One schema: the toy record's key is accepted, named among the known keys when
    another is refused, and described, with no entry anywhere else."""
    assert description("tables.<name>", "measure") == "The toy's one measure."
    assert "measure" in accepted_keys()["tables.<name>"]
    with pytest.raises(ConfigError) as info:
        parse_config({"tables": {"x": {"layout": "toy", "mesure": "AP"}}})
    assert "unknown key 'tables.x.mesure'; did you mean 'measure'? (known: " in str(info.value)
    known = str(info.value).split("(known: ")[1].rstrip(")").split(", ")
    assert known == list(layout_keys()["toy"])
    assert known == sorted({"measure", "caption", "label", "caption_notes"} | CONFIGURED)


def test_a_built_in_section_describes_its_keys_in_its_own_words() -> None:
    # Table 1's metrics and Table S1's caption, as the reference words them, and the
    # ablation's label: the words every layout shares
    assert description("tables.main", "metrics") == "Metrics of Table 1, in order (any spelling)."
    assert description("tables.k_breakdown", "caption") == (
        "Caption text (`{dataset}` stands for the dataset's name)."
    )
    assert description("tables.ablation", "label") == description("tables.<name>", "label")
    # [tables.main] may name a layout (its built-in keys say so), Table S1 may not
    assert "layout" in accepted_keys()["tables.main"]
    assert "layout" not in accepted_keys()["tables.k_breakdown"]


def test_a_key_several_layouts_take_is_described_once() -> None:
    texts: dict[str, set[str]] = {}
    for layout in LAYOUTS.values():
        for name, key in section_keys(layout).items():
            texts.setdefault(name, set()).add(key.text)
    assert {name: t for name, t in texts.items() if len(t) > 1} == {}
    assert len(texts["metrics"]) == 1 and {"metrics", "average", "groups"} <= set(texts)


def test_the_built_in_tables_are_sections_of_their_layouts_by_default() -> None:
    config = Config()
    assert [(s.name, s.layout) for s in config.tables] == [
        ("main", "main"),
        ("k_breakdown", "k_breakdown"),
    ]
    assert config.table("ablation") is None
    main = config.table("main")
    assert main is not None and main.metrics == ("NDCG@10", "MRR@10", "MAP", "P@10", "R@100")
    assert [s.name for s in parse_config({}).tables] == ["main", "k_breakdown"]


def test_a_built_in_section_takes_only_its_layout_keys() -> None:
    # [tables.k_breakdown] is Table S1: no layout of its own, no title (it is numbered)
    for key, value in (("layout", "grid"), ("title", "S")):
        with pytest.raises(ConfigError, match=f"unknown key 'tables.k_breakdown.{key}'"):
            parse_config({"tables": {"k_breakdown": {key: value}}})
    # a configured section of the same layout takes the keys every configured table has
    config = parse_config({"tables": {"per_k": {"layout": "k_breakdown", "title": "S"}}})
    spec = config.table("per_k")
    assert spec is not None and (spec.title, spec.k) == ("S", (1, 3, 5, 10, 20, 100, 1000))


def test_an_ablation_layout_may_be_any_section() -> None:
    rows = [{"system": "b"}, {"system": "a", "name": "without x"}]
    ablation = {"layout": "ablation", "dataset": "d", "full": "b", "rows": rows, "metrics": ["AP"]}
    config = parse_config({"tables": {"abl2": ablation}})
    model = build_table(results_from_rows(ROWS), "abl2", config=config)
    assert (model.layout, model.name, model.label) == ("ablation", "abl2", "tab:abl2")
    assert [r.label for r in model.groups[0].rows] == ["b", "without x"]


def test_build_table_of_a_layout_without_defaults_names_the_configured_tables() -> None:
    with pytest.raises(IrtablesError) as info:
        build_table(results_from_rows(ROWS), "sensitivity")
    assert "no sensitivity table is configured" in str(info.value)
    assert "[tables.main] (layout main), [tables.k_breakdown] (layout k_breakdown)" in str(
        info.value
    )
    with pytest.raises(UnknownNameError, match="did you mean 'grid'"):
        build_table(results_from_rows(ROWS), "gird")


def _config_reference() -> str:
    """The configuration reference page, as the docs build writes it."""
    path = Path(__file__).resolve().parents[2] / "docs" / "scripts" / "reference.py"
    spec = importlib.util.spec_from_file_location("irtables_docs_reference", path)
    assert spec is not None and spec.loader is not None
    reference = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reference)
    page: str = reference.config_reference()
    return page


@pytest.mark.usefixtures("toy")
def test_a_built_in_section_reaches_the_reference_with_its_defaults(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A toy layout with a built-in section every configuration has: the reference lists
    the section, its keys in the section's own words and, for a key naming the field it
    fills, the default a configuration without the section reads (``measure``: AP)."""
    own = (Key("measure", "The measure of the toy table.", "metrics"),)
    built_in = BuiltIn(True, "toytable", keys=own)
    monkeypatch.setitem(LAYOUTS, "toy", replace(LAYOUTS["toy"], built_in=built_in))
    page = _config_reference()
    section = page.split("## `[tables.toy]`\n")[1].split("\n## ")[0]
    assert '| `measure` | `["AP"]` | The measure of the toy table. |' in section
    assert '| `label` | `"tab:toy"` | LaTeX label. |' in section
    assert "| `layout` |" not in section  # it may not name another layout
    # the configured sections of the layout keep the layout's own words
    assert "| `measure` | toy | The toy's one measure. |" in page


@pytest.mark.usefixtures("toy")
def test_a_registered_layout_reaches_evaluation_tables_supplement_reference_and_help(
    tmp_path: Path,
) -> None:
    """A toy table of a measure no other table shows, on qrels + runs: the runs are
    evaluated for it (its record's ``metrics``), ``irtables tables`` and ``irtables
    supplement`` write it, the configuration reference and ``--help`` name the layout."""
    study = runs_study(tmp_path, '[tables.t]\nlayout = "toy"\nmeasure = "Success@9"\n')
    templates = tmp_path / "templates"  # its templates: the shared table of each format
    for fmt, suffix, (start, end) in (
        ("latex", "tex", ("((*", "*))")),
        ("markdown", "md", ("{%", "%}")),
        ("html", "html", ("{%", "%}")),
    ):
        (templates / fmt).mkdir(parents=True)
        shared = f'{start} extends "{fmt}/_table.{suffix}.j2" {end}'
        (templates / fmt / f"toy.{suffix}.j2").write_text(shared, encoding="utf-8")
    out, given = tmp_path / "out", ("--templates", str(templates))
    result = invoke("tables", str(study), "-o", str(out), "-f", "markdown", *given)
    assert result.exit_code == 0, result.output
    assert "Success@9 |" in (out / "t.md").read_text(encoding="utf-8")
    done = invoke("supplement", str(study), "-o", str(tmp_path / "sup"), "--no-pdf", *given)
    assert done.exit_code == 0, done.output
    tables = (tmp_path / "sup" / "tables").iterdir()
    toy = [p for p in tables if p.name.endswith("-t.md") or p.name == "t.md"]
    assert toy and "Success@9" in toy[0].read_text(encoding="utf-8")
    page = _config_reference()
    assert "| `measure` | toy | The toy's one measure. |" in page
    assert "sensitivity, reproduction or toy. |" in page  # the layout key names it
    assert "toy" in " ".join(invoke("tables", "--help").output.split())


def test_a_configured_section_of_a_layout_that_warns_names_what_it_leaves_out() -> None:
    """The warning about default metrics the results lack follows the record (``dropped``),
    not the name ``main``: Table 1 of another shape is silent, a ``main`` table says it."""
    grid = {"layout": "grid", "metric": "AP"}
    config = parse_config({"tables": {"main": grid, "x": {"layout": "main"}}})
    with pytest.warns(DroppedMetricWarning) as caught:
        build_all(results_from_rows(ROWS), config)
    assert [str(w.message) for w in caught] == [
        "tables.x leaves out NDCG@10, MRR@10, P@10, R@100: no dataset's results hold them "
        "(set tables.x.metrics to choose the columns)"
    ]


@pytest.mark.usefixtures("toy")
def test_the_headline_table_is_the_first_of_a_layout_whose_record_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The supplement's per-query and meta-analyses are of the headline table's metrics:
    the record's ``headline`` decides which table that is."""
    config = parse_config({"tables": {"t": {"layout": "toy", "measure": "AP"}}})
    results = results_from_rows(ROWS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DroppedMetricWarning)
        assert [(t.layout, t.name) for t in build_all(results, config).tables[:1]] == [
            ("main", "table1")
        ]
        headline = build_all(results, config).headline
        assert headline is not None and headline.layout == "main"
        monkeypatch.setitem(LAYOUTS, "main", replace(LAYOUTS["main"], headline=False))
        monkeypatch.setitem(LAYOUTS, "toy", replace(LAYOUTS["toy"], headline=True))
        headline = build_all(results, config).headline
    assert headline is not None and (headline.layout, headline.name) == ("toy", "t")


def _toy_groups_options(r: TomlReader, t: Mapping[str, Any], w: str) -> dict[str, Any]:
    """The toy's rows as one group compared with its full model ``full`` (dataset d)."""
    full = r.req_str(t, w, "full")
    rows = (AblationRow(full), *(AblationRow(s) for s in r.str_list(t, w, "others", ())))
    return {
        "dataset": "d",
        "metrics": ("AP",),
        "ablation_groups": (AblationGroup(None, full, rows),),
    }


@pytest.mark.usefixtures("toy")
def test_a_layout_tested_against_its_groups_has_its_own_tests_and_comes_last(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The record's ``tested_against = "groups"`` (the ablation's), not the name
    ``ablation``: the toy's rows are compared with its group's full model (b), not with
    [compare]'s baseline (a); its table comes after every other; the significance rows
    of each table (``per_table``) include its test; it may have no ``compare`` of its own."""
    keys = (Key("full", "The full model."), Key("others", "The other rows."))
    record = Layout("toy", "a toy", "toy_layouts:build_toy", keys, _toy_groups_options)
    monkeypatch.setitem(LAYOUTS, "toy", replace(record, tested_against="groups"))
    toy = {"layout": "toy", "full": "b", "others": ["a"]}
    grid = {"layout": "grid", "metric": "AP"}
    config = parse_config({"compare": {"baseline": "a"}, "tables": {"t": toy, "g": grid}})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DroppedMetricWarning)
        built = build_all(results_from_rows(ROWS), config)
    assert [t.name for t in built.tables][-2:] == ["g", "t"]  # g comes after t in the file
    found = built.per_table()
    assert found is not None
    comparisons, titles = found
    mine = [r for r, title in zip(comparisons.results, titles, strict=True) if title == "Table 3"]
    assert [(r.system, r.baseline, r.metric) for r in mine] == [("a", "b", "AP")]
    # a: 0.1, 0.3; b: 0.5, 0.5 on queries 1, 2 (paired t-test, one comparison: no adjustment)
    expected = stats.ttest_rel([0.1, 0.3], [0.5, 0.5]).pvalue
    assert mine[0].pvalue == pytest.approx(expected)
    with pytest.raises(ConfigError, match=r"unknown key 'tables\.t\.compare'"):
        parse_config({"tables": {"t": {**toy, "compare": {"baseline": "a"}}}})


@pytest.mark.usefixtures("toy")
def test_a_built_in_section_numbered_in_the_supplement_takes_the_next_s_number(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The record's ``numbering = "supplementary"`` (Table S1's), not the name
    ``k_breakdown``: a built-in toy section of that numbering is Table S2 after Table
    S1 of the one dataset; a configured toy section is numbered among the paper's
    tables."""
    built_in = BuiltIn(True, "toyS", numbering="supplementary")
    monkeypatch.setitem(LAYOUTS, "toy", replace(LAYOUTS["toy"], built_in=built_in))
    config = parse_config({"tables": {"x": {"layout": "toy"}}})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DroppedMetricWarning)
        with_cutoff = [*ROWS, *((d, sy, q, "P@10", v) for d, sy, q, _, v in ROWS)]
        tables = build_all(results_from_rows(with_cutoff), config).tables
    assert [(t.name, t.title) for t in tables] == [
        ("table1", "Table 1"),
        ("tableS1-d", "Table S1"),
        ("toyS", "Table S2"),
        ("x", "Table 2"),
    ]


#: A toy key holding an array of tables, its entries typed: the one schema of the reader,
#: its errors and the reference.
BLOCKS = Key(
    "blocks",
    "The toy's blocks.",
    type="array of tables",
    entries=(
        Key("title", "A block's title.", type="string"),
        Key("size", "A block's size.", type="integer"),
    ),
)


def _toy_blocks_options(r: TomlReader, t: Mapping[str, Any], w: str) -> dict[str, Any]:
    expected = ("an array of block tables", "a block table")
    blocks = list(checked_entries(r, t.get("blocks", []), f"{w}.blocks", BLOCKS, expected))
    return {"metrics": ("AP",), "k": tuple(int(b.get("size", 1)) for _, b in blocks)}


@pytest.mark.usefixtures("toy")
def test_the_entries_of_a_key_are_one_schema_for_reader_errors_and_reference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A toy key whose value is an array of tables: its entries (``Key.entries``) are
    what the reader accepts (an unknown key named with the closest and the known ones),
    their ``type`` what it checks, and the reference lists them as a section of their
    own, with their types; nothing else describes them."""
    record = Layout("toy", "a toy", "toy_layouts:build_toy", (BLOCKS,), _toy_blocks_options)
    monkeypatch.setitem(LAYOUTS, "toy", record)
    spec = parse_config({"tables": {"x": {"layout": "toy", "blocks": [{"size": 3}]}}}).table("x")
    assert spec is not None and spec.k == (3,)
    with pytest.raises(ConfigError) as info:
        parse_config({"tables": {"x": {"layout": "toy", "blocks": [{"sizes": 3}]}}})
    assert str(info.value).endswith(
        "unknown key 'tables.x.blocks[0].sizes'; did you mean 'size'? (known: size, title)"
    )
    with pytest.raises(ConfigError) as info:
        parse_config({"tables": {"x": {"layout": "toy", "blocks": [{"size": "3"}]}}})
    assert str(info.value).endswith("tables.x.blocks[0].size: expected an integer, got '3'")
    assert accepted_keys()["tables.<name>.blocks[]"] == ("size", "title")
    assert description("tables.<name>.blocks[]", "size") == "A block's size."
    page = _config_reference()
    section = page.split("## `[[tables.<name>.blocks]]`\n")[1].split("\n## ")[0]
    assert "| `size` |  | A block's size. Type: integer. |" in section
    assert "| `title` |  | A block's title. Type: string. |" in section
    assert "| `blocks` | toy | The toy's blocks. Type: array of tables. |" in page


@pytest.mark.usefixtures("toy")
def test_a_layout_whose_record_draws_a_figure_has_one_per_table_in_the_supplement(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The record's ``figure`` (the sensitivity layout's), not the name ``sensitivity``:
    the supplement plans the toy's figure, drawn by the function the record names, for
    each toy table whose section keeps ``figure = true``."""
    from irtables.supplement.build import _table_figure_plan

    drawn: list[str] = []
    module = sys.modules["toy_layouts"]
    module.draw_toy = lambda table: drawn.append(table.name) or "figure"  # type: ignore[attr-defined]
    monkeypatch.setitem(LAYOUTS, "toy", replace(LAYOUTS["toy"], figure="toy_layouts:draw_toy"))
    config = parse_config({"tables": {"t": {"layout": "toy", "caption": "Toy."}}})
    table = build_table(results_from_rows(ROWS), "t", config=config)
    plans = _table_figure_plan(config, [table, replace(table, layout="grid", name="g")])
    assert [(entry.stem, entry.caption) for entry, _ in plans] == [("toy-t", "Toy")]
    assert plans[0][1]() == "figure" and drawn == ["t"]


@pytest.mark.usefixtures("toy")
def test_a_layout_built_from_the_runs_writes_its_files_by_its_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The record's ``run_files`` (the reproduction layout's), not the name
    ``reproduction``: the tables command writes what the function it names returns for
    each section of the layout, with the formats asked for."""
    from irtables.study.pipeline import run_table_files

    def toy_files(
        config: Config, spec: TableSpec, base: Path, formats: Any, dirs: Any
    ) -> dict[str, str]:
        return {f"{spec.stem}.{fmt}": f"{spec.metrics[0]} of {base}" for fmt in formats}

    module = sys.modules["toy_layouts"]
    module.toy_files = toy_files  # type: ignore[attr-defined]
    monkeypatch.setitem(LAYOUTS, "toy", replace(LAYOUTS["toy"], run_files="toy_layouts:toy_files"))
    config = parse_config({"tables": {"t": {"layout": "toy", "measure": "P@5"}}})
    assert run_table_files(config, Path("study"), ["md", "csv"]) == {
        "t.md": "P@5 of study",
        "t.csv": "P@5 of study",
    }
    assert run_table_files(parse_config({}), Path("study"), ["md"]) == {}
