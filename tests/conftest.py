"""Shared fixtures and helpers: result sets, the golden-file switch, pdflatex, git, the
fixtures folder, one-line errors, child processes under limits and the command-line
helpers of the hostile-input tests (``tests/unit/test_hostile_*.py``)."""

from __future__ import annotations

import csv
import io
import locale
import multiprocessing
import multiprocessing.process
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner, Result
from hypothesis import settings

from irtables.model import ResultSet

settings.register_profile("ci", derandomize=True, deadline=None, max_examples=60)
settings.register_profile("dev", deadline=None, max_examples=60)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

REPO = Path(__file__).resolve().parents[1]
FIXTURES = Path(os.environ.get("IRTABLES_FIXTURES", REPO.parent / "shared" / "fixtures"))
RUNS = REPO / "tests" / "data" / "runs"
COLUMNS = ["dataset", "system", "query", "metric", "value"]


# Test modules of end-to-end runs (pdflatex, chromium, whole supplements, the real
# trec_eval binaries) and long simulations: marked ``slow``, run by ``make test`` and CI,
# left out by ``make test-fast``.
SLOW_MODULES = frozenset(
    {
        "tests/property/test_hostile_names.py",
        "tests/unit/test_supplement_run.py",
        "tests/unit/test_supplement_figures.py",
        "tests/acceptance/test_trec_eval_binaries.py",
        "tests/acceptance/test_browser.py",
        "tests/acceptance/test_paper_fit.py",
        "tests/golden/test_supplement_golden.py",
        "tests/acceptance/test_ranx_levels.py",
        "tests/acceptance/test_sweep_study.py",
        "tests/acceptance/test_notebook.py",
        "tests/acceptance/test_caption_fit.py",
        "tests/test_docs_site.py",
    }
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.relative_to(REPO).as_posix() in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden", action="store_true", help="rewrite golden files from the current code"
    )


