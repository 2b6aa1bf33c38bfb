"""The methods text written once: every measure family's sentence, laid out as LaTeX that
pdflatex compiles and as Markdown with no LaTeX left in it; user names escaped in both."""

from __future__ import annotations

from pathlib import Path

from irtables.config import parse_config
from irtables.measures import FAMILIES, parse_measure
from irtables.render.escape import escape_markdown
from irtables.supplement.methods import methods_model
from irtables.supplement.methods_text import render_sections
from irtables.supplement.prose import Name, render_text
from tests.conftest import compile_latex

HOSTILE = "A_B & C #1 at 100% {x}"


def _every_family() -> list[str]:
    names = []
    for f in FAMILIES.values():
        if f.param == "r":
            names.append(f"{f.name}@0.5")
        elif f.cutoff != "none":
            names.append(f"{f.name}@10")
        if f.cutoff != "required" and f.param != "r":
            names.append(f.name)
    names += ["nDCG(rel=2)@10", "AP(rel=2)"]
    assert {parse_measure(n).family for n in names} == set(FAMILIES)
    return names


def _model():  # type: ignore[no-untyped-def]
    config = parse_config({"datasets": [{"id": "d", "name": HOSTILE}, {"id": "e", "name": "E"}]})
    return methods_model(config, {"d": _every_family(), "e": ["AP"]}, {"d": 3, "e": 4}, None)


def test_every_family_compiles_in_latex(tmp_path: Path) -> None:
    body = "\n\n".join(
        f"\\subsection*{{{s['title']}}}\n\n{s['body']}" for s in render_sections(_model(), "latex")
    )
    for family in FAMILIES.values():
        assert f"\\item[{family.label}".replace("#", "\\#") in body
    assert "A\\_B \\& C \\#1 at 100\\% \\{x\\}" in " ".join(body.split())
    done = compile_latex(body, tmp_path, ("amsmath",))
    assert done.returncode == 0, done.stdout[-3000:]
    assert "Undefined control sequence" not in done.stdout


def test_markdown_has_no_latex_layout() -> None:
    text = "\n".join(s["body"] for s in render_sections(_model(), "markdown"))
    for latex_only in ("\\[", "\\]", "\\texttt", "\\cite", "\\item", "~"):
        assert latex_only not in text
    assert "[Chapelle et al., 2009]" in text and "[Moffat & Zobel, 2008]" in text
    assert "A\\_B" in text  # the user's name is escaped, the prose is not
    assert "trec_eval" in text


def test_thresholds_per_dataset_name_each_dataset() -> None:
    text = " ".join(" ".join(s["body"] for s in render_sections(_model(), "markdown")).split())
    assert f"at least 2 on {escape_markdown(HOSTILE)}, 1 on E;" in text  # the one chokepoint


def test_markup_pieces() -> None:
    short = {"k": "K, 2000"}
    text = ("a `x_y`[@k]: $$a b$$ ~c ", Name("n_1"))
    latex = "a \\texttt{x\\_y}~\\cite{k}: \\[ a b \\] ~c n\\_1"
    assert render_text(text, "latex", short) == latex
    assert render_text(text, "markdown", short) == "a `x_y` [K, 2000]: $a b$  c n\\_1"
