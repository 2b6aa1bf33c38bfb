"""What pdflatex can typeset: every non-ASCII character of a LaTeX text is tried once in
the preamble it will be compiled with, so that a name in Chinese or an emoji is one
clear error naming the string and the character, before any file is written or
pdflatex runs on it, not a page of TeX log (or a paper that stops compiling).

Without pdflatex on the PATH nothing is probed (nothing can be told).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from irtables.workers.leftovers import mark

_PROBE = "IRTABLES-PROBE"
#: Characters found typesettable (or not) per preamble, so that a process probes once.
_PROBED: dict[tuple[str, str], bool] = {}
#: Characters the supplement's preamble typesets without a probe (a test checks them
#: against pdflatex): Latin-1 and Latin Extended-A but those OT1 lacks, and typography.
KNOWN_GOOD = (
    frozenset(map(chr, range(0xA1, 0x17F))) - frozenset("«»ÏÐÞðþĄąĐđĘęĦħĮįĸĿŀŉŊŋŦŧŲų")
) | frozenset("‐‑‒–—―‘’“”†‡•…‰€™")


#: The preamble that the table fragments irtables writes need (``_table.tex.j2``).
TABLE_PREAMBLE = (
    "\\documentclass{article}\n\\usepackage[utf8]{inputenc}\n"
    "\\usepackage{booktabs}\n\\usepackage{graphicx}\n"
)


def pdflatex_available() -> bool:
    """Whether ``pdflatex`` is on the PATH."""
    return shutil.which("pdflatex") is not None


def first_untypesettable(texts: Mapping[str, str], preamble: str) -> str | None:
    """Where the first character of ``texts`` (file name -> LaTeX) that pdflatex cannot
    typeset after ``preamble`` is: the character, the string around it (a name, more or
    less) and its file and line, in words; None if every one can be."""
    wanted = sorted({c for t in texts.values() for c in t if ord(c) > 0x7E} - KNOWN_GOOD)
    bad = untypesettable(preamble, wanted) if preamble and wanted else set()
    if not bad:
        return None
    for rel, text in sorted(texts.items()):
        for number, line in enumerate(text.splitlines(), start=1):
            found = next((c for c in line if c in bad), None)
            if found is not None:
                return (
                    f"pdflatex cannot typeset {found!r} (U+{ord(found):04X}) in "
                    f"{_segment(line, found)!r} ({rel}:{number})"
                )
    return None


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
        mark(tmp)  # the next run removes it if this process is killed
        (Path(tmp) / "probe.tex").write_text(doc, encoding="utf-8")
        cmd = ["pdflatex", "-interaction=nonstopmode", "-draftmode", "probe.tex"]
        try:
            subprocess.run(cmd, cwd=tmp, env=environment(), capture_output=True, timeout=120)
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


def environment() -> dict[str, str]:
    """The environment pdflatex runs in: fixed dates, for byte-identical PDFs."""
    return {**os.environ, "SOURCE_DATE_EPOCH": "0", "FORCE_SOURCE_DATE": "1"}
