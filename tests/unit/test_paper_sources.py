r"""The sources ``irtables check --paper`` reads (issue 34's adversarial sweep).

``\input{sections/detail}`` inside ``sections/results.tex`` names a file relative to the
main file's folder, where pdflatex runs; it was looked for in ``sections/sections/``,
not found, skipped, and the numbers typed there were never checked ("the paper cites no
number by hand"). A pulled-in file that is a loop of links was an internal error.
"""

from __future__ import annotations

from pathlib import Path

from irtables.study.paper import read_paper


def _names(papers: list[Path], root: Path) -> list[str]:
    return [Path(p).relative_to(root).as_posix() for p, _ in read_paper(papers)[0]]


def test_an_input_is_found_relative_to_the_main_files_folder(tmp_path: Path) -> None:
    (tmp_path / "sections").mkdir()
    (tmp_path / "main.tex").write_text("\\input{sections/results}\n")
    (tmp_path / "sections" / "results.tex").write_text("See \\input{sections/detail}\n")
    (tmp_path / "sections" / "detail.tex").write_text("MAP is 0.274.\n")
    got = _names([tmp_path / "main.tex"], tmp_path)
    assert got == ["main.tex", "sections/results.tex", "sections/detail.tex"]


def test_an_input_relative_to_the_pulling_file_is_still_found(tmp_path: Path) -> None:
    # \subfile and the import package resolve against the file that pulls it in.
    (tmp_path / "sections").mkdir()
    (tmp_path / "main.tex").write_text("\\subfile{sections/results}\n")
    (tmp_path / "sections" / "results.tex").write_text("\\input{detail}\n")
    (tmp_path / "sections" / "detail.tex").write_text("MAP is 0.274.\n")
    got = _names([tmp_path / "main.tex"], tmp_path)
    assert got == ["main.tex", "sections/results.tex", "sections/detail.tex"]


def test_a_pulled_in_loop_of_links_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "loopy.tex").symlink_to("loopy.tex")
    (tmp_path / "main.tex").write_text("\\input{loopy}\nMAP is 0.274.\n")
    assert _names([tmp_path / "main.tex"], tmp_path) == ["main.tex"]
