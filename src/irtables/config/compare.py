"""The significance tests behind the table markers: ``[compare]`` and the
``[tables.<name>.compare]`` of single tables, read into :class:`CompareSettings`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from irtables.base.names import ANOVA_DESIGNS, FAMILY_NAMES
from irtables.base.procedures import correction_names, is_procedure, names_of_tests
from irtables.config.reader import TomlReader
from irtables.config.tables import compared_with, section_layout

#: How table cells show the 95% interval of a mean (``[compare] interval``).
INTERVALS = ("none", "half-width", "bounds")
#: The settings a change of :meth:`CompareSettings.overridden` is checked for as in the file.
_SCALARS = frozenset(
    {"all_pairs", "test", "correction", "family", "alpha", "alternative", "resamples", "seed"}
    | {"markers", "interval", "power", "anova_design", "zero_method"}
)
#: Differences the topic-set-size table plans for (``[compare] differences``).
DEFAULT_DIFFERENCES = (0.02, 0.05, 0.1)


@dataclass(frozen=True)
class CompareSettings:
    """Significance tests behind the markers in the tables (``[compare]``).

    ``baseline`` applies to every dataset; ``dataset_baselines`` (``baseline = {dataset =
    "system"}`` in the file) names the baseline(s) of single datasets and wins over it.
    ``correction`` None means ``holm`` for the paired tests; the all-pairs tests
    (``tukey``, ``randomized-tukey``) adjust for all pairs themselves. ``interval`` adds
    each mean's 95% interval to the table cells (``half-width``: ``0.512 ± 0.021``;
    ``bounds``: ``0.512 [0.491, 0.533]``) and error bars to the metric-vs-K figure.
    ``power`` and ``differences`` plan the supplement's topic-set-size table.
    """

    baseline: tuple[str, ...] = ()
    dataset_baselines: tuple[tuple[str, tuple[str, ...]], ...] = ()
    all_pairs: bool = False
    test: str = "t"
    correction: str | None = None
    family: str = "metric"
    alpha: float = 0.05
    alternative: str = "two-sided"
    resamples: int = 10_000
    seed: int = 0
    markers: bool = True
    better: str = "†"
    worse: str = "‡"
    interval: str = "none"
    power: float = 0.8
    differences: tuple[float, ...] = DEFAULT_DIFFERENCES
    anova_design: str = "two-way"  # the ANOVA-based topic-set size: two-way | one-way
    zero_method: str = "wilcox"  # Wilcoxon's zero differences: wilcox | pratt | zsplit

    @property
    def enabled(self) -> bool:
        """Markers are shown when there is something to compare with."""
        return self.markers and (
            bool(self.baseline) or bool(self.dataset_baselines) or self.all_pairs
        )

    def baselines_of(self, dataset: str) -> tuple[str, ...]:
        """The baseline(s) of ``dataset``: its own if configured, else the global ones."""
        own = dict(self.dataset_baselines)
        return own.get(dataset, self.baseline)

    def with_baselines(self, values: Sequence[str]) -> CompareSettings:
        """These settings with ``values`` as the baselines (``--baseline``, or the
        ``baseline`` of the file): ``none`` alone turns the markers off, ``DATASET=SYSTEM``
        names one dataset's baseline, anything else every dataset's.

        Examples
        --------
        >>> s = CompareSettings(baseline=("bm25",))
        >>> s.with_baselines(["none"]).enabled
        False
        >>> s.with_baselines(["dl19=dense"]).baselines_of("dl19")
        ('dense',)
        """
        if tuple(v.lower() for v in values) == ("none",):
            return replace(self, baseline=(), dataset_baselines=(), all_pairs=False, markers=False)
        every, per = baseline_overrides(values)
        return replace(self, baseline=every, dataset_baselines=per)

    def overridden(self, **changes: Any) -> CompareSettings:
        """These settings with every change that is not None (command-line options win).

        A test changed to an all-pairs procedure (``tukey``) without a correction drops
        the configured correction: the procedure adjusts for all pairs itself.

        Examples
        --------
        >>> s = CompareSettings(correction="holm")
        >>> s.overridden(test="tukey", all_pairs=True).correction is None
        True
        >>> s.overridden(alpha=0.01, test=None).alpha, s.overridden(all_pairs=False).all_pairs
        (0.01, False)
        """
        given = {k: v for k, v in changes.items() if v is not None}
        unknown = sorted(set(given) - set(self.__dataclass_fields__))
        if unknown:
            raise TypeError(f"unknown compare setting {unknown[0]!r}")
        scalars = {k: v for k, v in given.items() if k in _SCALARS}
        if scalars:  # checked as the file's keys are (a test name, a seed of at least 0)
            parse_compare(TomlReader("compare settings"), scalars)
        if is_procedure(given.get("test")) and "correction" not in given:
            given["correction"] = None
        return replace(self, **given)

    def baseline_spec(self, datasets: Sequence[str]) -> list[str] | dict[str, tuple[str, ...]]:
        """What :func:`~irtables.stats.compare` takes as ``baseline``: a list, or per dataset.

        Per-dataset keys are kept even when they name no dataset, so a typo is reported.
        """
        if not self.dataset_baselines:
            return list(self.baseline)
        spec = {d: self.baseline for d in datasets if self.baseline}
        spec.update(dict(self.dataset_baselines))
        return spec


def parse_compare(r: TomlReader, t: Mapping[str, Any], w: str = "compare") -> CompareSettings:
    """The ``[compare]`` section ``t`` (or a table's own, at ``w``)."""
    d = CompareSettings()
    r.only(t, w, set(CompareSettings.__dataclass_fields__) - {"dataset_baselines"})
    baselines, per_dataset = _baselines(r, t, w)
    no_markers = tuple(b.lower() for b in baselines) == ("none",)
    if no_markers:
        baselines = ()
    alpha = _fraction(r, t, "alpha", d.alpha, w)
    resamples = r.int_(t, w, "resamples", d.resamples)
    if resamples < 1:
        raise r.error(f"{w}.resamples", "a positive integer", resamples)
    seed = r.int_(t, w, "seed", d.seed)
    if seed < 0:
        raise r.error(f"{w}.seed", "a non-negative integer", seed)
    test = r.choice(t, w, "test", names_of_tests(), d.test)
    correction = None
    if "correction" in t:
        correction = r.choice(t, w, "correction", correction_names(), "holm")
        if is_procedure(test) and correction != "none":
            raise r.error(
                f"{w}.correction",
                f"no correction with test {test} (it adjusts for all pairs itself)",
                correction,
            )
    differences = t.get("differences", list(d.differences))
    if (
        not isinstance(differences, list)
        or not differences
        or not all(
            isinstance(x, float | int) and not isinstance(x, bool) and x > 0 for x in differences
        )
    ):
        raise r.error(f"{w}.differences", "a non-empty list of positive numbers", differences)
    return CompareSettings(
        baseline=baselines,
        dataset_baselines=per_dataset,
        all_pairs=r.bool_(t, w, "all_pairs", d.all_pairs),
        test=test,
        correction=correction,
        family=r.choice(t, w, "family", FAMILY_NAMES, d.family),
        alpha=alpha,
        alternative=r.choice(t, w, "alternative", ("two-sided", "greater", "less"), d.alternative),
        resamples=resamples,
        seed=seed,
        markers=r.bool_(t, w, "markers", d.markers) and not no_markers,
        better=r.text(t, w, "better") or d.better,
        worse=r.text(t, w, "worse") or d.worse,
        interval=r.choice(t, w, "interval", INTERVALS, d.interval),
        power=_fraction(r, t, "power", d.power, w),
        differences=tuple(float(x) for x in differences),
        anova_design=r.choice(t, w, "anova_design", ANOVA_DESIGNS, d.anova_design),
        zero_method=r.choice(t, w, "zero_method", ("wilcox", "pratt", "zsplit"), d.zero_method),
    )


def _fraction(
    r: TomlReader, t: Mapping[str, Any], key: str, default: float, w: str = "compare"
) -> float:
    value = t.get(key, default)
    if not isinstance(value, float | int) or isinstance(value, bool) or not 0 < value < 1:
        raise r.error(f"{w}.{key}", "a number between 0 and 1", value)
    return float(value)


def _baselines(
    r: TomlReader, t: Mapping[str, Any], w: str = "compare"
) -> tuple[tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...]]:
    """``compare.baseline``: a system id, a list of them, or a table ``{dataset = id(s)}``."""
    value = t.get("baseline", [])
    if isinstance(value, dict):
        per = []
        for dataset in value:
            ids = r.str_or_list(value, f"{w}.baseline", dataset, "a system id or a list of them")
            per.append((dataset, tuple(ids)))
        return (), tuple(per)
    expected = "a system id, a list of them, or a table {dataset = system id}"
    return tuple(r.str_or_list(t, w, "baseline", expected)), ()


