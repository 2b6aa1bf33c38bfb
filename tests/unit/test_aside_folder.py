"""The folder of outputs moved aside (issue 34 §2, §3, §4): checked before anything is
written, one copy per content, ignored by git, a note when it grows past its bound, and
``check`` naming outputs no longer made that are still there.

Expected values are the files the tests write and the bytes they read back."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from irtables.base.record import RECORD, sha256_hex
from irtables.errors import IrtablesWarning, OutputError
from irtables.output import aside
from irtables.output.aside import ASIDE, GITIGNORE, aside_note
from irtables.output.writers import write_files
from tests.conftest import assert_one_line_error, invoke


def _study(root: Path, datasets: tuple[str, ...] = ("dl", "web")) -> Path:
    """``root/r/<dataset>/<system>.txt``: trec_eval -q files of two systems each."""
    for d in datasets:
        folder = root / "r" / d
        folder.mkdir(parents=True, exist_ok=True)
        for i, system in enumerate(("a", "b")):
            lines = [f"map\t{q}\t{0.1 * (q + 1) + 0.05 * i:.4f}" for q in range(1, 4)]
            lines += [f"P_10\t{q}\t{0.2 + 0.1 * i:.4f}" for q in range(1, 4)]
            (folder / f"{system}.txt").write_text("\n".join(lines) + "\n")
    return root / "r"


def _files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (symlinks not followed), by relative path."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink() and ASIDE not in p.parts
    }


def _supplement(results: Path, out: Path) -> None:
    done = invoke("supplement", str(results), "-o", str(out), "--no-pdf")
    assert done.exit_code == 0, done.output


@pytest.mark.parametrize("kind", ["loop", "outside", "file"])
def test_an_unusable_aside_folder_is_one_error_before_anything_is_written(
    tmp_path: Path, kind: str
) -> None:
    # before: a loop was an internal error (RuntimeError) after the new outputs were
    # written; a link outside left the dropped dataset's tables there without a word
    results = _study(tmp_path)
    out = tmp_path / "sup"
    _supplement(results, out)
    assert any(rel.startswith("tables/") and "web" in rel for rel in _files(out))
    shutil.rmtree(results / "web")  # its tables are no longer made
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    if kind == "loop":
        (out / ASIDE).symlink_to(ASIDE)
    elif kind == "outside":
        (out / ASIDE).mkdir()
        (out / ASIDE / "tables").symlink_to(elsewhere)
    else:
        (out / ASIDE).write_text("not a folder\n")
    before = _files(out)
    result = invoke("supplement", str(results), "-o", str(out), "--no-pdf")
    assert_one_line_error(result, str(out / ASIDE), "nothing was written")
    assert _files(out) == before and not list(elsewhere.iterdir())


def test_an_output_displaced_twice_with_the_same_bytes_is_kept_once(tmp_path: Path) -> None:
    # before: a.csv and a.csv.1, byte-identical copies, one more on every run
    kept = []
    for text in ("one\n", "one\n", "two\n", "one\n"):
        write_files(tmp_path, {"a.csv": text}, by="supplement")
        done = write_files(tmp_path, {"b.csv": "b\n"}, by="supplement", remove_dropped=True)
        assert done[-1].status == "moved aside" and done[-1].moved_to is not None
        kept.append(done[-1].moved_to.name)
        assert not (tmp_path / "a.csv").exists()
    assert kept == ["a.csv", "a.csv", "a.csv.1", "a.csv"]  # where its bytes are kept
    assert {p.name: p.read_text() for p in (tmp_path / ASIDE).iterdir()} == {
        "a.csv": "one\n",
        "a.csv.1": "two\n",
        ".gitignore": GITIGNORE,  # as the cache's: git ignores the folder
    }


def test_the_aside_folder_says_how_much_it_holds_past_its_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_files(tmp_path, {"a.csv": "x" * 3000}, by="supplement")
    write_files(tmp_path, {"b.csv": "b\n"}, by="supplement", remove_dropped=True)
    assert aside_note(tmp_path) is None  # 3,000 bytes: under the bound
    monkeypatch.setattr(aside, "NOTE_ABOVE", 2999)
    note = aside_note(tmp_path)
    assert note is not None and str(tmp_path / ASIDE) in note and "in 1 earlier output" in note
    results = _study(tmp_path / "s")
    out = tmp_path / "sup"
    _supplement(results, out)
    shutil.rmtree(results / "web")
    again = invoke("supplement", str(results), "-o", str(out), "--no-pdf")
    assert again.exit_code == 0, again.output
    notes = [line for line in again.output.splitlines() if "earlier output" in line]
    assert len(notes) == 1 and notes[0].startswith("Note: ") and ASIDE in notes[0]


def test_a_run_killed_between_its_renames_is_stale_and_the_next_run_repairs_it(
    tmp_path: Path,
) -> None:
    """Killed after some outputs were replaced, before the others, the manifest and the
    moves aside: ``check`` says stale, and the next run writes what a whole run writes."""
    results = _study(tmp_path)
    out = tmp_path / "sup"
    _supplement(results, out)
    old, old_record = _files(out), json.loads((out / RECORD).read_text())["files"]
    for system in ("a", "b"):  # changed numbers in dl, web dropped
        path = results / "dl" / f"{system}.txt"
        path.write_text(path.read_text().replace("\t0.2", "\t0.3"))
    shutil.rmtree(results / "web")
    _supplement(results, out)
    new = _files(out)
    whole = tmp_path / "whole"
    shutil.copytree(out, whole, symlinks=True)
    # the folder as a kill left it: half the changed outputs new, the rest old (the
    # manifest, written last, old too), the dropped ones still there; the record as
    # written before the renames (old entries, and the new hashes with the old ones)
    changed = sorted(rel for rel in new if rel in old and old[rel] != new[rel] and rel != RECORD)
    assert "manifest.json" in changed and len(changed) > 4
    shutil.rmtree(out)
    out.mkdir()
    for rel, data in old.items():
        if rel != RECORD:
            (out / rel).parent.mkdir(parents=True, exist_ok=True)
            (out / rel).write_bytes(data)
    for rel in [r for r in changed if r != "manifest.json"][::2]:
        (out / rel).write_bytes(new[rel])
    intent = dict(old_record)
    for rel in changed:
        intent[rel] = {
            "sha256": sha256_hex(new[rel]),
            "by": "supplement",
            "previous": sha256_hex(old[rel]),
        }
    (out / RECORD).write_text(json.dumps({"schema": 1, "files": intent}))
    check = invoke("check", str(results), "-o", str(out))
    assert check.exit_code == 1 and "is stale" in check.output, check.output
    _supplement(results, out)
    assert _files(out) == new  # byte for byte what the whole run wrote, record included
    assert invoke("check", str(results), "-o", str(out)).exit_code == 0


def test_check_names_an_output_no_longer_made_that_is_still_there(tmp_path: Path) -> None:
    """Killed after the manifest but before the moves aside: every output listed is
    current, yet the dropped dataset's tables remain (before: ``check`` said current)."""
    results = _study(tmp_path)
    out = tmp_path / "sup"
    _supplement(results, out)
    old, old_record = _files(out), json.loads((out / RECORD).read_text())["files"]
    shutil.rmtree(results / "web")
    _supplement(results, out)
    dropped = sorted(rel for rel in old if rel not in _files(out))
    assert dropped and all("web" in rel or "S" in rel for rel in dropped)
    record = json.loads((out / RECORD).read_text())
    for rel in dropped:  # put back as the kill left them: there, and still recorded
        (out / rel).write_bytes(old[rel])
        record["files"][rel] = old_record[rel]
    (out / RECORD).write_text(json.dumps(record))
    check = invoke("check", str(results), "-o", str(out))
    assert check.exit_code == 1, check.output
    stale = [line for line in check.output.splitlines() if line.startswith("stale  ")]
    assert stale == [
        f"stale  output {rel}: no longer made: the next run moves it aside" for rel in dropped
    ]
    _supplement(results, out)
    assert invoke("check", str(results), "-o", str(out)).exit_code == 0
    assert not any((out / rel).exists() for rel in dropped)


def test_a_symlink_loop_in_an_output_folder_is_an_output_error(tmp_path: Path) -> None:
    (tmp_path / "sub").symlink_to("sub")
    with pytest.raises(OutputError, match=r"sub/x\.csv: its folder cannot be resolved"):
        write_files(tmp_path, {"sub/x.csv": "x\n"}, by="tables")


def test_an_output_that_cannot_be_moved_aside_is_named_and_stays(tmp_path: Path) -> None:
    write_files(tmp_path, {"tables/a.csv": "a\n", "b.csv": "b\n"}, by="supplement")
    (tmp_path / ASIDE).mkdir()
    (tmp_path / ASIDE / "tables").write_text("a file where a folder would go\n")
    with pytest.warns(IrtablesWarning, match=r"tables/a\.csv is no longer made but could not"):
        done = write_files(tmp_path, {"b.csv": "b\n"}, by="supplement", remove_dropped=True)
    assert [w.status for w in done] == ["unchanged"]
    assert (tmp_path / "tables" / "a.csv").read_text() == "a\n"
    record = json.loads((tmp_path / RECORD).read_text())["files"]
    assert "tables/a.csv" in record  # still irtables' own: the next run tries again
