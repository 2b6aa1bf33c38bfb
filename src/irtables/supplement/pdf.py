"""Compiling ``supplement.tex`` with pdflatex, reproducibly, in a temporary folder.

pdfTeX writes the date and a random document ID into a PDF: ``SOURCE_DATE_EPOCH=0`` with
``FORCE_SOURCE_DATE=1`` fixes the dates, ``\\pdftrailerid{}`` in the preamble drops the ID,
so the same sources give a byte-identical PDF.

Before the real run, every non-ASCII character of the sources is tried once in the
supplement's own preamble (:func:`untypesettable`): a name in Chinese or an emoji is
then one clear error naming the string and the way out, not a page of TeX log.
Failures of pdflatex itself are reduced to their first error line.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from irtables.base.paths import inside
from irtables.errors import IrtablesError
from irtables.workers.leftovers import mark

MAX_RUNS = 4
_RERUN = ("Rerun to get", "Table widths have changed", "Label(s) may have changed")
_PROBE = "IRTABLES-PROBE"
#: Characters found typesettable (or not) per preamble, so that a process probes once.
_PROBED: dict[tuple[str, str], bool] = {}
#: Characters the supplement's preamble typesets without a probe (a test checks them
#: against pdflatex): Latin-1 and Latin Extended-A but those OT1 lacks, and typography.
KNOWN_GOOD = (
    frozenset(map(chr, range(0xA1, 0x17F))) - frozenset("«»ÏÐÞðþĄąĐđĘęĦħĮįĸĿŀŉŊŋŦŧŲų")
) | frozenset("‐‑‒–—―‘’“”†‡•…‰€™")


class LatexError(IrtablesError):
    """pdflatex failed, or cannot typeset a character of the sources (one line)."""


def pdflatex_available() -> bool:
    """Whether ``pdflatex`` is on the PATH."""
    return shutil.which("pdflatex") is not None


def compile_pdf(files: Iterable[tuple[str, bytes]], main: str = "supplement.tex") -> bytes:
    """Write ``files`` (relative path, bytes) into a temporary folder and compile ``main``.

    pdflatex runs until cross-references settle (at most :data:`MAX_RUNS` times), the
    first time in draft mode (the table of contents always needs a second run). Raises
    :class:`LatexError` with one line when a character cannot be typeset or pdflatex fails.
    """
    sources = list(files)
    check_typesettable(sources, main)
    env = _environment()
    with tempfile.TemporaryDirectory(prefix="irtables-latex-") as tmp:
        root = Path(tmp)
        mark(root)  # removed by the next run if this one is killed
        for rel, data in sources:
            target = inside(root, rel)  # the same check as for the output folder
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        _run(root, main, env, draft=True)  # the auxiliary files (contents, labels)
        for _ in range(MAX_RUNS - 1):
            log = _run(root, main, env)
            if not any(flag in log for flag in _RERUN):
                break
        return (root / main).with_suffix(".pdf").read_bytes()


def check_typesettable(sources: Sequence[tuple[str, bytes]], main: str) -> None:
    """Raise :class:`LatexError` naming the first string pdflatex cannot typeset."""
    texts = {rel: data.decode("utf-8", "replace") for rel, data in sources if rel.endswith(".tex")}
    preamble = texts.get(main, "").split("\\begin{document}", 1)[0]
    wanted = sorted({c for t in texts.values() for c in t if ord(c) > 0x7E} - KNOWN_GOOD)
    bad = untypesettable(preamble, wanted) if preamble and wanted else set()
    if not bad:
        return
    for rel, text in sorted(texts.items()):
        for number, line in enumerate(text.splitlines(), start=1):
            found = next((c for c in line if c in bad), None)
            if found is not None:
                raise LatexError(
                    f"pdflatex cannot typeset {found!r} (U+{ord(found):04X}) in "
                    f"{_segment(line, found)!r} ({rel}:{number}); give it a display name "
                    "pdflatex can typeset (name = ... in irtables.toml) or pass --no-pdf"
                )


def untypesettable(preamble: str, chars: Sequence[str]) -> set[str]:
    """The characters of ``chars`` that pdflatex cannot typeset after ``preamble``.

    One pdflatex run typesets each character on a line of its own and reads the log;
    results are remembered for the process.
    """
    todo = [c for c in chars if (preamble, c) not in _PROBED]
    if todo and pdflatex_available():
        failed = _probe(preamble, todo)
        for c in todo:
            _PROBED[(preamble, c)] = c not in failed
    return {c for c in chars if not _PROBED.get((preamble, c), True)}


def _probe(preamble: str, chars: Sequence[str]) -> set[str]:
    body = "".join(f"\\typeout{{{_PROBE} {ord(c)}}}{c}\\par\n" for c in chars)
    doc = f"{preamble}\\begin{{document}}\n{body}\\typeout{{{_PROBE} end}}\n\\end{{document}}\n"
    with tempfile.TemporaryDirectory(prefix="irtables-probe-") as tmp:
        mark(tmp)
        (Path(tmp) / "probe.tex").write_text(doc, encoding="utf-8")
        cmd = ["pdflatex", "-interaction=nonstopmode", "-draftmode", "probe.tex"]
        try:
            subprocess.run(cmd, cwd=tmp, env=_environment(), capture_output=True, timeout=120)
            log = (Path(tmp) / "probe.log").read_text(encoding="utf-8", errors="replace")
        except (OSError, subprocess.TimeoutExpired):
            return set()  # cannot tell: the real run will say what is wrong
    if f"{_PROBE} end" not in log:
        return set()  # the preamble itself failed: the real run reports it
    failed: set[str] = set()
    current: str | None = None
    for line in log.splitlines():
        if line.startswith(_PROBE):
            code = line.split()[1]
            current = chr(int(code)) if code.isdigit() else None
        elif current is not None and (line.startswith("!") or "Missing character" in line):
            failed.add(current)
    return failed


def _segment(line: str, char: str) -> str:
    """The run of text around ``char`` between LaTeX delimiters (a name, more or less)."""
    at = line.index(char)
    start = max((line.rfind(d, 0, at) for d in "&{}$"), default=-1) + 1
    ends = [i for i in (line.find(d, at) for d in "&{}$\\") if i >= 0]
    return line[start : min(ends, default=len(line))].strip()[:80]


def _environment() -> dict[str, str]:
    return {**os.environ, "SOURCE_DATE_EPOCH": "0", "FORCE_SOURCE_DATE": "1"}


def _run(root: Path, main: str, env: dict[str, str], *, draft: bool = False) -> str:
    """One pdflatex run; ``draft``: without writing the PDF or reading the figures (a
    third less time), for a run whose only use is the auxiliary files it writes: pages
    break as in a full run, so the PDF of the next run is the same, byte for byte."""
    cmd = ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", main]
    if draft:
        cmd.insert(1, "-draftmode")
    try:
        done = subprocess.run(
            cmd, cwd=root, env=env, capture_output=True, text=True, errors="replace", timeout=300
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        raise LatexError(f"pdflatex could not run: {e}") from None
    if done.returncode != 0:
        raise LatexError(f"pdflatex failed on {main}: {first_error(done.stdout)}")
    return done.stdout


def first_error(log: str) -> str:
    """The first TeX error of a log and the line it points at, on one line.

    Examples
    --------
    >>> first_error("x\\n! Undefined control sequence.\\nl.12 \\\\foo\\n")[:41]
    'Undefined control sequence. (l.12 \\\\foo); '
    """
    lines = log.splitlines()
    at = next((i for i, line in enumerate(lines) if line.startswith("!")), None)
    if at is None:
        return "no error message in the log (pass --no-pdf and compile supplement.tex yourself)"
    message = lines[at][1:].strip()
    where = next(
        (m.group(0) for line in lines[at : at + 12] if (m := re.match(r"l\.\d+.*", line))), ""
    )
    shown = f"{message} ({where.strip()})" if where else message
    return f"{shown}; pass --no-pdf and compile supplement.tex for the whole log"
