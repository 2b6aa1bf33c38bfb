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
from dataclasses import dataclass
from functools import lru_cache

from irtables.errors import UnknownNameError, unknown_name_message


@dataclass(frozen=True, slots=True)
class Family:
    """What a measure family is: its names, label, cutoff rule and value range."""

    name: str
    label: str
    cutoff: str  # "required" | "optional" | "none"
    description: str
    bounded: bool = True
    count: bool = False
    higher_is_better: bool = True
    param: str | None = None  # name of the family's parameter ("p" for RBP)


FAMILIES: dict[str, Family] = {
    f.name: f
    for f in (
        Family("nDCG", "NDCG", "optional", "normalised discounted cumulative gain, gain = grade"),
        Family("nDCG_exp", "NDCG-exp", "optional", "nDCG with exponential gain 2^grade - 1"),
        Family("P", "P", "required", "precision at rank K (divides by K)"),
        Family("R", "R", "required", "recall at rank K"),
        Family("AP", "MAP", "optional", "average precision (divides by all relevant)"),
        Family("RR", "MRR", "optional", "reciprocal rank of the first relevant document"),
        Family("Success", "Success", "required", "1 if a relevant document is in the top K"),
        Family("Rprec", "R-Prec", "none", "precision at rank R, R = number relevant"),
        Family("Bpref", "bpref", "none", "binary preference (Buckley & Voorhees 2004)"),
        Family("ERR", "ERR", "required", "expected reciprocal rank (Chapelle et al. 2009)"),
        Family("RBP", "RBP", "none", "rank-biased precision (Moffat & Zobel 2008)", param="p"),
        Family("IPrec", "IPrec", "none", "interpolated precision at a recall level", param="r"),
        Family("11pt", "11-pt AP", "none", "mean interpolated precision at 11 recall levels"),
        Family("Judged", "Judged", "required", "fraction of the top K that is judged"),
        Family("NumRet", "#Ret", "none", "documents retrieved", bounded=False, count=True),
        Family("NumRel", "#Rel", "none", "relevant documents", bounded=False, count=True),
        Family("NumRelRet", "#RelRet", "none", "relevant retrieved", bounded=False, count=True),
    )
}

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
        if self.rel is not None and self.family in ("nDCG", "nDCG_exp"):
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
    return f"{value:g}"


#: Families whose values do not depend on the relevance threshold: nDCG and ERR take the
#: grade itself as gain, NumRet and Judged do not look at relevance.
THRESHOLD_FREE = frozenset({"nDCG", "nDCG_exp", "ERR", "NumRet", "Judged"})


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
    if m.extra is not None or m.rel is not None or relevance == 1 or m.family in THRESHOLD_FREE:
        return m
    return Measure(m.family, m.k, relevance, m.param)


# --- parsing ---------------------------------------------------------------------------

# trec_eval: base name -> family; "<base>_<k>" or "<base>.<k>" adds a cutoff.
_TREC_EVAL = {
    "ndcg": "nDCG",
    "ndcg_cut": "nDCG",
    "P": "P",
    "recall": "R",
    "map": "AP",
    "map_cut": "AP",
    "recip_rank": "RR",
    "success": "Success",
    "Rprec": "Rprec",
    "bpref": "Bpref",
    "11pt_avg": "11pt",
    "num_ret": "NumRet",
    "num_rel": "NumRel",
    "num_rel_ret": "NumRelRet",
}

# ranx (lower-case) names -> family.
_RANX = {
    "ndcg": "nDCG",
    "ndcg_burges": "nDCG_exp",
    "precision": "P",
    "recall": "R",
    "map": "AP",
    "mrr": "RR",
    "hit_rate": "Success",
    "r-precision": "Rprec",
    "r_precision": "Rprec",
    "bpref": "Bpref",
}

# ir_measures names (case-insensitive) -> family.
_IR_MEASURES = {
    "ndcg": "nDCG",
    "ndcg_exp": "nDCG_exp",
    "p": "P",
    "r": "R",
    "ap": "AP",
    "rr": "RR",
    "success": "Success",
    "rprec": "Rprec",
    "bpref": "Bpref",
    "err": "ERR",
    "rbp": "RBP",
    "iprec": "IPrec",
    "11pt": "11pt",
    "judged": "Judged",
    "numret": "NumRet",
    "numrel": "NumRel",
    "numrelret": "NumRelRet",
    # display labels are accepted too, so a config may say MRR@10 or MAP.
    "mrr": "RR",
    "map": "AP",
    "recall": "R",
    "precision": "P",
    "r-prec": "Rprec",
    "ndcg-exp": "nDCG_exp",
    "hit_rate": "Success",
}

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
        if k and int(k.group(1)) >= 1:  # suggest with the user's cutoff: "ndgc@10" -> "nDCG@10"
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
    if text in _TREC_EVAL:
        return _build(_TREC_EVAL[text], None, None, None)
    m = _TREC_CUT.match(text)
    if m and m.group("k") and m.group("base") in _TREC_EVAL:
        return _build(_TREC_EVAL[m.group("base")], int(m.group("k")), None, None)
    return None


def _parse_at_style(text: str) -> Measure | None:
    m = _IRM.match(text)
    if not m:
        return None
    base = m.group("base").lower()
    family = _RANX.get(base) or _IR_MEASURES.get(base)
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

    ranx drops judgements below the level before computing any measure, nDCG included
    (its gain then starts at that grade), so the level is kept in the name.
    """
    m = _RANX_LEVEL.match(text)
    if not m or "(" in m.group("base"):
        return None
    base = _parse_at_style(m.group("base"))
    if base is None:
        return None
    return Measure(base.family, base.k, int(m.group("level")), base.param)


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
    rule = FAMILIES[family].cutoff
    if rule == "required" and k is None:
        return None
    if rule == "none" and k is not None:
        return None
    if k is not None and k < 1:
        return None
    if family == "RBP" and param is None:
        param = 0.8
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
