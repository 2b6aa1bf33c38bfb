"""Relevance grades are read strictly, whichever path reads them: a column of plain
integers takes a fast path (a cast and a byte test), anything else the pattern check.
Both must accept exactly what the written rule accepts (an optional sign and ASCII
digits, surrounded by spaces at most, within int64), checked here against a plain
Python reading of that rule."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from irtables.base.numbers import integers_from_strings
from irtables.errors import InputError

_RULE = re.compile(r"[ \t\r\n]*([+-]?[0-9]+)[ \t\r\n]*", re.ASCII)


def _by_the_rule(texts: list[str]) -> list[int] | None:
    """The grades as the module docstring defines them, or None when one is not."""
    out = []
    for text in texts:
        m = _RULE.fullmatch(text)
        if m is None:
            return None
        value = int(m.group(1))
        if not -(2**63) <= value < 2**63:
            return None
        out.append(value)
    return out


def _read(texts: list[str]) -> list[int] | None:
    try:
        return integers_from_strings(texts, "qrels", lambda i: i + 1, "a grade").tolist()
    except InputError:
        return None


_PIECES = st.sampled_from(
    ["0", "1", "7", "9", "-", "+", " ", "x", "0x", "_", "e", ".", "２", "٣", "99999999999"]
)
_TEXT = st.lists(_PIECES, min_size=0, max_size=4).map("".join)


@given(st.lists(_TEXT, min_size=1, max_size=6))
def test_grades_are_read_by_the_written_rule(texts: list[str]) -> None:
    assert _read(texts) == _by_the_rule(texts)


@given(st.lists(st.integers(-(2**63), 2**63 - 1), min_size=1, max_size=20))
def test_plain_integers_are_read_exactly(values: list[int]) -> None:
    assert _read([str(v) for v in values]) == values


@pytest.mark.parametrize(
    "texts",
    [["1", "0x10"], ["1", "+2"], ["9223372036854775808"], ["1", " 2"], ["1", ""], ["-", "1"]],
)
def test_a_column_off_the_fast_path_is_still_judged_by_the_rule(texts: list[str]) -> None:
    assert _read(texts) == _by_the_rule(texts)
