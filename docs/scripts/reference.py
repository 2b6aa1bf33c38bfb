"""The reference pages of the documentation, generated from the code at build time.

Each function returns the Markdown of one page: the command line from click, the
configuration keys from the parser, :mod:`irtables.config.keys` and the layouts' records
(:func:`irtables.config.tables.section_keys`), the metric names from
:mod:`irtables.measures`, the formats and layouts from their registries. Nothing here is
kept by hand: a name added to the code appears in the docs at the next build, and a missing
help text or description fails the build.
"""

from __future__ import annotations

import dataclasses
import html
import inspect
import re
from collections.abc import Iterator

import click

#: Page path (inside docs/) -> function that writes it.
PAGES = {
    "reference/cli.md": "cli_reference",
    "reference/config.md": "config_reference",
    "reference/metrics.md": "metrics_reference",
    "reference/formats.md": "formats_reference",
    "reference/api.md": "api_reference",
    "reference/numbers.md": "numbers_reference",
}

#: Packages whose ``__all__`` is the Python API, with the heading of each.
API_PACKAGES = {
    "irtables": "The package",
    "irtables.stats": "Statistics",
}


def _plain(text: str) -> str:
    """Plain text for Markdown: ``<dataset>`` and ``table*`` shown as written (code spans
    in backticks are kept as they are)."""
    parts = re.split(r"(`[^`]*`)", text)
    for i in range(0, len(parts), 2):
        parts[i] = html.escape(parts[i], quote=False).replace("*", "\\*")
    return "".join(parts)


def _cell(text: str) -> str:
    """Text made safe for one cell of a Markdown table."""
    return _plain(" ".join(text.split())).replace("|", "\\|")


def walk_commands(
    command: click.Command, path: tuple[str, ...]
) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    """Every command under ``command`` (itself first), with its full name."""
    yield path, command
    if isinstance(command, click.Group):
        for name in sorted(command.commands):
            yield from walk_commands(command.commands[name], (*path, name))


def options_without_help() -> list[str]:
    """Options of any command that have no help text (``irtables compare -o``)."""
    from irtables.cli import main

    return [
        f"{' '.join(path)} {'/'.join(param.opts)}"
        for path, command in walk_commands(main, ("irtables",))
        for param in command.params
        if isinstance(param, click.Option) and not (param.help or "").strip()
    ]


def _type_text(param: click.Parameter) -> str:
    if isinstance(param, click.Option) and param.is_flag:
        return "flag"
    if isinstance(param.type, click.Choice):
        return " \\| ".join(f"`{c}`" for c in param.type.choices)
    return f"`{param.type.name.upper()}`" if param.type.name else ""


def _default_text(param: click.Option) -> str:
    if param.is_flag or param.default is None or param.default == () or not param.show_default:
        return ""
    return f"`{param.default}`"


def _command_section(path: tuple[str, ...], command: click.Command) -> list[str]:
    ctx = click.Context(command, info_name=" ".join(path))
    lines = [f"## `{' '.join(path)}`", "", "```text", f"Usage: {command.get_usage(ctx)[7:]}"]
    lines += ["```", "", _plain(inspect.cleandoc(command.help or "")), ""]
    args = [p for p in command.params if isinstance(p, click.Argument)]
    if args:
        names = ", ".join(f"`{a.human_readable_name}`" for a in args)
        lines += [f"Arguments: {names}.", ""]
    options = [p for p in command.params if isinstance(p, click.Option)]
    if options:
        lines += ["| option | takes | default | what it does |", "| --- | --- | --- | --- |"]
        for opt in options:
            names = ", ".join(f"`{o}`" for o in (*opt.opts, *opt.secondary_opts))
            help_text = _cell(opt.help or "")
            lines.append(f"| {names} | {_type_text(opt)} | {_default_text(opt)} | {help_text} |")
        lines.append("")
    return lines


def cli_reference() -> str:
    """Every command and option of ``irtables``, from the click definitions."""
    from irtables.cli import main

    missing = options_without_help()
    if missing:
        raise ValueError(f"options without help text: {', '.join(missing)}")
    lines = [
        "# Command line",
        "",
        "Generated from the command definitions (`irtables COMMAND --help` prints the same).",
        "Every failure prints one line `Error: ...` and exits with status 2.",
        "",
    ]
    for path, command in walk_commands(main, ("irtables",)):
        lines += _command_section(path, command)
    return "\n".join(lines).rstrip() + "\n"


