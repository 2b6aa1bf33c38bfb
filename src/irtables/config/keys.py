"""What each key of ``irtables.toml`` means: the descriptions of the configuration reference.

The parser (:mod:`irtables.config`, :mod:`irtables.config.tables`) decides which keys a
section accepts; :func:`accepted_keys` asks it, section by section, and
:data:`DESCRIPTIONS` says what each key means (:func:`description` reads it; the keys
naming tests and corrections are described by their records). The keys of a table
section, and of the entries of its arrays of tables, are described by its layout's record
(:func:`irtables.config.tables.table_sections`), from which the parser takes them too,
with the type of each value (:func:`key_type`). A test fails when the parser accepts a
key that has no description, or when a description names a key the parser refuses.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from irtables.base.formats import FORMATS
from irtables.base.procedures import corrections_help, help_of_tests, resamples_help

#: The sections of ``irtables.toml`` and, for each, a document that reaches it.
#: ``PROBE`` is put where the probed section's keys go.
PROBE = "__probe__"
_SECTIONS: dict[str, Any] = {
    "": {PROBE: 1},
    "datasets[]": {"datasets": [{PROBE: 1}]},
    "systems[]": {"systems": [{PROBE: 1}]},
    "compare": {"compare": {PROBE: 1}},
    "output": {"output": {PROBE: 1}},
    "compute": {"compute": {PROBE: 1}},
}
_KNOWN = re.compile(r"unknown key '[^']*'(?:; did you mean '[^']*'\?)? \(known: (?P<keys>[^)]*)\)")

#: What each key means, by section (``datasets[]``: an entry of ``[[datasets]]``); the
#: keys of table sections, and of the entries of their arrays of tables
#: (``tables.<name>.groups[]``), are described by their layouts' records.
DESCRIPTIONS: dict[str, dict[str, str | Callable[[], str]]] = {
    "": {
        "datasets": "Display names and order of the datasets, and the qrels and runs of "
        "datasets irtables evaluates itself (`[[datasets]]`).",
        "systems": "Display names and order of the systems (`[[systems]]`).",
        "compare": "The significance tests behind the markers of every table.",
        "output": "Where tables are written and how numbers look.",
        "tables": "Table 1, Table S1, the ablation and any number of configured tables.",
        "compute": "Where runs given as qrels + runs are evaluated (default: this machine).",
    },
    "compute": {
        "scheduler": "The address of a Dask scheduler (tcp://host:8786) whose workers evaluate "
        "the runs (irtables[dask]; `--scheduler` and `IRTABLES_SCHEDULER` override it).",
    },
    "datasets[]": {
        "id": "The dataset as the data names it: its folder name, or the `dataset` column.",
        "name": "The display name in tables and texts (default: the id).",
        "qrels": "Qrels to evaluate the runs with, relative to the configuration file "
        "(compressed files are fine). Needs `runs`.",
        "runs": "Runs to evaluate: a path, a glob pattern or a list of them, relative to "
        "the configuration file; the system is the file name minus its known extensions "
        "(`bm25.run.gz` is `bm25`). Needs `qrels`.",
        "relevance": "The lowest grade counted as relevant by binary measures (trec_eval -l).",
        "depth": "Evaluate only the top N documents of each query (trec_eval -M).",
        "complete": "Average over every judged query, a query the run lacks scoring 0 "
        "(trec_eval -c).",
        "measures": "Measures to evaluate (any spelling; default: what the tables show).",
        "trec_eval": 'Whose semantics apply: "9.0.8" or "10".',
    },
    "systems[]": {
        "id": "The system as the data names it: its file name, or the `system` column.",
        "name": "The display name in tables and texts (default: the id).",
    },
    "compare": {
        "baseline": "The baseline system id, a list of them, or a table "
        '`{dataset = "system"}` naming the baseline(s) of single datasets.',
        "all_pairs": "Compare every pair of systems (letters instead of daggers).",
        "test": help_of_tests,
        "correction": lambda: corrections_help() + " Unset: holm.",
        "family": "Which comparisons one correction spans: metric (each dataset and metric), "
        "dataset, table or all.",
        "alpha": "Significance level, between 0 and 1.",
        "alternative": "two-sided, greater or less.",
        "resamples": resamples_help,
        "seed": "Seed of the resampling tests: the same seed gives the same p-values.",
        "markers": "Show significance markers in the tables.",
        "better": "Marker of a system significantly better than the baseline.",
        "worse": "Marker of a system significantly worse than the baseline.",
        "interval": "The 95% interval of each mean in the cells: none, half-width "
        "(`0.512 ± 0.021`) or bounds (`0.512 [0.491, 0.533]`).",
        "power": "Power (1 − β) the supplement's topic-set-size table plans for.",
        "differences": "Differences of means the topic-set-size table plans topics for.",
        "anova_design": "The ANOVA-based topic-set size: two-way (systems × topics, the "
        "residual variance, as the tests; default) or one-way (Sakai 2016's design as he "
        "defines it: the within-system variance, error df k(n − 1); 3–7× more topics).",
        "zero_method": "Wilcoxon's treatment of zero differences: wilcox (dropped), pratt "
        "(ranked, then dropped) or zsplit (split between the signs), as scipy names them.",
    },
    "output": {
        "dir": "Output folder, relative to the results folder (`-o` overrides).",
        "pvalue_floor": "p-values below it print as `< floor` in the supplement's significance "
        "table and in `\\irtp` of numbers.tex, as journals print them (0 prints them all).",
        "relative_decimals": "Digits after the decimal point of a relative improvement in "
        "percent (`\\irtrel` of numbers.tex, numbers.json), 0 to 4.",
        "formats": f"Formats written: {', '.join(FORMATS)}.",
        "decimals": "Digits after the decimal point (0 to 8).",
        "leading_zero": "false prints .512 instead of 0.512.",
        "second_best": "Underline the second best value (of three distinct values or more).",
        "templates": "A folder of templates overriding the built-in ones (templates are code: "
        "use only folders you trust).",
        "missing": "When systems cover different queries: error, intersect (keep the common "
        "ones) or zero (score missing ones 0).",
        "lower_is_better": "Metrics (any spelling) whose best value is the lowest.",
        "wide": 'LaTeX: "auto" chooses table or table* from the content; true or false forces one.',
        "resize": "LaTeX: always scale the tabular to \\linewidth (needs graphicx).",
        "seeds": "Systems with several runs: mean, or mean_std (mean ± standard deviation).",
        "caption_notes": "Where the notes irtables adds to captions go: full (all in the caption), "
        "short (only those explaining the marks in the cells), footnote (all below the table) "
        "or none; what a caption leaves out is listed in the supplement's methods.",
    },
}


def description(section: str, key: str) -> str:
    """What ``key`` of ``section`` means; generated from the records where they say it
    (the tests and corrections a ``[compare]`` key accepts).

    Examples
    --------
    >>> "dunnett" in description("compare", "test")
    True
    """
    from irtables.config.tables import table_sections

    tables = table_sections()
    if section in tables:
        return tables[section][key].text
    found = DESCRIPTIONS[section][key]
    return found if isinstance(found, str) else found()


def key_type(section: str, key: str) -> str:
    """What the value of ``key`` of ``section`` must be, as its record says (``""``: not
    said; the keys of table sections and their entries say it).

    Examples
    --------
    >>> key_type("tables.<name>.groups[]", "systems"), key_type("output", "decimals")
    ('list of strings', '')
    """
    from irtables.config.tables import table_sections

    found = table_sections().get(section, {}).get(key)
    return found.type if found is not None else ""


def described(section: str) -> set[str]:
    """The keys of ``section`` that have a description (in :data:`DESCRIPTIONS`, or in the
    records of the layouts for a table section)."""
    from irtables.config.tables import table_sections

    found = table_sections().get(section)
    if found is not None:
        return {name for name, key in found.items() if key.text.strip()}
    return set(DESCRIPTIONS.get(section, {}))


def _probe(document: Mapping[str, Any]) -> tuple[str, ...]:
    """The keys the parser accepts where ``PROBE`` stands in ``document``."""
    from irtables.config import parse_config
    from irtables.errors import ConfigError

    try:
        parse_config(document)
    except ConfigError as e:
        match = _KNOWN.search(str(e))
        if match:
            return tuple(match.group("keys").split(", "))
        raise
    raise AssertionError(f"the parser accepted an unknown key in {document!r}")


def accepted_keys() -> dict[str, tuple[str, ...]]:
    """Every section of ``irtables.toml`` and the keys the parser accepts there.

    The table sections' keys are those of their layouts' records, each followed by the
    sections of the entries of its arrays of tables (:func:`~irtables.config.tables.
    table_sections`): each built-in section (``tables.main``) after the sections of the
    file, and ``tables.<name>`` (the keys of every layout; :func:`layout_keys` says which
    layout takes which) last.

    Examples
    --------
    >>> accepted_keys()["compute"]
    ('scheduler',)
    """
    from irtables.config.tables import table_sections

    probed = {section: _probe(doc) for section, doc in _SECTIONS.items()}
    tables = {section: tuple(keys) for section, keys in table_sections().items()}
    return probed | tables


def layout_keys() -> dict[str, tuple[str, ...]]:
    """The keys of a ``[tables.<name>]`` section, per layout of the registry."""
    from irtables.config.tables import LAYOUTS, section_keys

    return {name: tuple(section_keys(layout)) for name, layout in LAYOUTS.items()}


def undescribed_keys() -> list[str]:
    """Keys the parser accepts that have no description (:func:`described`)."""
    return [
        f"{section}.{key}" if section else key
        for section, keys in accepted_keys().items()
        for key in keys
        if key not in described(section)
    ]


def stale_descriptions() -> list[str]:
    """Descriptions in :data:`DESCRIPTIONS` of keys (or sections) the parser does not
    accept (a table section's keys are those its layout's record describes)."""
    accepted = accepted_keys()
    return [
        f"{section}.{key}" if section else key
        for section, keys in DESCRIPTIONS.items()
        for key in keys
        if key not in accepted.get(section, ())
    ]
