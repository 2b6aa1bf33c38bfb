"""The output formats: one record each (irtables.base.formats.FORMATS), read by the
configuration, the command line, the supplement and the renderer; each record's module
provides what rendering needs, and each templated format has a template per layout."""

from __future__ import annotations

import importlib

import click
import pytest

from irtables.base.formats import DEFAULT_FORMATS, FORMATS, SUPPLEMENT_FORMATS
from irtables.cli import main
from irtables.config import parse_config
from irtables.errors import ConfigError
from irtables.render.env import builtin_template_dir
from irtables.tables import LAYOUTS


@pytest.mark.parametrize("name", list(FORMATS))
def test_each_format_module_provides_render_escape_and_typeset(name: str) -> None:
    record = FORMATS[name]
    module = importlib.import_module(record.module)
    missing = [
        f for f in ("render_table", "escape", "typeset") if not callable(getattr(module, f, None))
    ]
    assert missing == [], f"{record.module} (format {name}) lacks {', '.join(missing)}"


@pytest.mark.parametrize("name", [n for n, f in FORMATS.items() if f.template_folder])
def test_each_templated_format_has_a_template_per_layout(name: str) -> None:
    record = FORMATS[name]
    folder = builtin_template_dir() / str(record.template_folder)
    missing = [
        f"templates/{record.template_folder}/{layout}.{record.suffix}.j2"
        for layout in LAYOUTS
        if not (folder / f"{layout}.{record.suffix}.j2").is_file()
    ]
    assert missing == []


def test_the_configuration_accepts_every_format_and_names_them_all_when_refusing() -> None:
    config = parse_config({"output": {"formats": list(FORMATS)}})
    assert config.output.formats == tuple(FORMATS)
    assert parse_config({}).output.formats == DEFAULT_FORMATS
    with pytest.raises(ConfigError) as e:
        parse_config({"output": {"formats": ["docx"]}})
    assert f"one of {', '.join(FORMATS)}" in str(e.value)


def test_the_command_line_offers_every_format() -> None:
    tables = main.commands["tables"]  # type: ignore[attr-defined]
    option = next(p for p in tables.params if p.name == "formats")
    assert isinstance(option.type, click.Choice)
    assert list(option.type.choices) == list(FORMATS)


def test_the_supplement_writes_the_flagged_formats() -> None:
    # build.py writes every table in SUPPLEMENT_FORMATS (test_supplement_run lists them)
    assert set(SUPPLEMENT_FORMATS) == {"latex", "markdown", "csv"}
