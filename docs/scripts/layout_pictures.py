"""Pictures of the layouts for the docs, made from the golden LaTeX files.

Each golden table is compiled in a one-page article (pdflatex), the page is drawn as a PNG
(pdftoppm) and cropped to the table. Run it after the goldens change:

    .venv/bin/python docs/scripts/layout_pictures.py

The pictures are committed (a few kB each); ``tests/test_docs_site.py`` checks that every
picture has its golden and that they are not older than the LaTeX they show.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image, ImageChops

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "golden"
OUT = REPO / "docs" / "images" / "layouts"

#: Picture name -> golden LaTeX file it shows.
PICTURES: dict[str, Path] = {
    "main": GOLDEN / "table1.tex",
    "k_breakdown": GOLDEN / "tableS1-cast2021.tex",
    "ablation": GOLDEN / "layouts" / "ablation.tex",
    "dataset_columns": GOLDEN / "layouts" / "by_dataset.tex",
    "grouped": GOLDEN / "layouts" / "grouped.tex",
    "grid": GOLDEN / "layouts" / "beir.tex",
    "sensitivity": GOLDEN / "layouts" / "k1.tex",
    "sensitivity_2d": GOLDEN / "layouts" / "k1_b.tex",
    "reproduction": GOLDEN / "reproduction" / "repro.tex",
}

_PREAMBLE = (
    "\\documentclass{article}\n"
    "\\usepackage[paperwidth=7.5in,paperheight=11in,margin=0.25in]{geometry}\n"
    "\\usepackage{booktabs,graphicx}\n\\pagestyle{empty}\n\\begin{document}\n"
)


def picture(tex: Path, png: Path, workdir: Path, dpi: int = 130) -> None:
    """Compile ``tex`` in a page, draw it at ``dpi`` and crop it to the ink into ``png``."""
    body = tex.read_text(encoding="utf-8").replace("table*", "table")
    (workdir / "doc.tex").write_text(_PREAMBLE + body + "\n\\end{document}\n", encoding="utf-8")
    subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
        cwd=workdir,
        check=True,
        capture_output=True,
    )
    subprocess.run(
        ["pdftoppm", "-png", "-gray", "-r", str(dpi), "-singlefile", "doc.pdf", "page"],
        cwd=workdir,
        check=True,
    )
    page = Image.open(workdir / "page.png").convert("L")
    box = ImageChops.invert(page).getbbox()
    if box is None:
        raise ValueError(f"{tex}: the page is blank")
    margin = 8
    left, top, right, bottom = box
    crop = page.crop(
        (
            max(0, left - margin),
            max(0, top - margin),
            min(page.width, right + margin),
            min(page.height, bottom + margin),
        )
    )
    crop.quantize(16).save(png, optimize=True)


def main() -> int:
    for tool in ("pdflatex", "pdftoppm"):
        if shutil.which(tool) is None:
            print(f"Error: {tool} is not installed", file=sys.stderr)
            return 2
    OUT.mkdir(parents=True, exist_ok=True)
    for name, tex in PICTURES.items():
        with tempfile.TemporaryDirectory() as tmp:
            picture(tex, OUT / f"{name}.png", Path(tmp))
        print(f"{OUT.relative_to(REPO) / name}.png  from {tex.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
