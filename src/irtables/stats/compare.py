"""Compare systems over the same queries: run paired tests, then correct per family."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from irtables.errors import InputError, UnknownNameError, unknown_name_message
from irtables.model.policy import MISSING_POLICIES, MissingPolicy
from irtables.stats.comparisons import Comparisons
from irtables.stats.correction import CORRECTIONS, adjust
from irtables.stats.paired import (
    ALTERNATIVES,
    TESTS,
    bootstrap_many,
    check_alternative,
    get_test,
    randomization_many,
)
from irtables.stats.result import PairedTestResult
from irtables.stats.vectorised import t_test_many

if TYPE_CHECKING:
    from irtables.model import Aligned, ResultSet

Progress = Callable[[int, int], None]
FamilyKey = Callable[[PairedTestResult], Hashable]

#: How results are grouped into families for the multiple-testing correction.
#: ``metric``: per (dataset, metric) across systems and baselines (default);
#: ``dataset``: per dataset across metrics; ``table`` and ``all``: every comparison of one
#: :func:`compare` call (build a table from one call). A callable key is also accepted.
FAMILIES: dict[str, FamilyKey] = {
    "metric": lambda r: (r.dataset, r.metric),
    "dataset": lambda r: r.dataset,
    "table": lambda r: (),
    "all": lambda r: (),
}
_BATCHED: dict[str, Callable[..., list[PairedTestResult]]] = {
    "t": t_test_many,
    "randomization": randomization_many,
    "bootstrap": bootstrap_many,
}


@dataclass(frozen=True)
class _Task:
    dataset: str
    metric: str
    aligned: Aligned
    pairs: tuple[tuple[str, str], ...]  # (system, baseline)


def compare(
    results: ResultSet,
    *,
    baseline: str | Sequence[str] | None = None,
    pairs: Literal["baseline", "all"] = "baseline",
    test: str = "t",
    correction: str = "holm",
    family: str | FamilyKey = "metric",
    alpha: float = 0.05,
    alternative: str = "two-sided",
    metrics: Sequence[str] | None = None,
    datasets: Sequence[str] | None = None,
    systems: Sequence[str] | None = None,
    missing: MissingPolicy = "error",
    rng: np.random.Generator | int = 0,
    options: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
) -> Comparisons:
    """Run a paired test for every comparison, then correct each family of p-values.

    With ``pairs="baseline"`` every system is tested against each baseline (the first
    system of the dataset when ``baseline`` is None); an ablation table is this with the
    full model as the baseline. With ``pairs="all"`` every pair is tested once, the later
    system against the earlier one (see :meth:`Comparisons.better_than` for letters).
    ``options`` go to the test (e.g. ``n_resamples``, ``zero_method``). An int ``rng``
    seeds a fresh generator for each query set, so a pair's p-value does not depend on
    the other comparisons. ``progress(done, total)`` is called as comparisons finish.

    Examples
    --------
    >>> import pandas as pd
    >>> from irtables.model import ResultSet
    >>> rs = ResultSet.from_frame(pd.DataFrame({
    ...     "dataset": "d", "metric": "AP", "query": ["1", "2", "3"] * 2,
    ...     "system": ["bm25"] * 3 + ["dense"] * 3,
    ...     "value": [0.2, 0.4, 0.1, 0.3, 0.6, 0.2]}))
    >>> c = compare(rs, baseline="bm25", test="t")
    >>> r = c.get(system="dense")
    >>> r.baseline, round(r.mean_diff, 4), round(r.pvalue, 4), r.correction
    ('bm25', 0.1333, 0.0572, 'holm')
    """
    func = get_test(test)
    _check_choices(correction, family, alternative, pairs, missing, alpha)
    opts = _check_options(test, func, options or {})
    tasks = _tasks(results, baseline, pairs, metrics, datasets, systems, missing)
    total = sum(len(t.pairs) for t in tasks)
    done = [0]

    def tick(k: int) -> None:
        done[0] += k
        if progress is not None:
            progress(done[0], total)

    if test in _BATCHED:
        raw = _run_batched(test, tasks, alternative, rng, opts, tick)
    else:
        raw = _run_each(func, tasks, alternative, opts, tick)
    name = family if isinstance(family, str) else "custom"
    key = FAMILIES[family] if isinstance(family, str) else family
    return Comparisons(
        results=_correct(raw, correction, key, name),
        test=test,
        correction=correction,
        family=name,
        alpha=alpha,
        alternative=alternative,
    )


def _check_choices(
    correction: str,
    family: str | FamilyKey,
    alternative: str,
    pairs: str,
    missing: str,
    alpha: float,
) -> None:
    if correction not in CORRECTIONS:
        raise UnknownNameError(unknown_name_message("correction", correction, CORRECTIONS))
    if isinstance(family, str) and family not in FAMILIES:
        raise UnknownNameError(unknown_name_message("family", family, FAMILIES))
    check_alternative(alternative)
    if pairs not in ("baseline", "all"):
        raise UnknownNameError(unknown_name_message("pairs", pairs, ("baseline", "all")))
    if missing not in MISSING_POLICIES:
        raise UnknownNameError(unknown_name_message("missing policy", missing, MISSING_POLICIES))
    if not 0 < alpha < 1:
        raise InputError(f"alpha must be between 0 and 1, got {alpha}")


def _check_options(
    test: str, func: Callable[..., Any], options: Mapping[str, Any]
) -> dict[str, Any]:
    params = inspect.signature(func).parameters
    known = [p for p in params if params[p].kind is inspect.Parameter.KEYWORD_ONLY]
    known = [p for p in known if p not in ("alternative", "rng")]
    for name in options:
        if name not in known:
            raise UnknownNameError(unknown_name_message(f"option of test {test}", name, known))
    return dict(options)


def _pick(kind: str, wanted: Sequence[str] | None, available: tuple[str, ...]) -> tuple[str, ...]:
    if wanted is None:
        return available
    for name in wanted:
        if name not in available:
            raise UnknownNameError(unknown_name_message(kind, name, available))
    return tuple(wanted)


def _present(wanted: Sequence[str] | None, available: tuple[str, ...]) -> tuple[str, ...]:
    return available if wanted is None else tuple(w for w in wanted if w in available)


def _pairs_of(
    dataset: str, names: tuple[str, ...], baseline: str | Sequence[str] | None, pairs: str
) -> tuple[tuple[str, str], ...]:
    if len(names) < 2:
        return ()  # nothing to compare in this dataset
    if pairs == "all":
        return tuple(
            (names[j], names[i]) for i in range(len(names)) for j in range(i + 1, len(names))
        )
    if baseline is None:
        bases: Sequence[str] = names[:1]
    else:
        bases = [baseline] if isinstance(baseline, str) else baseline
    for b in bases:
        if b not in names:
            raise UnknownNameError(unknown_name_message(f"baseline of dataset {dataset}", b, names))
    return tuple((s, b) for b in bases for s in names if s != b)


def _tasks(
    results: ResultSet,
    baseline: str | Sequence[str] | None,
    pairs: str,
    metrics: Sequence[str] | None,
    datasets: Sequence[str] | None,
    systems: Sequence[str] | None,
    missing: MissingPolicy,
) -> list[_Task]:
    tasks = []
    # Systems and metrics named by the caller must exist somewhere; each dataset uses
    # those it has (Table 1 may show a metric or a system on one dataset only).
    _pick("system", systems, results.systems())
    _pick("metric", metrics, results.metrics())
    for dataset in _pick("dataset", datasets, results.datasets()):
        names = _present(systems, results.systems(dataset))
        todo = _pairs_of(dataset, names, baseline, pairs)
        if not todo:
            continue
        for metric in _present(metrics, results.metrics(dataset)):
            aligned = results.aligned(dataset, metric, names, missing=missing)
            tasks.append(_Task(dataset, metric, aligned, todo))
    return tasks


def _contextualise(task: _Task, system: str, base: str, r: PairedTestResult) -> PairedTestResult:
    return r.with_context(
        dataset=task.dataset,
        metric=task.metric,
        system=system,
        baseline=base,
        dropped=task.aligned.dropped,
    )


def _run_each(
    func: Callable[..., PairedTestResult],
    tasks: list[_Task],
    alternative: str,
    opts: dict[str, Any],
    tick: Callable[[int], None],
) -> list[PairedTestResult]:
    out = []
    for task in tasks:
        for system, base in task.pairs:
            a, b = task.aligned.column(system), task.aligned.column(base)
            r = func(a, b, alternative=alternative, **opts)
            out.append(_contextualise(task, system, base, r))
            tick(1)
    return out


def _groups(tasks: list[_Task]) -> Iterator[list[_Task]]:
    """Tasks of one dataset with the same query set, in order of first appearance."""
    seen: dict[tuple[str, tuple[str, ...]], list[_Task]] = {}
    for task in tasks:
        seen.setdefault((task.dataset, task.aligned.queries), []).append(task)
    yield from seen.values()


def _run_batched(
    test: str,
    tasks: list[_Task],
    alternative: str,
    rng: np.random.Generator | int,
    opts: dict[str, Any],
    tick: Callable[[int], None],
) -> list[PairedTestResult]:
    many = _BATCHED[test]
    by_task: dict[int, list[PairedTestResult]] = {}
    for group in _groups(tasks):
        cols = [(t, s, b) for t in group for s, b in t.pairs]
        if not group[0].aligned.queries:
            raise InputError(f"no paired queries to test in dataset {group[0].dataset}")
        a = np.column_stack([t.aligned.column(s) for t, s, _ in cols])
        b = np.column_stack([t.aligned.column(base) for t, _, base in cols])
        res = many(a, b, alternative=alternative, rng=rng, **opts)
        for (t, s, base), r in zip(cols, res, strict=True):
            by_task.setdefault(id(t), []).append(_contextualise(t, s, base, r))
        tick(len(cols))
    return [r for t in tasks for r in by_task.get(id(t), [])]


def _correct(
    raw: list[PairedTestResult], correction: str, key: FamilyKey, name: str
) -> tuple[PairedTestResult, ...]:
    families: dict[Hashable, list[int]] = {}
    for i, r in enumerate(raw):
        families.setdefault(key(r), []).append(i)
    out = list(raw)
    for members in families.values():
        adjusted = adjust([raw[i].pvalue for i in members], correction)
        for i, p in zip(members, adjusted, strict=True):
            out[i] = raw[i].with_adjusted(float(p), correction, name, len(members))
    return tuple(out)


__all__ = ["ALTERNATIVES", "FAMILIES", "TESTS", "Comparisons", "compare"]
