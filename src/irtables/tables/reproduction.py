"""The ``reproduction`` table: the rows of :mod:`irtables.stats.reproduce` as displayed cells.

One display row per :class:`~irtables.stats.reproduce.ReproductionRow`; values with
three decimals (p-values too), an undefined value (NaN) as an en dash, a measure that
does not apply as an empty cell. The caption says what each column measures.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from irtables.base.repro_defaults import RBO_DEPTH, RBO_P
from irtables.stats.reproduce import ReproductionRow

#: Display headers of the value columns, by ReproductionRow field.
VALUE_HEADERS: dict[str, str] = {
    "ktu": "KTU",
    "rbo": "RBO",
    "rmse": "RMSE",
    "nrmse": "nRMSE",
    "er": "ER",
    "delta_ri": "ΔRI",
    "pvalue": "p",
    "original_mean": "Orig.",
    "reproduced_mean": "Repr.",
}
STUB_HEADERS: tuple[str, ...] = ("Reproduction", "Kind", "System", "Measure")
KIND_LABELS = {"reproducibility": "rpd", "replicability": "rpl"}
UNDEFINED = "–"


@dataclass(frozen=True)
class ReproductionTable:
    """Display cells of a reproduction table: ``stub`` and ``values`` per body row."""

    caption: str
    label: str
    stub_headers: tuple[str, ...]
    value_headers: tuple[str, ...]
    body: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]


def cell(value: float | None, digits: int = 3) -> str:
    """A value as displayed: fixed decimals, NaN as an en dash, None as empty."""
    if value is None:
        return ""
    if math.isnan(value):
        return UNDEFINED
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    return f"{value:.{digits}f}"


def reproduction_table(
    rows: Sequence[ReproductionRow],
    *,
    original: str,
    label: str = "tab:reproduction",
    rbo_p: float = RBO_P,
    rbo_depth: int = RBO_DEPTH,
    caption: str | None = None,
) -> ReproductionTable:
    """Display the rows of one or more reproductions of ``original``; ``caption`` (the
    user's) comes before what the numbers are."""
    fields = tuple(VALUE_HEADERS)
    body = []
    for r in rows:
        measure = r.measure if r.measure else f"top {r.cutoff}"
        stub = (r.reproduction, KIND_LABELS[r.kind], r.system, measure)
        body.append((stub, tuple(cell(getattr(r, f)) for f in fields)))
    kinds = {r.kind for r in rows}
    tests = []
    if "reproducibility" in kinds:
        tests.append("paired (rpd: same collection and qrels)")
    if "replicability" in kinds:
        tests.append("unpaired Student (rpl: another collection)")
    generated = (
        f"Reproductions of {original}, measured as Breuer et al. (SIGIR 2020) and "
        f"repro_eval 0.5.0 do. KTU: Kendall's tau Union and RBO: rank-biased overlap "
        f"(p = {rbo_p:g}, depth {rbo_depth}) of the document orderings of the top k "
        "documents, means over topics; RMSE and nRMSE of the per-topic values; ER: effect "
        "ratio and ΔRI: delta relative improvement of the advanced over the baseline "
        f"system (in the advanced system's rows; success: ER near 1, ΔRI near 0); p: "
        f"two-sided t-test of original against reproduced values, {' or '.join(tests)}; "
        "Orig., Repr.: means over topics. – undefined."
    )
    caption = f"{caption.rstrip()} {generated}" if caption else generated
    return ReproductionTable(
        caption=caption,
        label=label,
        stub_headers=STUB_HEADERS,
        value_headers=tuple(VALUE_HEADERS.values()),
        body=tuple(body),
    )


def build_in_study(config: object, spec: object, means: object, **_: object) -> list[object]:
    """The builder of the ``reproduction`` layout's record: no table from the means.

    A reproduction table needs the runs themselves (document orderings, per-topic values
    of both sides), not the means the other layouts take: ``irtables tables`` builds it
    from the evaluated datasets (:func:`irtables.study.reproduction.configured_rows`).
    """
    del config, spec, means
    return []
