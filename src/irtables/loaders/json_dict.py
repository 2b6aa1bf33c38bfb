"""JSON ``{query: {metric: value}}``: what pytrec_eval and ir_measures users dump."""

from __future__ import annotations

import json

import pandas as pd

from irtables.errors import InputError
from irtables.loaders.base import Parsed, check_not_empty
from irtables.loaders.numbers import json_number, reject_json_constant
from irtables.loaders.source import decode_text

EXPECTED = "a JSON object {query: {metric: value}}"


def read_json_dict(data: bytes, path: str) -> Parsed:
    """Read a nested JSON object; query ids stay strings, repeated keys are errors.

    Examples
    --------
    >>> p = read_json_dict(b'{"0301": {"P_10": 0.5, "map": 0.25}}', "x.json")
    >>> p.frame.values.tolist()
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
    if not isinstance(doc, dict) or not doc:
        raise InputError(f"expected {EXPECTED}", path=path)
    queries: list[str] = []
    metrics: list[str] = []
    values: list[float] = []
    for query, per_metric in doc.items():
        if not isinstance(per_metric, dict):
            raise InputError(f"query {query!r}: expected an object {{metric: value}}", path=path)
        for metric, value in per_metric.items():
            queries.append(query)
            metrics.append(metric)
            values.append(
                json_number(value, path, None, where=f"query {query!r}, metric {metric!r}: ")
            )
    frame = pd.DataFrame({"query": queries, "metric": metrics, "value": values})
    return Parsed(frame=frame)


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
