"""Compare systems over the same queries: run paired tests, then correct per family."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from irtables.base.procedures import CORRECTIONS as CORRECTION_RECORDS
from irtables.base.procedures import TESTS as TEST_RECORDS
from irtables.base.procedures import SignificanceTest
from irtables.errors import InputError, UnknownNameError, unknown_name_message
from irtables.model.policy import MISSING_POLICIES, MissingPolicy
from irtables.stats.allpairs import pair_indices
from irtables.stats.comparisons import Comparisons
from irtables.stats.correction import adjust
from irtables.stats.memo import Memo, NoRecipe, description, recipe_of, values_digest
from irtables.stats.paired import ALTERNATIVES, TESTS, check_alternative
from irtables.stats.procedures import (
    ALL_PAIRS_TESTS,
    check_all_pairs_options,
    check_options,
    run_all_pairs,
    shared_runs,
)
from irtables.stats.result import PairedTestResult

if TYPE_CHECKING:
    from irtables.model import Aligned, ResultSet

Progress = Callable[[int, int], None]
FamilyKey = Callable[[PairedTestResult], Hashable]
#: A baseline for every dataset, a list of them, or per dataset: ``{dataset: system(s)}``.
Baselines = str | Sequence[str] | Mapping[str, str | Sequence[str]] | None
#: The built-in tests :func:`compare` accepts: the paired tests, then the procedures (it
#: reads the registry, :data:`irtables.base.procedures.TESTS`, which may hold more).
ALL_TESTS: tuple[str, ...] = (*TESTS, *ALL_PAIRS_TESTS)

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


@dataclass(frozen=True)
class _Task:
    dataset: str
    metric: str
    aligned: Aligned
    pairs: tuple[tuple[str, str], ...]  # (system, baseline)


def compare(
    results: ResultSet,
    *,
    baseline: Baselines = None,
    pairs: Literal["baseline", "all"] = "baseline",
    test: str = "t",
    correction: str | None = None,
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
    memo: Memo | None = None,
) -> Comparisons:
    """Run a paired test for every comparison, then correct each family of p-values.

    With ``pairs="baseline"`` every system is tested against each baseline (the first
    system of the dataset when ``baseline`` is None); an ablation table is this with the
    full model as the baseline. ``baseline`` may name one per dataset,
    ``{"dl19": "bm25", "covid": "bm25-flat"}``: a dataset without a baseline (not in the
    mapping, or without a run of it) is not tested and is listed in
    :attr:`Comparisons.without_baseline`; a baseline that no dataset has is an error (a
    typo). With ``pairs="all"`` every pair is tested once, the later system against the
    earlier one (see :meth:`Comparisons.better_than` for letters).

    ``test`` is a paired test of :data:`TESTS` or an all-pairs procedure of
    :data:`ALL_PAIRS_TESTS` (``tukey``, ``randomized-tukey``; ``dunnett``, many-to-one,
    once per baseline), which runs once over all
    systems of each dataset and metric and controls the family-wise error itself
    (``correction`` must then be None). ``correction`` None means ``holm`` for the paired
    tests. ``options`` go to the test (e.g. ``n_resamples``, ``zero_method``). An int
    ``rng`` seeds a fresh generator for each query set, so a pair's p-value does not
    depend on the other comparisons. ``progress(done, total)`` is called as comparisons
    finish.

    ``memo`` (:mod:`irtables.stats.memo`) keeps the results of each dataset and metric by
    recipe: a unit whose recipe it holds is not run again. Only with a seed (an int
    ``rng``) and a named ``family``; the correction is applied afterwards all the same.

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
    if test not in TEST_RECORDS:
        raise UnknownNameError(unknown_name_message("test", test, TEST_RECORDS))
    record = TEST_RECORDS[test]
    _check_choices(correction or "holm", family, alternative, pairs, missing, alpha)
    if record.procedure:
        name = family if isinstance(family, str) else "custom"
        opts = check_all_pairs_options(test, correction, name, alternative, options or {})
        if record.kind == "many-to-one" and pairs == "all":
            raise InputError(f"test {test} compares each system with a baseline, not all pairs")
    else:
        reserved = ("alternative", "rng")
        opts = check_options(test, record.load(), options or {}, reserved=reserved)
    tasks, without = _tasks(results, baseline, pairs, metrics, datasets, systems, missing)
    total = sum(len(t.pairs) for t in tasks)
    done = [0]

    def tick(k: int) -> None:
        done[0] += k
        if progress is not None:
            progress(done[0], total)

    settings = {
        "test": test,
        "alpha": alpha,
        "alternative": alternative,
        "resamples": _resamples(record, opts),
    }
    common = {
        "test": test,
        "options": opts,
        "alternative": alternative,
        "correction": correction,
        "family": family if isinstance(family, str) else None,
        "alpha": alpha,
        "pairs": pairs,
        "seed": rng if isinstance(rng, int) else None,
        "missing": missing,
        "modules": [f.split(":")[0] for f in (record.function, record.batched) if f],
    }
    recipes: list[Recipe] = [None] * len(tasks)
    if memo is not None and isinstance(family, str) and not isinstance(rng, np.random.Generator):
        recipes = _recipes(tasks, common, batched=bool(record.batched) and not record.procedure)
    if record.procedure:
        reused: dict[int, list[PairedTestResult]] = {}
        for i, t in enumerate(tasks):
            got = _reused(memo, recipes[i], t)
            if got is not None:
                reused[i] = got
        todo = [i for i in range(len(tasks)) if i not in reused]
        shared_of = shared_runs(
            test,
            [tasks[i].aligned for i in todo],
            rng=rng,
            options=opts,
            sizes=[len(tasks[i].pairs) for i in todo],
            progress=None if progress is None else lambda d, _: progress(d, total),
        )
        shared = {todo[j]: r for j, r in shared_of.items()}
        done[0] = sum(len(tasks[i].pairs) for i in shared)
        found: list[PairedTestResult] = []
        for i, t in enumerate(tasks):
            if i in reused:
                found += reused[i]
                tick(len(t.pairs))
                continue
            ran = run_all_pairs(
                test,
                t.dataset,
                t.metric,
                t.aligned,
                t.pairs,
                rng=rng,
                options=opts,
                alternative=alternative,
                result=shared.get(i),
            )
            _keep(memo, recipes[i], ran)
            found += ran
            tick(0 if i in shared else len(t.pairs))
        return Comparisons(
            results=tuple(found),
            correction=test,
            family="metric",
            without_baseline=without,
            **settings,  # type: ignore[arg-type]
        )
    if record.batched:
        raw = _run_batched(record, tasks, alternative, rng, opts, tick, memo, recipes)
    else:
        raw = _run_each(record.load(), tasks, alternative, opts, tick, memo, recipes)
    name = family if isinstance(family, str) else "custom"
    key = FAMILIES[family] if isinstance(family, str) else family
    chosen = correction or "holm"
    return Comparisons(
        results=_correct(raw, chosen, key, name),
        correction=chosen,
        family=name,
        without_baseline=without,
        **settings,  # type: ignore[arg-type]
    )


