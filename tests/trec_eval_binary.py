"""Build the real trec_eval 9.0.8 and 10 binaries from ../shared/tools, run them, read them.

The sources are the tarballs of ``/work/shared/tools`` (see its README); nothing of them is
copied into the repository. A binary is built once with ``make`` into a cache folder
(``$IRTABLES_TEST_CACHE``, else ``~/.cache/irtables-tests``), keyed by the tarball's
SHA-256, and moved into place atomically so that concurrent test runs never see half a
build. :func:`build_trec_eval` raises :class:`BuildError` when it cannot build; the
``trec_eval_binaries`` fixture (tests/conftest.py) fails under CI and skips locally.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TOOLS = Path(os.environ.get("IRTABLES_TOOLS", REPO.parent / "shared" / "tools"))
TARBALLS = {"9.0.8": "trec_eval-9.0.8.tar.gz", "10": "trec_eval-10-main.tar.gz"}


class BuildError(RuntimeError):
    """trec_eval could not be built (no sources, no compiler, a failed make)."""


def cache_dir() -> Path:
    """Where built binaries are kept between test runs."""
    default = Path.home() / ".cache" / "irtables-tests"
    return Path(os.environ.get("IRTABLES_TEST_CACHE", default))


def build_trec_eval(version: str, cache: Path | None = None) -> Path:
    """The path of a trec_eval binary of ``version`` ("9.0.8" or "10"), built if needed."""
    tarball = TOOLS / TARBALLS[version]
    if not tarball.is_file():
        raise BuildError(f"{tarball} not found")
    digest = hashlib.sha256(tarball.read_bytes()).hexdigest()[:16]
    root = (cache or cache_dir()) / f"trec_eval-{version}-{digest}"
    binary = root / "trec_eval"
    if binary.is_file() and os.access(binary, os.X_OK):
        return binary
    if shutil.which("make") is None or shutil.which("cc") is None:
        raise BuildError("make and cc are needed to build trec_eval")
    root.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=root.parent, prefix=".build-") as tmp:
        with tarfile.open(tarball) as tar:
            tar.extractall(tmp, filter="data")
        (source,) = [p for p in Path(tmp).iterdir() if p.is_dir()]
        done = subprocess.run(
            ["make", "-s", "-C", str(source)], capture_output=True, text=True, timeout=600
        )
        if done.returncode != 0 or not (source / "trec_eval").is_file():
            raise BuildError(f"make failed for {tarball.name}:\n{done.stderr[-2000:]}")
        staged = Path(tmp) / "out"
        staged.mkdir()
        shutil.copy2(source / "trec_eval", staged / "trec_eval")
        try:
            staged.rename(root)  # atomic; another run may have won the race
        except OSError:
            if not binary.is_file():
                raise
    return binary


def run_trec_eval(
    binary: Path, args: list[str], cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run a trec_eval binary; the caller checks ``returncode``."""
    return subprocess.run(
        [str(binary), *args], capture_output=True, text=True, cwd=cwd, timeout=300
    )


def parse_output(text: str) -> dict[tuple[str, str], str]:
    """trec_eval's ``name<TAB>query<TAB>value`` lines as a dict (name, query) -> value."""
    out: dict[tuple[str, str], str] = {}
    for line in text.splitlines():
        fields = line.split()
        if len(fields) == 3:
            out[(fields[0], fields[1])] = fields[2]
    return out
