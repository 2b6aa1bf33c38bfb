"""One record per significance test and per multiple-testing correction: the registries.

Every fact about a test lives here, and the code dispatches on nothing else: its id, its
kind (paired, all-pairs, many-to-one), the functions that compute it (one comparison at a
time, and a batched variant), whether it draws resamples (and so takes ``rng`` and
``n_resamples``), its label, the phrase captions and legends use, its description, its
references, its paragraph of the methods text and what it does with a constant
difference. The functions are named ``"module:name"`` and imported only when asked for,
so that reading the records imports neither numpy nor scipy: the command line builds its
choices and help from them. :func:`registered` adds records for the duration of a block
(a test's toy test), and everything that reads :data:`TESTS` and :data:`CORRECTIONS` sees
them: :func:`irtables.stats.compare`, the caption legends
(:mod:`irtables.tables.significance`), the methods text, the bibliography, the
configuration reference and the ``--test`` / ``--correction`` help.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["paired", "all-pairs", "many-to-one"]

#: The methods paragraph of a paired test: how it was run. ``{name}`` is the test's
#: phrase, ``{cite}`` its citation, ``{alternative}`` and ``{alpha}`` its settings; the
#: correction's own paragraph (:attr:`Correction.method`) follows.
PAIRED_METHOD = (
    " with a {name}{cite} on the per-query values, paired by query; the alternative is "
    "{alternative} and {alpha}. "
)


def _load(function: str) -> Callable[..., Any]:
    module, name = function.split(":")
    func: Callable[..., Any] = getattr(importlib.import_module(module), name)
    return func


@dataclass(frozen=True, slots=True)
class SignificanceTest:
    """A significance test.

    ``phrase`` may hold ``{resamples:,}`` (the number of resamples of a resampling
    test); ``function`` is ``"module:name"``, loaded by :meth:`load`; ``batched``, when
    set, the function that runs many comparisons of one query set at once (columns of two
    matrices), ``batch`` comparisons a call (0: all at once). ``resampled``: the test
    draws resamples (its functions take ``rng`` and ``n_resamples``). ``method`` is its
    paragraph in the methods text (placeholders as :data:`PAIRED_METHOD`). What the test
    does with a constant difference (the same on every topic) is said by one of two
    fields: ``spread`` names the spread its statistic divides by, whose vanishing leaves
    the statistic undefined (no marker); a test whose statistic stays defined says in
    ``constant`` what it gives instead.
    ``options`` maps a ``[compare]`` setting to the keyword argument it gives the test.
    """

    id: str
    kind: Kind
    label: str
    phrase: str
    description: str
    cites: tuple[str, ...]
    function: str
    constant: str = ""
    spread: str = ""
    resampled: bool = False
    #: the family-wise error the procedure controls itself (its "correction" phrase)
    controls: str = ""
    method: str = PAIRED_METHOD
    batched: str = ""
    batch: int = 0
    options: tuple[tuple[str, str], ...] = ()

    def load(self) -> Callable[..., Any]:
        """The function that runs the test (imports its module).

        Examples
        --------
        >>> TESTS["t"].load().__name__
        't_test'
        """
        return _load(self.function)

    def load_batched(self) -> Callable[..., Any]:
        """The batched variant (imports its module); only when :attr:`batched` is set."""
        return _load(self.batched)

    @property
    def procedure(self) -> bool:
        """Whether the test runs over all the systems of a dataset at once and controls
        the family-wise error itself (all-pairs and many-to-one procedures), on the
        two-way ANOVA or its permutations: no correction applies, its effect size is ES_E.

        Examples
        --------
        >>> TESTS["t"].procedure, TESTS["dunnett"].procedure
        (False, True)
        """
        return self.kind != "paired"

    def named(self, resamples: int) -> str:
        """The caption phrase with the number of resamples filled in.

        Examples
        --------
        >>> TESTS["bootstrap"].named(1000)
        'studentized paired bootstrap test (1,000 resamples)'
        """
        return self.phrase.format(resamples=resamples)


#: The methods paragraph of a correction: ``{phrase}``, ``{cite}`` and ``{family}``
#: (which comparisons form one family).
CORRECTED_METHOD = (
    "The p-values are adjusted with the {phrase}{cite} {family}; a difference is "
    "significant when its adjusted p-value is at most $\\alpha$."
)


@dataclass(frozen=True, slots=True)
class Correction:
    """A multiple-testing correction: ``function`` (``"module:name"``) adjusts one
    family of p-values; ``method`` is its paragraph of the methods text (placeholders as
    :data:`CORRECTED_METHOD`)."""

    id: str
    label: str
    phrase: str
    description: str
    cites: tuple[str, ...]
    function: str
    method: str = CORRECTED_METHOD

    def load(self) -> Callable[..., Any]:
        """The function that adjusts one family of p-values (imports its module).

        Examples
        --------
        >>> CORRECTIONS["holm"].load().__name__
        'holm'
        """
        return _load(self.function)


_PAIRED = "irtables.stats.paired"
_SIGN_FLIPS = (
    "$p = 2^{1-n}$ for $n$ topics (two-sided) when every arrangement is enumerated, its "
    "estimate otherwise: a marker from 6 topics at $\\alpha = 0.05$."
)
_ANOVA_SPREAD = "the residual standard deviation of the two-way ANOVA"
_DIFF_SPREAD = "the standard deviation of the differences"
_TWO_WAY = (
    " on the two-way design of systems $\\times$ topics (a two-way ANOVA without "
    "replication, topics as blocks): "
)
_RECORDS = (
    SignificanceTest(
        "t", "paired", "paired t-test", "paired t-test",
        "Student's t-test of the mean paired difference.",
        ("student1908", "smucker2007"), f"{_PAIRED}:t_test",
        spread=_DIFF_SPREAD,
        batched="irtables.stats.vectorised:t_test_many", batch=64,
    ),
    SignificanceTest(
        "wilcoxon", "paired", "Wilcoxon signed-rank test", "Wilcoxon signed-rank test",
        "Signed-rank test of paired differences; exact below 50 differences without ties "
        "or zeros (as R), else the normal approximation with continuity correction.",
        ("wilcoxon1945", "smucker2007"), f"{_PAIRED}:wilcoxon",
        constant="A constant difference gives every topic the same rank and sign: the "
        "normal approximation for tied ranks marks it from 5 topics at $\\alpha = 0.05$ "
        "(two-sided).",
        options=(("zero_method", "zero_method"),),
    ),
    SignificanceTest(
        "sign", "paired", "sign test", "sign test",
        "Exact binomial test of wins against losses, ties dropped.",
        ("conover1999", "smucker2007"), f"{_PAIRED}:sign_test",
        constant="A constant difference is a win on every topic: " + _SIGN_FLIPS.replace(
            " when every arrangement is enumerated, its estimate otherwise", ""
        ),
    ),
    SignificanceTest(
        "randomization", "paired", "randomization test",
        "randomization test ({resamples:,} sign flips)",
        "Sign-flip permutation test of the mean difference.",
        ("fisher1935", "smucker2007"), f"{_PAIRED}:randomization",
        constant="A constant difference is reached only by flipping no sign or every sign: "
        + _SIGN_FLIPS,
        resampled=True, batched=f"{_PAIRED}:randomization_many",
    ),
    SignificanceTest(
        "bootstrap", "paired", "studentized paired bootstrap test",
        "studentized paired bootstrap test ({resamples:,} resamples)",
        "Studentized bootstrap test of the mean difference (Sakai 2006), "
        "p = (b + 1)/(B + 1).",
        ("efron1993", "smucker2007"), f"{_PAIRED}:bootstrap",
        spread=_DIFF_SPREAD,
        resampled=True, batched=f"{_PAIRED}:bootstrap_many",
    ),
    SignificanceTest(
        "tukey", "all-pairs", "Tukey HSD", "Tukey HSD test (two-way ANOVA, topics as blocks)",
        "Tukey's honestly significant difference on the system x topic design.",
        ("tukey1949", "sakai2018"), "irtables.stats.tukey:tukey_hsd",
        spread=_ANOVA_SPREAD,
        controls="family-wise error controlled over all pairs by the studentized range",
        method=" with Tukey's HSD test{cite}" + _TWO_WAY + "each difference of means is "
        "divided by $\\sqrt{{V_E/n}}$, with $V_E$ the residual variance and $n$ the number "
        "of topics, and referred to the studentized range distribution for all the systems "
        "of the dataset with the residual degrees of freedom; {alpha}. The p-values are "
        "adjusted for all pairs by this procedure (the raw p-value is the t-test of the "
        "pair on $V_E$).",
    ),
    SignificanceTest(
        "randomized-tukey", "all-pairs", "randomized Tukey HSD",
        "randomized Tukey HSD test ({resamples:,} permutations within topics)",
        "Permutation version of Tukey HSD (Carterette 2012).",
        ("carterette2012", "sakai2018"), "irtables.stats.randomized_tukey:randomized_tukey_hsd",
        constant="A constant difference is tested by permutation as any other; with two "
        "systems, " + _SIGN_FLIPS,
        resampled=True,
        controls="family-wise error controlled over all pairs by the permutation "
        "distribution of the largest difference",
        method=" with the randomized Tukey HSD test{cite}: in each trial, the scores "
        " of the systems are permuted within every topic, and the largest "
        "difference between two system means is recorded; a pair's p-value is the share of "
        "trials whose largest difference reaches the pair's observed difference, "
        "$(b+1)/(B+1)$ for $B$ random trials (or exact when all arrangements were "
        "enumerated); {alpha}. This controls the family-wise error over all pairs (the raw "
        "p-value compares the pair's own permuted difference).",
    ),
    SignificanceTest(
        "dunnett", "many-to-one", "Dunnett's test",
        "Dunnett's test (two-way ANOVA, topics as blocks)",
        "Each system against the baseline on the system x topic design (multivariate t).",
        ("dunnett1955", "sakai2018"), "irtables.stats.many_to_one:dunnett",
        spread=_ANOVA_SPREAD,
        controls="family-wise error controlled over the comparisons with the baseline by "
        "the multivariate t distribution",
        method=" with Dunnett's many-to-one test{cite}" + _TWO_WAY + "each system's "
        "difference from the baseline is divided by $\\sqrt{{2V_E/n}}$, with $V_E$ the "
        "residual variance and $n$ the number of topics, and the $k-1$ statistics of the "
        "$k$ systems are referred jointly to the multivariate $t$ distribution with the "
        "residual degrees of freedom and correlation $1/2$ (they share the baseline); the "
        "alternative is {alternative} and {alpha}. The p-values are adjusted over the "
        "comparisons with the baseline only, by this procedure (the raw p-value is the "
        "t-test of the pair on $V_E$).",
    ),
)  # fmt: skip
#: Every test by id: the paired tests, the all-pairs procedures, then the many-to-one.
#: Change it only through :func:`registered`, which restores it.
TESTS: dict[str, SignificanceTest] = {r.id: r for r in _RECORDS}

_ADJUST = "irtables.stats.correction"
#: Every correction by id. Change it only through :func:`registered`.
CORRECTIONS: dict[str, Correction] = {
    r.id: r
    for r in (
        Correction(
            "none", "none", "no correction for multiple testing",
            "no correction", (), f"{_ADJUST}:no_correction",
            method="No correction for multiple testing is applied; a difference is "
            "significant when its p-value is at most $\\alpha$.",
        ),
        Correction(
            "bonferroni", "Bonferroni", "Bonferroni correction",
            "each p-value times the family size", ("dunn1961",), f"{_ADJUST}:bonferroni",
        ),
        Correction(
            "holm", "Holm", "Holm correction",
            "Holm's step-down family-wise error control", ("holm1979",), f"{_ADJUST}:holm",
        ),
        Correction(
            "bh", "Benjamini–Hochberg", "Benjamini–Hochberg correction",
            "Benjamini and Hochberg's false discovery rate control", ("benjamini1995",),
            f"{_ADJUST}:benjamini_hochberg",
        ),
    )
}  # fmt: skip


@contextmanager
def registered(*records: SignificanceTest | Correction) -> Iterator[None]:
    """Register tests and corrections for the duration of a ``with`` block; the
    registries are restored after.

    Examples
    --------
    >>> toy = Correction("toy", "Toy", "toy correction", "a toy", (), "math:fabs")
    >>> with registered(toy):
    ...     correction_names()[-1]
    'toy'
    >>> "toy" in CORRECTIONS
    False
    """
    tests, corrections = dict(TESTS), dict(CORRECTIONS)
    for r in records:
        if isinstance(r, SignificanceTest):
            TESTS[r.id] = r
        else:
            CORRECTIONS[r.id] = r
    try:
        yield
    finally:
        TESTS.clear()
        TESTS.update(tests)
        CORRECTIONS.clear()
        CORRECTIONS.update(corrections)


def names_of_tests(*kinds: Kind) -> tuple[str, ...]:
    """The ids of the tests of ``kinds`` (all when none is given), in registry order.

    Examples
    --------
    >>> names_of_tests("paired")
    ('t', 'wilcoxon', 'sign', 'randomization', 'bootstrap')
    >>> names_of_tests("all-pairs", "many-to-one")
    ('tukey', 'randomized-tukey', 'dunnett')
    """
    return tuple(r.id for r in TESTS.values() if not kinds or r.kind in kinds)


def is_procedure(name: object) -> bool:
    """Whether ``name`` is a test that controls the family-wise error itself.

    Examples
    --------
    >>> is_procedure("tukey"), is_procedure("t"), is_procedure(None)
    (True, False, False)
    """
    record = TESTS.get(name) if isinstance(name, str) else None
    return record is not None and record.procedure


def correction_names() -> tuple[str, ...]:
    """The ids of the corrections, in registry order."""
    return tuple(CORRECTIONS)


def help_of_tests() -> str:
    """What ``--test`` and ``compare.test`` accept, from the records.

    Examples
    --------
    >>> help_of_tests()[:60]
    'The significance test: a paired test (t, wilcoxon, sign, ran'
    """
    paired = ", ".join(names_of_tests("paired"))
    procedures = "; ".join(f"{r.id} ({r.label})" for r in TESTS.values() if r.procedure)
    return (
        f"The significance test: a paired test ({paired}), or a procedure that controls "
        f"the family-wise error itself: {procedures}."
    )


def corrections_help() -> str:
    """What ``--correction`` and ``compare.correction`` accept, from the records."""
    each = ", ".join(f"{r.id} ({r.description})" for r in CORRECTIONS.values())
    procedures = ", ".join(r.id for r in TESTS.values() if r.procedure)
    return (
        f"Multiple-testing correction of the paired tests: {each}. "
        f"The procedures {procedures} control the family-wise error themselves (no "
        "correction applies)."
    )


def resamples_help() -> str:
    """What ``resamples`` applies to, from the records."""
    return (
        "Resamples of the resampling tests: "
        + ", ".join(r.id for r in TESTS.values() if r.resampled)
        + "."
    )


def correction_phrase(name: str) -> str:
    """The caption phrase of a correction, or of a procedure that controls its own family.

    Examples
    --------
    >>> correction_phrase("holm"), correction_phrase("tukey")[:26]
    ('Holm correction', 'family-wise error controll')
    """
    if name in CORRECTIONS:
        return CORRECTIONS[name].phrase
    return TESTS[name].controls
