"""Each registry checks that a new entry came with every file it needs, and names the file
a contributor forgot (CONTRIBUTING.md's "How to add ..." lists the same files)."""

from __future__ import annotations

import importlib
import inspect
from dataclasses import replace
from pathlib import Path

import pytest

from irtables.base.procedures import CORRECTIONS, TESTS, Correction, SignificanceTest, registered
from irtables.config.tables import LAYOUTS, Key, Layout, section_keys
from irtables.measures import FAMILIES, Family
from irtables.measures import registered as registered_families
from irtables.supplement.bibliography import REFERENCES

ROOT = Path(__file__).resolve().parents[2]
FORMATS = (("latex", "tex"), ("markdown", "md"), ("html", "html"))
STATISTICS_GUIDE = ROOT / "docs" / "guides" / "statistics.md"
BIBLIOGRAPHY = "src/irtables/supplement/bibliography.py"


def _loads(function: str) -> bool:
    module, name = function.split(":")
    try:
        return callable(getattr(importlib.import_module(module), name, None))
    except ImportError:
        return False


def procedure_problems() -> list[str]:
    """What each test and correction record lacks, naming the file to add it to."""
    out = []
    guide = STATISTICS_GUIDE.read_text(encoding="utf-8")
    records: list[SignificanceTest | Correction] = [*TESTS.values(), *CORRECTIONS.values()]
    for r in records:
        where = f"src/irtables/base/procedures.py: {r.id}"
        out += [
            f"{where} cites {k}: add it to {BIBLIOGRAPHY}" for k in r.cites if k not in REFERENCES
        ]
        if not _loads(r.function):
            out.append(f"{where}: no function {r.function} (write it in src/irtables/stats/)")
        if isinstance(r, SignificanceTest):
            if r.batched and not _loads(r.batched):
                out.append(f"{where}: no batched function {r.batched}")
            if not (r.constant or r.spread):
                out.append(f"{where}: say what it does with a constant difference (constant)")
            if f"`{r.id}`" not in guide:
                out.append(f"{where}: describe it in docs/guides/statistics.md")
    return out


def _record_file(layout: Layout) -> str:
    """The file that registers ``layout``: where its reader of keys is written."""
    found = Path(inspect.getsourcefile(layout.options) or "")
    return str(found.relative_to(ROOT)) if found.is_relative_to(ROOT) else str(found)


def layout_problems() -> list[str]:
    """What each layout lacks: templates, key descriptions, its builder."""
    out = []
    for name, layout in LAYOUTS.items():
        for fmt, suffix in FORMATS:
            template = ROOT / "templates" / fmt / f"{name}.{suffix}.j2"
            if not template.is_file():
                out.append(f"layout {name}: add its template {template.relative_to(ROOT)}")
        sections = [section_keys(layout)]
        if layout.built_in is not None:
            sections.append(section_keys(layout, built_in=True))
        keys = {k.name: k for section in sections for k in section.values() if not k.text.strip()}
        out += [
            f"layout {name}: describe key {key} in its record ({_record_file(layout)}, Key)"
            for key in keys
        ]
        if not _loads(layout.builder):
            out.append(f"layout {name}: no builder {layout.builder} (src/irtables/tables/)")
    return out


def family_problems() -> list[str]:
    """What each measure family lacks: its computation, methods sentence, references."""
    out = []
    for name, f in FAMILIES.items():
        where = f"src/irtables/measures.py: {name}"
        out += [
            f"{where} cites {k}: add it to {BIBLIOGRAPHY}" for k in f.cites if k not in REFERENCES
        ]
        if f.compute is None:
            out.append(f"{where}: no compute function (src/irtables/evaluator/compute.py)")
        if not f.method:
            out.append(f"{where}: no methods sentence (method)")
    return out


def test_the_built_in_records_have_every_file() -> None:
    assert procedure_problems() == []
    assert layout_problems() == []
    assert family_problems() == []


def test_a_test_without_its_reference_or_guide_names_the_files() -> None:
    toy = SignificanceTest(
        "toy", "paired", "toy", "toy", "a toy", ("nobody2026",), "irtables.stats.paired:t_test",
        constant="A toy.",
    )  # fmt: skip
    with registered(toy):
        found = procedure_problems()
    assert found == [
        f"src/irtables/base/procedures.py: toy cites nobody2026: add it to {BIBLIOGRAPHY}",
        "src/irtables/base/procedures.py: toy: describe it in docs/guides/statistics.md",
    ]


def test_a_correction_without_its_function_names_the_folder() -> None:
    toy = Correction("toy", "Toy", "toy", "a toy", (), "irtables.stats.correction:nothing")
    with registered(toy):
        found = procedure_problems()
    assert found == [
        "src/irtables/base/procedures.py: toy: no function irtables.stats.correction:nothing "
        "(write it in src/irtables/stats/)"
    ]


def test_a_layout_without_templates_or_key_descriptions_names_the_files(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    record = Layout(
        "toy", "a toy", "irtables.tables.layouts:build_main", (Key("measure", " "),),
        lambda r, t, w: {"metrics": (r.opt_str(t, w, "measure") or "AP",)},
    )  # fmt: skip
    monkeypatch.setitem(LAYOUTS, "toy", record)
    found = layout_problems()
    assert found == [
        "layout toy: add its template templates/latex/toy.tex.j2",
        "layout toy: add its template templates/markdown/toy.md.j2",
        "layout toy: add its template templates/html/toy.html.j2",
        "layout toy: describe key measure in its record "
        "(tests/unit/test_contributor_files.py, Key)",
    ]


def test_a_built_in_section_key_without_description_names_the_record_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A built-in section's own wording of a key is checked too, naming config/tables.py."""
    main = LAYOUTS["main"]
    assert main.built_in is not None
    built_in = replace(main.built_in, keys=(*main.built_in.keys, Key("average", "")))
    monkeypatch.setitem(LAYOUTS, "main", replace(main, built_in=built_in))
    assert layout_problems() == [
        "layout main: describe key average in its record (src/irtables/config/tables.py, Key)"
    ]


def test_a_measure_without_its_computation_names_the_file() -> None:
    toy = Family("Toy", "TOY", "none", "a toy", ir_measures=("toy",), method="A toy.")
    with registered_families(toy):
        found = family_problems()
    assert found == [
        "src/irtables/measures.py: Toy: no compute function (src/irtables/evaluator/compute.py)"
    ]
