"""Discovery walks the folders more than once (to find, prefetch and read the files):
an edited output is warned about once and each folder's record is read once."""

from __future__ import annotations

import warnings
from collections import Counter
from pathlib import Path

import pytest

from irtables.base import record
from irtables.base.record import RECORD, Entry, record_text, sha256_hex
from irtables.loaders import load_results, load_study


def _study_with_an_edited_output(root: Path) -> None:
    dl = root / "dl"
    dl.mkdir()
    for system in ("bm25", "dense"):
        (dl / f"{system}.tsv").write_text("query\tmetric\tvalue\nq1\tAP\t0.5\nq2\tAP\t0.25\n")
    (dl / "table1.csv").write_text("query,metric,value\nq1,AP,0.9\n")  # edited since
    entry = Entry(sha256_hex(b"what irtables wrote"), "tables")
    (dl / RECORD).write_text(record_text({"table1.csv": entry}))


@pytest.mark.parametrize("load", [load_results, load_study])
def test_an_edited_recorded_output_gives_exactly_one_warning(tmp_path: Path, load: object) -> None:
    _study_with_an_edited_output(tmp_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if load is load_results:
            load_results(tmp_path, allow_empty=True)
        else:
            load_study(tmp_path)
    found = [w for w in caught if "not read as results" in str(w.message)]
    assert len(found) == 1, [str(w.message) for w in caught]
    assert "table1.csv" in str(found[0].message)


def test_each_record_is_read_once_per_discovery(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _study_with_an_edited_output(tmp_path)
    reads: Counter[Path] = Counter()
    read_record = record.read_record

    def counting(folder: Path, *, warn: bool = True) -> record.Record:
        reads[folder] += 1
        return read_record(folder, warn=warn)

    monkeypatch.setattr(record, "read_record", counting)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = load_results(tmp_path, allow_empty=True)
    assert results.systems() == ("bm25", "dense")
    assert reads and max(reads.values()) == 1, reads
