"""Property: whatever the names in the data and the configuration, irtables writes only
inside its output folder, and its LaTeX compiles, or the command fails with one line.

Names are drawn from the whole Unicode range (unpaired surrogates included) mixed with
path separators, ``..``, LaTeX specials, brackets, control characters and bidirectional
overrides. They reach irtables as the dataset and system columns of a tidy JSON Lines
file (JSON can carry any of them) and as display names and a caption in irtables.toml.

Every file operation of the command is watched with an audit hook (PEP 578): opening a
file for writing, renaming, removing, creating or removing a folder, changing modes.
Each must lie in the output folder or in a private temporary folder (pdflatex's).
"""

from __future__ import annotations

import json
import multiprocessing.util
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

import irtables.supplement.figures  # noqa: F401  (matplotlib makes its folders on import)
from irtables.cli import main
from tests.conftest import assert_error_line, compile_latex, require_pdflatex

PIECES = [
    "..", "/", "../../", "\\", "x/../../../escaped", "/etc/hostname", "C:\\x", "~",
    "%", "&", "$", "#", "_", "{", "}", "^", "|", "<", ">", "`", "--", "'", '"',
    "\\input{/etc/hostname}", "}\\def\\y{", "\\\\", "[2pt]", "[opt]", "*", "]",
    "\x00", "\t", "\n", "\r", "\x1b[2J", "\x07", "\x7f", "\x85", "\u2028", "\u202e",
    "\ufeff", "\ud800", "é", "中文", "🚀", "CON", ".", " ",
]  # fmt: skip
WRITE_EVENTS = {
    "os.rename", "os.remove", "os.rmdir", "os.mkdir", "os.chmod", "os.chown",
    "os.symlink", "os.link", "os.truncate", "os.utime", "shutil.rmtree", "shutil.copyfile",
    "shutil.move",
}  # fmt: skip
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
_WATCHED: list[list[tuple[str, str]]] = []


def _audit(event: str, args: tuple[object, ...]) -> None:
    if not _WATCHED:
        return
    paths: list[object] = []
    if event == "open" and len(args) >= 3:
        mode, flags = args[1], args[2]
        writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
            isinstance(flags, int) and flags & WRITE_FLAGS
        )
        if writing:
            paths.append(args[0])
    elif event in WRITE_EVENTS:
        two = event in ("os.rename", "shutil.copyfile", "shutil.move")
        paths.extend(args[:2] if two else [_at(args[0], _dir_fd(event, args))])
    elif event == "subprocess.Popen" and len(args) >= 3:
        paths.append(args[2] or os.getcwd())  # the folder pdflatex writes into
    for p in paths:
        if isinstance(p, str | bytes | os.PathLike):
            _WATCHED[-1].append((event, os.fsdecode(p)))


def _dir_fd(event: str, args: tuple[object, ...]) -> object:
    """The ``dir_fd`` argument of an event (shutil.rmtree removes relative to one)."""
    at = {"os.remove": 1, "os.rmdir": 1, "os.mkdir": 2, "os.chmod": 2}.get(event)
    return args[at] if at is not None and len(args) > at else None


def _at(path: object, dir_fd: object) -> object:
    if isinstance(dir_fd, int) and isinstance(path, str | bytes) and not os.path.isabs(path):
        return os.path.join(os.readlink(f"/proc/self/fd/{dir_fd}"), os.fsdecode(path))
    return path


sys.addaudithook(_audit)


@contextmanager
def watched(scratch: Path) -> Iterator[list[tuple[str, str]]]:
    """Record write events; temporary folders go to ``scratch`` meanwhile."""
    events: list[tuple[str, str]] = []
    # multiprocessing keeps one temporary folder per process for its sockets (the fork
    # server's among them), made on first use under tempfile's folder of the moment: make
    # it now, in the real one, so that no later process pool depends on ``scratch``.
    multiprocessing.util.get_temp_dir()
    old = tempfile.tempdir
    tempfile.tempdir = str(scratch)
    _WATCHED.append(events)
    try:
        yield events
    finally:
        _WATCHED.pop()
        tempfile.tempdir = old


def outside(events: list[tuple[str, str]], *allowed: Path) -> list[tuple[str, str]]:
    # multiprocessing's own private folder (the fork server's socket) is allowed too
    roots = [os.path.realpath(a) for a in (*allowed, multiprocessing.util.get_temp_dir())]
    bad = []
    for kind, path in events:
        real = os.path.realpath(path)
        if not any(real == r or real.startswith(r + os.sep) for r in roots):
            bad.append((kind, path))
    return bad


CONTROLS = {"Cc", "Cs", "Zl", "Zp"}
printable = st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=CONTROLS)
anything = st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=())


