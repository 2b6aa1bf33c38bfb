"""Measures: one canonical name per measure, whatever tool spelled it.

A :class:`Measure` is a family (``nDCG``, ``P``, ``AP`` ...) with an optional rank cutoff
``k``, an optional relevance threshold ``rel`` stated in the name (ir_measures'
``AP(rel=2)``) and an optional parameter (RBP's persistence, IPrec's recall level).
Its canonical name follows ir_measures (``nDCG@10``, ``RR@10``, ``AP(rel=2)``); its
display label is what papers print (``NDCG@10``, ``MRR@10``, ``MAP``).

:func:`parse_measure` accepts trec_eval (``ndcg_cut_10``, ``P_10``, ``recip_rank``),
ir_measures (``nDCG@10``, ``RR@10``) and ranx (``ndcg@10``, ``mrr@10``, ``precision@10``)
spellings.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from importlib import import_module
from typing import Any

from irtables.errors import UnknownNameError, unknown_name_message


@dataclass(frozen=True, slots=True)
class Family:
    """Every fact about one measure family, in one record.

    Parameters
    ----------
    name
        The canonical id, in ir_measures' spelling (``nDCG``, ``AP``).
    label
        What papers print (``NDCG``, ``MAP``).
    cutoff
        ``"required"``, ``"optional"`` or ``"none"``: whether ``@K`` must, may or may not follow.
    description
        A short description (error messages, lists of measures).
    bounded, count, higher_is_better
        Every value lies in [0, 1]; the value is a count (summed, not averaged, over the
        queries of trec_eval's ``all`` line); the direction of the measure.
    param, param_default
        The name of the family's parameter (``"p"`` for RBP, ``"r"`` for IPrec's recall
        level) and its value when a name gives none.
    threshold
        Whether the relevance threshold applies (binary relevance): a threshold other than
        1 changes the values and joins the name (``AP(rel=2)``).
    interpolated
        Whether the values are interpolated precision (read at recall levels, whose rank
        cutoffs differ between trec_eval versions).
    graded_level
        Whether the measure is graded and takes an explicit level (``nDCG(rel=2)``, ranx's
        ``ndcg-l2``): judgements below it are dropped, the others keep their grade as gain.
    trec_eval
        trec_eval's names: ``(without cutoff, with cutoff)`` as format strings of ``k`` and
        ``r`` (``("ndcg", "ndcg_cut_{k}")``); None where trec_eval has no such measure.
    trec_eval_aliases
        Further trec_eval base names read as this family (``ndcg`` reads ``ndcg_10`` too).
    ir_measures
        ir_measures' spellings (any case), display labels included (``mrr``, ``map``).
    ranx
        ranx's spellings of the same measure. Empty when ranx computes something else under
        the name (its ``rbp`` is graded, irtables' RBP binary).
    ranx_level
        Whether ranx's ``-l<level>`` suffix attaches: ranx computes the family at a level
        as irtables does (checked against ranx itself in the tests). Not for bpref: ranx's
        ``bpref-l2`` differs from trec_eval's ``bpref`` at ``-l 2``, which irtables computes.
    cites
        Bibliography keys of the references that define the measure.
    caption
        A sentence for the caption of a table that shows the measure (what its gain is).
    method
        The methods text's sentence about the measure, in methods markup (see
        :mod:`irtables.supplement.prose`): ``[@]`` cites ``cites``.
    method_whole, method_cut
        A sentence added when the measure is also reported without a cutoff / with one.
    compute
        The function computing the family's per-query values: ``"module:function"`` (read
        when first needed, so that this module stays light) or the function itself; it
        takes a :class:`~irtables.evaluator.ranking.Judged` view and the
        :class:`Measure`. None: irtables evaluate does not compute it.
    """

    name: str
    label: str
    cutoff: str  # "required" | "optional" | "none"
    description: str
    bounded: bool = True
    count: bool = False
    higher_is_better: bool = True
    param: str | None = None
    param_default: float | None = None
    threshold: bool = False
    graded_level: bool = False
    interpolated: bool = False
    trec_eval: tuple[str | None, str | None] = (None, None)
    trec_eval_aliases: tuple[str, ...] = ()
    ir_measures: tuple[str, ...] = ()
    ranx: tuple[str, ...] = ()
    ranx_level: bool = False
    cites: tuple[str, ...] = ()
    caption: str = ""
    method: str = ""
    method_whole: str = ""
    method_cut: str = ""
    compute: str | Callable[..., Any] | None = None

    def trec_eval_name(self, measure: Measure) -> str | None:
        """trec_eval's name of ``measure`` of this family, or None when it has none."""
        form = self.trec_eval[0 if measure.k is None else 1]
        if form is None:
            return None
        return form.format(k=measure.k, r=0.0 if measure.param is None else measure.param)


