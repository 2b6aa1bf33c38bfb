"""The supplement's reproduction section: the table, the ER/ΔRI and KTU/RBO figures, the
methods paragraph with its citation, and the runs' ir_metadata in the manifest."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from irtables.supplement.run import make_supplement
from tests.unit.test_reproduce_config import CONFIG, DATA

BLOCK = "# ir_metadata.start\n# platform: {software: {pyserini: 0.22.1}}\n# ir_metadata.end\n"


def test_the_supplement_has_the_reproduction_section(tmp_path: Path) -> None:
    root = tmp_path / "study"
    for side in ("orig", "rpd", "rpl"):
        shutil.copytree(DATA / side, root / side)
    run = root / "rpd" / "bm25.run"
    run.write_text(BLOCK + run.read_text(encoding="utf-8"), encoding="utf-8")
    (root / "irtables.toml").write_text(CONFIG, encoding="utf-8")
    made = make_supplement(root, pdf=False, workers=1)
    out = made.outdir
    for ext in ("tex", "md", "csv", "html"):
        assert (out / "tables" / f"repro.{ext}").is_file(), ext
    for stem in ("repro-er-dri", "repro-ktu-rbo"):
        assert (out / "figures" / f"{stem}.png").read_bytes()[:4] == b"\x89PNG"
        assert (out / "figures" / f"{stem}.pdf").read_bytes()[:4] == b"%PDF"
    tex = (out / "supplement.tex").read_text(encoding="utf-8")
    assert "\\renewcommand{\\thetable}{R1}\n\\input{tables/repro.tex}" in tex
    assert "figures/repro-er-dri.pdf" in tex and "\\bibitem{breuer2020}" in tex
    assert "Breuer et al.~\\cite{breuer2020}" in (out / "methods.tex").read_text(encoding="utf-8")
    methods = (out / "methods.md").read_text(encoding="utf-8")
    assert "Breuer et al. (2020)" in methods
    assert "- robust04-rpd, bm25: platform: software.pyserini=0.22.1" in methods
    assert "\\item robust04-rpd, bm25: platform" in (out / "methods.tex").read_text(
        encoding="utf-8"
    )
    assert "@inproceedings{breuer2020," in (out / "references.bib").read_text(encoding="utf-8")
    readme = (out / "README.md").read_text(encoding="utf-8")
    assert "figures/repro-er-dri.png" in readme
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["run_metadata"] == {
        "../rpd/bm25.run": {"platform": {"software": {"pyserini": "0.22.1"}}}
    }
