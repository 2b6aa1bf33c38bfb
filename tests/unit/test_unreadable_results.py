"""A results file whose content has no format is an error, not clutter (issue 34 §1): a
Git LFS pointer, one line of text or binary bytes in place of ``bm25.tsv`` used to be
skipped with a note, and the system vanished from every table. Clutter is what is not
results by name (README, notes, a file without a results extension, hidden files) and
what the configuration names (its qrels and runs): that stays skipped."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from irtables import load_study
from irtables.cli import main
from irtables.errors import InputError
from tests.conftest import assert_error_line

HEAD = "query\tmetric\tvalue\n"
DENSE = HEAD + "1\tAP\t0.5\n2\tAP\t0.6\n3\tAP\t0.7\n"
SPLADE = HEAD + "1\tAP\t0.4\n2\tAP\t0.9\n3\tAP\t0.8\n"

LFS = (
    b"version https://git-lfs.github.com/spec/v1\n"
    b"oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n"
    b"size 12345\n"
)
#: Bytes without NUL (which was refused already), not UTF-8, in no format.
GARBAGE = bytes(random.Random(34).randrange(1, 256) for _ in range(400))
CONTENTS = {"LFS pointer": LFS, "one text line": b"TODO: rerun bm25\n", "binary": GARBAGE}
NAMES = ["bm25.tsv", "bm25.csv", "bm25.json", "bm25.run", "bm25.txt", "bm25.tsv.gz"]


def _study(root: Path, name: str, content: bytes) -> Path:
    (root / "dl19").mkdir(parents=True)
    (root / "dl19" / "dense.tsv").write_text(DENSE)
    (root / "dl19" / "splade.tsv").write_text(SPLADE)
    if name.endswith(".gz"):
        import gzip

        content = gzip.compress(content)
    (root / "dl19" / name).write_bytes(content)
    return root


def _invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("what", sorted(CONTENTS))
def test_tables_refuses_a_results_file_without_a_format(
    tmp_path: Path, what: str, name: str
) -> None:
    root = _study(tmp_path / "s", name, CONTENTS[what])
    code, text = _invoke("tables", str(root), "-o", str(tmp_path / "out"))
    assert_error_line(code, text, str(root / "dl19" / name))
    assert not (tmp_path / "out").exists()
    if what == "LFS pointer":
        assert "git lfs pull" in text


@pytest.mark.parametrize("command", ["lint", "compare", "supplement"])
@pytest.mark.parametrize("what", sorted(CONTENTS))
def test_every_command_refuses_it(tmp_path: Path, what: str, command: str) -> None:
    root = _study(tmp_path / "s", "bm25.tsv", CONTENTS[what])
    extra = ["-o", str(tmp_path / "out"), "--no-pdf"] if command == "supplement" else []
    code, text = _invoke(command, str(root), *extra)
    assert_error_line(code, text, str(root / "dl19" / "bm25.tsv"))
    if what == "LFS pointer":
        assert "git lfs pull" in text


@pytest.mark.parametrize("what", sorted(CONTENTS))
def test_load_study_raises(tmp_path: Path, what: str) -> None:
    root = _study(tmp_path / "s", "bm25.tsv", CONTENTS[what])
    with pytest.raises(InputError, match=r"dl19/bm25\.tsv"):
        load_study(root)


def test_an_lfs_pointer_is_named_as_one(tmp_path: Path) -> None:
    root = _study(tmp_path / "s", "bm25.tsv", LFS)
    with pytest.raises(InputError, match=r"bm25\.tsv:1: a Git LFS pointer.*`git lfs pull`"):
        load_study(root)


@pytest.mark.parametrize(
    "name", ["README.txt", "notes.txt", "NOTES.csv", "LICENSE", "plot.png", ".DS_Store"]
)
def test_clutter_by_name_stays_skipped(tmp_path: Path, name: str) -> None:
    root = _study(tmp_path / "s", name, b"rerun dense with k1=0.9\n")
    study = load_study(root)
    assert study.results.systems("dl19") == ("dense", "splade")
    code, text = _invoke("tables", str(root), "-o", str(tmp_path / "out"), "-f", "csv")
    assert code == 0, text


def test_a_run_or_qrels_in_a_dataset_folder_stays_skipped(tmp_path: Path) -> None:
    # not per-query results, but a format: the configuration may name it
    root = _study(tmp_path / "s", "bm25.run", b"# bm25\n1 Q0 d1 1 2.5 bm25\n")
    (root / "dl19" / "qrels.txt").write_text("1 0 d1 1\n")
    assert load_study(root).results.systems("dl19") == ("dense", "splade")
