"""Defects an adversarial sweep found (issue 34): each input gives one ``Error:`` line, a
warning or the right label, never an internal error, a wrong label or a silent loss."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import assert_one_line_error, invoke


# --- a wide CSV naming one measure in two columns ---------------------------------------


@pytest.mark.parametrize(
    ("header", "first", "second"),
    [("query,AP,AP", "AP", "AP"), ("query,map,AP", "map", "AP"), ("qid,P_10,P@10", "P_10", "P@10")],
)
def test_a_wide_file_naming_a_measure_twice_is_an_error_at_the_header(
    tmp_path: Path, header: str, first: str, second: str
) -> None:
    folder = tmp_path / "r" / "d1"
    folder.mkdir(parents=True)
    (folder / "a.csv").write_text(f"{header}\n1,0.5,0.6\n")
    result = invoke("tables", str(tmp_path / "r"), "-o", str(tmp_path / "out"))
    assert_one_line_error(result, "a.csv:1:", repr(second))
    if first != second:
        assert repr(first) in result.output
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("names", [["query", "AP", "AP"], ["query", "AP", "map"]])
def test_a_wide_parquet_file_naming_a_measure_twice_is_an_input_error(names: list[str]) -> None:
    import io

    import pyarrow as pa
    import pyarrow.parquet as pq

    from irtables.errors import InputError
    from irtables.loaders.tabular import read_wide

    table = pa.table([pa.array(["1"]), pa.array([0.5]), pa.array([0.6])], names=names)
    buffer = io.BytesIO()
    pq.write_table(table, buffer)
    with pytest.raises(InputError, match=f"'{names[2]}'"):
        read_wide(buffer.getvalue(), "x.parquet")
