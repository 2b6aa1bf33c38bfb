"""JSON per-query dicts: ``{query: {metric: value}}`` as pytrec_eval and ir_measures users
dump them, or ``{metric: {query: value}}`` as ranx keeps them (``run.scores``)."""

from __future__ import annotations

import json

import pandas as pd

from irtables.base.numbers import json_number, reject_json_constant
from irtables.errors import InputError
from irtables.loaders.base import Parsed, check_not_empty
from irtables.loaders.source import decode_text

EXPECTED = "a JSON object {query: {metric: value}} or {metric: {query: value}}"


def read_json_dict(data: bytes, path: str) -> Parsed:
    """Read a nested JSON object; query ids stay strings, repeated keys are errors.

    Examples
    --------
    >>> p = read_json_dict(b'{"0301": {"P_10": 0.5, "map": 0.25}}', "x.json")
    >>> p.as_frame().values.tolist()
    [['0301', 'P_10', 0.5], ['0301', 'map', 0.25]]
    """
    check_not_empty(data, path, EXPECTED)
    text = decode_text(data, path)
    try:
        doc = json.loads(text, object_pairs_hook=_no_repeats, parse_constant=reject_json_constant)
    except json.JSONDecodeError as exc:
        raise InputError(f"invalid JSON: {exc.msg}", path=path, line=exc.lineno) from exc
    except RecursionError:
        raise InputError("invalid JSON: nested too deeply", path=path) from None
    except _RepeatedKeyError as exc:
        raise InputError(f"key {exc.key!r} appears twice in one object", path=path) from exc
    except ValueError as exc:  # NaN, Infinity
        raise InputError(f"invalid JSON: {exc}", path=path) from None
    return Parsed(frame=nested_frame(doc, path))


def nested_frame(doc: object, path: str) -> pd.DataFrame:
    """Rows ``query, metric, value`` of a nested per-query dict, in either orientation.

    The outer keys are metrics (ranx's ``{metric: {query: value}}``) when every one of
    them is a measure name and the inner keys of the first are not; otherwise they are
    queries (pytrec_eval's ``{query: {metric: value}}``).

    Examples
    --------
    >>> nested_frame({"map-l2": {"106_1": 0.5}}, "x").values.tolist()
    [['106_1', 'map-l2', 0.5]]
    """
    if not isinstance(doc, dict) or not doc:
        raise InputError(f"expected {EXPECTED}", path=path)
    metric_first = _metric_first(doc)
    queries: list[str] = []
    metrics: list[str] = []
    values: list[float] = []
    for outer, inner in doc.items():
        if not isinstance(inner, dict):
            what = "metric" if metric_first else "query"
            shape = "{query: value}" if metric_first else "{metric: value}"
            raise InputError(f"{what} {outer!r}: expected an object {shape}", path=path)
        for key, value in inner.items():
            query, metric = (key, outer) if metric_first else (outer, key)
            where = f"query {query!r}, metric {metric!r}: "
            values.append(json_number(value, path, None, where=where))
            queries.append(str(query))
            metrics.append(str(metric))
    return pd.DataFrame({"query": queries, "metric": metrics, "value": values})


def _metric_first(doc: dict[object, object]) -> bool:
    from irtables.measures import is_measure_name

    if not all(is_measure_name(str(k)) for k in doc):
        return False
    first = next(iter(doc.values()))
    return not (isinstance(first, dict) and first and all(is_measure_name(str(k)) for k in first))


class _RepeatedKeyError(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_repeats(pairs: list[tuple[str, object]]) -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in pairs:
        if key in out:
            raise _RepeatedKeyError(key)
        out[key] = value
    return out
