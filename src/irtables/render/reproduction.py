"""Writing a reproduction table: LaTeX, Markdown and HTML through the built-in templates
``<format>/reproduction.*.j2`` (a user's template folder may override them), CSV with
the issue's columns and full-precision numbers, and plain text for the terminal."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from pathlib import Path

from irtables.base.markdown import escape_markdown
from irtables.base.texttable import Align, text_table
from irtables.render.env import make_environment
from irtables.stats.reproduce import COLUMNS, ReproductionRow
from irtables.tables.reproduction import ReproductionTable

#: Output formats of a reproduction table.
FORMATS: tuple[str, ...] = ("text", "csv", "markdown", "latex", "html")
_TEMPLATES = {
    "latex": "latex/reproduction.tex.j2",
    "markdown": "markdown/reproduction.md.j2",
    "html": "html/reproduction.html.j2",
}


def reproduction_csv(rows: Sequence[ReproductionRow]) -> str:
    """One CSV row per reproduction row: the columns of :data:`COLUMNS`, numbers as
    Python writes a float (shortest round trip), empty where a measure does not apply,
    ``nan`` where it is undefined."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    for r in rows:
        writer.writerow(["" if (v := getattr(r, c)) is None else _plain(v) for c in COLUMNS])
    return buffer.getvalue()


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
    return env.get_template(_TEMPLATES[fmt]).render(**context)