#: Record of each section whose field defaults are the keys' defaults.
def _section_records() -> dict[str, type]:
    from irtables import config as c
    from irtables.config.compare import CompareSettings

    return {"datasets[]": c.DatasetSpec, "compare": CompareSettings, "output": c.Output}


def _table_defaults() -> dict[str, dict[str, str]]:
    """The defaults of the keys of the built-in tables a configuration without
    ``[tables]`` has, as it reads them: the field each key of the section's schema fills
    (:attr:`~irtables.config.tables.Key.field`), and the default label."""
    from irtables.config import Config
    from irtables.config.tables import LAYOUTS, built_in_tables, section_keys

    config = Config()
    out = {}
    for name, built_in in built_in_tables().items():
        spec = config.table(name)
        if not built_in.always or spec is None:
            continue
        keys = section_keys(LAYOUTS[name], built_in=True).values()
        values = {key.name: getattr(spec, key.field) for key in keys if key.field}
        values["label"] = spec.default_label
        out[f"tables.{name}"] = {k: f"`{_toml_value(v)}`" for k, v in values.items()}
    return out


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def _defaults(record: type) -> dict[str, str]:
    out = {}
    for f in dataclasses.fields(record):
        if f.default is not dataclasses.MISSING and f.default not in (None, ()):
            out[f.name] = f"`{_toml_value(f.default)}`"
    return out


def _section_title(section: str) -> str:
    if not section:
        return "Top level"
    if section.endswith("[]"):
        return f"`[[{section[:-2].replace('[]', '')}]]`"
    return f"`[{section.replace('[]', '')}]`"


def config_reference() -> str:
    """Every key of ``irtables.toml``, with its default and description."""
    from irtables.config.keys import (
        accepted_keys,
        description,
        key_type,
        layout_keys,
        undescribed_keys,
    )

    accepted = accepted_keys()
    missing = undescribed_keys()
    if missing:
        raise ValueError(
            f"configuration keys without a description: {', '.join(missing)} "
            "(describe each in src/irtables/config/keys.py, DESCRIPTIONS, or a table "
            "section's in its layout's record, src/irtables/config/tables.py)"
        )
    records = _section_records()
    table_defaults = _table_defaults()
    per_layout = layout_keys()
    lines = [
        "# Configuration keys",
        "",
        "Generated from the configuration parser: every key `irtables.toml` accepts, in each",
        "section. Every key is optional; a bad value is an error naming the file, the key and",
        "what was expected. The [getting started](../getting-started.md) page shows a full file.",
        "",
    ]
    for section, keys in accepted.items():
        defaults = _defaults(records[section]) if section in records else {}
        defaults |= table_defaults.get(section, {})
        lines += [f"## {_section_title(section)}", ""]
        header = "| key | default | what it means |"
        if section == "tables.<name>":
            header = "| key | layouts | what it means |"
        lines += [header, "| --- | --- | --- |"]
        for key in keys:
            middle = defaults.get(key, "")
            if section == "tables.<name>":
                used = [layout for layout, ks in per_layout.items() if key in ks]
                middle = "all" if len(used) == len(per_layout) else ", ".join(used)
            text = description(section, key)
            if key_type(section, key):
                text += f" Type: {key_type(section, key)}."
            lines.append(f"| `{key}` | {middle} | {_cell(text)} |")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def metrics_reference() -> str:
    """Every measure family as it may be written, its canonical name and its label."""
    from irtables.measures import known_measure_names, parse_measure

    lines = [
        "# Metric names",
        "",
        "Generated from the measure registry. `k` stands for any cutoff (shown with 10);",
        "each name may also be written in trec_eval, ir_measures or ranx spelling",
        "(see [the guide](../guides/metrics.md)).",
        "",
        "| you write | canonical name | label in tables | values in [0, 1] |",
        "| --- | --- | --- | --- |",
    ]
    for example in known_measure_names():
        written = example.replace("@k", "@10").replace("_k", "_10")
        measure = parse_measure(written)
        bounded = "yes" if measure.bounded else "no"
        lines.append(f"| `{written}` | `{measure.name}` | {measure.label} | {bounded} |")
    return "\n".join(lines) + "\n"