_COMPUTE = "irtables.evaluator.compute:"

_BUILT_IN: tuple[Family, ...] = (
    Family(
        "nDCG", "NDCG", "optional", "normalised discounted cumulative gain, gain = grade",
        graded_level=True, trec_eval=("ndcg", "ndcg_cut_{k}"),
        ir_measures=("ndcg",), ranx=("ndcg",), ranx_level=True, cites=("jarvelin2002",),
        caption="NDCG uses the relevance grade as gain (trec_eval).",
        method="Normalised discounted cumulative gain[@], with the relevance grade $g_i$ of the "
        "document at rank $i$ as its gain (trec_eval's `ndcg_cut`): "
        r"$$\mathrm{DCG@}K = \sum_{i=1}^{K} \frac{g_i}{\log_2(i+1)}, \qquad "
        r"\mathrm{NDCG@}K = \frac{\mathrm{DCG@}K}{\mathrm{IDCG@}K},$$ where "
        r"$\mathrm{IDCG@}K$ is the $\mathrm{DCG@}K$ of the ideal ordering of the judged "
        "documents.",
        method_whole="Without a cutoff, the sum runs over the whole ranking.",
        compute=_COMPUTE + "ndcg_linear",
    ),
    Family(
        "nDCG_exp", "NDCG-exp", "optional", "nDCG with exponential gain 2^grade - 1",
        graded_level=True, ir_measures=("ndcg_exp", "ndcg-exp"), ranx=("ndcg_burges",),
        ranx_level=True,
        cites=("jarvelin2002",), caption="NDCG-exp uses the exponential gain 2^grade − 1.",
        method="Normalised discounted cumulative gain[@] with exponential gain $2^{g_i} - 1$ "
        "for the relevance grade $g_i$ at rank $i$: "
        r"$$\mathrm{DCG@}K = \sum_{i=1}^{K} \frac{2^{g_i} - 1}{\log_2(i+1)}, \qquad "
        r"\mathrm{NDCG@}K = \frac{\mathrm{DCG@}K}{\mathrm{IDCG@}K}.$$",
        compute=_COMPUTE + "ndcg_exponential",
    ),
    Family(
        "RR", "MRR", "optional", "reciprocal rank of the first relevant document",
        threshold=True, trec_eval=("recip_rank", None), ir_measures=("rr", "mrr"),
        ranx=("mrr",), ranx_level=True, cites=("voorhees1999",),
        method="Mean reciprocal rank[@]: the reciprocal rank of the first relevant document, "
        r"$\mathrm{RR@}K = 1/r_q$ when that rank $r_q \leq K$ and $0$ otherwise, averaged "
        r"over the queries $Q$: $\mathrm{MRR@}K = \frac{1}{|Q|}\sum_{q \in Q} "
        r"\mathrm{RR@}K_q$.",
        method_whole="MRR without $K$ has no cutoff (trec_eval's `recip_rank`).",
        compute=_COMPUTE + "reciprocal_rank_at",
    ),
    Family(
        "AP", "MAP", "optional", "average precision (divides by all relevant)", threshold=True,
        trec_eval=("map", "map_cut_{k}"),
        ir_measures=("ap", "map"), ranx=("map",), ranx_level=True, cites=("buckley2000",),
        method="Mean average precision[@], over the full ranking: "
        r"$$\mathrm{AP}_q = \frac{1}{|R_q|} \sum_{i=1}^{n} \mathrm{P@}i \cdot "
        r"\mathrm{rel}_q(i), \qquad \mathrm{MAP} = \frac{1}{|Q|} \sum_{q \in Q} "
        r"\mathrm{AP}_q,$$ where $R_q$ is the set of documents judged relevant for query $q$ "
        "(relevant documents that are not retrieved add $0$) and $\\mathrm{rel}_q(i)$ is $1$ "
        "when the document at rank $i$ is relevant.",
        method_cut=r"$\mathrm{AP@}K$ stops the sum at rank $K$ and still divides by $|R_q|$.",
        compute=_COMPUTE + "average_precision_at",
    ),
    Family(
        "P", "P", "required", "precision at rank K (divides by K)", threshold=True,
        trec_eval=(None, "P_{k}"), ir_measures=("p", "precision"), ranx=("precision",),
        ranx_level=True,
        method="Precision at $K$, the fraction of the top $K$ documents that are relevant, "
        r"$\mathrm{P@}K = |R_q \cap \mathrm{top}_K| / K$; it divides by $K$ even when fewer "
        "than $K$ documents were retrieved.",
        compute=_COMPUTE + "precision_at",
    ),
    Family(
        "R", "R", "required", "recall at rank K", threshold=True,
        trec_eval=(None, "recall_{k}"), ir_measures=("r", "recall"), ranx=("recall",),
        ranx_level=True,
        method="Recall at $K$, the fraction of the relevant documents retrieved in the top "
        r"$K$, $\mathrm{R@}K = |R_q \cap \mathrm{top}_K| / |R_q|$.",
        compute=_COMPUTE + "recall_at",
    ),
    Family(
        "Success", "Success", "required", "1 if a relevant document is in the top K",
        threshold=True, trec_eval=(None, "success_{k}"), ir_measures=("success", "hit_rate"),
        ranx=("hit_rate",), ranx_level=True,
        method="Success at $K$ (hit rate): $1$ when a relevant document is in the top $K$, "
        "else $0$.",
        compute=_COMPUTE + "success_at",
    ),
    Family(
        "Rprec", "R-Prec", "none", "precision at rank R, R = number relevant", threshold=True,
        trec_eval=("Rprec", None), ir_measures=("rprec", "r-prec"),
        ranx=("r-precision", "r_precision"), ranx_level=True,
        method="R-precision: precision at rank $|R_q|$, the number of relevant documents of "
        "the query.",
        compute=_COMPUTE + "r_precision_of",
    ),
    Family(
        "Bpref", "bpref", "none", "binary preference (Buckley & Voorhees 2004)",
        threshold=True, trec_eval=("bpref", None), ir_measures=("bpref",), ranx=("bpref",),
        cites=("buckley2004",),
        method="Binary preference[@], which ignores unjudged documents: "
        r"$\mathrm{bpref} = \frac{1}{|R_q|} \sum_{r} \bigl(1 - \frac{|n \text{ ranked "
        r"above } r|}{\min(|R_q|, |N_q|)}\bigr)$ over the relevant retrieved documents $r$, "
        "with $N_q$ the judged non-relevant documents.",
        compute=_COMPUTE + "bpref_of",
    ),
    Family(
        "IPrec", "IPrec", "none", "interpolated precision at a recall level", param="r",
        threshold=True, interpolated=True, trec_eval=("iprec_at_recall_{r:.2f}", None),
        ir_measures=("iprec",),
        cites=("keen1968",),
        method="Interpolated precision at recall level $r$[@]: the highest precision at any "
        "rank whose recall is at least $r$.",
        compute=_COMPUTE + "interpolated_precision_at",
    ),
    Family(
        "11pt", "11-pt AP", "none", "mean interpolated precision at 11 recall levels",
        threshold=True, interpolated=True, trec_eval=("11pt_avg", None), ir_measures=("11pt",),
        cites=("keen1968",),
        method=r"The mean interpolated precision at the 11 recall levels $0, 0.1, \ldots, 1$[@].",
        compute=_COMPUTE + "eleven_point_of",
    ),
    Family(
        "ERR", "ERR", "required", "expected reciprocal rank (Chapelle et al. 2009)",
        ir_measures=("err",), cites=("chapelle2009",),
        method="Expected reciprocal rank[@]: the expected reciprocal of the rank at which a "
        "user stops, stopping at a document of grade $g$ with probability "
        r"$(2^{g} - 1)/2^{g_{\max}}$.",
        compute=_COMPUTE + "err_at",
    ),
    Family(
        "RBP", "RBP", "none", "rank-biased precision (Moffat & Zobel 2008)", param="p",
        param_default=0.8,
        threshold=True, ir_measures=("rbp",), cites=("moffat2008",),
        method="Rank-biased precision[@] with persistence $p$: "
        r"$\mathrm{RBP} = (1 - p) \sum_{i \geq 1} \mathrm{rel}_q(i)\, p^{i-1}$, "
        r"$\mathrm{rel}_q(i)$ being $1$ when the document at rank $i$ is relevant.",
        compute=_COMPUTE + "rbp_of",
    ),
    Family(
        "Judged", "Judged", "required", "fraction of the top K that is judged",
        ir_measures=("judged",),
        method="The fraction of the top $K$ documents that are judged.",
        compute=_COMPUTE + "judged_at",
    ),
    Family(
        "NumRet", "#Ret", "none", "documents retrieved", bounded=False, count=True,
        trec_eval=("num_ret", None), ir_measures=("numret",),
        method="The number of documents retrieved.", compute=_COMPUTE + "num_ret",
    ),
    Family(
        "NumRel", "#Rel", "none", "relevant documents", bounded=False, count=True,
        threshold=True, trec_eval=("num_rel", None), ir_measures=("numrel",),
        method="The number of relevant documents in the judgements.",
        compute=_COMPUTE + "num_rel",
    ),
    Family(
        "NumRelRet", "#RelRet", "none", "relevant retrieved", bounded=False, count=True,
        threshold=True, trec_eval=("num_rel_ret", None), ir_measures=("numrelret",),
        method="The number of relevant documents retrieved.", compute=_COMPUTE + "num_rel_ret",
    ),
)  # fmt: skip