def _resamples(record: SignificanceTest, opts: Mapping[str, Any]) -> int:
    """The resamples a resampling test draws: as asked, else its function's default."""
    if not record.resampled:
        return 0
    if "n_resamples" in opts:
        return int(opts["n_resamples"])
    return int(inspect.signature(record.load()).parameters["n_resamples"].default)


def _check_choices(
    correction: str,
    family: str | FamilyKey,
    alternative: str,
    pairs: str,
    missing: str,
    alpha: float,
) -> None:
    if correction not in CORRECTION_RECORDS:
        raise UnknownNameError(unknown_name_message("correction", correction, CORRECTION_RECORDS))
    if isinstance(family, str) and family not in FAMILIES:
        raise UnknownNameError(unknown_name_message("family", family, FAMILIES))
    check_alternative(alternative)
    if pairs not in ("baseline", "all"):
        raise UnknownNameError(unknown_name_message("pairs", pairs, ("baseline", "all")))
    if missing not in MISSING_POLICIES:
        raise UnknownNameError(unknown_name_message("missing policy", missing, MISSING_POLICIES))
    if not 0 < alpha < 1:
        raise InputError(f"alpha must be between 0 and 1, got {alpha}")


def _pick(kind: str, wanted: Sequence[str] | None, available: tuple[str, ...]) -> tuple[str, ...]:
    if wanted is None:
        return available
    known = set(available)
    for name in wanted:
        if name not in known:
            raise UnknownNameError(unknown_name_message(kind, name, available))
    return tuple(wanted)


def _present(wanted: Sequence[str] | None, available: tuple[str, ...]) -> tuple[str, ...]:
    """The names of ``wanted`` (in its order) that ``available`` has; all when None."""
    if wanted is None:
        return available
    known = set(available)
    return tuple(w for w in wanted if w in known)


