"""Start-up: the command line loads no heavy library before a command needs it.

Checked on ``sys.modules`` of a fresh interpreter, never on a clock (the benchmark
``bench/bench_startup.py`` measures the time).
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from irtables.base.names import FAMILY_NAMES
from irtables.base.procedures import correction_names, names_of_tests
from irtables.stats import ALL_TESTS, CORRECTIONS, FAMILIES, TESTS

HEAVY = ("pandas", "scipy", "matplotlib", "pyarrow", "jinja2", "numpy", "statsmodels")

# Runs `irtables ARGS` in this interpreter, then prints which heavy modules were imported.
PROBE = """
import json, sys
from irtables.cli import main
try:
    main(sys.argv[1:], prog_name="irtables")
except SystemExit:
    pass
heavy = {heavy!r}
print(json.dumps(sorted(m for m in heavy if m in sys.modules)))
"""


def _imported(*args: str) -> list[str]:
    code = PROBE.format(heavy=HEAVY)
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, check=True
    )
    loaded: list[str] = json.loads(done.stdout.strip().splitlines()[-1])
    return loaded


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["--version"],
        ["tables", "--help"],
        ["compare", "--help"],
        ["evaluate", "--help"],
        ["lint", "--help"],
        ["diff", "--help"],
        ["supplement", "--help"],
        ["check", "--help"],
    ],
    ids=lambda a: " ".join(a),
)
def test_help_imports_no_heavy_library(args: list[str]) -> None:
    assert _imported(*args) == []


def test_import_irtables_is_light() -> None:
    code = f"import sys, irtables; print([m for m in {HEAVY!r} if m in sys.modules])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(
    "package",
    [
        "irtables",
        "irtables.diff",
        "irtables.evaluator",
        "irtables.lint",
        "irtables.loaders",
        "irtables.model",
        "irtables.output",
        "irtables.stats",
        "irtables.supplement",
        "irtables.tables",
    ],
)
def test_lazy_names_resolve(package: str) -> None:
    module = importlib.import_module(package)
    for name in module.__all__:
        assert getattr(module, name) is not None
        assert name in dir(module)
    with pytest.raises(AttributeError):
        _ = module.no_such_name


@pytest.mark.parametrize("package", ["irtables", "irtables.stats", "irtables.evaluator"])
def test_submodules_never_shadow_exported_names(package: str) -> None:
    """A lazily exported function named like a submodule (``irtables.render``,
    ``irtables.stats.compare``) stays the function once the submodule is imported."""
    code = f"""
import importlib, pkgutil, types, {package} as pkg
for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
    if not info.name.endswith("__main__"):
        importlib.import_module(info.name)
bad = [n for n in pkg.__all__ if isinstance(getattr(pkg, n), types.ModuleType)]
print(bad)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_render_is_the_function() -> None:
    import irtables
    import irtables.render.env  # a submodule import must not rebind it

    assert callable(irtables.render)


def test_choice_names_match_the_registries() -> None:
    assert tuple(TESTS) == names_of_tests("paired")
    assert tuple(ALL_TESTS) == names_of_tests()
    assert tuple(CORRECTIONS) == correction_names()
    assert tuple(FAMILIES) == FAMILY_NAMES


def test_evaluate_imports_no_pandas(tmp_path: Path) -> None:
    """``irtables evaluate`` of TREC files reads, ranks and writes without pandas (whose
    import alone takes longer than a small evaluation)."""
    qrels, run = tmp_path / "q.txt", tmp_path / "r.txt"
    qrels.write_text("1 0 d1 1\n1 0 d2 0\n2 0 d3 2\n")
    run.write_text("1 Q0 d1 1 2.5 r\n1 Q0 d2 2 1.5 r\n2 Q0 d4 1 3.0 r\n2 Q0 d3 2 1.0 r\n")
    args = ["evaluate", str(qrels), str(run), "-m", "map", "-m", "ndcg_cut_10", "-q", "-j", "1"]
    assert "pandas" not in _imported(*args)
    assert "pandas" not in _imported(*args, "--format", "trec_eval")


def test_evaluate_imports_only_what_it_uses(tmp_path: Path) -> None:
    """Modules numpy and the standard library import on demand stay unimported by an
    evaluation: ``numpy.ma`` (``pa.array`` of a numpy array and ``np.unique`` ask for
    it) and ``importlib.abc`` (a base class the pandas blocker does not need)."""
    qrels, run = tmp_path / "q.txt", tmp_path / "r.txt"
    qrels.write_text("1 0 d1 1\n1 0 d2 0\n2 0 d3 2\n")
    run.write_text("1 Q0 d1 1 2.5 r\n1 Q0 d2 2 2.5 r\n2 Q0 d4 1 3.0 r\n2 Q0 d3 2 1.0 r\n")
    code = PROBE.replace("heavy = {heavy!r}", "heavy = ['numpy.ma', 'importlib.abc', 'numpy']")
    args = ["evaluate", str(qrels), str(run), "-m", "map", "-m", "P_10", "-q", "-j", "1"]
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, check=True
    )
    assert "r\t1\tAP\t0.5\n" in done.stdout  # evaluated: the tie d2 > d1 resolved
    assert json.loads(done.stdout.strip().splitlines()[-1]) == ["numpy"]


def test_the_tables_help_names_every_layout_of_the_registry() -> None:
    """The layouts in ``irtables tables --help`` are read from the layout records (one
    fact, one place), and only when that help is shown: the command list imports no
    configuration code."""
    from click.testing import CliRunner

    from irtables.cli import main
    from irtables.config.tables import LAYOUTS

    shown = " ".join(CliRunner().invoke(main, ["tables", "--help"]).output.split())
    assert f"(layouts: {', '.join(LAYOUTS)})" in shown
    code = (
        "import sys\nfrom irtables.cli import main\ntry:\n    main(['--help'])\n"
        "except SystemExit:\n    pass\n"
        "print([m for m in sys.modules if m.startswith('irtables.config')])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize(("preset", "expected"), [(None, "1"), ("3", "3")])
def test_evaluate_asks_for_no_blas_threads(
    tmp_path: Path, preset: str | None, expected: str
) -> None:
    """numpy is imported by ``evaluate`` with one OpenBLAS thread (its thread per core
    costs CPU at import, and evaluating does no linear algebra); a user's choice stays."""
    import os

    qrels, run = tmp_path / "q.txt", tmp_path / "r.txt"
    qrels.write_text("1 0 d1 1\n")
    run.write_text("1 Q0 d1 1 2.5 r\n")
    code = PROBE.replace(
        "print(json.dumps(sorted(m for m in heavy if m in sys.modules)))",
        "import os; print(json.dumps(os.environ.get('OPENBLAS_NUM_THREADS')))",
    )
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if preset is not None:
        env["OPENBLAS_NUM_THREADS"] = preset
    args = ["evaluate", str(qrels), str(run), "-m", "map", "-j", "1"]
    done = subprocess.run(
        [sys.executable, "-c", code.format(heavy=HEAVY), *args],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    assert json.loads(done.stdout.strip().splitlines()[-1]) == expected
