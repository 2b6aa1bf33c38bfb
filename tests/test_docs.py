"""The docs describe every command and registry name, and README is the front door that
points into them (as sqlite-utils checks its docs)."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from irtables.cli import main
from irtables.loaders import LOADERS
from irtables.render import FORMATS
from irtables.tables import LAYOUTS

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text(encoding="utf-8")
#: The hand-written pages (the reference pages are generated when the site is built).
GUIDES = "\n".join(
    p.read_text(encoding="utf-8")
    for p in sorted((REPO / "docs").rglob("*.md"))
    if "scripts" not in p.parts
)


def _commands(group: click.Group, prefix: str = "irtables") -> list[str]:
    out = []
    for name, command in sorted(group.commands.items()):
        out.append(f"{prefix} {name}")
        if isinstance(command, click.Group):
            out.extend(_commands(command, f"{prefix} {name}"))
    return out


@pytest.mark.parametrize("command", _commands(main))
def test_every_command_is_shown_at_work_in_the_guides(command: str) -> None:
    assert re.search(rf"^{re.escape(command)} ", GUIDES, re.M), command


@pytest.mark.parametrize("name", [*(f"`{n}`" for n in FORMATS), *(f"`{n}`" for n in LAYOUTS)])
def test_every_layout_and_format_is_in_the_tables_guide(name: str) -> None:
    assert name in (REPO / "docs" / "guides" / "tables.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", [f"`{n}`" for n in LOADERS])
def test_every_input_format_is_in_getting_started(name: str) -> None:
    assert name in (REPO / "docs" / "getting-started.md").read_text(encoding="utf-8")


def test_the_readme_is_a_front_door() -> None:
    assert len(README.splitlines()) <= 200
    tour = README.split("## 30-second tour", 1)[1].split("\n## ", 1)[0]
    assert len(re.findall(r"^irtables ", tour, re.M)) == 6
    assert "make tables" in README and "make test" in README
    assert "![" in README and ">>> " in README


def test_every_link_of_the_readme_resolves() -> None:
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README)
    assert len(links) >= 15
    for link in links:
        assert (REPO / link).exists(), link
