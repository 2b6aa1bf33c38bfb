"""The displayed numbers of earlier versions of the tables, kept beside the record.

Each time ``irtables tables`` writes a ``numbers.json`` whose texts differ from the one
in the folder, the texts of the one it replaces (number, difference, relative
improvement of every key) are added to :data:`HISTORY`, with the day they were replaced
and the runs whose numbers changed. The file keeps the last :data:`MAX_VERSIONS`
versions. ``irtables check --paper`` reads it to tell a stale number from a typo.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HISTORY = ".irtables-numbers.json"
MAX_VERSIONS = 20
#: The kinds of text kept per key: the number, its difference, its relative improvement.
KINDS = ("text", "delta", "relative")
_MAX_BYTES = 64 << 20


@dataclass(frozen=True)
class Version:
    """The displayed texts of one earlier version: ``texts[kind][key]``; ``until`` says
    when and why it was replaced (``2026-11-27, runs robust03/bm25 changed``)."""

    texts: Mapping[str, Mapping[str, str]]
    until: str


def texts_of(numbers_json: str) -> dict[str, dict[str, str]] | None:
    """The texts of each kind of a ``numbers.json`` (None if it is not one)."""
    try:
        data = json.loads(numbers_json)
        numbers = data.get("numbers", data)
        out: dict[str, dict[str, str]] = {k: {} for k in KINDS}
        for key, entry in numbers.items():
            out["text"][key] = str(entry["text"])
            for kind in KINDS[1:]:
                if isinstance(entry.get(kind), dict):
                    out[kind][key] = str(entry[kind]["text"])
        return out
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def read_history(folder: str | Path) -> list[Version]:
    """The earlier versions kept in ``folder``, oldest first (none if unreadable)."""
    path = Path(folder) / HISTORY
    try:
        if not path.is_file() or path.stat().st_size > _MAX_BYTES:
            return []
        data = json.loads(path.read_text(encoding="utf-8"))
        return [Version(v["texts"], str(v["until"])) for v in data["versions"]]
    except (OSError, ValueError, KeyError, TypeError):
        return []


def history_files(
    folder: str | Path, new_numbers: str, *, today: dt.date | None = None
) -> dict[str, str]:
    """``{HISTORY: text}`` when ``new_numbers`` replaces a ``numbers.json`` of ``folder``
    whose texts differ (the replaced one appended as a version); else nothing."""
    try:
        old_text = (Path(folder) / "numbers.json").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    old, new = texts_of(old_text), texts_of(new_numbers)
    if old is None or new is None or old == new:
        return {}
    changed = sorted(
        {
            "/".join(key.split("/")[1:3])
            for key, text in old["text"].items()
            if new["text"].get(key) != text
        }
    )
    day = (today or dt.datetime.now(dt.UTC).date()).isoformat()
    shown = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
    until = f"{day}, when runs {shown} changed" if changed else day
    versions = [_plain(v) for v in read_history(folder)]
    versions = [*versions, {"until": until, "texts": old}][-MAX_VERSIONS:]
    data = {
        "about": "The numbers earlier versions of numbers.json showed (irtables check --paper "
        "reads them to find stale numbers); written by irtables.",
        "versions": versions,
    }
    return {HISTORY: json.dumps(data, indent=1, ensure_ascii=False) + "\n"}


def _plain(v: Version) -> dict[str, Any]:
    return {"until": v.until, "texts": {k: dict(t) for k, t in v.texts.items()}}


__all__ = ["HISTORY", "MAX_VERSIONS", "Version", "history_files", "read_history", "texts_of"]
