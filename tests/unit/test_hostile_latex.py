"""Hostile names and labels never inject LaTeX: unsafe labels are config errors, rows
starting with brackets or stars typeset, names pdflatex cannot typeset are one line
before pdflatex runs (issue 9, end to end through the command line)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.conftest import assert_one_line_error, invoke, require_pdflatex, tidy_study


@pytest.mark.parametrize(
    ("key", "label"),
    [
        ("main", "tab:x}\\input{/etc/hostname}\\def\\y{"),
        ("k_breakdown", "tab:{dataset}}\\input{/etc/passwd}"),
        ("main", "tab:main one"),
    ],
)
def test_unsafe_label_is_a_config_error_naming_the_key(
    tmp_path: Path, key: str, label: str
) -> None:
    results = tidy_study(tmp_path, ["dl"])
    (results / "irtables.toml").write_text(f"[tables.{key}]\nlabel = {json.dumps(label)}\n")
    result = invoke("supplement", str(results), "-o", str(tmp_path / "sup"))
    assert_one_line_error(result, f"tables.{key}.label", "a label may only hold")
    assert not (tmp_path / "sup").exists()


@pytest.mark.latex
def test_rows_starting_with_brackets_or_stars_compile_and_show(tmp_path: Path) -> None:
    require_pdflatex()
    results = tidy_study(tmp_path, ["[opt] first", "[2pt] second", "*third"])
    out = tmp_path / "sup"
    result = invoke("supplement", str(results), "-o", str(out))
    assert result.exit_code == 0, result.output
    text = subprocess.run(
        ["pdftotext", str(out / "supplement.pdf"), "-"], capture_output=True, text=True
    ).stdout
    for name in ("[opt] first", "[2pt] second", "*third"):
        assert name in text


@pytest.mark.latex
@pytest.mark.parametrize("name", ["中文数据", "🚀 launch", "dl\u202eevil"])
def test_untypesettable_name_is_one_line_before_pdflatex(tmp_path: Path, name: str) -> None:
    require_pdflatex()
    results = tidy_study(tmp_path, [name])
    result = invoke("supplement", str(results), "-o", str(tmp_path / "sup"))
    assert_one_line_error(result, "pdflatex cannot typeset", "--no-pdf", "name =")
    assert "\\u" in result.output or name[0] in result.output
    assert (
        invoke("supplement", str(results), "-o", str(tmp_path / "sup"), "--no-pdf").exit_code == 0
    )


@pytest.mark.latex
def test_characters_known_good_typeset_in_the_supplement_preamble(tmp_path: Path) -> None:
    """The characters :func:`check_typesettable` does not probe, checked against pdflatex."""
    from irtables.output.typeset import KNOWN_GOOD, _probe

    require_pdflatex()
    results = tidy_study(tmp_path, ["dl"])
    assert (
        invoke("supplement", str(results), "-o", str(tmp_path / "sup"), "--no-pdf").exit_code == 0
    )
    preamble = (tmp_path / "sup" / "supplement.tex").read_text().split("\\begin{document}")[0]
    assert _probe(preamble, sorted(KNOWN_GOOD)) == set()
    assert _probe(preamble, ["中", "Ð", "é"]) == {"中", "Ð"}  # the probe can tell
