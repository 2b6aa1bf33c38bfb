"""The README documents every command and every registry name (as sqlite-utils does)."""

from __future__ import annotations

from pathlib import Path

import pytest

from irtables.cli import main
from irtables.loaders import LOADERS
from irtables.render import FORMATS
from irtables.tables import LAYOUTS

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("command", sorted(main.commands))
def test_every_command_is_in_the_readme(command: str) -> None:
    assert f"irtables {command}" in README


@pytest.mark.parametrize(
    "name",
    [*(f"`{n}`" for n in LOADERS), *(f"`{n}`" for n in FORMATS), *(f"`{n}`" for n in LAYOUTS)],
)
def test_every_registry_name_is_in_the_readme(name: str) -> None:
    assert name in README