#: The registry of measure families: family id -> record, in the order the methods text
#: describes them. Change it only through :func:`registered`, which restores it.
FAMILIES: dict[str, Family] = {f.name: f for f in _BUILT_IN}


@contextmanager
def registered(*families: Family) -> Iterator[None]:
    """Register measure families for the duration of a ``with`` block.

    Everything that reads the records (parsing, evaluation, tables, captions, the methods
    text and the bibliography) sees them inside the block; the registry is restored after.

    Examples
    --------
    >>> toy = Family("Toy", "TOY", "none", "a toy measure", ir_measures=("toy",))
    >>> with registered(toy):
    ...     parse_measure("toy").label
    'TOY'
    >>> is_measure_name("toy")
    False
    """
    before = dict(FAMILIES)
    for family in families:
        FAMILIES[family.name] = family
    _names_changed()
    try:
        yield
    finally:
        FAMILIES.clear()
        FAMILIES.update(before)
        _names_changed()


def _names_changed() -> None:
    parse_measure.cache_clear()
    _spellings.cache_clear()


def compute_function(family: str) -> Callable[..., Any] | None:
    """The function that computes ``family``'s per-query values (imported on first use).

    Examples
    --------
    >>> compute_function("AP").__name__
    'average_precision_at'
    >>> compute_function("NoSuchFamily") is None
    True
    """
    record = FAMILIES.get(family)
    if record is None or record.compute is None:
        return None
    if callable(record.compute):
        return record.compute
    module, _, attr = record.compute.partition(":")
    function: Callable[..., Any] = getattr(import_module(module), attr)
    return function


