"""Tests share processes and run in random order: what one test does to the process must
not break another (issue: ``make test`` failed on a fresh clone in some orders).

The guard itself is ``_process_state_unchanged`` in ``tests/conftest.py`` (every test).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

from tests.conftest import REPO

# In a fresh process (as a fresh pytest worker is): the hostile-names tests point
# tempfile's folder at a scratch folder that is removed afterwards, a process pool is
# started meanwhile, then irtables' own pool must still work once the folder is gone.
_CHILD = textwrap.dedent(
    """
    import shutil, sys, tempfile
    from pathlib import Path
    sys.path.insert(0, sys.argv[1])
    from tests.property.test_hostile_names import watched
    from irtables.workers.executor import make_executor, run_all

    scratch = Path(tempfile.mkdtemp())
    with watched(scratch):
        with make_executor(2, 4) as pool:
            assert run_all(pool, abs, [-1, -2, -3, -4]) == [1, 2, 3, 4]
    shutil.rmtree(scratch)
    with make_executor(2, 4) as pool:
        print(run_all(pool, abs, [-5, -6, -7, -8]))
    """
)


def test_a_pool_started_in_a_redirected_tempdir_outlives_the_folder() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(REPO)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[5, 6, 7, 8]"
