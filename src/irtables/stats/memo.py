"""Reuse of test results by recipe: a rerun runs only the tests whose inputs changed.

A *unit* of work is the test of one (dataset, metric): one procedure call (Tukey HSD,
Dunnett, ...) or the paired tests of its comparisons. Its *recipe* (:func:`recipe_of`) is
the SHA-256 of its :func:`description`: the queries x systems matrix (its float64 bytes,
the system names and query ids in order, what a missing-value policy dropped), the
pairs compared, the test and all its settings (alternative, correction, family, level,
options such as the resamples, the seed, the missing-value policy), irtables' version
and a digest of the source of the modules that compute it (:func:`code_digest`).

:func:`~irtables.stats.compare` takes a :class:`Memo`: before running a unit it asks
the memo for the records of its recipe, and gives it those it computed. The memo (the
cache of a study, owned by an upper layer) stores them; :func:`encode_results` and
:func:`decode_results` write and read them as JSON, every float exactly.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any, Protocol

from irtables._version import __version__
from irtables.base.code import module_digest
from irtables.stats.result import ConfidenceInterval, PairedTestResult

#: The version of the records' JSON form (:func:`encode_results`).
FORMAT = 1


class Memo(Protocol):
    """Where :func:`~irtables.stats.compare` finds and leaves the results of a unit."""

    def get(self, recipe: str) -> list[PairedTestResult] | None:
        """The records stored under ``recipe``; None when there are none to use."""

    def put(
        self, recipe: str, description: Mapping[str, Any], results: Sequence[PairedTestResult]
    ) -> None:
        """Keep ``results``, computed from what ``description`` says (its SHA-256 is
        ``recipe``)."""


class NoRecipe(Exception):
    """A setting the recipe cannot describe (the unit is then always run)."""


def description(**parts: Any) -> dict[str, Any]:
    """What a unit is computed from: ``parts`` (plain JSON values) with irtables'
    version and :func:`code_digest` of the modules in ``modules`` (a part, popped).

    Raises
    ------
    NoRecipe
        When a part is not a plain JSON value (an option of another type).
    """
    modules = tuple(parts.pop("modules", ()))
    out = {"irtables": __version__, "code": code_digest(modules), **parts}
    try:
        canonical(out)
    except (TypeError, ValueError):
        raise NoRecipe from None
    return out


def canonical(value: Mapping[str, Any]) -> bytes:
    """The bytes a recipe hashes: sorted keys, floats by repr, no NaN or infinity."""
    return json.dumps(value, sort_keys=True, allow_nan=False, ensure_ascii=True).encode()


def recipe_of(described: Mapping[str, Any]) -> str:
    """The SHA-256 of a :func:`description`.

    Examples
    --------
    >>> a = recipe_of({"test": "t", "alpha": 0.05})
    >>> a == recipe_of({"alpha": 0.05, "test": "t"}), a == recipe_of({"test": "t", "alpha": 0.1})
    (True, False)
    """
    return hashlib.sha256(canonical(described)).hexdigest()


def values_digest(values: Any) -> dict[str, Any]:
    """A matrix by its dtype, shape and the SHA-256 of its bytes (C order)."""
    import numpy as np

    array = np.ascontiguousarray(values)
    return {
        "dtype": array.dtype.str,
        "shape": list(array.shape),
        "sha256": hashlib.sha256(array.tobytes()).hexdigest(),
    }


def code_digest(modules: Sequence[str] = ()) -> str:
    """The SHA-256 of the source of every module of :mod:`irtables.stats`, of the test
    registry (:mod:`irtables.base.procedures`) and of the loaded ``modules`` (a test's
    own functions, wherever they are)."""
    return module_digest((*_STATS_MODULES, "irtables.base.procedures", *sorted(set(modules))))


#: Every module of :mod:`irtables.stats` (this package), by name.
_STATS_MODULES = (
    __package__ or "irtables.stats",
    *sorted(f"{__package__}.{p.stem}" for p in Path(__file__).parent.glob("[!_]*.py")),
)


def _float(x: float) -> Any:
    """A float as JSON: a number (repr, exact) when finite, else spelled out; an int
    where a float is expected stays an int."""
    if isinstance(x, int) and not isinstance(x, bool):
        return {"int": x}
    if math.isfinite(x):
        return float(x)
    return {"float": repr(float(x))}  # "nan", "inf", "-inf"


def _unfloat(x: Any) -> float:
    if isinstance(x, float):
        return x
    if isinstance(x, dict) and set(x) == {"float"} and x["float"] in ("nan", "inf", "-inf"):
        return float(x["float"])
    if isinstance(x, dict) and set(x) == {"int"} and type(x["int"]) is int:
        return x["int"]
    raise ValueError(f"not a float: {x!r}")


def _interval(ci: ConfidenceInterval | None) -> Any:
    if ci is None:
        return None
    low, high, level = _float(ci.low), _float(ci.high), _float(ci.level)
    return {"low": low, "high": high, "level": level, "method": ci.method}


def _uninterval(x: Any) -> ConfidenceInterval | None:
    if x is None:
        return None
    if not isinstance(x, dict) or set(x) != {"low", "high", "level", "method"}:
        raise ValueError("not a confidence interval")
    if not isinstance(x["method"], str):
        raise ValueError("not a confidence interval")
    return ConfidenceInterval(
        _unfloat(x["low"]), _unfloat(x["high"]), _unfloat(x["level"]), x["method"]
    )


def _encode(kind: str, value: Any) -> Any:
    if value is None:
        if not kind.endswith(" | None"):
            raise ValueError(f"None where {kind} is expected")
        return None
    base = kind.removesuffix(" | None")
    if base == "float":
        return _float(value)
    if base == "int":
        return int(value)
    if base == "str":
        return str(value)
    if base == "tuple[str, ...]":
        return [str(v) for v in value]
    if base == "ConfidenceInterval":
        return _interval(value)
    raise ValueError(f"no JSON form for {kind}")


def _decode(kind: str, value: Any) -> Any:
    if value is None:
        if not kind.endswith(" | None"):
            raise ValueError(f"null where {kind} is expected")
        return None
    base = kind.removesuffix(" | None")
    if base == "float":
        return _unfloat(value)
    if base == "int" and isinstance(value, int) and not isinstance(value, bool):
        return value
    if base == "str" and isinstance(value, str):
        return value
    if (
        base == "tuple[str, ...]"
        and isinstance(value, list)
        and all(isinstance(v, str) for v in value)
    ):
        return tuple(value)
    if base == "ConfidenceInterval":
        return _uninterval(value)
    raise ValueError(f"not a {kind}: {value!r}")


def encode_results(results: Sequence[PairedTestResult]) -> list[dict[str, Any]]:
    """The records as JSON values, field by field: finite floats as numbers (exact: JSON
    writes their repr), NaN and infinities as ``{"float": "nan"}`` and the like."""
    return [{f.name: _encode(str(f.type), getattr(r, f.name)) for f in fields(r)} for r in results]


def decode_results(data: Any) -> list[PairedTestResult]:
    """The records of :func:`encode_results`, every field checked for its type.

    Raises
    ------
    ValueError
        When ``data`` is not what :func:`encode_results` writes.
    """
    if not isinstance(data, list):
        raise ValueError("the records are not a list")
    kinds = {f.name: str(f.type) for f in fields(PairedTestResult)}
    out = []
    for item in data:
        if not isinstance(item, dict) or set(item) != set(kinds):
            raise ValueError("a record without the fields of a test result")
        out.append(PairedTestResult(**{k: _decode(kinds[k], item[k]) for k in kinds}))
    return out


__all__ = [
    "FORMAT",
    "Memo",
    "NoRecipe",
    "code_digest",
    "decode_results",
    "description",
    "encode_results",
    "recipe_of",
    "values_digest",
]
