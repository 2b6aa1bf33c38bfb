"""Writing a reproduction table: LaTeX, Markdown, HTML and Typst through the built-in templates
``<format>/reproduction.*.j2`` (a user's template folder may override them), CSV with
the issue's columns and full-precision numbers, and plain text for the terminal."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from irtables.base.formats import FORMATS as OUTPUT_FORMATS
from irtables.base.markdown import escape_markdown
from irtables.base.texttable import Align, csv_text, text_table
from irtables.render.env import make_environment
from irtables.stats.reproduce import COLUMNS, ReproductionRow
from irtables.tables.reproduction import ReproductionTable

#: Output formats of a reproduction table: the terminal's, and every table format.
FORMATS: tuple[str, ...] = ("text", *OUTPUT_FORMATS)


def _template(fmt: str) -> str:
    record = OUTPUT_FORMATS[fmt]
    return f"{record.template_folder}/reproduction.{record.suffix}.j2"


def reproduction_csv(rows: Sequence[ReproductionRow]) -> str:
    """One CSV row per reproduction row: the columns of :data:`COLUMNS`, numbers as
    Python writes a float (shortest round trip), empty where a measure does not apply,
    ``nan`` where it is undefined."""
    return csv_text(
        COLUMNS,
        (["" if (v := getattr(r, c)) is None else _plain(v) for c in COLUMNS] for r in rows),
    )


def _plain(value: object) -> str:
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    return str(value)


def render_reproduction(
    table: ReproductionTable,
    rows: Sequence[ReproductionRow],
    fmt: str,
    template_dirs: Sequence[str | Path] = (),
) -> str:
    """The table in ``fmt`` (one of :data:`FORMATS`)."""
    if fmt == "csv":
        return reproduction_csv(rows)
    headers = [*table.stub_headers, *table.value_headers]
    cells = [[*stub, *values] for stub, values in table.body]
    aligns: list[Align] = ["left"] * len(table.stub_headers)
    aligns += ["right"] * len(table.value_headers)
    if fmt == "text":
        return text_table(cells, headers, style="simple", align=aligns) + "\n"
    env = make_environment(fmt, template_dirs)
    context: dict[str, object] = {"table": table}
    if fmt == "markdown":
        escaped = [[escape_markdown(c) for c in row] for row in cells]
        context["table_text"] = text_table(escaped, headers, style="pipe", align=aligns)
    return env.get_template(_template(fmt)).render(**context)
