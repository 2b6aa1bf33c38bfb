"""Golden files of the supplement's methods text, for two configurations.

``example-*``: the example in results/ (t-test, Holm, K in {1, ..., 1000}, two relevance
thresholds); ``toy-*``: the small study in supplement/study/ (Wilcoxon, one-sided,
Bonferroni, alpha 0.01, K in {5, 10}). `make golden` rewrites them.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from irtables.study.pipeline import resolve_study
from irtables.supplement.build import build_supplement

HERE = Path(__file__).parent / "supplement"
REPO = HERE.parents[2]
STUDIES = {"example": REPO / "results", "toy": HERE / "study"}
FILES = ("methods.tex", "methods.md", "references.bib")


def _methods(study: Path) -> dict[str, str]:
    results, config, _ = resolve_study(study)
    built = build_supplement(results, config)
    return {o.path: o.data.decode("utf-8") for o in built.outputs if o.path in FILES}


CASES = [(name, f) for name in STUDIES for f in FILES]


@pytest.fixture(scope="module")
def rendered() -> dict[str, dict[str, str]]:
    return {name: _methods(path) for name, path in STUDIES.items()}


@pytest.mark.parametrize(("study", "name"), CASES, ids=[f"{s}-{n}" for s, n in CASES])
def test_methods_golden(
    study: str, name: str, rendered: dict[str, dict[str, str]], update_golden: bool
) -> None:
    path = HERE / f"{study}-{name}"
    actual = rendered[study][name]
    if update_golden:
        path.write_text(actual, encoding="utf-8")
    expected = path.read_text(encoding="utf-8") if path.exists() else ""
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(True), actual.splitlines(True), path.name, "rendered"
            )
        )
        pytest.fail(f"methods text differs from the golden file:\n{diff}")


def test_the_two_configurations_differ(rendered: dict[str, dict[str, str]]) -> None:
    example, toy = (" ".join(rendered[s]["methods.md"].split()) for s in ("example", "toy"))
    assert "Holm correction" in example and "Bonferroni correction" in toy
    assert r"\{1, 3, 5, 10, 20, 100, 1000\}" in example and r"\{5, 10\}" in toy
    assert "2 on TREC CAsT 2021" in example
