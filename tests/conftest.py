"""Shared fixtures: a tiny result set, the golden-file switch, pdflatex, the fixtures folder."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import settings

from irtables.model import ResultSet

settings.register_profile("ci", derandomize=True, deadline=None, max_examples=60)
settings.register_profile("dev", deadline=None, max_examples=60)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

REPO = Path(__file__).resolve().parents[1]
FIXTURES = Path(os.environ.get("IRTABLES_FIXTURES", REPO.parent / "shared" / "fixtures"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden", action="store_true", help="rewrite golden files from the current code"
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture
def tiny_results() -> ResultSet:
    """3 queries x 2 systems x 2 metrics on one dataset, values chosen by hand."""
    rows = []
    values = {
        ("bm25", "AP"): [0.2, 0.4, 0.6],
        ("bm25", "nDCG@10"): [0.3, 0.5, 0.7],
        ("dense", "AP"): [0.3, 0.5, 0.7],
        ("dense", "nDCG@10"): [0.3, 0.5, 0.7],
    }
    for (system, metric), vals in values.items():
        for q, v in zip(("q1", "q2", "q3"), vals, strict=True):
            rows.append(("toy", system, q, metric, v))
    return ResultSet.from_frame(
        pd.DataFrame(rows, columns=["dataset", "system", "query", "metric", "value"])
    )


def require_fixtures() -> Path:
    """The shared fixtures folder; skip locally when absent, fail under CI."""
    if not FIXTURES.is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"fixtures folder {FIXTURES} is missing under CI")
        pytest.skip(f"fixtures folder {FIXTURES} not present")
    return FIXTURES


@pytest.fixture(scope="session")
def trec_eval_binaries() -> dict[str, Path]:
    """The real trec_eval 9.0.8 and 10 binaries, built from ../shared/tools with make.

    Built once into a cache folder (tests/trec_eval_binary.py). A failed build fails the
    run under CI and skips the test locally.
    """
    from tests.trec_eval_binary import BuildError, build_trec_eval

    try:
        return {v: build_trec_eval(v) for v in ("9.0.8", "10")}
    except BuildError as e:
        if os.environ.get("CI"):
            pytest.fail(f"trec_eval could not be built under CI: {e}")
        pytest.skip(f"trec_eval could not be built: {e}")


def compile_latex(
    tex_body: str, workdir: Path, packages: tuple[str, ...] = (), *, raw_input: bool = False
) -> subprocess.CompletedProcess[str]:
    """Compile a table inside a minimal article with pdflatex (required under CI).

    ``raw_input`` reads the source as bytes (``\\UseRawInputEncoding``): any character
    is some glyph, so what is checked is the LaTeX structure, not the fonts' coverage.
    """
    if shutil.which("pdflatex") is None:
        if os.environ.get("CI"):
            pytest.fail("pdflatex is required under CI (installed by .ci/run)")
        pytest.skip("pdflatex not installed")
    doc = workdir / "doc.tex"
    doc.write_text(
        ("\\UseRawInputEncoding\n" if raw_input else "")
        + "\\documentclass{article}\n\\usepackage{booktabs}\n"
        + "".join(f"\\usepackage{{{p}}}\n" for p in packages)
        + "\\begin{document}\n"
        + tex_body
        + "\n\\end{document}\n",
        encoding="utf-8",
    )
    return subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", doc.name],
        cwd=workdir,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=120,
    )


def without_file_privileges() -> list[str]:
    """A command prefix under which file permissions hold, even for root.

    Root ignores permission bits through two capabilities (``CAP_DAC_OVERRIDE``,
    ``CAP_DAC_READ_SEARCH``); ``setpriv`` drops them from the bounding set of the child,
    so an unreadable file or a read-only folder refuses it as it would refuse a user.
    Not root: no prefix is needed.
    """
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        if os.environ.get("CI"):
            pytest.fail("setpriv (util-linux) is required under CI to test permissions as root")
        pytest.skip("running as root without setpriv: permission bits do not apply")
    return ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"]
