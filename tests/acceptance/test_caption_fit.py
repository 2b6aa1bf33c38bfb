"""Every layout with its longest realistic caption, in an ACM paper (acmart sigconf).

Each table of the example and of the synthetic layouts study gets a long caption of
its own (three sentences, as papers write them) on top of the notes irtables adds, and
is compiled with every ``caption_notes`` choice, in one column (``table``) and across
both (``table*``), each float referenced from the text. The test fails on an
``Overfull \\vbox`` (a float taller than the page), a float too large or lost, or a
reference left undefined (the float never reached the page). A control shows that a
table too tall for a column is caught.
"""

from __future__ import annotations

import os
import re
import subprocess
import warnings
from dataclasses import replace
from pathlib import Path

import pytest

from irtables.config import CAPTION_NOTES
from irtables.errors import LayoutWarning
from irtables.render import render
from irtables.render.latex import LatexOptions
from irtables.study.pipeline import resolve_study
from irtables.tables import build_all
from irtables.tables.model import Cell, Column, KeyNote, Row, RowGroup, TableModel
from tests.acceptance.test_paper_fit import PREAMBLES
from tests.conftest import REPO, require_pdflatex

LONG_CAPTION = (
    "Retrieval effectiveness of the TREC CAsT 2021 organizer baselines (BM25, ANCE and "
    "ANCE + BERT on manual rewrites; ConvDR and ConvDR + BERT automatic) and of an "
    "Anserini BM25 run on CACM. All neural rankers are fine-tuned on MS MARCO passage "
    "ranking with the organizers' settings and use the official conversational context. "
    "Runs marked with an asterisk use query rewrites produced by a T5 model."
)
STUDIES = (REPO / "results", REPO / "tests" / "data" / "layouts")
PROBLEMS = re.compile(
    r"Overfull \\vbox.*|Float too large.*|Float\(s\) lost.*|"
    r"(?:Reference|There were) .*undefined.*"
)


def _tables() -> list[TableModel]:
    tables = []
    for study in STUDIES:
        results, config, _ = resolve_study(study)
        tables += [
            replace(t, name=f"{study.name}-{t.name}") for t in build_all(results, config).tables
        ]
    return tables


#: A table to compile: its label, its model, and whether it is a table* (else a table).
Variant = tuple[str, TableModel, bool]


def _variants(tables: list[TableModel]) -> list[Variant]:
    out = []
    for table in tables:
        for notes in CAPTION_NOTES:
            for wide in (False, True):
                label = f"tab:{table.name}-{notes}-{'wide' if wide else 'column'}"
                model = replace(table, caption=LONG_CAPTION, caption_notes=notes, label=label)
                out.append((label, model, wide))
    return out


def _document(variants: list[Variant]) -> tuple[str, set[str]]:
    """The paper, and the labels of the tables whose rendering warned (LayoutWarning)."""
    parts, warned = [], set()
    for label, model, wide in variants:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            latex = render(model, "latex", latex=LatexOptions(wide=wide))
        assert all(w.category is LayoutWarning for w in caught), caught
        if caught:
            warned.add(label)
        text = f"Table~\\ref{{{label}}} is one of the tables. " * 3
        parts.append(f"{text}\n\n{latex}\n\\clearpage\n")
    document = (
        PREAMBLES["sigconf"]
        + "\\begin{document}\n\\title{Tables}\n\\maketitle\n"
        + "\n".join(parts)
        + "\\end{document}\n"
    )
    return document, warned


def _problems(variants: list[Variant], workdir: Path) -> tuple[list[str], set[str]]:
    """Compile the tables in acmart sigconf: what went wrong (from the log and the aux,
    each with the label of its table where LaTeX says which), and what irtables warned of."""
    require_pdflatex()
    document, warned = _document(variants)
    (workdir / "paper.tex").write_text(document, encoding="utf-8")
    for _ in range(2):
        result = subprocess.run(
            ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper.tex"],
            cwd=workdir,
            capture_output=True,
            text=True,
            timeout=600,
            env={**os.environ, "max_print_line": "10000"},
        )
        assert result.returncode == 0, result.stdout[-3000:]
    log = (workdir / "paper.log").read_text(encoding="utf-8", errors="replace")
    aux = (workdir / "paper.aux").read_text(encoding="utf-8", errors="replace")
    lines = document.splitlines()
    found = []
    for problem in PROBLEMS.findall(log):
        at = re.search(r"input line (\d+)", problem)
        labels = (
            re.findall(r"\\label\{([^}]*)\}", "\n".join(lines[: int(at.group(1))])) if at else []
        )
        found.append(f"{labels[-1] if labels else '?'}: {problem}")
    found += [f"{label}: not placed" for label, _, _ in variants if f"{{{label}}}" not in aux]
    return found, warned


@pytest.mark.latex
def test_every_layout_with_a_long_caption_stays_on_the_page_or_warns(tmp_path: Path) -> None:
    """Every table LaTeX cannot place whole was warned about when it was rendered."""
    variants = _variants(_tables())
    assert len(variants) == 14 * len(CAPTION_NOTES) * 2
    found, warned = _problems(variants, tmp_path)
    unwarned = [p for p in found if p.split(": ")[0] not in warned]
    assert unwarned == []
    # the example's Table 1 across both columns, as irtables places it: no warning
    assert not {w for w in warned if w.startswith("tab:results-table1-") and w.endswith("wide")}
    assert {p.split(": ")[0] for p in found} <= warned


@pytest.mark.latex
def test_a_table_too_tall_for_the_column_is_caught(tmp_path: Path) -> None:
    rows = tuple(Row(f"r{i}", f"k1={i / 10:.1f}", (Cell(0.5, "0.500"),)) for i in range(90))
    tall = TableModel(
        "grid", "tall", "Table 9", ("k1",), (Column("m", "NDCG@10"),),
        (RowGroup(None, rows),), LONG_CAPTION, "tab:tall",
    )  # fmt: skip
    found, warned = _problems([("tab:tall", tall, False)], tmp_path)
    assert [p.split(": ")[0] for p in found] and warned == {"tab:tall"}, found


@pytest.mark.latex
def test_a_short_caption_places_a_table_the_full_caption_loses(tmp_path: Path) -> None:
    """The case of the issue: a one-column table with irtables' long caption does not
    fit the column; with ``caption_notes = "short"`` it does, and only the full one warns."""
    notes = (
        "Means over the queries of each dataset (TREC CAsT 2021: 158; CACM: 52).",
        "Binary measures count a document as relevant at grade ≥ 2 on TREC CAsT 2021.",
        "NDCG uses the relevance grade as gain (trec_eval).",
        "Per-query values are means over the seeds of each system.",
        "Values with ± are mean ± standard deviation over 3 seeds.",
        KeyNote("Best value per column in bold."),
    )
    rows = tuple(Row(f"r{i}", f"k1={i / 10:.1f}", (Cell(0.5, "0.500"),)) for i in range(44))
    table = TableModel(
        "sensitivity", "alpha", "Table 4", ("k1",), (Column("m", "NDCG@10"),),
        (RowGroup(None, rows),), LONG_CAPTION, "tab:alpha", notes=notes,
    )  # fmt: skip
    variants = [
        (f"tab:alpha-{c}", replace(table, caption_notes=c, label=f"tab:alpha-{c}"), False)
        for c in ("full", "short")
    ]
    found, warned = _problems(variants, tmp_path)
    assert {p.split(": ")[0] for p in found} == {"tab:alpha-full"} == warned, found