def parse_table_compares(
    r: TomlReader, tables: Mapping[str, Any], base: Mapping[str, Any]
) -> tuple[tuple[str, CompareSettings], ...]:
    """``[tables.<name>.compare]`` of every table that has one: its keys over ``[compare]``
    (``base``). An all-pairs test there without a correction drops the global one."""
    out = []
    for name, section in tables.items():
        if not _has_compare(name, section) or "compare" not in section:
            continue
        own = section["compare"]
        w = f"tables.{name}.compare"
        if not isinstance(own, dict):
            raise r.error(w, "a table of [compare] keys", own)
        merged = {**base, **own}
        if is_procedure(own.get("test")) and "correction" not in own:
            merged.pop("correction", None)
        out.append((name, parse_compare(r, merged, w)))
    return tuple(out)


def without_compare(tables: Mapping[str, Any]) -> dict[str, Any]:
    """The table sections without their ``compare`` tables (read by
    :func:`parse_table_compares`)."""
    return {
        name: {k: v for k, v in section.items() if k != "compare"}
        if _has_compare(name, section)
        else section
        for name, section in tables.items()
    }


def _has_compare(name: str, section: Any) -> bool:
    """Whether a section may have ``compare`` settings of its own: not one whose layout
    compares each row with its group's full model (the ablation)."""
    if not isinstance(section, dict):
        return False
    layout = section_layout(name, section)
    return not (isinstance(layout, str) and compared_with(layout) == "groups")


def baseline_overrides(
    values: Sequence[str],
) -> tuple[tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...]]:
    """Command-line ``--baseline`` values: ``SYSTEM`` for every dataset, ``DATASET=SYSTEM``
    for one (repeatable), as (global baselines, per-dataset baselines).

    Examples
    --------
    >>> baseline_overrides(["bm25", "cacm=bm25-anserini"])
    (('bm25',), (('cacm', ('bm25-anserini',)),))
    """
    every: list[str] = []
    per: dict[str, list[str]] = {}
    for v in values:
        dataset, sep, system = v.partition("=")
        if sep and dataset and system:
            per.setdefault(dataset, []).append(system)
        else:
            every.append(v)
    return tuple(every), tuple((d, tuple(s)) for d, s in per.items())
