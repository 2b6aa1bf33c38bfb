"""The procedures that control the family-wise error themselves, as comparisons: the
all-pairs procedures (Tukey HSD, randomised Tukey HSD) and the many-to-one (Dunnett).

:func:`~irtables.stats.compare` runs one procedure per (dataset, metric) over the
systems of that dataset, then reads the requested pairs out of it. Each pair becomes a
:class:`~irtables.stats.PairedTestResult` whose ``pvalue`` is the pair's own p-value and
``pvalue_adjusted`` the procedure's simultaneous one (``correction`` names the
procedure), so tables, reports and letters treat them like any corrected test.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from irtables.base.procedures import TESTS as TEST_RECORDS
from irtables.errors import InputError, UnknownNameError, unknown_name_message
from irtables.model import Aligned
from irtables.stats.allpairs import AllPairsResult
from irtables.stats.effect import cohens_dz, es_e_interval
from irtables.stats.randomized_tukey import randomized_tukey_many
from irtables.stats.result import PairedTestResult

AllPairsTest = Callable[..., AllPairsResult]
AllPairsMany = Callable[..., list[AllPairsResult]]

#: The built-in procedures that control the family-wise error themselves, by name, from
#: their records (:data:`irtables.base.procedures.TESTS`, the registry the code reads):
#: the all-pairs procedures, then the many-to-one (Dunnett, against each baseline).
ALL_PAIRS_TESTS: dict[str, AllPairsTest] = {
    r.id: r.load() for r in TEST_RECORDS.values() if r.procedure
}


#: All-pairs procedures that run several matrices of one shape together: the randomised
#: Tukey HSD draws and looks up its permutations once for all of them.
SHARED_PROCEDURES: dict[str, AllPairsMany] = {"randomized-tukey": randomized_tukey_many}


def shared_runs(
    test: str,
    matrices: Sequence[Aligned],
    *,
    rng: np.random.Generator | int,
    options: Mapping[str, Any],
    sizes: Sequence[int] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[int, AllPairsResult]:
    """The results of a procedure of :data:`SHARED_PROCEDURES`, by position in
    ``matrices`` (one run per shape and systems); empty for the other procedures.

    Only with a seed (an int ``rng``): then each result is the one the procedure gives
    that matrix alone with that seed, as :func:`run_all_pairs` would compute it.
    ``progress(done, total)`` counts in ``sizes`` (the pairs of each matrix).
    """
    many = SHARED_PROCEDURES.get(test)
    if many is None or isinstance(rng, np.random.Generator):
        return {}
    groups: dict[tuple[tuple[int, ...], tuple[str, ...]], list[int]] = {}
    for i, aligned in enumerate(matrices):
        if aligned.queries:
            groups.setdefault((aligned.values.shape, aligned.systems), []).append(i)
    weights = list(sizes) if sizes is not None else [1] * len(matrices)
    total = sum(weights[i] for members in groups.values() for i in members)
    out: dict[int, AllPairsResult] = {}
    done = 0
    for (_, systems), members in groups.items():
        weight = sum(weights[i] for i in members)

        def report(d: int, n: int, base: int = done, weight: int = weight) -> None:
            if progress is not None:
                progress(base + weight * d // n, total)

        values = [matrices[i].values for i in members]
        found = many(values, systems, rng=rng, progress=report, **options)
        out.update(zip(members, found, strict=True))
        done += weight
    return out


def check_all_pairs_options(
    test: str, correction: str | None, family: str, alternative: str, options: Mapping[str, Any]
) -> dict[str, Any]:
    """Refuse settings that do not apply to an all-pairs procedure; return its options."""
    if correction is not None:
        raise InputError(
            f"test {test} controls the family-wise error over all pairs itself; "
            f"a correction ({correction}) does not apply (leave it unset)"
        )
    if family != "metric":
        raise InputError(
            f"test {test} compares the systems of one dataset and metric at once; "
            f"family must be 'metric', got {family!r}"
        )
    record = TEST_RECORDS[test]
    if alternative != "two-sided" and record.kind != "many-to-one":
        raise InputError(f"test {test} is two-sided; got alternative {alternative!r}")
    reserved = ("rng", "progress", "level", "baseline", "alternative")
    return check_options(test, record.load(), options, reserved=reserved)


def check_options(
    test: str, func: Callable[..., Any], options: Mapping[str, Any], *, reserved: Sequence[str]
) -> dict[str, Any]:
    """``options`` as keyword arguments of ``func``: each must be one of its keyword-only
    parameters, except ``reserved`` (those the caller sets itself)."""
    params = inspect.signature(func).parameters
    known = [p for p in params if params[p].kind is inspect.Parameter.KEYWORD_ONLY]
    known = [p for p in known if p not in reserved]
    for name in options:
        if name not in known:
            raise UnknownNameError(unknown_name_message(f"option of test {test}", name, known))
    return dict(options)


def run_all_pairs(
    test: str,
    dataset: str,
    metric: str,
    aligned: Aligned,
    pairs: Sequence[tuple[str, str]],
    *,
    rng: np.random.Generator | int,
    options: Mapping[str, Any],
    alternative: str = "two-sided",
    result: AllPairsResult | None = None,
) -> list[PairedTestResult]:
    """One procedure over every system of ``aligned`` (a many-to-one procedure: one per
    baseline); the results of ``pairs`` (system, base). ``result``: that of an
    all-pairs procedure already run on ``aligned`` (by :func:`shared_runs`)."""
    if not aligned.queries:
        raise InputError(f"no paired queries to test in dataset {dataset}")
    record = TEST_RECORDS[test]
    run = record.load()
    many_to_one = record.kind == "many-to-one"
    kwargs = dict(options)
    if record.resampled:
        kwargs["rng"] = rng
    found: dict[str, AllPairsResult] = {}
    if result is not None and not many_to_one:
        found = dict.fromkeys((b for _, b in pairs), result)
    for _, base in pairs:
        if base in found:
            continue
        if many_to_one:
            kwargs.update(baseline=base, alternative=alternative)
        found[base] = run(aligned.values, aligned.systems, **kwargs)
        if not many_to_one:
            found = dict.fromkeys((b for _, b in pairs), found[base])
    out = []
    for system, base in pairs:
        result = found[base]
        size = len(result.pairs)
        pair = result.pair(system, base)
        d = aligned.column(system) - aligned.column(base)
        out.append(
            PairedTestResult(
                test=test,
                method=result.method,
                n=result.n,
                mean_diff=pair.mean_diff,
                statistic=pair.statistic,
                pvalue=pair.pvalue_raw,
                system_mean=float(np.mean(aligned.column(system))),
                baseline_mean=float(np.mean(aligned.column(base))),
                alternative=alternative,
                ci=pair.ci,
                effect_size=cohens_dz(d),
                pvalue_adjusted=pair.pvalue,
                correction=test,
                family="metric",
                family_size=size,
                dataset=dataset,
                metric=metric,
                system=system,
                baseline=base,
                dropped=aligned.dropped,
                effect_size_e=pair.effect_size,
                effect_size_e_ci=(
                    None
                    if pair.effect_size is None
                    else es_e_interval(pair.ci, result.residual_variance)
                ),
            )
        )
    return out
