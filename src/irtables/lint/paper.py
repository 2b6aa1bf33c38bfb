r"""A paper checked against its results: hand-typed numbers and cited keys.

Pure: the paper's files come in as text, the current numbers as a
:class:`~irtables.tables.citable.Citable`, earlier versions as
:class:`~irtables.output.history.Version`\ s.

What is scanned: the prose, outside comments, ``verbatim``/``lstlisting``/``minted``
and display-math environments, URLs, ``\cite``/``\ref``/``\label``-like arguments,
optional arguments and lengths (``0.48\linewidth``). What is a candidate: a decimal
number (never an integer such as a year or a count), not part of a dotted version
(``3.10.2``) nor a section, table or figure number. It is reported only when it is
written as some key's displayed text is (``0.412``, ``.412``, ``41.2``, ``41.2%``; a
relative improvement ``+12.4%``; a difference with its sign ``+0.034``): equal to a
current value, a warning (cite it instead); equal only to what a key showed in an
earlier version, stale.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Literal

from irtables.tables.citable import Citable, CitedNumber

Kind = Literal["current", "stale", "unknown"]
#: Macro name -> the kind of text it gives.
MACRO_KINDS = {
    "irtnum": "text",
    "irtdelta": "delta",
    "irtrel": "relative",
    "irtp": "p",
    "irtcount": "count",
}

_MACRO = re.compile(r"\\(irtnum|irtdelta|irtrel|irtp|irtcount)\s*\{([^{}]*)\}")
_ENVS = (
    "verbatim", "verbatim*", "lstlisting", "minted", "comment", "Verbatim", "equation",
    "equation*", "align", "align*", "gather", "gather*", "multline", "multline*",
    "eqnarray", "eqnarray*", "displaymath", "math", "filecontents", "filecontents*",
)  # fmt: skip
_ENV = re.compile(
    r"\\begin\{(" + "|".join(re.escape(e) for e in _ENVS) + r")\}.*?\\end\{\1\}", re.S
)
_ARG_COMMANDS = (
    "cite", "citep", "citet", "citealp", "citeauthor", "citeyear", "nocite", "ref", "eqref",
    "autoref", "cref", "Cref", "pageref", "label", "url", "href", "input", "include",
    "subfile", "includegraphics", "usepackage", "documentclass", "bibliography",
    "bibliographystyle", "begin", "end", "hspace", "vspace", "setlength", "addtolength",
    "setcounter", "doi", "path", "includepdf", "newcommand", "renewcommand", "def",
    "irtnum", "irtdelta", "irtrel", "irtp", "irtcount", "fontsize", "linespread",
)  # fmt: skip
_COMMAND_ARG = re.compile(
    r"\\(?:" + "|".join(_ARG_COMMANDS) + r")\*?\s*(?:\[[^\]]*\]\s*)*\{[^{}]*\}"
)
_SKIPPED = (
    re.compile(r"(?<!\\)%.*"),  # comments
    _ENV,
    re.compile(r"\\\[.*?\\\]", re.S),
    re.compile(r"\$\$.*?\$\$", re.S),
    re.compile(r"\\(?:verb|lstinline)\*?(\S).*?\1"),
    _COMMAND_ARG,
    re.compile(r"\[[^\[\]\n]*\]"),  # optional arguments: [width=0.5\linewidth]
    re.compile(r"(?:https?|ftp)://\S+|www\.\S+"),
    re.compile(r"\b(?:doi|arXiv|arxiv):\s*\S+"),
)
_NUMBER = re.compile(
    r"(?<![\w.@/\\])([+\-−]|\$-\$|\\textminus\s?)?([0-9]*\.[0-9]+)(\s*\\?%)?(?![\w.]*[0-9])"
)
_UNIT = re.compile(r"\s*(?:pt|em|ex|cm|mm|in|bp|sp|\\(?:text|line|column|paper)width)\b")
_POINTER = re.compile(
    r"(?:Sec(?:tion|t)?|§|Table|Tab|Fig(?:ure)?|Eq(?:uation)?|Chapter|Ch|Appendix|App|"
    r"Algorithm|Alg|Line|Lemma|Theorem|Definition|Step|Part|Version|v|release|Python|"
    r"version)\.?(?:~|\s|\\ )*$",
    re.I,
)


@dataclass(frozen=True)
class Finding:
    """One flag: ``file:line: message``; ``kind`` current (a warning), stale or unknown
    (errors)."""

    path: str
    line: int
    kind: Kind
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


@dataclass(frozen=True)
class Earlier:
    """What some key showed before: ``texts[kind][key]``, replaced ``until``."""

    texts: Mapping[str, Mapping[str, str]]
    until: str


def blank_ignored(text: str) -> str:
    r"""``text`` with what is never a result blanked out (spaces, line breaks kept).

    Examples
    --------
    >>> blank_ignored("BM25 (k1 = 0.9) % 0.412\nsee \\cite{x1.2}").split("\n")[0]
    'BM25 (k1 = 0.9)        '
    """
    chars = list(text)
    for pattern in _SKIPPED:
        for m in pattern.finditer("".join(chars)):
            for i in range(m.start(), m.end()):
                if chars[i] != "\n":
                    chars[i] = " "
    return "".join(chars)


#: How far around a number the paper is read for the names of its key.
WINDOW = 200
_ASSIGNED = re.compile(
    r"(?:\\[a-zA-Z]+|[α-ωΑ-Ω]|(?<![\w@])[a-zA-Z]{1,2}(?:_?\{?[0-9a-z]{1,2}\}?)?)"
    r"\s*\$?\s*(?:=|:=|\\approx|\\leq?|\\geq?|<|>|≤|≥)\s*\$?\s*$"
)


@dataclass(frozen=True)
class _Candidate:
    key: str
    kind: str  # text, delta, relative
    text: str
    needs_names: bool  # a percent form: only with a name of its key nearby


def _forms(text: str, kind: str) -> dict[str, bool]:
    """The ways a paper may write a displayed number (``text``, as numbers.json or a
    table has it), each with whether it needs a name of its key nearby (a percent)."""
    bare = text.replace("−", "-").split(" ")[0]
    sign = bare[0] if bare[:1] in "+-" else ""
    digits = bare.lstrip("+-").rstrip("%")
    try:
        value = Decimal(digits)
    except InvalidOperation:
        return {}
    if "." not in digits:
        return {}
    if kind == "relative":
        return {f"{sign}{digits}%": True, f"{digits}%": True}
    if abs(value) < Decimal("0.01"):  # 0.006 and the like: learning rates, not results
        return {}
    direct = {sign + digits: False, sign + _leading(digits): False}
    if kind == "delta":
        return direct if sign else {}
    if sign or not digits.startswith(("0.", ".")):
        return direct
    scaled = f"{value * 100:f}"
    direct[scaled + "%"] = True
    if len(scaled.replace(".", "").lstrip("0")) >= 3:  # 41.2, not 3.2 (a section?)
        direct[scaled] = True
    return direct


def _leading(digits: str) -> str:
    if digits.startswith("0."):
        return digits[1:]
    if digits.startswith("."):
        return "0" + digits
    return digits


def _index(texts: Mapping[str, Mapping[str, str]]) -> dict[str, list[_Candidate]]:
    """form -> candidates, over ``texts[kind][key]``."""
    index: dict[str, list[_Candidate]] = {}
    for kind, by_key in texts.items():
        for key, text in by_key.items():
            for form, needs in _forms(text, kind).items():
                index.setdefault(form, []).append(_Candidate(key, kind, text, needs))
    return index


def _current_texts(n: CitedNumber) -> dict[str, str]:
    out = {"text": n.number.text}
    if n.delta is not None:
        out["delta"] = n.delta.text
    if n.relative is not None:
        out["relative"] = n.relative.text
    return out


def _texts(citable: Citable) -> dict[str, dict[str, str]]:
    texts: dict[str, dict[str, str]] = {"text": {}, "delta": {}, "relative": {}}
    for n in citable.numbers:
        for kind, text in _current_texts(n).items():
            texts[kind][n.key] = text
    return texts


def check_paper(
    sources: Sequence[tuple[str, str]],
    current: Citable,
    earlier: Sequence[Earlier] = (),
) -> list[Finding]:
    """Every hand-typed result and unknown key in ``sources`` (path, text), in order."""
    by_key = current.by_key()
    now = _index(_texts(current))
    before = [(_index(v.texts), v.until) for v in reversed(earlier)]  # newest first
    counts = {c.key for c in current.counts}
    findings: list[Finding] = []
    for path, text in sources:
        findings += _unknown_keys(path, text, by_key, counts)
        plain = blank_ignored(text)
        for m in _NUMBER.finditer(plain):
            if _not_a_result(plain, m):
                continue
            typed = _typed(m)
            line = text.count("\n", 0, m.start()) + 1
            near = plain[max(0, m.start() - WINDOW) : m.end() + WINDOW].casefold()
            found = _named(now.get(typed, []), near, by_key)
            if found:
                best = found[0]
                macro = _MACROS[best.kind]
                message = f"{typed} is {best.key}; cite it as {macro}{{{best.key}}}"
                findings.append(Finding(path, line, "current", message))
                continue
            stale = _stale(typed, before, by_key, near)
            if stale is not None:
                findings.append(Finding(path, line, "stale", stale))
    order = {path: i for i, (path, _) in enumerate(sources)}
    return sorted(findings, key=lambda f: (order[f.path], f.line))


_MACROS = {"text": "\\irtnum", "delta": "\\irtdelta", "relative": "\\irtrel"}


def _named(
    candidates: Sequence[_Candidate], near: str, by_key: Mapping[str, CitedNumber]
) -> list[_Candidate]:
    """The candidates that may be meant, those whose names the text around mentions most
    first; a percent form only with at least one of its names nearby."""
    scored = [(_mentions(by_key.get(c.key), near), i, c) for i, c in enumerate(candidates)]
    kept = [(score, i, c) for score, i, c in scored if score > 0 or not c.needs_names]
    return [c for _, _, c in sorted(kept, key=lambda t: (-t[0], t[1]))]


def _typed(m: re.Match[str]) -> str:
    sign = m.group(1) or ""
    sign = "+" if sign == "+" else "-" if sign else ""
    return sign + m.group(2) + ("%" if m.group(3) else "")


def _not_a_result(plain: str, m: re.Match[str]) -> bool:
    after = plain[m.end() : m.end() + 20]
    if _UNIT.match(after) and not m.group(3):
        return True
    before = plain[max(0, m.start() - 30) : m.start()]
    return _POINTER.search(before) is not None or _ASSIGNED.search(before) is not None


def _stale(
    typed: str,
    before: Sequence[tuple[Mapping[str, Sequence[_Candidate]], str]],
    by_key: Mapping[str, CitedNumber],
    near: str,
) -> str | None:
    """The message for ``typed`` if some key showed it in an earlier version (newest
    first) and shows something else now."""
    for index, until in before:
        for c in _named(index.get(typed, []), near, by_key):
            n = by_key.get(c.key)
            now = None if n is None else _current_texts(n).get(c.kind)
            if now is not None and typed in _forms(now, c.kind):
                continue
            shown = "no longer in the tables" if now is None else now.replace("−", "-")
            return f"{typed} was {c.key} until {until}, now {shown}"
    return None


def _mentions(n: CitedNumber | None, near: str) -> int:
    """How many of the names of ``n`` (system, dataset, metric; name or id) ``near``
    (case-folded) holds."""
    if n is None:
        return 0
    names = (n.system_name, n.system, n.dataset_name, n.dataset, n.metric_label, n.metric)
    return sum(1 for name in dict.fromkeys(x.casefold() for x in names if x) if name in near)


def _unknown_keys(
    path: str, text: str, by_key: Mapping[str, CitedNumber], counts: set[str]
) -> list[Finding]:
    out = []
    comments = re.compile(r"(?<!\\)%.*")
    plain = comments.sub(lambda m: " " * len(m.group(0)), text)
    for m in _MACRO.finditer(plain):
        macro, key = m.group(1), m.group(2).strip()
        kind = MACRO_KINDS[macro]
        if kind == "count":
            ok = key in counts
            known: Iterable[str] = counts
        else:
            n = by_key.get(key)
            ok = n is not None and (kind == "text" or kind in _defined(n))
            known = by_key
        if not ok:
            close = difflib.get_close_matches(key, list(known), n=1)
            hint = f"; did you mean {close[0]}?" if close else ""
            line = text.count("\n", 0, m.start()) + 1
            findings = Finding(path, line, "unknown", f"\\{macro}{{{key}}}: no such key{hint}")
            out.append(findings)
    return out


def _defined(n: CitedNumber) -> set[str]:
    kinds = set()
    for kind, shown in (("delta", n.delta), ("relative", n.relative), ("p", n.p)):
        if shown is not None:
            kinds.add(kind)
    return kinds


def earlier_of(citable: Citable, until: str) -> Earlier:
    """``citable`` (a study's numbers as another revision had them) as an earlier version."""
    return Earlier(_texts(citable), until)


__all__ = ["MACRO_KINDS", "Earlier", "Finding", "blank_ignored", "check_paper", "earlier_of"]