def _bases_of(dataset: str, names: tuple[str, ...], baseline: Baselines) -> tuple[str, ...]:
    """The baselines asked for in ``dataset`` (present or not)."""
    if baseline is None:
        return names[:1]
    if isinstance(baseline, str):
        return (baseline,)
    if isinstance(baseline, Mapping):
        wanted = baseline.get(dataset, ())
        return (wanted,) if isinstance(wanted, str) else tuple(wanted)
    return tuple(baseline)


def _check_baselines(results: ResultSet, baseline: Baselines) -> None:
    """A baseline that no dataset has, or a dataset key that does not exist, is a typo."""
    if baseline is None:
        return
    if isinstance(baseline, Mapping):
        for dataset in baseline:
            if dataset not in results.datasets():
                raise UnknownNameError(
                    unknown_name_message("dataset in baseline", dataset, results.datasets())
                )
        named = [b for d in baseline for b in _bases_of(d, (), baseline)]
    else:
        named = [baseline] if isinstance(baseline, str) else list(baseline)
    everywhere = results.systems()
    for b in named:
        if b not in everywhere:
            raise UnknownNameError(unknown_name_message("baseline", b, everywhere))


def _pairs_of(
    names: tuple[str, ...], bases: tuple[str, ...], pairs: str
) -> tuple[tuple[str, str], ...]:
    if len(names) < 2:
        return ()  # nothing to compare in this dataset
    if pairs == "all":
        return tuple((names[j], names[i]) for j, i in pair_indices(len(names)))
    return tuple((s, b) for b in bases if b in names for s in names if s != b)


def _tasks(
    results: ResultSet,
    baseline: Baselines,
    pairs: str,
    metrics: Sequence[str] | None,
    datasets: Sequence[str] | None,
    systems: Sequence[str] | None,
    missing: MissingPolicy,
) -> tuple[list[_Task], tuple[tuple[str, tuple[str, ...]], ...]]:
    """The tests to run, and each dataset that lacks (some of) its baselines with them."""
    tasks = []
    without: list[tuple[str, tuple[str, ...]]] = []
    # Systems and metrics named by the caller must exist somewhere; each dataset uses
    # those it has (Table 1 may show a metric or a system on one dataset only).
    _pick("system", systems, results.systems())
    _pick("metric", metrics, results.metrics())
    if pairs != "all":
        _check_baselines(results, baseline)
    for dataset in _pick("dataset", datasets, results.datasets()):
        names = _present(systems, results.systems(dataset))
        bases = _bases_of(dataset, names, baseline)
        lacking = tuple(b for b in bases if b not in names)
        if pairs != "all" and len(names) > 1 and (lacking or not bases):
            without.append((dataset, lacking))
        todo = _pairs_of(names, bases, pairs)
        if not todo:
            continue
        for metric in _present(metrics, results.metrics(dataset)):
            aligned = results.aligned(dataset, metric, names, missing=missing)
            tasks.append(_Task(dataset, metric, aligned, todo))
    return tasks, tuple(without)


def _contextualise(task: _Task, system: str, base: str, r: PairedTestResult) -> PairedTestResult:
    return r.with_context(
        dataset=task.dataset,
        metric=task.metric,
        system=system,
        baseline=base,
        dropped=task.aligned.dropped,
    )


Recipe = tuple[str, dict[str, Any]] | None


def _unit(task: _Task) -> dict[str, Any]:
    """What the test of one dataset and metric reads from the data."""
    a = task.aligned
    return {
        "dataset": task.dataset,
        "metric": task.metric,
        "systems": list(a.systems),
        "queries": list(a.queries),
        "dropped": list(a.dropped),
        "values": values_digest(a.values),
        "compared": [list(p) for p in task.pairs],
    }


def _recipes(tasks: list[_Task], common: Mapping[str, Any], *, batched: bool) -> list[Recipe]:
    """The recipe and description of each task (None: one the recipe cannot describe).

    A batched test runs the tasks of a query set together (:func:`_groups`): each
    task's description holds the whole group, so a group is reused whole or run whole,
    as a clean build runs it."""
    units = [_unit(t) for t in tasks]
    position = {id(t): i for i, t in enumerate(tasks)}
    group_of: dict[int, list[dict[str, Any]]] = {}
    if batched:
        for group in _groups(tasks):
            # the group shares its dataset and queries: each member by what differs
            members = [
                {k: units[position[id(t)]][k] for k in ("metric", "systems", "values", "compared")}
                for t in group
            ]
            for t in group:
                group_of[position[id(t)]] = members
    out: list[Recipe] = []
    for i, unit in enumerate(units):
        extra = {"batch": group_of[i]} if batched else {}
        try:
            described = description(**common, **unit, **extra)
        except NoRecipe:
            out.append(None)
            continue
        out.append((recipe_of(described), described))
    return out


