"""The invariants behind :func:`irtables.lint.lint`, as numpy expressions over a grid.

A :class:`Grid` has one row per (dataset, system, query) and one column per measure;
each check reads a few columns and returns :class:`Hit` records: the rows that violate it,
the measures involved and a message. ``eps`` (per row) is the rounding tolerance of one
printed value; see :mod:`irtables.lint`. Missing values are NaN and never violate.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from irtables.measures import FAMILIES, Measure

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
Message = Callable[[FloatArray], str]
SLACK = 1e-9  # floating-point slack on top of the rounding tolerance
CHUNK_ROWS = 175_000  # rows checked at a time (a study of 14 M values: two chunks)

#: Every check, with what it asserts (the README and ``irtables lint --help`` list them).
CHECKS: dict[str, str] = {
    "bounds": "bounded measures lie in [0, 1]",
    "count": "counts (NumRet, NumRel, NumRelRet) are non-negative integers",
    "monotonic": "R@K, Success@K, RR@K and relevant retrieved (P@K·K) never decrease in K",
    "relret": "P@K·K is a whole number of relevant documents, at least 1 when R@K > 0",
    "num_rel": "P@K·K / R@K (and NumRel) agree on the number of relevant documents, "
    "and no more are retrieved than exist",
    "top1": "P@1 = Success@1 = RR@1",
    "ap": "AP = 1 implies P@1 = RR@K = Success@K = 1 and P@K = 1 or R@K = 1 at every K",
    "success": "Success@K is 0 or 1; Success@K = 1 iff RR@K >= 1/K iff P@K > 0",
    "mean": "the mean (for counts the sum) of per-query values equals the file's `all` row",
}


@dataclass(frozen=True)
class Grid:
    """Values of (dataset, system, query) rows x measure columns, NaN where absent."""

    values: FloatArray
    measures: list[Measure | None]
    names: list[str]
    eps: FloatArray  # rounding tolerance of each row
    block_eps: FloatArray  # ... of each block
    row_block: IntArray  # index into blocks
    row_query: IntArray  # index into queries
    blocks: list[tuple[str, str]]  # (dataset, system)
    queries: list[str]

    def rows(self, start: int, stop: int) -> Grid:
        """The grid of rows ``start:stop`` (views; the measures, blocks and queries are
        the whole grid's)."""
        return replace(
            self,
            values=self.values[start:stop],
            eps=self.eps[start:stop],
            row_block=self.row_block[start:stop],
            row_query=self.row_query[start:stop],
        )


@dataclass(frozen=True)
class Hit:
    """Rows of a grid violating one check on the same measures."""

    check: str
    rows: IntArray
    metrics: tuple[str, ...]
    message: Message
    values: FloatArray | None = None  # len(rows) x len(metrics); None: the grid's columns
    cols: tuple[int, ...] = ()  # ... ``cols`` at ``rows``, read when a violation is shown

    def values_at(self, grid: Grid, i: int) -> FloatArray:
        """The values of the ``i``-th row of this hit, in the order of ``metrics``."""
        if self.values is not None:
            return np.asarray(self.values[i], dtype=np.float64)
        return np.asarray(grid.values[int(self.rows[i]), list(self.cols)], dtype=np.float64)


def run_checks(grid: Grid, *, means: bool, chunk: int = CHUNK_ROWS) -> list[Hit]:
    """Every check that holds for per-query values, or (``means``) for mean values.

    Every check reads each row on its own, so a large grid is checked ``chunk`` rows at
    a time, on every core (the checks are numpy calls, which release the GIL): the
    temporary columns stay small and the hits are the same, in the same order.
    """
    if len(grid.eps) <= chunk:
        return _run_checks(grid, means)
    starts = list(range(0, len(grid.eps), chunk))

    def check(lo: int) -> list[Hit]:
        part = grid.rows(lo, lo + chunk)
        return [replace(h, rows=h.rows + lo) for h in _run_checks(part, means)]

    from concurrent.futures import ThreadPoolExecutor

    from irtables.workers.executor import worker_count

    with ThreadPoolExecutor(max_workers=worker_count(None, len(starts))) as pool:
        return [h for found in pool.map(check, starts) for h in found]


def _run_checks(grid: Grid, means: bool) -> list[Hit]:
    fams = _families(grid)
    hits = _bounds(grid, means) + _monotonic(grid, fams)
    hits += _top1(grid, fams, means)
    if not means:
        hits += _relret(grid, fams) + _num_rel(grid, fams) + _ap(grid, fams)
        hits += _success(grid, fams)
    return hits


def fmt(x: float) -> str:
    """A number in a message: ``0.125``, ``16`` (float noise removed), ``nan`` as ``–``.

    Examples
    --------
    >>> fmt(0.16 * 100), fmt(0.125), fmt(float("nan"))
    ('16', '0.125', '–')
    """
    return "–" if np.isnan(x) else f"{x:.6g}"


# --- helpers -----------------------------------------------------------------------------

Families = dict[tuple[str, int | None], dict[int | None, int]]  # (family, rel) -> {k: column}


def _families(grid: Grid) -> Families:
    out: Families = defaultdict(dict)
    for j, m in enumerate(grid.measures):
        if m is not None and m.extra is None and m.param is None:
            out[(m.family, m.rel)][m.k] = j
    return out


def _groups(fams: Families, family: str) -> Iterator[tuple[int | None, dict[int | None, int]]]:
    for (fam, rel), cols in fams.items():
        if fam == family:
            yield rel, cols


def _hit(check: str, grid: Grid, bad: BoolArray, cols: list[int], message: Message) -> list[Hit]:
    return _hit_rows(check, grid, np.flatnonzero(bad), cols, message)


def _hit_rows(
    check: str, grid: Grid, rows: IntArray, cols: list[int], message: Message
) -> list[Hit]:
    if not len(rows):
        return []
    names = tuple(grid.names[c] for c in cols)
    return [Hit(check, rows, names, message, cols=tuple(cols))]


def _col(grid: Grid, j: int) -> FloatArray:
    return grid.values[:, j]


def _errstate() -> np.errstate:
    return np.errstate(divide="ignore", invalid="ignore")


# --- the checks --------------------------------------------------------------------------


def _bounds(grid: Grid, means: bool) -> list[Hit]:
    hits = []
    for j, m in enumerate(grid.measures):
        if m is None:
            continue
        v = _col(grid, j)
        name = grid.names[j]
        if m.bounded:
            bad = (v < -SLACK) | (v > 1 + SLACK)
            msg: Message = lambda x, nm=name: f"{nm} = {fmt(x[0])} is outside [0, 1]"  # type: ignore[misc]  # noqa: E731
            hits += _hit("bounds", grid, bad, [j], msg)
        elif m.extra is None and FAMILIES[m.family].count:
            bad = v < 0 if means else (v < 0) | (np.abs(v - np.round(v)) > 1e-6)
            what = "negative" if means else "not a whole number >= 0"
            msg = lambda x, nm=name, w=what: f"{nm} = {fmt(x[0])} is {w}"  # type: ignore[misc]  # noqa: E731
            hits += _hit("count", grid, bad, [j], msg)
    return hits


def _monotonic(grid: Grid, fams: Families) -> list[Hit]:
    hits = []
    for family in ("R", "Success", "RR"):
        for _, cols in _groups(fams, family):
            ks = sorted(k for k in cols if k is not None)
            order = [cols[k] for k in ks] + (
                [cols[None]] if family == "RR" and None in cols else []
            )
            hits += _running_max(grid, order, [1.0] * len(order), family)
    for _, cols in _groups(fams, "P"):
        ks = sorted(k for k in cols if k is not None)
        hits += _running_max(grid, [cols[k] for k in ks], [float(k) for k in ks], "relret")
    return hits


def _running_max(grid: Grid, order: list[int], scale: list[float], what: str) -> list[Hit]:
    """Flag values below the largest value at a smaller cutoff (``scale``: P@K -> P@K·K)."""
    if len(order) < 2:
        return []
    scaled = [
        _col(grid, j) * k if k != 1.0 else _col(grid, j) for j, k in zip(order, scale, strict=True)
    ]
    n = len(grid.eps)
    eps = grid.eps
    best = np.array(scaled[0], dtype=np.float64)
    best_at = np.zeros(n, dtype=np.int64)
    best_scale = np.full(n, scale[0])
    tol, floor = np.empty(n), np.empty(n)
    bad, up = np.empty(n, dtype=np.bool_), np.empty(n, dtype=np.bool_)
    hits = []
    for i in range(1, len(order)):
        v = scaled[i]
        np.add(best_scale, scale[i], out=tol)  # eps * (scale at the best + this one) + slack
        np.multiply(tol, eps, out=tol)
        np.add(tol, SLACK, out=tol)
        np.subtract(best, tol, out=floor)
        np.less(v, floor, out=bad)
        if bad.any():
            for a in np.unique(best_at[bad]):
                lo, hi = scale[int(a)], scale[i]
                if what == "relret":
                    msg: Message = lambda x, lo=lo, hi=hi: (  # type: ignore[misc]  # noqa: E731
                        f"P@{hi:g}·{hi:g} = {fmt(x[1] * hi)} relevant retrieved < "
                        f"P@{lo:g}·{lo:g} = {fmt(x[0] * lo)} at a smaller K"
                    )
                else:
                    names = (grid.names[order[int(a)]], grid.names[order[i]])
                    msg = lambda x, w=what, nm=names: (  # type: ignore[misc]  # noqa: E731
                        f"{nm[1]} = {fmt(x[1])} < {nm[0]} = {fmt(x[0])}: {w} cannot decrease in K"
                    )
                cols = [order[int(a)], order[i]]
                hits += _hit_rows(
                    "monotonic", grid, np.flatnonzero(bad & (best_at == a)), cols, msg
                )
        np.greater(v, best, out=up)
        up |= np.isnan(best)
        np.copyto(best, v, where=up)
        best_at[up] = i
        best_scale[up] = scale[i]
    return hits


def _relret(grid: Grid, fams: Families) -> list[Hit]:
    hits = []
    for rel, pcols in _groups(fams, "P"):
        rcols = fams.get(("R", rel), {})
        for k, j in pcols.items():
            if k is None:
                continue
            p, e = _col(grid, j), grid.eps
            lo, hi = (p - e) * k - SLACK, (p + e) * k + SLACK
            bad = np.ceil(lo) > np.floor(hi)
            msg: Message = lambda x, k=k: (  # type: ignore[misc]  # noqa: E731
                f"P@{k}·{k} = {fmt(x[0] * k)} is not a whole number of relevant documents"
            )
            hits += _hit("relret", grid, bad, [j], msg)
            if k in rcols:
                r = _col(grid, rcols[k])
                bad = (r - e > 0) & (hi < 1)
                msg = lambda x, k=k: (  # type: ignore[misc]  # noqa: E731
                    f"R@{k} = {fmt(x[1])} > 0, but P@{k} = {fmt(x[0])}: "
                    f"no relevant document in the top {k}"
                )
                hits += _hit("relret", grid, bad, [j, rcols[k]], msg)
    return hits


@dataclass(frozen=True)
class _Source:
    """Where a bound on the number of relevant documents comes from."""

    cols: list[int]
    text: Callable[[FloatArray], str]
    ratio: bool = False  # the text ends "imply <n>"


def _num_rel_sources(
    grid: Grid, fams: Families, rel: int | None, pcols: dict[int | None, int]
) -> Iterator[tuple[_Source, FloatArray, FloatArray | None]]:
    """(source, lower bound, upper bound) on num_rel, per row; NaN where unknown (an upper
    bound of None: none on any row)."""
    e = grid.eps
    rcols = fams.get(("R", rel), {})
    with _errstate():
        for k, j in sorted((k, j) for k, j in pcols.items() if k is not None):
            p = _col(grid, j)
            found = p - e
            np.maximum(found, 0, out=found)
            found *= k
            yield (
                _Source([j], lambda x, k=k: f"P@{k}·{k} = {fmt(x[0] * k)} relevant retrieved"),  # type: ignore[misc]
                found,
                None,
            )
            if k in rcols:
                r = _col(grid, rcols[k])
                below = r - e
                upper = p + e
                upper *= k
                upper /= below
                upper[~(below > 0)] = np.nan
                text = lambda x, k=k: (  # noqa: E731
                    f"P@{k}·{k} = {fmt(x[0] * k)} and R@{k} = {fmt(x[1])} "
                    f"imply {fmt(x[0] * k / x[1]) if x[1] else '∞'}"
                )
                yield _Source([j, rcols[k]], text, ratio=True), found / (r + e), upper
    if None in fams.get(("NumRel", rel), {}):
        j = fams[("NumRel", rel)][None]
        n = _col(grid, j)
        yield _Source([j], lambda x: f"NumRel = {fmt(x[0])}"), n - SLACK, n + SLACK


def _num_rel(grid: Grid, fams: Families) -> list[Hit]:
    hits = []
    for rel, pcols in _groups(fams, "P"):
        sources = list(_num_rel_sources(grid, fams, rel, pcols))
        n = len(grid.eps)
        lo, hi = np.zeros(n), np.full(n, np.inf)  # the tightest bounds of any source
        for _, low, high in sources:
            np.fmax(lo, low, out=lo)
            if high is not None:
                np.fmin(hi, high, out=hi)
        with _errstate():
            bad = (hi < np.inf) & (np.ceil(lo - 1e-6) > np.floor(hi + 1e-6))
        rows = np.flatnonzero(bad)
        if not len(rows):
            continue
        # the first source that reached each bound, on the rows in conflict only
        lo, hi = np.zeros(len(rows)), np.full(len(rows), np.inf)
        lo_at, hi_at = np.full(len(rows), -1), np.full(len(rows), -1)
        for i, (_, low, high) in enumerate(sources):
            value = low[rows]
            up = value > lo
            lo, lo_at = np.where(up, value, lo), np.where(up, i, lo_at)
            if high is not None:
                value = high[rows]
                down = value < hi
                hi, hi_at = np.where(down, value, hi), np.where(down, i, hi_at)
        width = len(sources)
        for pair in np.unique(lo_at * width + hi_at):
            a, b = divmod(int(pair), width)
            low_src, high_src = sources[int(a)][0], sources[int(b)][0]
            msg = _conflict(low_src, high_src)
            chosen = rows[(lo_at == a) & (hi_at == b)]
            hits += _hit_rows("num_rel", grid, chosen, low_src.cols + high_src.cols, msg)
    return hits


def _conflict(low: _Source, high: _Source) -> Message:
    split = len(low.cols)

    def message(x: FloatArray) -> str:
        tail = " relevant documents" if low.ratio else ""
        return f"{low.text(x[:split])}{tail}, but {high.text(x[split:])}"

    return message


def _top1(grid: Grid, fams: Families, means: bool) -> list[Hit]:
    hits = []
    rels = {rel for (fam, rel) in fams if fam in ("P", "Success", "RR")}
    for rel in sorted(rels, key=lambda r: -1 if r is None else r):
        cols = [fams[(f, rel)][1] for f in ("P", "Success", "RR") if 1 in fams.get((f, rel), {})]
        if len(cols) < 2:
            continue
        block = grid.values[:, cols]
        spread = np.fmax.reduce(block, axis=1) - np.fmin.reduce(block, axis=1)
        bad = spread > 2 * grid.eps + SLACK
        names = [grid.names[c] for c in cols]
        msg: Message = lambda x, names=names: (  # type: ignore[misc]  # noqa: E731
            ", ".join(f"{nm} = {fmt(v)}" for nm, v in zip(names, x, strict=True))
            + " differ; they are equal (1 if the first document is relevant, else 0)"
        )
        hits += _hit("top1", grid, bad, cols, msg)
    return hits


def _ap(grid: Grid, fams: Families) -> list[Hit]:
    hits = []
    for rel, acols in _groups(fams, "AP"):
        if None not in acols:
            continue
        a = acols[None]
        one, e = _col(grid, a) >= 1 - grid.eps, grid.eps
        firsts = [fams.get(("P", rel), {}).get(1)]
        firsts += list(fams.get(("RR", rel), {}).values())
        firsts += list(fams.get(("Success", rel), {}).values())
        for j in (j for j in firsts if j is not None):
            msg: Message = lambda x, nm=grid.names[j]: (  # type: ignore[misc]  # noqa: E731
                f"AP = {fmt(x[0])} but {nm} = {fmt(x[1])}: a perfect ranking starts relevant"
            )
            hits += _hit("ap", grid, one & (_col(grid, j) < 1 - e), [a, j], msg)
        rcols = fams.get(("R", rel), {})
        for k, j in fams.get(("P", rel), {}).items():
            if k in (None, 1) or k not in rcols:
                continue
            bad = one & (_col(grid, j) < 1 - e) & (_col(grid, rcols[k]) < 1 - e)
            msg = lambda x, k=k: (  # type: ignore[misc]  # noqa: E731
                f"AP = {fmt(x[0])} but P@{k} = {fmt(x[1])} and R@{k} = {fmt(x[2])}: "
                "with every relevant document first, one of them is 1"
            )
            hits += _hit("ap", grid, bad, [a, j, rcols[k]], msg)
    return hits


def _success(grid: Grid, fams: Families) -> list[Hit]:
    hits, e = [], grid.eps
    for rel, scols in _groups(fams, "Success"):
        rr, p = fams.get(("RR", rel), {}), fams.get(("P", rel), {})
        for k, j in scols.items():
            if k is None:
                continue
            s = _col(grid, j)
            hit, miss = s >= 1 - e, s <= e
            name = lambda x, k=k: f"Success@{k} = {fmt(x[0])}"  # noqa: E731
            hits += _hit(
                "success",
                grid,
                ~hit & ~miss & ~np.isnan(s),
                [j],
                lambda x, n=name: f"{n(x)} is neither 0 nor 1",  # type: ignore[misc]
            )
            if k in rr:
                v = _col(grid, rr[k])
                bad = (hit & (v < 1 / k - e)) | (miss & (v > e))
                hits += _hit(
                    "success",
                    grid,
                    bad,
                    [j, rr[k]],
                    lambda x, k=k, n=name: (  # type: ignore[misc]
                        f"{n(x)} but RR@{k} = {fmt(x[1])} (RR@{k} >= 1/{k} iff Success@{k} = 1)"
                    ),
                )
            if k in p:
                v = _col(grid, p[k])
                bad = (hit & ((v + e) * k < 1)) | (miss & (v > e))
                hits += _hit(
                    "success",
                    grid,
                    bad,
                    [j, p[k]],
                    lambda x, k=k, n=name: (  # type: ignore[misc]
                        f"{n(x)} but P@{k} = {fmt(x[1])} (P@{k} > 0 iff Success@{k} = 1)"
                    ),
                )
    for _rel, rcols in _groups(fams, "RR"):
        for k, j in rcols.items():
            if k is not None and k > 1:
                v = _col(grid, j)
                bad = (v > e) & (v < 1 / k - e)
                hits += _hit(
                    "success",
                    grid,
                    bad,
                    [j],
                    lambda x, k=k: (  # type: ignore[misc]
                        f"RR@{k} = {fmt(x[0])} lies between 0 and 1/{k}: it is 0 or at least 1/{k}"
                    ),
                )
    return hits