def _process_state() -> dict[str, object]:
    """What one test must leave as it found it: every other test runs in this process."""
    umask = os.umask(0o022)
    os.umask(umask)
    mp_tempdir = multiprocessing.process.current_process()._config.get("tempdir")
    return {
        "tempfile.tempdir": tempfile.tempdir,
        "working directory": os.getcwd(),
        "environment": {k: v for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"},
        "umask": umask,
        "locale": locale.setlocale(locale.LC_ALL, None),
        # unset and the platform's default are one state: the first pool fixes the default
        "multiprocessing start method": multiprocessing.get_start_method(allow_none=True)
        or multiprocessing.get_all_start_methods()[0],
        "multiprocessing temporary folder exists": mp_tempdir is None or os.path.isdir(mp_tempdir),
        "SIGINT handler": signal.getsignal(signal.SIGINT),
        "SIGTERM handler": signal.getsignal(signal.SIGTERM),
    }


@pytest.fixture(autouse=True)
def _process_state_unchanged() -> Iterator[None]:
    """Fail a test that changes process-wide state and does not restore it.

    Tests share one process (one per xdist worker) and run in random order: a leaked
    temporary folder, working directory, environment variable, umask, locale, start
    method or signal handler breaks other tests only in some orders.
    """
    before = _process_state()
    yield
    after = _process_state()
    changed = sorted(k for k in before if before[k] != after[k])
    if "environment" in changed:
        env_before, env_after = before["environment"], after["environment"]
        assert isinstance(env_before, dict) and isinstance(env_after, dict)
        keys = {
            k for k in env_before.keys() | env_after.keys() if env_before.get(k) != env_after.get(k)
        }
        changed[changed.index("environment")] = f"environment ({', '.join(sorted(keys))})"
    if changed:
        tempfile.tempdir = before["tempfile.tempdir"]  # type: ignore[assignment]
        os.chdir(str(before["working directory"]))
        pytest.fail(f"the test changed process-wide state and left it so: {', '.join(changed)}")


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
    return results_from_rows(rows)


def results_from_rows(rows: Sequence[tuple[str, str, str, str, float]]) -> ResultSet:
    """A result set of (dataset, system, query, metric, value) rows."""
    return ResultSet.from_frame(pd.DataFrame(rows, columns=COLUMNS))


def runs_study(root: Path, extra: str = "") -> Path:
    """``root`` as a study of qrels and runs: tiny.qrels, runs/a.run and runs/b.run (both
    tiny.run), and an irtables.toml with one dataset ``toy``, ``extra`` appended to it."""
    shutil.copy(RUNS / "tiny.qrels", root / "tiny.qrels")
    (root / "runs").mkdir()
    shutil.copy(RUNS / "tiny.run", root / "runs" / "a.run")
    shutil.copy(RUNS / "tiny.run", root / "runs" / "b.run")
    (root / "irtables.toml").write_text(
        '[[datasets]]\nid = "toy"\nqrels = "tiny.qrels"\nruns = "runs/*.run"\n' + extra
    )
    return root


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
    from tests.acceptance.binary_parity import VERSIONS
    from tests.trec_eval_binary import BuildError, build_trec_eval

    try:
        return {v: build_trec_eval(v) for v in VERSIONS}
    except BuildError as e:
        if os.environ.get("CI"):
            pytest.fail(f"trec_eval could not be built under CI: {e}")
        pytest.skip(f"trec_eval could not be built: {e}")


def require_tool(name: str) -> None:
    """Skip locally when the program ``name`` is not installed; fail under CI, which
    installs it (.ci/run)."""
    if shutil.which(name) is None:
        if os.environ.get("CI"):
            pytest.fail(f"{name} is required under CI (installed by .ci/run)")
        pytest.skip(f"{name} not installed")


def require_pdflatex() -> None:
    """Skip locally when pdflatex is not installed; fail under CI, which installs it."""
    require_tool("pdflatex")


def compile_latex(
    tex_body: str, workdir: Path, packages: tuple[str, ...] = (), *, raw_input: bool = False
) -> subprocess.CompletedProcess[str]:
    """Compile a table inside a minimal article with pdflatex (required under CI).

    ``raw_input`` reads the source as bytes (``\\UseRawInputEncoding``): any character
    is some glyph, so what is checked is the LaTeX structure, not the fonts' coverage.
    """
    require_pdflatex()
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


def git(cwd: Path, *args: str) -> None:
    """Run git in ``cwd`` with a throwaway identity (commits need one)."""
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def assert_error_line(exit_code: int, text: str, *needles: str) -> None:
    """Exit status 2 and exactly one ``Error: ...`` line holding every needle; no traceback."""
    assert exit_code == 2, text
    errors = [line for line in text.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1, text
    assert "Traceback" not in text
    for needle in needles:
        assert needle in errors[0], errors[0]


def run_with_file_limit(
    argv: list[str], limit: int | None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` with no file larger than ``limit`` bytes (``RLIMIT_FSIZE``, as a full
    disk would refuse a write); ``None``: no limit. Output captured as text."""

    def preexec() -> None:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(argv, capture_output=True, text=True, preexec_fn=preexec, timeout=timeout)


def peak_memory_of(code: str, timeout: float = 300) -> tuple[int, subprocess.CompletedProcess[str]]:
    """Run the Python ``code`` in a child process; its peak resident memory (bytes: the
    ``VmHWM`` of its own address space, which, unlike ``ru_maxrss``, does not carry over
    the parent's size from before ``exec``) and the finished process (output as text)."""
    probe = (
        "\nimport sys\n"
        "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM:')][0].split()[1]\n"
        "sys.stdout.write(f'\\nPEAK {hwm}\\n')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code + probe], capture_output=True, text=True, timeout=timeout
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("PEAK ")]
    if not lines:
        raise AssertionError(f"the child failed: {done.stderr[-2000:]}")
    return int(lines[-1].split()[1]) * 1024, done


# --- the hostile-input tests (issue 9): studies with any names, run through the CLI -----


def tidy_study(
    root: Path, datasets: list[str], systems: tuple[str, ...] = ("bm25", "dense")
) -> Path:
    """``root/r/all.csv``: a tidy file whose dataset and system columns hold any names."""
    folder = root / "r"
    folder.mkdir(parents=True, exist_ok=True)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["dataset", "system", "query", "metric", "value"])
    for d in datasets:
        for i, s in enumerate(systems):
            for q in range(3):
                writer.writerow([d, s, f"q{q}", "AP", f"{0.1 * (q + 1) + 0.05 * i:.3f}"])
                writer.writerow([d, s, f"q{q}", "nDCG@10", f"{0.2 + 0.1 * i:.3f}"])
    (folder / "all.csv").write_text(buffer.getvalue(), encoding="utf-8")
    return folder


def without_left_out(text: str) -> str:
    """Output without the warning that names default Table 1 metrics the toy data lacks
    (tidy_study holds AP and nDCG@10 only)."""
    return "".join(
        line
        for line in text.splitlines(keepends=True)
        if not line.startswith("Warning: Table 1 leaves out")
    )


def invoke(*args: str) -> Result:
    """``irtables *args`` in this process (the command line imported only when used)."""
    from irtables.cli import main

    return CliRunner().invoke(main, list(args))


def assert_one_line_error(result: Result, *needles: str) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert_error_line(result.exit_code, result.output, *needles)


def files_under(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if p.is_file() or p.is_symlink()}
