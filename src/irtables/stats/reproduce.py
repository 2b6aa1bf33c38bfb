"""Reproducibility and replicability measures as repro_eval 0.5.0 computes them.

The framework is Breuer et al., "How to Measure the Reproducibility of System-oriented
IR Experiments" (SIGIR 2020); the reference implementation is repro_eval 0.5.0
(irgroup/repro_eval, commit 63b5d8c). Every number here equals repro_eval's on the
data of ``tests/data/repro`` to 1e-9. Definitions, with repro_eval's choices:

Document order (KTU, RBO): :mod:`irtables.stats.document_order`.

Effectiveness (reproducibility), per measure, over the topics of the original run:
RMSE of the per-topic differences, and nRMSE, RMSE divided by the largest RMSE the
original values allow (``max(x, 1 - x)`` per topic).

Overall effects of an advanced run over a baseline (both kinds): the Effect Ratio
``ER = mean(rep_adv - rep_base) / mean(orig_adv - orig_base)`` and the Delta Relative
Improvement ``DeltaRI = RI_orig - RI_rep`` with ``RI = (mean_adv - mean_base) /
mean_base``, means over each side's own topics. A reproduction succeeds as ER
approaches 1 and DeltaRI 0.

A two-sided t-test of original against reproduced values per system and measure:
paired (scipy ``ttest_rel``) for reproducibility, unpaired Student (``ttest_ind``,
equal variances, as repro_eval) for replicability. When every measure's p-value of a
system is undefined (NaN) and the values are identical, p = 1.0, as repro_eval does.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from irtables.errors import InputError
from irtables.stats.document_order import OrderAgreement

FloatArray = npt.NDArray[np.float64]
Kind = Literal["reproducibility", "replicability"]
KINDS: tuple[Kind, ...] = ("reproducibility", "replicability")


@dataclass(frozen=True)
class TopicValues:
    """Per-topic values of one run: ``values[measure][i]`` is topic ``topics[i]``'s."""

    topics: tuple[str, ...]
    values: Mapping[str, FloatArray]


@dataclass(frozen=True)
class ReproductionRow:
    """One row of a reproduction table (a CSV row; ``None`` is an empty cell).

    Rows with a ``cutoff`` and no ``measure`` hold KTU and RBO; rows with a ``measure``
    hold the rest. ER and DeltaRI are in the rows of the advanced system.
    """

    reproduction: str
    kind: Kind
    system: str
    measure: str
    cutoff: int | None = None
    ktu: float | None = None
    rbo: float | None = None
    rmse: float | None = None
    nrmse: float | None = None
    er: float | None = None
    delta_ri: float | None = None
    pvalue: float | None = None
    original_mean: float | None = None
    reproduced_mean: float | None = None


#: The CSV columns of a reproduction table, in order (the fields of ReproductionRow).
COLUMNS: tuple[str, ...] = tuple(ReproductionRow.__dataclass_fields__)


def rmse(original: FloatArray, reproduced: FloatArray) -> float:
    """Root mean square error of the per-topic differences (topics aligned)."""
    return math.sqrt(float(np.mean(np.square(original - reproduced))))


def nrmse(original: FloatArray, reproduced: FloatArray) -> float:
    """RMSE over the largest RMSE the original values allow, ``max(x, 1 - x)`` per topic."""
    worst = math.sqrt(float(np.mean(np.square(np.maximum(original, 1.0 - original)))))
    return rmse(original, reproduced) / worst if worst else math.nan


def effect_ratio(
    orig_base: FloatArray, orig_adv: FloatArray, rep_base: FloatArray, rep_adv: FloatArray
) -> float:
    """ER: the reproduced mean per-topic improvement over the original one."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(
            np.float64(np.mean(rep_adv - rep_base)) / np.float64(np.mean(orig_adv - orig_base))
        )


def delta_ri(
    orig_base: FloatArray, orig_adv: FloatArray, rep_base: FloatArray, rep_adv: FloatArray
) -> float:
    """DeltaRI: the original relative improvement of the means minus the reproduced one."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ri_orig = (np.mean(orig_adv) - np.mean(orig_base)) / np.mean(orig_base)
        ri_rep = (np.mean(rep_adv) - np.mean(rep_base)) / np.mean(rep_base)
    return float(ri_orig - ri_rep)


