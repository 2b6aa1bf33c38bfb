"""The record of written files hides nothing and deletes nothing on its own word
(issue 24 §2): a file it lists is still read or its skipping is said, only a record
inside the folder being read counts, and an output no longer made is moved aside, never
deleted."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner, Result

from irtables.base.record import RECORD, sha256_hex
from irtables.cli import main
from irtables.errors import DataWarning, OutputError
from irtables.loaders import load_results
from irtables.output.aside import GITIGNORE
from irtables.output.writers import ASIDE, write_files

SYSTEMS = ("a", "b", "c")


def _results(root: Path) -> Path:
    """``root/r/dl/<system>.txt``: trec_eval -q files of three systems."""
    folder = root / "r" / "dl"
    folder.mkdir(parents=True)
    for i, system in enumerate(SYSTEMS):
        lines = [f"map\t{q}\t{0.1 * (q + 1) + 0.05 * i:.4f}" for q in range(1, 4)]
        lines += [f"P_10\t{q}\t{0.2 + 0.1 * i:.4f}" for q in range(1, 4)]
        (folder / f"{system}.txt").write_text("\n".join(lines) + "\n")
    return root / "r"


def _ledger(folder: Path, files: dict[str, Path | bytes], by: str = "tables") -> None:
    body = {
        rel: {"by": by, "sha256": sha256_hex(f.read_bytes() if isinstance(f, Path) else f)}
        for rel, f in files.items()
    }
    (folder / RECORD).write_text(json.dumps({"schema": 1, "files": body}))


def _invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def _table_systems(out: Path) -> list[str]:
    return sorted(pd.read_csv(out / "table1.csv")["System"])


def test_a_ledger_listing_an_input_says_what_it_skipped(tmp_path: Path) -> None:
    """A ledger listing c's file (with its current hash) made c silently vanish."""
    results = _results(tmp_path)
    _ledger(results, {"dl/c.txt": results / "dl" / "c.txt"})
    result = _invoke("tables", str(results), "-f", "csv", "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    notes = [line for line in result.output.splitlines() if "not read as results" in line]
    assert len(notes) == 1 and "dl/c.txt" in notes[0] and RECORD in notes[0], result.output
    with pytest.warns(DataWarning, match=r"not read as results: dl/c\.txt"):
        assert load_results(results).systems() == ("a", "b")


def test_a_ledger_listing_an_edited_input_says_so(tmp_path: Path) -> None:
    results = _results(tmp_path)
    _ledger(results, {"dl/c.txt": b"what irtables wrote once\n"})
    with pytest.warns(DataWarning, match=r"c\.txt: not read as results: .*changed since"):
        load_results(results)


@pytest.mark.parametrize("levels", [1, 2], ids=["parent", "grandparent"])
def test_a_ledger_above_the_folder_read_counts_for_nothing(tmp_path: Path, levels: int) -> None:
    results = _results(tmp_path / "project")
    above = results.parents[levels - 1]
    rel = results.relative_to(above).as_posix()
    _ledger(above, {f"{rel}/dl/c.txt": results / "dl" / "c.txt"})
    assert load_results(results).systems() == SYSTEMS  # no warning either (warnings fail)
    result = _invoke("tables", str(results), "-f", "csv", "-o", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    assert _table_systems(tmp_path / "out") == list(SYSTEMS)
    assert "not read as results" not in result.output


def test_a_ledger_inside_the_folder_read_still_counts(tmp_path: Path) -> None:
    """Reading the parent of a folder whose ledger lists its outputs: they are skipped."""
    results = _results(tmp_path)
    out = results / "dl"
    (out / "table1.csv").write_text("Dataset,System,MAP\ndl,a,0.2\n")
    _ledger(out, {"table1.csv": out / "table1.csv"})
    with pytest.warns(DataWarning, match=r"not read as results: dl/table1\.csv"):
        assert load_results(results).systems() == SYSTEMS


def test_a_hand_edited_ledger_never_deletes_a_users_file(tmp_path: Path) -> None:
    """A ledger listing the user's NOTES.md (current hash, as the supplement's) made
    ``supplement`` delete it: it is moved aside, intact."""
    results = _results(tmp_path)
    sup = tmp_path / "sup"
    assert _invoke("supplement", str(results), "-o", str(sup), "--no-pdf").exit_code == 0
    notes = sup / "NOTES.md"
    notes.write_text("my notes\n")
    record = json.loads((sup / RECORD).read_text())
    record["files"]["NOTES.md"] = {"by": "supplement", "sha256": sha256_hex(b"my notes\n")}
    (sup / RECORD).write_text(json.dumps(record))
    # the record lists an output this build does not make: `check` calls it stale, and
    # the rerun builds and moves it aside, intact
    again = _invoke("supplement", str(results), "-o", str(sup), "--no-pdf")
    assert again.exit_code == 0, again.output
    assert "removed" not in again.output
    assert (sup / ASIDE / "NOTES.md").read_text() == "my notes\n"
    moved = [line for line in again.output.splitlines() if "moved aside" in line]
    assert len(moved) == 1 and "NOTES.md" in moved[0] and ASIDE in moved[0]


def test_moving_aside_keeps_earlier_copies_and_never_leaves_the_folder(tmp_path: Path) -> None:
    for text in ("one\n", "two\n"):
        write_files(tmp_path, {"a.csv": text}, by="supplement")
        write_files(tmp_path, {"b.csv": "b\n"}, by="supplement", remove_dropped=True)
    aside = tmp_path / ASIDE
    assert {p.name: p.read_text() for p in aside.iterdir()} == {
        "a.csv": "one\n",
        "a.csv.1": "two\n",
        ".gitignore": GITIGNORE,
    }
    elsewhere = tmp_path.parent / f"{tmp_path.name}-elsewhere"
    elsewhere.mkdir()
    out = tmp_path / "out"
    write_files(out, {"a.csv": "x\n"}, by="supplement")
    (out / ASIDE).symlink_to(elsewhere)
    with pytest.raises(OutputError, match=r"\.irtables-aside is a symlink, expected a folder"):
        write_files(out, {"b.csv": "b\n"}, by="supplement", remove_dropped=True)
    assert (out / "a.csv").read_text() == "x\n" and not list(elsewhere.iterdir())
    assert not (out / "b.csv").exists()  # checked before anything was written
