"""`irtables tables` imports the tables' modules in a background thread while it reads
the results: the main thread imports nothing meanwhile. Two threads importing at once
can deadlock on a package both import (Python's per-module import locks): the command
then stopped with ``internal error (_DeadlockError: ... importlib.resources.abc)``, once
in a while, depending on timing. What reading imports is imported before the thread
starts (``study.pipeline.READ_MODULES``); this test finds any import the main thread
still makes while the thread runs, on a study of per-query files, on runs evaluated,
and on runs read back from the cache."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.conftest import runs_study

EXAMPLE = Path(__file__).resolve().parents[2] / "results"

TRACE = textwrap.dedent(
    """
    import json, sys, threading

    found = []

    def preloading():
        return any(t.name == "irtables-preload" for t in threading.enumerate())

    class Tracer:
        def find_spec(self, name, path=None, target=None):
            if threading.current_thread() is threading.main_thread() and preloading():
                found.append(name)
            return None

    sys.meta_path.insert(0, Tracer())
    from irtables.cli import main

    try:
        main(["tables", sys.argv[1], "-o", sys.argv[2]], standalone_mode=False)
    finally:
        print(json.dumps({"imports": found, "left": preloading()}))
    """
)


def _main_thread_imports(study: Path, out: Path) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", TRACE, str(study), str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


@pytest.mark.parametrize("kind", ["per-query files", "runs"])
def test_the_main_thread_imports_nothing_while_the_tables_modules_are_imported(
    tmp_path: Path, kind: str
) -> None:
    if kind == "runs":
        (tmp_path / "study").mkdir()
        study = runs_study(tmp_path / "study")
    else:
        study = tmp_path / "study"
        shutil.copytree(EXAMPLE, study, ignore=shutil.ignore_patterns("tables", ".irtables*"))
    first = _main_thread_imports(study, tmp_path / "out")
    assert first == {"imports": [], "left": False}
    shutil.rmtree(tmp_path / "out")  # a second build: runs come from the cache
    assert _main_thread_imports(study, tmp_path / "out") == {"imports": [], "left": False}