def _names(pieces: list[str], chars: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    parts = st.one_of(st.sampled_from(pieces), st.text(chars, min_size=1, max_size=4))
    return st.lists(parts, min_size=1, max_size=4).map("".join)


#: Half the names are printable (they should make it into the outputs), half anything.
names = st.one_of(
    _names([p for p in PIECES if all(c.isprintable() for c in p)], printable),
    _names(PIECES, anything),
)


def write_study(root: Path, datasets: list[str], systems: list[str], shown: str) -> Path:
    results = root / "res"
    results.mkdir(parents=True)
    lines = []
    for d in datasets:
        for i, s in enumerate(systems):
            for q in range(3):
                for metric, base in (("AP", 0.2), ("nDCG@10", 0.3)):
                    value = round(base + 0.1 * q + 0.05 * i, 3)
                    row = {"dataset": d, "system": s, "query": f"q{q}", "metric": metric}
                    lines.append(json.dumps({**row, "value": value}))
    (results / "all.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    toml = (
        f"[[systems]]\nid = {json.dumps(systems[0], ensure_ascii=False)}\n"
        f"name = {json.dumps(shown, ensure_ascii=False)}\n"
        f"[tables.main]\ncaption = {json.dumps(shown + ' caption', ensure_ascii=False)}\n"
    )
    (results / "irtables.toml").write_text(toml, encoding="utf-8", errors="surrogatepass")
    return results


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p): (os.readlink(p).encode() if p.is_symlink() else p.read_bytes())
        for p in root.rglob("*")
        if p.is_file() or p.is_symlink()
    }


def check_outcome(result: Result) -> None:
    """Exit 0, or exit 2 with one line ``Error: ...``; never a traceback or a raw control."""
    event(
        f"exit {result.exit_code}: "
        + (result.output.split(":")[-1][:40] if result.exit_code else "ok")
    )
    assert result.exit_code in (0, 2), (result.exit_code, result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    for char in result.output:
        assert char == "\n" or char.isprintable() or char == " ", repr(result.output)
    if result.exit_code == 2:
        assert_error_line(result.exit_code, result.output)


def run_watched(tmp: Path, *args: str) -> tuple[Result, list[tuple[str, str]]]:
    scratch = tmp / "scratch"
    scratch.mkdir(exist_ok=True)
    with watched(scratch) as events:
        result = CliRunner().invoke(main, list(args))
    return result, events


def run_study(command: str, datasets: list[str], system: str, shown: str) -> None:
    """Run ``command`` on a study with these names; check where it wrote and what it said.

    Exit 0 or one line ``Error: ...``; every write event and every changed file inside
    the output folder; when the command succeeded, its LaTeX compiles.
    """
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        results = write_study(tmp / "a" / "b", datasets, [system, "plain"], shown)
        out = tmp / "a" / "b" / "out"
        before = snapshot(tmp)
        result, events = run_watched(tmp, command, str(results), "-o", str(out))
        check_outcome(result)
        bad = outside(events, out, tmp / "scratch")
        assert bad == [], "\n".join(map(str, bad))
        after = snapshot(tmp)
        changed = {p for p in after if before.get(p) != after[p]} | (set(before) - set(after))
        assert all(Path(p).is_relative_to(out) for p in changed), sorted(changed)
        if result.exit_code != 0:
            return
        if command == "supplement":  # irtables compiled it with pdflatex itself
            assert (out / "supplement.pdf").read_bytes().startswith(b"%PDF")
            return
        # one pdflatex run for all the tables, each in a group of its own on its own pages;
        # each says when it is done, so that none can swallow the next one unnoticed
        names = [tex.name for tex in sorted(out.glob("*.tex"))]
        body = "".join(
            f"\\begingroup\\input{{{name}}}\\clearpage\\endgroup\\typeout{{compiled {name}}}\n"
            for name in names
        )
        done = compile_latex(body, out, raw_input=True)
        assert done.returncode == 0, done.stdout[-1500:]
        assert [
            line[9:] for line in done.stdout.splitlines() if line.startswith("compiled ")
        ] == names


@pytest.mark.latex
@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(datasets=st.lists(names, min_size=1, max_size=3, unique=True), system=names, shown=names)
@example(
    datasets=["x/../../../escaped", "x y", "x_y"], system="[2pt] *b", shown="\\input{/etc/hostname}"
)
@example(datasets=["\ud800", "a\x00b"], system="\u202e", shown="}\\def\\y{")
def test_tables_write_only_inside_and_compile(datasets: list[str], system: str, shown: str) -> None:
    run_study("tables", datasets, system, shown)


@pytest.mark.latex
@settings(max_examples=10, suppress_health_check=[HealthCheck.too_slow])
@given(datasets=st.lists(names, min_size=1, max_size=2, unique=True), system=names, shown=names)
@example(
    datasets=["x/../../../escaped", "[opt] *d"], system="\\input{/etc/hostname}", shown="%&$#_{}~^"
)
@example(datasets=["中文"], system="\x1b[2J", shown="🚀")
def test_supplement_writes_only_inside_and_its_pdf_compiles(
    datasets: list[str], system: str, shown: str
) -> None:
    """The supplement, PDF included: pdflatex compiles it or irtables says in one line why."""
    require_pdflatex()  # without it the supplement has no PDF to look at (CI installs it)
    run_study("supplement", datasets, system, shown)
