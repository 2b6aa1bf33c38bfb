"""Blank lines cost what reading them costs (issue 23 §2).

A gzip file of 2 MB expands to 2 GiB of blank lines. Before, a run of them took 64 s to
be refused (each line a turn of a Python loop) and qrels of them 3 GB (pyarrow made a row
of each line it read ahead). Here the work is counted, never timed: the lines that reach
Python one at a time, and the rows pyarrow is handed. Line numbers after blank lines are
checked against :meth:`str.splitlines`, the rule the readers state.
"""

from __future__ import annotations

import csv
import gzip
import io
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pyarrow.csv as pacsv
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import irtables.loaders.source as source
import irtables.loaders.trec_run as trec_run
from irtables.errors import InputError
from irtables.loaders import load_results
from irtables.loaders.delimited import records
from irtables.loaders.qrels import read_qrels
from irtables.loaders.source import content_lines
from irtables.loaders.trec_run import read_run

#: Blank lines in the files below: a loop turn for each would be noticed by the counts.
BLANK = 2_000_000


def _counting_content_lines(monkeypatch: pytest.MonkeyPatch, seen: list[int]) -> None:
    """Count the lines the exact reader's loop is handed."""
    original = source.content_lines

    def counted(path: Path) -> Iterator[tuple[int, str]]:
        for item in original(path):
            seen[0] += 1
            yield item

    monkeypatch.setattr(trec_run, "content_lines", counted)


@pytest.mark.parametrize("blank", [b"\n", b"  \t \n", b"\r\n"])
def test_blank_lines_reach_python_only_with_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, blank: bytes
) -> None:
    """Two run lines around two million blank ones: the reader's loop sees two lines, and
    the second is numbered as str.splitlines counts."""
    path = tmp_path / "spaced.run"
    path.write_bytes(b"1 Q0 d1 1 2.0 first\n" + blank * BLANK + b"1 Q0 d2 2 1.0 last\n")
    seen = [0]
    _counting_content_lines(monkeypatch, seen)
    run = read_run(path)
    assert run.docid.to_pylist() == ["d1", "d2"]
    assert seen[0] == 2
    assert run.runid == "last"
    assert run.line_of(1) == BLANK + 2


def test_a_bad_line_after_blank_lines_is_named_by_its_number(tmp_path: Path) -> None:
    path = tmp_path / "bad.qrels"
    path.write_bytes(b"1 0 d1 1\n" + b"\n" * BLANK + b"1 0 d2 x\n")
    with pytest.raises(InputError, match=rf"bad\.qrels:{BLANK + 2}: "):
        read_qrels(path)


@pytest.mark.parametrize("reader", [read_run, read_qrels])
def test_a_compressed_file_of_blank_lines_is_refused_after_one_block(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reader: Callable[[Path], object]
) -> None:
    """256 MiB of blank lines from 256 kB of gzip: refused at the expansion limit, with
    no line handed to Python and no row made by pyarrow past its first block."""
    path = tmp_path / "blank.txt.gz"
    with gzip.open(path, "wb", compresslevel=9) as handle:
        for _ in range(256):
            handle.write(b"\n" * (1 << 20))
    seen = [0]
    _counting_content_lines(monkeypatch, seen)
    rows = [0]
    original = pacsv.open_csv

    def counted_open_csv(*args: Any, **kwargs: Any) -> Iterator[Any]:
        for batch in original(*args, **kwargs):
            rows[0] += batch.num_rows
            yield batch

    monkeypatch.setattr(pacsv, "open_csv", counted_open_csv)
    with pytest.raises(InputError, match="expands more than 100 times"):
        reader(path)
    assert seen[0] == 0
    assert rows[0] <= 2 << 20  # a block or two of 1 MiB, not 40 M rows


def test_a_blank_line_in_single_space_qrels_is_skipped_as_in_tabbed_ones(
    tmp_path: Path,
) -> None:
    """The qrels reader skipped a blank line when the file had tabs, and refused it
    ("expected an integer relevance grade, got ''") when it had single spaces."""
    plain, spaced, tabbed = (tmp_path / n for n in ("plain.qrels", "spaced.qrels", "tab.qrels"))
    plain.write_text("1 0 d1 1\n1 0 d2 0\n")
    spaced.write_text("1 0 d1 1\n\n1 0 d2 0\n")
    tabbed.write_text("1\t0\td1\t1\n\n1\t0\td2\t0\n")
    expected = read_qrels(plain)
    for path in (spaced, tabbed):
        got = read_qrels(path)
        assert got.docid.to_pylist() == expected.docid.to_pylist()
        assert got.grade.tolist() == expected.grade.tolist()
        assert got.rows is not None and got.rows.tolist() == [1, 3]


