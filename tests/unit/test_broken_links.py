"""Symbolic links in a results folder that lead nowhere (issue 34's adversarial sweep).

A link with a result file's name whose target is missing (a share not mounted) or a
loop was skipped without a word and its system vanished from every table; it is one
``Error:`` naming the link. A link loop beside configured qrels and runs (the cache
folder ``.irtables-cache`` linking to itself) was an internal error (RuntimeError).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import assert_one_line_error, invoke, runs_study


def _per_query_study(root: Path) -> Path:
    """``root/r/dl/{bm25,dense}.tsv``: tidy per-query files of two systems."""
    folder = root / "r" / "dl"
    folder.mkdir(parents=True)
    for i, system in enumerate(("bm25", "dense")):
        rows = [f"q{q}\tAP\t{0.1 * (q + 1) + 0.05 * i:.3f}" for q in range(3)]
        (folder / f"{system}.tsv").write_text("query\tmetric\tvalue\n" + "\n".join(rows) + "\n")
    return root / "r"


@pytest.mark.parametrize(
    ("target", "leads_to"),
    [("/nonexistent/splade.tsv", "leads to nothing"), ("splade.tsv", "a loop of links")],
    ids=["missing target", "loop"],
)
@pytest.mark.parametrize("command", ["tables", "lint", "compare"])
def test_a_broken_link_named_as_results_is_an_error(
    tmp_path: Path, target: str, leads_to: str, command: str
) -> None:
    results = _per_query_study(tmp_path)
    (results / "dl" / "splade.tsv").symlink_to(target)
    result = invoke(command, str(results))
    assert_one_line_error(result, "dl/splade.tsv: a symbolic link to", leads_to)


@pytest.mark.parametrize("name", ["notes.md", "scratch", "loop"])
def test_a_broken_link_not_named_as_results_is_skipped(tmp_path: Path, name: str) -> None:
    results = _per_query_study(tmp_path)
    (results / "dl" / name).symlink_to(name)  # a loop
    (results / name).symlink_to("/nonexistent")
    out = tmp_path / "o"
    assert invoke("tables", str(results), "-o", str(out)).exit_code == 0
    assert "dense" in (out / "table1.md").read_text()


def test_a_cache_folder_linking_to_itself_is_not_an_internal_error(tmp_path: Path) -> None:
    study = runs_study(tmp_path)
    (study / ".irtables-cache").symlink_to(".irtables-cache")
    result = invoke("tables", str(study), "-o", str(tmp_path / "o"))
    assert result.exit_code == 0, result.output
    assert "internal error" not in result.output
    assert "not a folder of this study" in result.output
    assert (tmp_path / "o" / "table1.md").is_file()
