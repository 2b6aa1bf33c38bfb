r"""The citable numbers as files: ``numbers.tex`` (LaTeX macros) and ``numbers.json``.

``numbers.tex`` defines, with nothing but the LaTeX kernel (it loads in article,
acmart, llncs and IEEEtran alike)::

    \irtnum{KEY}     the number as its table cell shows it
    \irtdelta{KEY}   its difference from the table's baseline, signed
    \irtrel{KEY}     the relative improvement over the baseline in percent, signed
    \irtp{KEY}       the p-value of the test behind the cell's marker
    \irtcount{KEY}   a count: DATASET/topics, DATASET/systems

A key is read verbatim (``\detokenize``), so ``_``, ``=``, ``@``, ``.`` and ``-`` need no
escaping; an unknown key stops pdflatex with an error naming it. The values are
typeset as the table cells are (:func:`irtables.render.numbers.typeset`, then
:func:`irtables.render.escape.escape_latex`): the same minus sign, the same ``±``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from irtables.base.header import header_line
from irtables.render.escape import escape_latex
from irtables.render.numbers import typeset
from irtables.tables.citable import COUNT_GRAMMAR, KEY_GRAMMAR, Citable, CitedNumber, Shown

#: The file names, written beside the tables.
NUMBERS_JSON = "numbers.json"
NUMBERS_TEX = "numbers.tex"

#: The macros numbers.tex defines: name -> what it gives.
MACROS: dict[str, str] = {
    "irtnum": "the number exactly as its table cell shows it (rounding, digits, ± of seeds, "
    "minus sign), without bold or markers",
    "irtdelta": "its difference from the table's baseline (an ablation row: from its "
    "group's full model), on the displayed values, signed",
    "irtrel": "the relative improvement over that baseline in percent, signed, with "
    "output.relative_decimals decimals (one by default)",
    "irtp": "the p-value of the test behind the cell's marker, as the significance report "
    "shows it (< 0.001 below output.pvalue_floor)",
    "irtcount": "a count the captions and methods state: DATASET/topics, DATASET/systems",
}

#: The fields of each entry of numbers.json's "numbers" (the reference page lists them).
JSON_FIELDS: dict[str, str] = {
    "text": "the number as its cell shows it (typographic minus, ± of seeds)",
    "value": "the unrounded mean",
    "table, title": "the table's file stem and its title (Table 1, Table S2)",
    "dataset, system, metric": "the ids of the key",
    "measure": "the canonical name of the measure the value is of (`P(rel=2)@10` in a "
    "column of P@10 on a dataset with a relevance threshold; null for an average)",
    "dataset_name, system_name, metric_label": "the display names the tables use",
    "cell": "where the number is: its row group, row, column group and column labels",
    "baseline": "the system the difference is from (absent without one)",
    "delta, relative, p": "each {text, value}: the difference from the baseline, the "
    "relative improvement in percent and the p-value (absent when the table has none)",
}

_PREAMBLE = r"""\makeatletter
\def\irt@get#1#2{\@ifundefined{irt@#1@\detokenize{#2}}%
  {\PackageError{irtables}{unknown key \detokenize{#2} for \string\irt#1}%
    {numbers.tex has no such key: check its spelling, or rerun irtables tables.}}%
  {\@nameuse{irt@#1@\detokenize{#2}}}}
\def\irt@set#1#2{\expandafter\def\csname irt@#1@\detokenize{#2}\endcsname}
\DeclareRobustCommand\irtnum[1]{\irt@get{num}{#1}}
\DeclareRobustCommand\irtdelta[1]{\irt@get{delta}{#1}}
\DeclareRobustCommand\irtrel[1]{\irt@get{rel}{#1}}
\DeclareRobustCommand\irtp[1]{\irt@get{p}{#1}}
\DeclareRobustCommand\irtcount[1]{\irt@get{count}{#1}}
"""


def latex_number(text: str) -> str:
    r"""A displayed number as LaTeX, typeset as the table cells typeset theirs.

    Examples
    --------
    >>> latex_number("-0.034"), latex_number("0.512 ± 0.010"), latex_number("+12.4%")
    ('$-$0.034', '0.512 $\\pm$ 0.010', '+12.4\\%')
    """
    return escape_latex(typeset(text))


#: Characters a key cannot hold in LaTeX: a comment, a parameter, braces, a command.
UNCITABLE = frozenset("%#{}\\\n\r")


def numbers_latex(citable: Citable) -> str:
    """``numbers.tex``: the macros and one definition per key and kind (a key holding one
    of :data:`UNCITABLE` is left out, and counted in a comment: numbers.json has it)."""
    lines = [header_line("%"), f"% keys: {KEY_GRAMMAR}; counts: {COUNT_GRAMMAR}", _PREAMBLE]
    keys = citable.by_key()
    left_out = {k for k in keys if UNCITABLE & set(k)}
    if left_out:
        lines.insert(2, f"% {len(left_out)} keys hold % # {{ }} or a backslash: see numbers.json")
    for key, n in keys.items():
        if key in left_out:
            continue
        lines.append(_define("num", key, n.number))
        for kind, shown in (("delta", n.delta), ("rel", n.relative), ("p", n.p)):
            if shown is not None:
                lines.append(_define(kind, key, shown))
    for c in citable.counts:
        if not UNCITABLE & set(c.key):
            lines.append(_define("count", c.key, Shown(str(c.value), float(c.value))))
    lines.append("\\makeatother")
    return "\n".join(lines) + "\n"


def _define(kind: str, key: str, shown: Shown) -> str:
    return f"\\irt@set{{{kind}}}{{{key}}}{{{latex_number(shown.text)}}}"


def numbers_json(citable: Citable) -> str:
    """``numbers.json``: every key -> its text (as displayed), value (full precision),
    ids, display names, table and cell; byte-stable (keys in table order)."""
    data = {
        "about": f"Every number the tables show; keys: {KEY_GRAMMAR}. Generated by "
        "irtables; rerun irtables instead of editing.",
        "numbers": {n.key: _number_entry(n) for n in citable.numbers},
        "counts": {
            c.key: {
                "text": str(c.value),
                "value": c.value,
                "dataset": c.dataset,
                "dataset_name": c.dataset_name,
                "count": c.what,
            }
            for c in citable.counts
        },
    }
    return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def _shown(shown: Shown | None) -> dict[str, Any] | None:
    if shown is None:
        return None
    return {"text": typeset(shown.text), "value": _finite(shown.value)}


def _finite(value: float) -> float | None:
    return value if value == value and abs(value) != float("inf") else None


def _number_entry(n: CitedNumber) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "text": typeset(n.number.text),
        "value": _finite(n.number.value),
        "table": n.table,
        "title": n.title,
        "dataset": n.dataset,
        "system": n.system,
        "metric": n.metric,
        "measure": n.measure,
        "dataset_name": n.dataset_name,
        "system_name": n.system_name,
        "metric_label": n.metric_label,
        "cell": {
            "group": n.group,
            "row": n.row,
            "column_group": n.column_group,
            "column": n.column,
        },
    }
    if n.baseline is not None:
        entry["baseline"] = n.baseline
    for name, shown in (("delta", n.delta), ("relative", n.relative), ("p", n.p)):
        if shown is not None:
            entry[name] = _shown(shown)
    return entry


def numbers_files(citable: Citable, formats: Sequence[str]) -> dict[str, str]:
    """``numbers.json`` always, ``numbers.tex`` with the LaTeX format: name -> text."""
    files = {NUMBERS_JSON: numbers_json(citable)}
    if "latex" in formats:
        files[NUMBERS_TEX] = numbers_latex(citable)
    return files


__all__ = [
    "JSON_FIELDS",
    "MACROS",
    "NUMBERS_JSON",
    "NUMBERS_TEX",
    "latex_number",
    "numbers_files",
    "numbers_json",
    "numbers_latex",
]
