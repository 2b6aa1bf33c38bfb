"""text_table gives tabulate's text for string cells (tabulate is the reference)."""

from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st
from tabulate import tabulate

from irtables.base.texttable import _fast_path, text_table

# Printable ASCII, weighted towards what reports hold: names, numbers, signs, spaces;
# "True"/"False" and empty cells, which tabulate types apart from other strings.
CELL = st.one_of(
    st.text(alphabet=string.printable[:95], max_size=12),
    st.sampled_from(["", " ", "True", "False", "1.5", "-0.25", "nan", "1e9", "|", "  x  "]),
)
# Cells outside the fast path: non-ASCII, line breaks, control characters.
NON_ASCII = ["é", "日本", "a\nb", "\x1b[31mred\x1b[0m", "\t", "Ω"]


@st.composite
def tables(draw: st.DrawFn, cells: st.SearchStrategy[str] = CELL) -> tuple:
    n_cols = draw(st.integers(1, 6))
    n_rows = draw(st.integers(1, 8))
    headers = draw(st.lists(CELL, min_size=n_cols, max_size=n_cols))
    rows = draw(
        st.lists(
            st.lists(cells, min_size=n_cols, max_size=n_cols), min_size=n_rows, max_size=n_rows
        )
    )
    aligns = draw(st.lists(st.sampled_from(["left", "right"]), min_size=n_cols, max_size=n_cols))
    return headers, rows, aligns


def _reference(headers: list[str], rows: list[list[str]], style: str, aligns: list[str]) -> str:
    return tabulate(
        rows, headers=headers, tablefmt=style, colalign=aligns, showindex=False,
        disable_numparse=True,
    )  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(tables(), st.sampled_from(["pipe", "github", "simple"]))
def test_same_text_as_tabulate(table: tuple, style: str) -> None:
    headers, rows, aligns = table
    assert _fast_path(rows, headers, aligns)  # irtables' own layout, not tabulate's
    assert text_table(rows, headers, style=style, align=aligns) == _reference(
        headers, rows, style, aligns
    )


@settings(max_examples=100, deadline=None)
@given(
    tables(st.one_of(CELL, st.sampled_from(NON_ASCII))),
    st.sampled_from(["pipe", "github", "simple"]),
)
def test_other_text_goes_to_tabulate(table: tuple, style: str) -> None:
    headers, rows, aligns = table
    has_other = any(cell in NON_ASCII for row in rows for cell in row)
    assert _fast_path(rows, headers, aligns) is not has_other
    assert text_table(rows, headers, style=style, align=aligns) == _reference(
        headers, rows, style, aligns
    )


def test_default_alignment_is_left() -> None:
    rows, headers = [["a", "bb"]], ["h1", "h2"]
    assert text_table(rows, headers, style="github") == tabulate(
        rows, headers=headers, tablefmt="github", disable_numparse=True
    )