# trec_eval measures that have no family of their own: kept under their own name.
TREC_EVAL_EXTRAS: dict[str, bool] = {  # name -> bounded in [0, 1]
    "gm_map": True,
    "gm_bpref": True,
    "infAP": True,
    "Rndcg": False,
    "ndcg_rel": True,
    "binG": False,
    "G": False,
    "utility": False,
    "set_P": True,
    "set_recall": True,
    "set_map": True,
    "set_F": True,
    "set_relative_P": True,
    "num_nonrel_judged_ret": False,
    "rbp_resid": True,  # trec_eval 10.0 all_trec
}
# unj_K: trec_eval 10.0
_EXTRA_PATTERNS = (r"Rprec_mult_[0-9.]+", r"relative_P_[0-9]+", r"unj_[0-9]+")

# Lines of trec_eval output that are not measures of a query.
TREC_EVAL_NON_MEASURES = frozenset({"runid", "num_q", "relstring"})


@dataclass(frozen=True, slots=True, order=True)
class Measure:
    """A measure with its cutoff, relevance threshold and parameter.

    Examples
    --------
    >>> parse_measure("ndcg_cut_10").name
    'nDCG@10'
    >>> parse_measure("mrr@10").label
    'MRR@10'
    """

    family: str
    k: int | None = None
    rel: int | None = None
    param: float | None = None
    extra: str | None = None  # the raw name of a trec_eval measure without a family

    @property
    def name(self) -> str:
        """Canonical name, in ir_measures' spelling."""
        if self.extra is not None:
            return self.extra
        args = []
        if self.rel is not None:
            args.append(f"rel={self.rel}")
        fam = FAMILIES[self.family]
        if fam.param == "p" and self.param is not None:
            args.append(f"p={_fmt_param(self.param)}")
        text = self.family + (f"({','.join(args)})" if args else "")
        if fam.param == "r" and self.param is not None:
            text += f"@{_fmt_param(self.param)}"
        if self.k is not None:
            text += f"@{self.k}"
        return text

    @property
    def label(self) -> str:
        """Display label for tables: ``NDCG@10``, ``MRR@10``, ``MAP``, ``R@100``."""
        if self.extra is not None:
            return self.extra
        fam = FAMILIES[self.family]
        text = fam.label
        if fam.param == "p" and self.param is not None:
            text += f"(p={_fmt_param(self.param)})"
        if fam.param == "r" and self.param is not None:
            text += f"@{_fmt_param(self.param)}"
        if self.rel is not None and fam.graded_level:
            text += f"(rel≥{self.rel})"  # ranx's ndcg-l2: grades below 2 give no gain
        if self.k is not None:
            text += f"@{self.k}"
        return text

    @property
    def base_label(self) -> str:
        """Label without the cutoff, for the rows of a K breakdown: ``NDCG``, ``P``, ``MRR``."""
        return self.extra if self.extra is not None else FAMILIES[self.family].label

    @property
    def bounded(self) -> bool:
        """Whether every per-query value must lie in [0, 1]."""
        if self.extra is not None:
            return TREC_EVAL_EXTRAS.get(self.extra, False)
        return FAMILIES[self.family].bounded

    @property
    def higher_is_better(self) -> bool:
        """Direction of the measure (all built-in measures: higher is better)."""
        return True if self.extra is not None else FAMILIES[self.family].higher_is_better

    @property
    def without_cutoff(self) -> Measure:
        """The same measure with ``k`` removed (the row key of a K breakdown)."""
        return Measure(self.family, None, self.rel, self.param, self.extra)