def test_the_runid_is_the_tag_of_the_last_run_line_before_blank_ones(tmp_path: Path) -> None:
    path = tmp_path / "r.run"
    path.write_bytes(b"1 Q0 d1 1 2.0 a\n1\tQ0\td2\t2\t1.0\tb\n# the end\n" + b"\n" * 100_000)
    assert read_run(path).runid == "b"
    compressed = tmp_path / "r.run.gz"
    compressed.write_bytes(gzip.compress(path.read_bytes()))
    assert read_run(compressed).runid == "b"


_PIECES = ["a b", "#c", " ", "\t", "é", "\u3000", "\xa0", "\n", "\r", "\r\n", "\x0b", "\x1c"]
_PIECES += ["\x85", "\u2028"]


@settings(max_examples=300, deadline=None)
@given(
    pieces=st.lists(st.sampled_from(_PIECES), max_size=40),
    chunk=st.integers(min_value=4, max_value=64),
)
def test_content_lines_are_the_nonblank_lines_of_splitlines(
    tmp_path_factory: pytest.TempPathFactory, pieces: list[str], chunk: int
) -> None:
    """Whatever the line breaks and however the file falls into chunks: the lines that
    hold more than whitespace, numbered as ``str.splitlines`` numbers every line."""
    text = "".join(pieces)
    path = tmp_path_factory.mktemp("lines") / "f.txt"
    path.write_bytes(text.encode("utf-8"))
    expected = [(i, line) for i, line in enumerate(text.splitlines(), 1) if line.split()]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(source, "_CHUNK", chunk)
        assert list(content_lines(path)) == expected


def test_a_line_that_is_not_utf8_is_named_after_the_lines_before_it(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(b"a\n\n\nb\n\xff\nc\n")
    lines = content_lines(path)
    assert next(lines) == (1, "a")
    assert next(lines) == (4, "b")
    with pytest.raises(InputError, match=r"bad\.txt:5: not valid UTF-8"):
        next(lines)


def _csv_records(text: str, delimiter: str) -> list[tuple[int, list[str]]]:
    """The oracle: the non-blank records of :func:`csv.reader`, with their first lines."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    found, start = [], 1
    for fields in reader:
        line, start = start, reader.line_num + 1
        if any(f.strip() for f in fields):
            found.append((line, fields))
    return found


_FIELD_PIECES = ["a", "b c", ",", "\t", " ", "\n", "\r", "\r\n", "\x0b", "\x1c", "\x85", "é"]


@settings(max_examples=300, deadline=None)
@given(
    pieces=st.lists(st.sampled_from(_FIELD_PIECES), max_size=40),
    delimiter=st.sampled_from([",", "\t", ";"]),
)
def test_unquoted_records_are_what_csv_reads(pieces: list[str], delimiter: str) -> None:
    """Text without a quote character: the records are csv.reader's, blank ones (only
    whitespace and delimiters) skipped, each numbered by the line it starts on."""
    text = "".join(pieces)
    got = list(records(text.encode(), "x.csv", delimiter=delimiter, quoting=True))
    assert got == _csv_records(text, delimiter)


@pytest.mark.parametrize("name", ["p.txt", "p.tsv", "p.jsonl"])
def test_a_per_query_file_of_blank_lines_makes_no_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """Two values around two million blank lines: pyarrow is not handed the file (it made
    a row of each blank line: 817 MB and 16 s for 20 MB), and the second value's line is
    named by its number."""
    first, bad = {
        "p.txt": (b"map\tq1\t0.5\n", b"map\tq2\tx\n"),
        "p.tsv": (b"query\tmetric\tvalue\nq1\tmap\t0.5\n", b"q2\tmap\tx\n"),
        "p.jsonl": (
            b'{"query": "q1", "metric": "map", "value": 0.5}\n',
            b'{"query": "q2", "metric": "map", "value": "x"}\n',
        ),
    }[name]
    path = tmp_path / name
    path.write_bytes(first + b"\n" * BLANK + bad)
    made = [0]
    original = pacsv.read_csv

    def counted_read_csv(*args: Any, **kwargs: Any) -> Any:
        table = original(*args, **kwargs)
        made[0] += table.num_rows
        return table

    monkeypatch.setattr(pacsv, "read_csv", counted_read_csv)
    lines_before = first.count(b"\n") + BLANK
    with pytest.raises(InputError, match=rf"p\.\w+:{lines_before + 1}: "):
        load_results(path)
    assert made[0] <= first.count(b"\n")
