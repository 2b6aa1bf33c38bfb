"""Lint: find numbers that cannot all be true (``irtables lint``).

Pure: takes a :class:`~irtables.loaders.discover.Study` (per-query rows, the files' own
``all`` rows and their paths) or a bare :class:`~irtables.model.ResultSet`, and returns a
:class:`LintReport`. The per-query values of one (dataset, system) are pivoted into a
queries x measures matrix once, and every check is a numpy expression over its columns.

Tolerance. Dumps print values rounded (trec_eval: 4 decimals), so equalities hold only
up to rounding. Each (dataset, system) gets ``eps`` = half a unit of its printed
precision: the fewest decimals (0 to 9) that represent a sample of its values, so
``eps = 0.5e-4`` for trec_eval dumps and ``1e-9`` for full-precision floats; at least
2 decimals are assumed (a sample of only 0, 1 and 0.5 was not printed to 1 decimal). A product
like ``P@K * K`` is then known within ``eps * K``; an implied number of relevant
documents ``P@K * K / R@K`` lies in ``[(P - eps) K / (R + eps), (P + eps) K / (R - eps)]``.
Two values compared directly may differ by ``2 * eps``. ``tolerance=`` replaces ``eps``.
Only measures with the same relevance threshold (``P(rel=2)@10`` with ``R(rel=2)@10``)
are compared with each other.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from irtables.errors import UnknownNameError
from irtables.lint.checks import CHECKS, Grid, Hit, fmt, run_checks
from irtables.loaders.discover import Study
from irtables.measures import FAMILIES, Measure, parse_measure
from irtables.model import ResultSet

if TYPE_CHECKING:
    import pandas as pd

    from irtables.model.names import DisplayNames

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
FULL_PRECISION = 1e-9  # eps of values printed with more than 9 decimals
MIN_DECIMALS = 2  # values like 0, 1 or 0.5 were printed with at least 2 decimals
_SAMPLE = 200_000  # values looked at to guess each block's printed precision

__all__ = ["CHECKS", "LintReport", "Violation", "lint"]


@dataclass(frozen=True, slots=True)
class Violation:
    """One set of numbers that cannot all be true.

    ``query`` is None for a file's own means (its ``all`` rows); ``metrics`` and
    ``values`` are the numbers involved, in the order the message names them.
    """

    check: str
    file: str | None
    dataset: str
    system: str
    query: str | None
    metrics: tuple[str, ...]
    values: tuple[float, ...]
    message: str

    def format(self, names: DisplayNames | None = None) -> str:
        """One line: ``file: dataset/system query q: [check] message`` (the dataset and
        system by their display ``names``, when given)."""
        where = f"{self.file}: " if self.file else ""
        query = "mean (all)" if self.query is None else f"query {self.query}"
        dataset, system = self.dataset, self.system
        if names is not None:
            dataset, system = names.dataset(dataset), names.system(system)
        return f"{where}{dataset}/{system} {query}: [{self.check}] {self.message}"


@dataclass(frozen=True)
class LintReport:
    """Every violation found (up to ``limit`` of them kept), counted per check."""

    violations: tuple[Violation, ...]
    total: int
    counts: dict[str, int]
    values_checked: int

    @property
    def ok(self) -> bool:
        """Whether nothing was violated."""
        return self.total == 0

    def summary(self) -> str:
        """``"3 violations (num_rel: 2, top1: 1) in 1,200 values"`` or ``"no violations ..."``."""
        if self.ok:
            return f"no violations in {self.values_checked:,} values"
        parts = ", ".join(f"{k}: {v}" for k, v in self.counts.items() if v)
        noun = "violation" if self.total == 1 else "violations"
        return f"{self.total} {noun} ({parts}) in {self.values_checked:,} values"

    def format(self, names: DisplayNames | None = None) -> str:
        """Every kept violation on its own line, then the summary."""
        lines = [v.format(names) for v in self.violations]
        if len(self.violations) < self.total:
            lines.append(f"... {self.total - len(self.violations)} more not shown")
        return "\n".join([*lines, self.summary()]) + "\n"


def lint(
    source: Study | ResultSet, *, tolerance: float | None = None, limit: int | None = None
) -> LintReport:
    """Check per-query values (and a study's own means) against the metric invariants.

    Parameters
    ----------
    source
        A study (per-query rows, the files' ``all`` rows and paths) or a result set.
    tolerance
        Rounding tolerance of every value; None guesses it per (dataset, system) from the
        printed precision (half a unit of the last printed decimal).
    limit
        Keep at most this many :class:`Violation` records (all are counted).

    Examples
    --------
    >>> import pandas as pd
    >>> rs = ResultSet.from_frame(pd.DataFrame({"dataset": "d", "system": "s",
    ...     "query": "1", "metric": ["P@1", "R@1", "P@5", "R@5"],
    ...     "value": [1.0, 0.125, 0.8, 1.0]}))
    >>> report = lint(rs)
    >>> report.total, report.violations[0].check
    (1, 'num_rel')
    >>> print(report.violations[0].message)
    P@1·1 = 1 and R@1 = 0.125 imply 8 relevant documents, but P@5·5 = 4 and R@5 = 1 imply 4
    """
    if tolerance is not None and not tolerance >= 0:
        raise UnknownNameError(f"tolerance must be a number >= 0, got {tolerance}")
    study = source if isinstance(source, Study) else None
    results = source.results if isinstance(source, Study) else source
    grid = _results_grid(results, tolerance)
    hits = run_checks(grid, means=False)
    paths = _paths(study) if study is not None else {}
    checked = results.n_rows
    summary_hits: list[Hit] = []
    sgrid = None
    if study is not None and not study.summary.empty:
        summary = study.summary
        sgrid = _summary_grid(summary, tolerance)
        summary_hits = run_checks(sgrid, means=True)
        summary_hits += _mean_hits(grid, sgrid, _judged(summary, sgrid))
        paths.update(_summary_paths(summary))
        checked += len(summary)
    found = _violations(grid, hits, paths, limit, per_query=True)
    left = None if limit is None else max(limit - len(found), 0)
    if sgrid is not None:
        found += _violations(sgrid, summary_hits, paths, left, per_query=False)
    counts = dict.fromkeys(CHECKS, 0)
    for hit in (*hits, *summary_hits):
        counts[hit.check] += len(hit.rows)
    return LintReport(tuple(found), sum(counts.values()), counts, checked)


# --- the grid: one row per (dataset, system, query), one column per measure ----------------


def _results_grid(results: ResultSet, tolerance: float | None) -> Grid:
    """The grid of a result set: its :attr:`~irtables.model.ResultSet.layout`, as is."""
    layout = results.layout
    n_sys = results.size("system")
    metric_names = list(results.categories("metric"))
    n_blocks = int(layout.row_block.max()) + 1 if len(layout.row_block) else 0
    datasets, systems = results.categories("dataset"), results.categories("system")
    blocks = [(datasets[b // n_sys], systems[b % n_sys]) for b in range(n_blocks)]

    def block_of(rows: npt.NDArray[np.intp]) -> IntArray:
        block = results.codes_at("dataset", rows)
        block *= n_sys
        block += results.codes_at("system", rows)
        return block

    eps = _block_eps(results.values_at, results.n_rows, block_of, n_blocks, tolerance)
    return Grid(
        values=layout.values.T,  # metric-major storage: each column is contiguous
        measures=[_measure(m) for m in metric_names],
        names=metric_names,
        eps=eps[layout.row_block],
        block_eps=eps,
        row_block=layout.row_block,
        row_query=layout.row_query,
        blocks=blocks,
        queries=list(results.categories("query")),
    )


def _summary_grid(summary: pd.DataFrame, tolerance: float | None) -> Grid:
    """The grid of the files' own means: one row per (dataset, system), query ``all``."""
    cats = {c: _categorical(summary[c]) for c in ("dataset", "system", "metric")}
    n_sys = max(len(cats["system"].categories), 1)
    block = np.asarray(cats["dataset"].codes).astype(np.intp)  # dataset * n_sys + system
    block *= n_sys
    block += cats["system"].codes
    row_block, row_of = np.unique(block, return_inverse=True)
    metric_names = [str(m) for m in cats["metric"].categories]
    values = summary["value"].to_numpy(dtype=np.float64)
    # column-major: every check reads whole columns
    matrix = np.full((len(row_block), len(metric_names)), np.nan, order="F")
    matrix[row_of, cats["metric"].codes] = values
    blocks = [
        (str(cats["dataset"].categories[b // n_sys]), str(cats["system"].categories[b % n_sys]))
        for b in range(int(block.max()) + 1 if len(block) else 0)
    ]
    eps = _block_eps(
        lambda rows: values[rows], len(values), lambda rows: block[rows], len(blocks), tolerance
    )
    return Grid(
        values=matrix,
        measures=[_measure(m) for m in metric_names],
        names=metric_names,
        eps=eps[row_block],
        block_eps=eps,
        row_block=row_block.astype(np.int64),
        row_query=np.zeros(len(row_block), dtype=np.int64),
        blocks=blocks,
        queries=["all"],
    )


def _categorical(series: pd.Series) -> Any:
    """The column as a pandas Categorical (``.codes``, ``.categories``)."""
    import pandas as pd

    if isinstance(series.dtype, pd.CategoricalDtype):
        return series.array
    return pd.Categorical(series.astype(str))


def _measure(name: str) -> Measure | None:
    try:
        return parse_measure(name)
    except UnknownNameError:
        return None


def _block_eps(
    values_at: Callable[[npt.NDArray[np.intp]], FloatArray],
    n_rows: int,
    block_of: Callable[[npt.NDArray[np.intp]], npt.NDArray[np.integer]],
    n_blocks: int,
    tolerance: float | None,
) -> FloatArray:
    """Half a unit of the printed precision of each block's values (or ``tolerance``);
    ``values_at(rows)`` and ``block_of(rows)`` give the values and blocks of some rows."""
    if tolerance is not None:
        return np.full(n_blocks, float(tolerance))
    stride = max(1, n_rows // _SAMPLE)
    picked = np.arange(0, n_rows, stride)
    decimals = np.full(n_blocks, -1, dtype=np.int64)
    np.maximum.at(decimals, block_of(picked), _decimals(values_at(picked)))
    unseen = np.flatnonzero(decimals < 0)
    if len(unseen):
        every = np.arange(n_rows)
        rows = np.flatnonzero(np.isin(block_of(every), unseen))
        np.maximum.at(decimals, block_of(rows), _decimals(values_at(rows)))
    half_unit = 0.5 * 10.0 ** (-np.clip(decimals, MIN_DECIMALS, 9).astype(np.float64))
    half_unit += FULL_PRECISION
    return np.where(decimals > 9, FULL_PRECISION, half_unit)


def _decimals(values: FloatArray) -> IntArray:
    """Fewest decimals (0 to 9) that print each value exactly; 10 when none does.

    Examples
    --------
    >>> _decimals(np.array([0.5, 0.1234, 1 / 3, 12.0])).tolist()
    [1, 4, 10, 0]
    """
    out = np.full(len(values), 10, dtype=np.int64)
    finite = np.isfinite(values)
    out[~finite] = 0
    for d in range(9, -1, -1):
        scaled = values * 10.0**d
        exact = finite & (np.abs(scaled - np.round(scaled)) <= 1e-4)
        out[exact] = d
    return out


# --- the files' own means --------------------------------------------------------------------


def _judged(summary: pd.DataFrame, sgrid: Grid) -> FloatArray:
    """The ``num_q`` of each row of the summary grid: the queries its file's means average
    over, where the file says (NaN where it does not)."""
    if "num_q" not in summary.columns:
        return np.full(len(sgrid.row_block), np.nan)
    known = summary.dropna(subset=["num_q"]).drop_duplicates(["dataset", "system"])
    stated = {
        (str(d), str(s)): float(n)
        for d, s, n in zip(known["dataset"], known["system"], known["num_q"], strict=True)
    }
    return np.array(
        [stated.get(sgrid.blocks[int(b)], np.nan) for b in sgrid.row_block], dtype=np.float64
    )


def _mean_hits(grid: Grid, sgrid: Grid, judged: FloatArray) -> list[Hit]:
    """The mean (or, for counts, the sum) of per-query values against each ``all`` row.

    ``judged`` holds the ``num_q`` of each row of ``sgrid`` (NaN: unknown). A file whose
    ``num_q`` exceeds its per-query values is ``trec_eval -c`` output: its means divide by
    ``num_q`` (a judged query the run lacks scores 0), and its number of relevant documents
    counts those queries' too, so it is at least the sum of the per-query values.
    """
    index = {name: j for j, name in enumerate(grid.names)}
    where = {b: i for i, b in enumerate(grid.blocks)}
    to_block = np.array([where.get(b, -1) for b in sgrid.blocks], dtype=np.int64)
    row_block = to_block[sgrid.row_block] if len(to_block) else sgrid.row_block
    n_blocks = len(grid.blocks)
    hits = []
    for j, (name, measure) in enumerate(zip(sgrid.names, sgrid.measures, strict=True)):
        if measure is None or measure.extra is not None or name not in index:
            continue
        col = grid.values[:, index[name]]
        present = ~np.isnan(col)
        sums = np.bincount(grid.row_block[present], col[present], minlength=n_blocks)
        counts = np.bincount(grid.row_block[present], minlength=n_blocks)
        is_count = FAMILIES[measure.family].count
        stated = sgrid.values[:, j]
        known = (row_block >= 0) & ~np.isnan(stated)
        b = np.where(known, row_block, 0)
        n = counts[b]
        complete = judged > n  # trec_eval -c: every judged query, the run's or not
        over = np.where(complete, judged, n)
        with np.errstate(invalid="ignore", divide="ignore"):
            got = sums[b] if is_count else sums[b] / over
        tol = grid.block_eps[b] * (n if is_count else 1) + sgrid.eps + 1e-9
        gap = got - stated
        if is_count and measure.family == "NumRel":  # -c adds the missing queries' relevant
            gap = np.where(complete, np.maximum(gap, 0.0), gap)
        bad = known & (n > 0) & (np.abs(gap) > tol)
        how = "sum" if is_count else "mean"
        for r in np.flatnonzero(bad):
            of = f"{n[r]} per-query values"
            if complete[r] and not is_count:
                of += f" over the file's num_q = {int(judged[r])} queries (trec_eval -c)"
            elif complete[r]:
                of += f" (trec_eval -c, num_q = {int(judged[r])})"
            text = (
                f"the file's own {name} = {fmt(stated[r])}, but the {how} of its {of} is "
                f"{fmt(got[r])}"
            )
            vals = np.array([[stated[r], got[r]]])
            message = lambda _x, t=text: t  # noqa: E731
            hits.append(Hit("mean", np.array([r]), (name,), message, values=vals))
    return hits


# --- violations ------------------------------------------------------------------------------


def _violations(
    grid: Grid,
    hits: Sequence[Hit],
    paths: dict[tuple[str, str], str],
    limit: int | None,
    *,
    per_query: bool,
) -> list[Violation]:
    """Materialise hits as records, ordered by dataset, system, query, then check."""
    if not hits:
        return []
    rows = np.concatenate([h.rows for h in hits]).astype(np.int64)
    which = np.concatenate([np.full(len(h.rows), i, dtype=np.int64) for i, h in enumerate(hits)])
    starts = np.cumsum([0] + [len(h.rows) for h in hits])
    key = rows * len(hits) + which  # unique: a hit names each of its rows once
    if limit is not None and limit < len(key):
        first = np.argpartition(key, limit - 1)[:limit] if limit > 0 else key[:0]
        order = first[np.argsort(key[first])]
    else:
        order = np.argsort(key)
    out = []
    for o in order.tolist():
        hit, r = hits[int(which[o])], int(rows[o])
        vals = hit.values_at(grid, o - int(starts[which[o]]))
        dataset, system = grid.blocks[int(grid.row_block[r])]
        out.append(
            Violation(
                check=hit.check,
                file=paths.get((dataset, system)),
                dataset=dataset,
                system=system,
                query=grid.queries[int(grid.row_query[r])] if per_query else None,
                metrics=hit.metrics,
                values=tuple(float(v) for v in vals),
                message=hit.message(vals),
            )
        )
    return out


def _paths(study: Study) -> dict[tuple[str, str], str]:
    out: dict[tuple[str, str], str] = {}
    for f in study.files:
        if f.dataset is not None and f.system is not None:
            out[(f.dataset, f.system)] = f.path
            continue
        cols = [c for c in ("dataset", "system") if c in f.factors]
        codes = np.column_stack([f.factors[c].codes.astype(np.int64) for c in cols])
        for pair in np.unique(codes, axis=0).tolist():
            if min(pair) < 0:
                continue  # a row without a dataset or system
            named = {c: f.factors[c].categories[code] for c, code in zip(cols, pair, strict=True)}
            out[(str(named.get("dataset", f.dataset)), str(named.get("system", f.system)))] = f.path
    return out


def _summary_paths(summary: pd.DataFrame) -> dict[tuple[str, str], str]:
    firsts = summary.drop_duplicates(["dataset", "system"])
    return {
        (str(d), str(s)): str(p)
        for d, s, p in zip(firsts["dataset"], firsts["system"], firsts["path"], strict=True)
    }
