"""Jinja environments: where the built-in templates live and how user folders override them."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from importlib import import_module, resources
from pathlib import Path

import jinja2

from irtables.base.formats import FORMATS
from irtables.render.fit import type_size


def builtin_template_dir() -> Path:
    """The folder of the built-in templates: inside the installed wheel, or the checkout's."""
    packaged = Path(str(resources.files("irtables"))) / "templates"
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parents[3] / "templates"
    if checkout.is_dir():
        return checkout
    raise FileNotFoundError("irtables' built-in templates are missing from the installation")


def make_environment(fmt: str, user_dirs: Sequence[str | Path] = ()) -> jinja2.Environment:
    """A Jinja environment for one output format.

    User folders come first, so a user's ``latex/main.tex.j2`` wins; it may extend the
    built-in one as ``builtin/latex/main.tex.j2`` and replace one block. One environment
    is kept per (format, folders), so each template is compiled once per process (Jinja
    reloads a template whose file changed).
    """
    return _environment(fmt, tuple(str(d) for d in user_dirs))


@functools.lru_cache(maxsize=32)
def _environment(fmt: str, user_dirs: tuple[str, ...]) -> jinja2.Environment:
    builtin = jinja2.FileSystemLoader(str(builtin_template_dir()))
    loader = jinja2.ChoiceLoader(
        [
            *(jinja2.FileSystemLoader(str(d)) for d in user_dirs),
            jinja2.PrefixLoader({"builtin": builtin}),
            builtin,
        ]
    )
    common = {
        "loader": loader,
        "undefined": jinja2.StrictUndefined,
        "trim_blocks": True,
        "lstrip_blocks": True,
        "keep_trailing_newline": True,
        "autoescape": fmt == "html",
    }
    env = jinja2.Environment(**common, **FORMATS[fmt].delimiters)  # type: ignore[arg-type]
    for record in FORMATS.values():  # every format's escape, for a page that mixes them
        if record.filter is not None:
            env.filters[record.filter] = import_module(record.module).escape
    if fmt == "latex":
        env.globals["type_size"] = type_size  # the supplement's tables fit the page
    return env