def ttest_pvalue(original: FloatArray, reproduced: FloatArray, *, paired: bool) -> float:
    """Two-sided p-value of scipy's paired or (Student) unpaired t-test, as repro_eval."""
    import warnings

    from scipy.stats import ttest_ind, ttest_rel

    with warnings.catch_warnings(), np.errstate(divide="ignore", invalid="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        test = ttest_rel if paired else ttest_ind
        return float(test(original, reproduced).pvalue)


def reproduction_rows(
    name: str,
    kind: Kind,
    original: Mapping[str, TopicValues],
    reproduced: Mapping[str, TopicValues],
    *,
    pairs: Sequence[tuple[str, str]],
    metrics: Sequence[str],
    systems: Sequence[str] = (),
    order: Mapping[str, OrderAgreement] | None = None,
) -> list[ReproductionRow]:
    """The rows of one reproduction: per system (``systems``, then those of ``pairs``,
    baselines first, each once), KTU and RBO per cutoff (reproducibility, from
    ``order``) then one row per measure of ``metrics``.

    ``original`` and ``reproduced`` map system ids to their per-topic values. In a
    reproducibility study a system's topics must be the same on both sides (the tests
    are paired); within a side, a baseline and its advanced system must share topics.
    """
    if kind not in KINDS:
        raise InputError(f"unknown reproduction kind {kind!r}; expected one of {', '.join(KINDS)}")
    systems = list(dict.fromkeys([*systems, *(b for b, _ in pairs), *(a for _, a in pairs)]))
    for system in systems:
        for side, label in ((original, "original"), (reproduced, f"reproduction {name!r}")):
            if system not in side:
                raise InputError(
                    f"system {system!r} is not in the {label}; expected every system of the "
                    f"pairs in the original and each reproduction ({', '.join(sorted(side))})"
                )
            missing = [m for m in metrics if m not in side[system].values]
            if missing:
                raise InputError(
                    f"measure {missing[0]!r} of system {system!r} is not in the {label}"
                )
        if kind == "reproducibility":
            _check_paired(name, system, original[system], reproduced[system])
    for base, adv in pairs:
        for side, label in ((original, "original"), (reproduced, f"reproduction {name!r}")):
            if side[base].topics != side[adv].topics:
                raise InputError(
                    f"baseline {base!r} and advanced system {adv!r} of the {label} have "
                    "different topics; expected the same topics for both"
                )
    advanced_of = {a: b for b, a in pairs}
    paired = kind == "reproducibility"
    rows: list[ReproductionRow] = []
    for system in systems:
        o, r = original[system], reproduced[system]
        if paired and order is not None and system in order:
            agreement = order[system]
            for k, ktu, rbo in zip(
                agreement.cutoffs, agreement.mean_ktu(), agreement.mean_rbo(), strict=True
            ):
                rows.append(
                    ReproductionRow(name, kind, system, "", k, ktu=float(ktu), rbo=float(rbo))
                )
        pvalues = {m: ttest_pvalue(o.values[m], r.values[m], paired=paired) for m in metrics}
        if all(math.isnan(p) for p in pvalues.values()) and _identical(o, r, metrics):
            pvalues = dict.fromkeys(pvalues, 1.0)
        for m in metrics:
            ov, rv = o.values[m], r.values[m]
            er = dri = None
            if system in advanced_of:
                base = advanced_of[system]
                args = (original[base].values[m], ov, reproduced[base].values[m], rv)
                er, dri = effect_ratio(*args), delta_ri(*args)
            rows.append(
                ReproductionRow(
                    name,
                    kind,
                    system,
                    m,
                    rmse=rmse(ov, rv) if paired else None,
                    nrmse=nrmse(ov, rv) if paired else None,
                    er=er,
                    delta_ri=dri,
                    pvalue=pvalues[m],
                    original_mean=float(np.mean(ov)),
                    reproduced_mean=float(np.mean(rv)),
                )
            )
    return rows


def _check_paired(name: str, system: str, o: TopicValues, r: TopicValues) -> None:
    if o.topics == r.topics:
        return
    only_o = sorted(set(o.topics) - set(r.topics))
    only_r = sorted(set(r.topics) - set(o.topics))
    where = f"topics {', '.join(only_o[:5])} only in the original" if only_o else ""
    if only_r:
        where += ("; " if where else "") + f"topics {', '.join(only_r[:5])} only in {name!r}"
    raise InputError(
        f"system {system!r}: {where or 'topics in another order'}; a reproducibility study "
        "compares the same topics (paired), expected the same evaluated topics on both sides"
    )


def _identical(o: TopicValues, r: TopicValues, metrics: Sequence[str]) -> bool:
    return o.topics == r.topics and all(np.array_equal(o.values[m], r.values[m]) for m in metrics)


def topic_values(frame: object, dataset: str) -> dict[str, TopicValues]:
    """Per-topic values of every system of ``dataset`` in a ResultSet's frame, topics sorted."""
    import pandas as pd

    assert isinstance(frame, pd.DataFrame)
    sub = frame[frame["dataset"] == dataset]
    out: dict[str, TopicValues] = {}
    for system, part in sub.groupby("system", observed=True, sort=False):
        wide = part.pivot_table(index="query", columns="metric", values="value", observed=True)
        wide = wide.sort_index()
        wide.index = wide.index.astype(str)
        out[str(system)] = TopicValues(
            tuple(wide.index),
            {str(m): wide[m].to_numpy(dtype=np.float64) for m in wide.columns},
        )
    return out
