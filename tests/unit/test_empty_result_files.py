"""An empty per-query file is one error naming it (issue 34, also seen): a file with no
bytes, only blank lines, only a header (tidy or wide, CSV, TSV or Parquet) or only
trec_eval's summary rows. A wide file holding its header alone was an internal error
(``IndexError``) that named no file."""

from __future__ import annotations

import gzip
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from irtables.errors import InputError
from irtables.loaders import load_file
from tests.conftest import assert_error_line, invoke

EMPTY = {
    "no bytes.tsv": b"",
    "blank lines.txt": b"\n  \n\t\n",
    "tidy header.tsv": b"query\tmetric\tvalue\n",
    "wide header.csv": b"qid,P_10,map\n",
    "wide header.tsv": b"query\tP_10\tmap\tndcg_cut_10\n",
    "summary rows.txt": b"map                   \tall\t0.25\nrunid                 \tall\tbm25\n",
    "no bytes gzip.tsv.gz": gzip.compress(b""),
}


def _parquet(path: Path, columns: dict[str, pa.DataType]) -> None:
    pq.write_table(pa.table({n: pa.array([], t) for n, t in columns.items()}), path)


def _write(folder: Path, name: str, prefix: str = "") -> Path:
    path = folder / (prefix + name.replace(" ", "_"))
    if name.endswith(".parquet"):
        kinds = {"query": pa.string()}
        kinds.update({"P_10": pa.float64()} if "wide" in name else {"metric": pa.string()})
        kinds.update({} if "wide" in name else {"value": pa.float64()})
        _parquet(path, kinds)
    else:
        path.write_bytes(EMPTY[name])
    return path


NAMES = [*EMPTY, "wide header.parquet", "tidy header.parquet"]


@pytest.mark.parametrize("name", NAMES)
def test_the_library_names_the_empty_file(tmp_path: Path, name: str) -> None:
    path = _write(tmp_path, name)
    with pytest.raises(InputError) as caught:
        load_file(path)
    assert caught.value.path == str(path)
    assert str(path) in str(caught.value)
    assert "empty file" in str(caught.value) or "no per-query rows" in str(caught.value)


@pytest.mark.parametrize("name", NAMES)
def test_tables_names_the_empty_file(tmp_path: Path, name: str) -> None:
    folder = tmp_path / "s" / "dl"
    folder.mkdir(parents=True)
    (folder / "dense.tsv").write_text("query\tmetric\tvalue\n1\tAP\t0.5\n")
    path = _write(folder, name, "bm25_")
    result = invoke("tables", str(tmp_path / "s"), "-o", str(tmp_path / "out"))
    assert_error_line(result.exit_code, result.output, str(path))