def formats_reference() -> str:
    """Input formats, output formats and layouts, from their registries."""
    from irtables.loaders import LOADERS
    from irtables.render import FORMATS
    from irtables.tables import LAYOUTS

    lines = [
        "# Formats and layouts",
        "",
        "Generated from the registries. The input format of a file is detected from its",
        "extension and content; `--input-format NAME` forces one.",
        "",
        "## Input formats",
        "",
        "| name | extensions | what it reads |",
        "| --- | --- | --- |",
    ]
    for name, loader in LOADERS.items():
        exts = ", ".join(f"`.{e}`" for e in loader.extensions)
        lines.append(f"| `{name}` | {exts} | {_cell(loader.description)} |")
    lines += ["", "## Output formats", "", "| name | file | what it is |", "| --- | --- | --- |"]
    for name, fmt in FORMATS.items():
        lines.append(f"| `{name}` | `.{fmt.suffix}` | {_cell(fmt.description)} |")
    lines += ["", "## Layouts", "", "| layout | table |", "| --- | --- |"]
    for name, text in LAYOUTS.items():
        lines.append(f"| `{name}` | {_cell(text)} |")
    lines += ["", "Pictures of each layout: [tables and layouts](../guides/tables.md)."]
    return "\n".join(lines) + "\n"


def numbers_reference() -> str:
    """The key grammar, the macros of numbers.tex and the fields of numbers.json."""
    from irtables.render.citable import JSON_FIELDS, MACROS
    from irtables.tables.citable import COUNT_GRAMMAR, KEY_GRAMMAR, KEY_PARTS

    lines = [
        "# Cited numbers",
        "",
        "Generated from the code. `irtables tables` (and `irtables numbers`, and the",
        "supplement) writes `numbers.json` and, with the LaTeX format, `numbers.tex`;",
        "[numbers in your paper](../guides/numbers.md) shows them at work.",
        "",
        "## Keys",
        "",
        f"Every number a table shows: `{KEY_GRAMMAR}`. Counts: `{COUNT_GRAMMAR}`.",
        "A key is written verbatim wherever it is cited, whatever its ids hold (`_`, `=`,",
        "`@`, `.`, `-`); an id cannot hold `/`, `{`, `}`, `%`, `#` or a backslash.",
        "",
        "| part | what it holds |",
        "| --- | --- |",
    ]
    lines += [f"| `{part}` | {_cell(text)} |" for part, text in KEY_PARTS.items()]
    lines += ["", "## Macros of numbers.tex", "", "| macro | gives |", "| --- | --- |"]
    lines += [f"| `\\{name}{{KEY}}` | {_cell(text)} |" for name, text in MACROS.items()]
    lines += [
        "",
        "An unknown key stops pdflatex with an error that names it. numbers.tex needs no",
        "package and loads in article, acmart, llncs and IEEEtran.",
        "",
        "## Fields of numbers.json",
        "",
        "`numbers` maps each key to an object; `counts` each count key to its `text` and",
        "`value`.",
        "",
        "| field | what it holds |",
        "| --- | --- |",
    ]
    lines += [f"| `{name}` | {_cell(text)} |" for name, text in JSON_FIELDS.items()]
    return "\n".join(lines) + "\n"


def api_reference() -> str:
    """Every public name of :data:`API_PACKAGES` (``__all__``), documented from its
    docstring by mkdocstrings; constants (upper-case names) are left to the guides."""
    import importlib

    lines = [
        "# Python API",
        "",
        "Generated from the docstrings of every name in `__all__`; the",
        "[Python guide](../guides/python.md) shows them at work.",
        "",
    ]
    for package, title in API_PACKAGES.items():
        module = importlib.import_module(package)
        lines += [f"## {title}: `{package}`", ""]
        for name in module.__all__:
            if name.startswith("_") or name.isupper():
                continue
            lines += [f"::: {package}.{name}", ""]
    lines += [
        "## Tables and the supplement",
        "",
        "::: irtables.tables.model.TableModel",
        "",
        "::: irtables.supplement.run.make_supplement",
    ]
    return "\n".join(lines) + "\n"


def page(path: str) -> str:
    """The generated Markdown of ``path`` (a key of :data:`PAGES`)."""
    function: object = globals()[PAGES[path]]
    assert callable(function)
    text: str = function()
    return text