def _reused(memo: Memo | None, recipe: Recipe, task: _Task) -> list[PairedTestResult] | None:
    """The records the memo holds for ``task``, if they are those of its pairs."""
    if memo is None or recipe is None:
        return None
    found = memo.get(recipe[0])
    if found is None or [(r.system, r.baseline) for r in found] != list(task.pairs):
        return None
    return found


def _keep(memo: Memo | None, recipe: Recipe, results: Sequence[PairedTestResult]) -> None:
    if memo is not None and recipe is not None:
        memo.put(recipe[0], recipe[1], results)


def _run_each(
    func: Callable[..., PairedTestResult],
    tasks: list[_Task],
    alternative: str,
    opts: dict[str, Any],
    tick: Callable[[int], None],
    memo: Memo | None = None,
    recipes: Sequence[Recipe] = (),
) -> list[PairedTestResult]:
    out = []
    for i, task in enumerate(tasks):
        recipe = recipes[i] if recipes else None
        reused = _reused(memo, recipe, task)
        if reused is not None:
            out += reused
            tick(len(task.pairs))
            continue
        ran = []
        for system, base in task.pairs:
            a, b = task.aligned.column(system), task.aligned.column(base)
            r = func(a, b, alternative=alternative, **opts)
            ran.append(_contextualise(task, system, base, r))
            tick(1)
        _keep(memo, recipe, ran)
        out += ran
    return out


def _groups(tasks: list[_Task]) -> Iterator[list[_Task]]:
    """Tasks of one dataset with the same query set, in order of first appearance."""
    seen: dict[tuple[str, tuple[str, ...]], list[_Task]] = {}
    for task in tasks:
        seen.setdefault((task.dataset, task.aligned.queries), []).append(task)
    yield from seen.values()


def _run_batched(
    record: SignificanceTest,
    tasks: list[_Task],
    alternative: str,
    rng: np.random.Generator | int,
    opts: dict[str, Any],
    tick: Callable[[int], None],
    memo: Memo | None = None,
    recipes: Sequence[Recipe] = (),
) -> list[PairedTestResult]:
    many = record.load_batched()
    by_task: dict[int, list[PairedTestResult]] = {}
    position = {id(t): i for i, t in enumerate(tasks)}
    for group in _groups(tasks):
        own = [recipes[position[id(t)]] if recipes else None for t in group]
        reused = [_reused(memo, r, t) for r, t in zip(own, group, strict=True)]
        if all(r is not None for r in reused):
            for t, r in zip(group, reused, strict=True):
                by_task[id(t)] = list(r or ())
                tick(len(t.pairs))
            continue
        every = [(t, s, b) for t in group for s, b in t.pairs]
        if not group[0].aligned.queries:
            raise InputError(f"no paired queries to test in dataset {group[0].dataset}")
        # A test that reads each comparison's row on its own (the t-test) takes a few at
        # a time (``record.batch``): the matrices stay small. The resampling tests draw
        # once for all columns: all at once.
        step = record.batch or len(every)
        for start in range(0, len(every), step):
            cols = every[start : start + step]
            # one row per comparison (contiguous): the t-test reads rows as they are
            a = np.stack([t.aligned.column(s) for t, s, _ in cols]).T
            b = np.stack([t.aligned.column(base) for t, _, base in cols]).T
            if not record.batch:  # the resampling tests take the matrices contiguous
                a, b = np.ascontiguousarray(a), np.ascontiguousarray(b)
            if record.resampled:
                res = many(a, b, alternative=alternative, rng=rng, **opts)
            else:
                res = many(a, b, alternative=alternative, **opts)
            for (t, s, base), r in zip(cols, res, strict=True):
                by_task.setdefault(id(t), []).append(_contextualise(t, s, base, r))
            tick(len(cols))
        for t, recipe in zip(group, own, strict=True):
            _keep(memo, recipe, by_task.get(id(t), []))
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


__all__ = [
    "ALL_PAIRS_TESTS",
    "ALL_TESTS",
    "ALTERNATIVES",
    "FAMILIES",
    "TESTS",
    "Comparisons",
    "compare",
]
