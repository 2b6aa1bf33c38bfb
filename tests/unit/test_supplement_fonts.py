"""Fonts of the supplement's figures: embedded, never Type 3, one small subset per PDF.

What is embedded is read with poppler's ``pdffonts`` (required under CI, as pdflatex is);
the work of subsetting is counted on fontTools' own subsetter, not timed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from fontTools import subset
from fontTools.ttLib import TTFont

from irtables.study.pipeline import resolve_study
from irtables.supplement import fonts
from irtables.supplement.build import build_supplement
from irtables.supplement.figures import Series, k_curves, render_all

EXAMPLE = Path(__file__).resolve().parents[2] / "results"
DEJAVU_GLYPHS = 6_241  # matplotlib's DejaVuSans.ttf, as fontTools counts them


def _pdffonts(pdf: bytes, tmp_path: Path) -> list[dict[str, str]]:
    """The fonts of a PDF as pdffonts lists them: name, type, emb, sub."""
    if shutil.which("pdffonts") is None:
        if os.environ.get("CI"):
            pytest.fail("pdffonts is required under CI (poppler-utils, installed by .ci/run)")
        pytest.skip("pdffonts not installed")
    path = tmp_path / "figure.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True)
    lines = out.stdout.splitlines()
    header = lines[1]  # dashes, one run per column: where the columns are
    spans, start = [], 0
    for run in header.split(" "):
        spans.append((start, start + len(run)))
        start += len(run) + 1
    rows = [[line[a:b].strip() for a, b in spans] for line in lines[2:]]
    return [{"name": r[0], "type": r[1], "emb": r[3], "sub": r[4]} for r in rows]


def _lines(*names: str) -> dict[str, list[Series]]:
    return {"NDCG": [Series(n, ((1.0, 0.2 + i / 10), (10.0, 0.4))) for i, n in enumerate(names)]}


def test_every_figure_of_the_supplement_embeds_one_truetype_subset(tmp_path: Path) -> None:
    results, config, _ = resolve_study(EXAMPLE)
    built = build_supplement(results, config, workers=1)
    pdfs = {o.path: o.data for o in built.outputs if o.path.startswith("figures/")}
    pdfs = {path: data for path, data in pdfs.items() if path.endswith(".pdf")}
    assert len(pdfs) >= 3
    for path, data in pdfs.items():
        found = _pdffonts(data, tmp_path)
        assert len(found) == 1, (path, found)  # one subset of one font, not one per block
        (font,) = found
        assert font["type"] == "CID TrueType", (path, font)  # not Type 3
        assert font["emb"] == "yes" and font["sub"] == "yes", (path, font)
        assert font["name"].endswith("+DejaVuSans"), (path, font)


def test_a_character_the_cut_down_font_lacks_is_drawn_and_embedded(tmp_path: Path) -> None:
    pdf = render_all(k_curves("Ա", _lines("Արև", "b")))["pdf"]  # Armenian: the full font
    found = _pdffonts(pdf, tmp_path)
    assert len(found) == 2
    assert all(f["emb"] == "yes" and f["type"] == "CID TrueType" for f in found)
    if shutil.which("pdftotext"):
        path = tmp_path / "armenian.pdf"
        path.write_bytes(pdf)
        text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True)
        assert "Արև" in text.stdout


def test_each_figure_subsets_one_small_font(monkeypatch: pytest.MonkeyPatch) -> None:
    fonts.font_families()  # the cut-down copy exists (made once, then found in the cache)
    sizes: list[int] = []
    layout_tables: list[str] = []
    original = subset.Subsetter.subset

    def counted(self: subset.Subsetter, font: TTFont) -> None:
        sizes.append(len(font.getGlyphOrder()))
        layout_tables.extend(t for t in ("GSUB", "GPOS", "GDEF", "MATH") if t in font)
        original(self, font)

    monkeypatch.setattr(subset.Subsetter, "subset", counted)
    render_all(k_curves("Effect of τ² and Δ at −1", _lines("difference", "b")))
    assert len(sizes) == 1  # ligature ("ff") and non-Latin-1 glyphs in the same subset
    assert sizes[0] < DEJAVU_GLYPHS / 4  # the copy, not the whole DejaVu Sans
    assert layout_tables == []  # nothing for the subsetter to walk but glyphs and kerning


def _pixels(family: str, text: str) -> bytes:
    from matplotlib import rc_context
    from matplotlib.figure import Figure

    from irtables.supplement.figures import _style, figure_bytes

    with _style(), rc_context({"font.family": [family]}):
        fig = Figure(figsize=(6, 0.6))
        fig.text(0.01, 0.3, text, fontsize=14)
        return figure_bytes(fig, "png")


def test_the_cut_down_font_draws_text_as_the_full_font() -> None:
    """Kerning from the kept ``kern`` table (the copy has no GPOS) moves no pixel."""
    fonts.font_families()
    text = "AVATAR Tov Yo P.W. Δτ² −0.25 (n=2000) Wé"  # kerning pairs; no ligature
    assert _pixels(fonts.FAMILY, text) == _pixels(fonts.FALLBACK, text)
    assert _pixels(fonts.FAMILY, text) != _pixels(fonts.FAMILY, text.replace("AV", "A V"))


def test_the_cut_down_font_is_the_same_bytes_when_made_again() -> None:
    import matplotlib

    source = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
    with TTFont(source) as full:
        assert len(full.getGlyphOrder()) == DEJAVU_GLYPHS
    made = fonts._cut_down(source)
    assert made == fonts._cut_down(source) == fonts.reduced_font().read_bytes()
    with TTFont(fonts.reduced_font()) as copy:
        cmap = copy.getBestCmap()
        families = {r.toUnicode() for r in copy["name"].names if r.nameID == 1}
    assert all(ord(c) in cmap for c in "Aé τΔ−≤Ж")
    assert ord("Ա") not in cmap
    assert families == {fonts.FAMILY}


def test_a_damaged_copy_in_the_cache_is_made_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import matplotlib

    monkeypatch.setattr(matplotlib, "get_cachedir", lambda: str(tmp_path))
    path = fonts.reduced_font()
    assert path.parent == tmp_path
    good = path.read_bytes()
    path.write_bytes(good[:1000])  # cut short, as by a full disk
    assert fonts.reduced_font() == path
    assert path.read_bytes() == good
    path.write_bytes(b"not a font")
    assert fonts.reduced_font().read_bytes() == good
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary files left
