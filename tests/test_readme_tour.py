"""Every shell command of the README's tour ("Set up" and "30-second tour") runs as written,
in order, in a temporary copy of the repository, as a new user's shell would run them.

The copy shares this checkout's ``.venv`` (a symlink; its install stamp is kept newer than
the copy's pyproject.toml, so ``make`` does not reinstall). The shell starts without any
``irtables`` on its PATH, so the tour must say how to get one. ``make test`` is the one
command not run: it is this test suite, which would run itself again.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.conftest import REPO, git

TOUR_SECTIONS = ("Set up", "30-second tour")
NOT_RUN = {"make test": "the test suite itself: it would run this test again"}


def readme_commands(
    sections: tuple[str, ...] = TOUR_SECTIONS, page: str = "README.md"
) -> list[str]:
    """The commands of the ``sh`` blocks of the given sections of ``page`` (README.md or a
    page of the docs), comments removed."""
    text = (REPO / page).read_text(encoding="utf-8") + "\n## "
    commands = []
    for title in sections:
        match = re.search(rf"^## {re.escape(title)}.*?$(.*?)(?=^## )", text, re.M | re.S)
        assert match, f"{page} has no section {title!r}"
        for block in re.findall(r"```sh\n(.*?)```", match.group(1), re.S):
            for line in block.splitlines():
                command = re.sub(r"\s+#.*$", "", line).strip()
                if command:
                    commands.append(command)
    return commands


def _copy_repo(target: Path) -> Path:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, text=True, check=False
    )
    if listed.returncode != 0:
        pytest.skip("not a git checkout: cannot list the repository's files")
    for name in filter(None, listed.stdout.split("\0")):
        source, dest = REPO / name, target / name
        if source.is_file():
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest)
    stamp = REPO / ".venv" / ".installed-runtime"  # what `make tables` needs
    if not stamp.is_file():
        pytest.skip("no installed .venv in this checkout (run make tables)")
    (target / ".venv").symlink_to(REPO / ".venv", target_is_directory=True)
    older = stamp.stat().st_mtime - 60
    os.utime(target / "pyproject.toml", (older, older))
    return target


def _clean_env() -> dict[str, str]:
    """The environment of a fresh shell: no virtual environment, no irtables on PATH."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    path = [p for p in env.get("PATH", "").split(os.pathsep) if p]
    env["PATH"] = os.pathsep.join(p for p in path if not (Path(p) / "irtables").exists())
    return env


def test_the_tour_lists_the_commands_a_new_user_runs() -> None:
    commands = readme_commands()
    assert commands[0] == "make tables"
    assert any(c.startswith(". .venv/bin/activate") for c in commands)
    assert sum(c.startswith("irtables ") for c in commands) >= 3


def test_every_tour_command_runs_in_a_fresh_copy(tmp_path: Path) -> None:
    root = _copy_repo(tmp_path / "repo")
    env = _clean_env()
    before = subprocess.run(
        ["bash", "-c", "command -v irtables"], cwd=root, env=env, capture_output=True
    )
    assert before.returncode != 0, "irtables is on PATH before the tour says how"
    script = ["set -euo pipefail"]
    for command in readme_commands():
        if command in NOT_RUN:
            continue
        script += [f"echo '$ {command}'", command]
    done = subprocess.run(
        ["bash", "-c", "\n".join(script)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert (root / "results" / "tables" / "table1.tex").is_file()
    # "-f latex -o results/tables/paper/": LaTeX tables, and the tests behind their markers
    paper = sorted(p.name for p in (root / "results" / "tables" / "paper").iterdir())
    others = {n for n in paper if not n.endswith(".tex")}
    records = {".irtables-written.json", ".irtables-tables.json"}  # written files, manifest
    assert others == {"significance.csv", "significance.md", "numbers.json", *records}
    assert "table1.tex" in paper and "ablation.tex" in paper
    # the supplement of the tour, and the check that finds it current
    assert (root / "results" / "supplement" / "manifest.json").is_file()
    assert "irtables check results/ -o results/supplement" in readme_commands()


def test_the_tour_writes_only_into_folders_git_ignores() -> None:
    """Run in a clone, the tour must leave ``git status`` clean: every ``-o`` folder of
    its commands is ignored (``paper/`` was not)."""
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    targets = [
        m.group(1) for c in readme_commands() if (m := re.search(r"\s-o\s+(\S+)", c)) is not None
    ]
    assert targets
    for target in targets:
        probe = target.rstrip("/") + "/table1.tex"
        found = subprocess.run(["git", "check-ignore", "-q", probe], cwd=REPO, check=False)
        assert found.returncode == 0, f"{target} is not ignored by .gitignore"


def test_the_diff_example_compares_the_last_commit(tmp_path: Path) -> None:
    """``irtables diff HEAD:results results``: the last commit against the working tree."""
    commands = readme_commands(("What changed",), "docs/guides/workflow.md")
    (line,) = [c for c in commands if " HEAD" in c]
    if shutil.which("git") is None:
        pytest.skip("git not installed")
    root = tmp_path / "study"
    shutil.copytree(REPO / "results", root / "results", ignore=shutil.ignore_patterns("tables"))
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "results"]):
        git(root, *args)
    irtables = str(REPO / ".venv" / "bin" / "irtables")
    if not Path(irtables).exists():
        pytest.skip("no installed .venv in this checkout")
    command = line.replace("irtables", irtables, 1)
    same = subprocess.run(["bash", "-c", command], cwd=root, capture_output=True, text=True)
    assert same.returncode == 0 and "no differences" in same.stdout, same.stderr
    tsv = root / "results" / "cacm" / "bm25.tsv"
    tsv.write_text(tsv.read_text().replace("\t0.0\n", "\t1.0\n", 1))
    changed = subprocess.run(["bash", "-c", command], cwd=root, capture_output=True, text=True)
    assert changed.returncode == 0 and "no differences" not in changed.stdout


def test_the_documented_output_keys_show_the_defaults() -> None:
    """``second_best = true`` was once documented as the default; the code said false."""
    import tomllib

    from irtables.config import Output, parse_config

    text = (REPO / "docs" / "getting-started.md").read_text(encoding="utf-8")
    block = re.search(r"^\[output\]\n(.*?)\n\n", text, re.M | re.S)
    assert block, "getting-started.md has no [output] block"
    documented = tomllib.loads("[output]\n" + block.group(1))
    documented["output"].pop("templates")  # an example folder, not a default
    parsed = parse_config(documented).output
    for key in documented["output"]:
        assert getattr(parsed, key) == getattr(Output(), key), key