def _fmt_param(value: float) -> str:
    """A parameter as written in names: every digit it has (``0.1234567``), no ``.0``."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def at_threshold(measure: Measure, relevance: int) -> Measure:
    """The measure computed at relevance threshold ``relevance``, its name saying so.

    A threshold other than 1 joins the name of a measure that depends on it
    (``AP(rel=2)``, as ir_measures writes it), so that whatever reads the values later
    can state it. A name that already states a threshold keeps it; measures that do not
    depend on one (nDCG, ERR, NumRet, Judged) are unchanged.

    Examples
    --------
    >>> [at_threshold(parse_measure(n), 2).name for n in ("AP", "P@10", "nDCG@10", "RR(rel=3)")]
    ['AP(rel=2)', 'P(rel=2)@10', 'nDCG@10', 'RR(rel=3)']
    >>> at_threshold(parse_measure("AP"), 1).name
    'AP'
    """
    m = measure
    if m.extra is not None or m.rel is not None or relevance == 1:
        return m
    if not FAMILIES[m.family].threshold:
        return m
    return Measure(m.family, m.k, relevance, m.param)


# --- parsing ---------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _spellings() -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """trec_eval base names, ranx names and ir_measures names (lower case) -> family id,
    read from the records."""
    trec: dict[str, str] = {}
    ranx: dict[str, str] = {}
    irm: dict[str, str] = {}
    for f in FAMILIES.values():
        whole, cut = f.trec_eval
        if whole is not None and "{" not in whole:
            trec.setdefault(whole, f.name)
        if cut is not None and cut.endswith("_{k}"):
            trec.setdefault(cut[: -len("_{k}")], f.name)
        for alias in f.trec_eval_aliases:
            trec.setdefault(alias, f.name)
        for alias in f.ranx:
            ranx.setdefault(alias.lower(), f.name)
        for alias in (f.name, *f.ir_measures):
            irm.setdefault(alias.lower(), f.name)
    return trec, ranx, irm


_TREC_CUT = re.compile(r"^(?P<base>[A-Za-z_0-9]+?)(?:[_.](?P<k>[0-9]+))?$")
_IRM = re.compile(r"^(?P<base>[A-Za-z_0-9\-]+?)(?:\((?P<args>[^)]*)\))?(?:@(?P<at>[0-9.]+))?$")


@lru_cache(maxsize=4096)
def parse_measure(name: str) -> Measure:
    """Resolve a measure name in trec_eval, ir_measures or ranx spelling.

    Raises :class:`UnknownNameError` (with the closest known name) for anything else.

    Examples
    --------
    >>> [parse_measure(n).name for n in ("P_10", "P@10", "precision@10")]
    ['P@10', 'P@10', 'P@10']
    >>> parse_measure("recip_rank").label, parse_measure("RR@10").label
    ('MRR', 'MRR@10')
    >>> parse_measure("AP(rel=2)").name, parse_measure("map-l2").name
    ('AP(rel=2)', 'AP(rel=2)')
    """
    text = name.strip()
    measure = _parse_trec_eval(text) or _parse_at_style(text) or _parse_ranx_level(text)
    if measure is None:
        k = re.search(r"[@_.]([0-9]+)$", text)
        if k and int(k.group(1)) == 0 and _parses_with_cutoff_one(text, k.start(1)):
            raise UnknownNameError(f"measure {text!r}: a rank cutoff K counts from 1, got 0")
        known = known_measure_names()
        # suggest with the user's cutoff, separated or not: "ndgc@10" -> "nDCG@10",
        # "ndcg_cut10" -> "ndcg_cut_10"
        k = k or re.search(r"[A-Za-z]([0-9]+)$", text)
        if k and int(k.group(1)) >= 1:
            known = [
                n.replace("@k", f"@{k.group(1)}").replace("_k", f"_{k.group(1)}") for n in known
            ]
        raise UnknownNameError(unknown_name_message("measure", text, known))
    return measure


def is_measure_name(name: str) -> bool:
    """Whether ``name`` (surrounding whitespace aside) names a measure in any spelling.

    Examples
    --------
    >>> is_measure_name(" P_10 "), is_measure_name("qid")
    (True, False)
    """
    try:
        parse_measure(name)
    except UnknownNameError:
        return False
    return True


def _parses_with_cutoff_one(text: str, start: int) -> bool:
    """Whether ``text`` names a measure once its cutoff (from ``start``) is 1."""
    one = text[:start] + "1"
    return (_parse_trec_eval(one) or _parse_at_style(one) or _parse_ranx_level(one)) is not None


def _parse_trec_eval(text: str) -> Measure | None:
    if text in TREC_EVAL_EXTRAS or any(re.fullmatch(p, text) for p in _EXTRA_PATTERNS):
        return Measure("extra", extra=text)
    if text.startswith("iprec_at_recall_"):
        level = _float_or_none(text[len("iprec_at_recall_") :])
        return None if level is None else _build("IPrec", None, None, level)
    trec = _spellings()[0]
    if text in trec:
        return _build(trec[text], None, None, None)
    m = _TREC_CUT.match(text)
    if m and m.group("k") and m.group("base") in trec:
        return _build(trec[m.group("base")], int(m.group("k")), None, None)
    return None


def _parse_at_style(text: str) -> Measure | None:
    m = _IRM.match(text)
    if not m:
        return None
    base = m.group("base").lower()
    _, ranx, irm = _spellings()
    family = ranx.get(base) or irm.get(base)
    if family is None:
        return None
    rel, param = _parse_args(m.group("args"), FAMILIES[family].param)
    if rel is False:
        return None
    at = m.group("at")
    k: int | None = None
    if at is not None:
        if FAMILIES[family].param == "r":
            param = _float_or_none(at)
            if param is None:
                return None
        elif at.isascii() and at.isdigit():
            k = int(at)
        else:
            return None
    return _build(family, k, rel, param)


_RANX_LEVEL = re.compile(r"^(?P<base>.+)-l(?P<level>[0-9]+)$")


def _parse_ranx_level(text: str) -> Measure | None:
    """ranx's relevance level suffix: ``map-l2``, ``ndcg@10-l2`` (judgements >= 2 count).

    ranx drops the judgements below the level before computing any measure: binary
    measures count the rest as relevant (a relevance threshold), nDCG keeps their grades
    as gains. The suffix attaches only to the families ranx computes the same way
    (:attr:`Family.ranx`); for the others the name is refused, not reinterpreted.
    """
    m = _RANX_LEVEL.match(text)
    if not m or "(" in m.group("base"):
        return None
    base = _parse_at_style(m.group("base"))
    if base is None:
        return None
    level = int(m.group("level"))
    fam = FAMILIES[base.family]
    if not fam.ranx_level:
        hint = (
            f"; write {fam.name}(rel={level}) for a relevance threshold"
            if fam.threshold
            else f" and {fam.name} does not depend on a relevance level"
        )
        raise UnknownNameError(
            f"measure {text!r}: '-l{level}' is ranx's relevance-level suffix, but ranx does "
            f"not compute {fam.name} as irtables does{hint}"
        )
    return _build(base.family, base.k, level, base.param)


def _parse_args(args: str | None, param_name: str | None) -> tuple[int | bool | None, float | None]:
    if not args:
        return None, None
    rel: int | None = None
    param: float | None = None
    for part in args.split(","):
        key, _, value = part.partition("=")
        key = key.strip()
        if key == "rel" and re.fullmatch(r"-?[0-9]+", value.strip()):
            rel = int(value)
        elif param_name is not None and key == param_name:
            param = _float_or_none(value)
            if param is None:
                return False, None
        else:
            return False, None
    return rel, param


def _build(family: str, k: int | None, rel: int | None, param: float | None) -> Measure | None:
    fam = FAMILIES[family]
    rule = fam.cutoff
    if rule == "required" and k is None:
        return None
    if rule == "none" and k is not None:
        return None
    if k is not None and k < 1:
        return None
    if rel is not None and not (fam.threshold or fam.graded_level):
        raise UnknownNameError(
            f"measure {family} does not depend on a relevance threshold: "
            f"'rel={rel}' would name numbers it does not compute"
        )
    if param is None:
        param = fam.param_default
    return Measure(family, k, rel, param)


def _float_or_none(text: str) -> float | None:
    if re.fullmatch(r"\s*(?:[0-9]+\.?[0-9]*|\.[0-9]+)\s*", text, flags=re.ASCII) is None:
        return None  # ASCII digits only: not "０.５", "1_0" or "nan"
    value = float(text)
    return value if 0.0 <= value <= 1.0 else None


def known_measure_names() -> list[str]:
    """Example spellings of every family, for error messages and the README."""
    names = []
    for fam in FAMILIES.values():
        if fam.cutoff == "required":
            names.append(f"{fam.name}@k")
        elif fam.cutoff == "optional":
            names.extend([fam.name, f"{fam.name}@k"])
        elif fam.param == "r":
            names.append(f"{fam.name}@0.1")
        else:
            names.append(fam.name)
    return [*names, "MRR@k", "MAP", "ndcg_cut_k", "P_k", "recall_k", "map", "recip_rank"]
