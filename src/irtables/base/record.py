"""The record of what irtables wrote in an output folder: ``.irtables-written.json``.

Each output folder (``tables/``, a supplement, the folder of an ``-o`` file) holds one
record: the relative path of every file irtables wrote there, its SHA-256 and the
command that wrote it. It decides two things, and grants a third:

- overwriting: a file may be replaced only if its bytes are what irtables wrote
  (else ``--force``), so a hand-edited output or a user's own file is never lost;
- reading: discovery skips outputs (every command but ``evaluate``, whose TSV is meant
  to be read back), so a folder can hold results and tables side by side; only records
  inside the folder being read count, and a skipped file that would otherwise be read
  is named in one note;
- moving aside: an output ``supplement`` no longer makes is moved to
  ``.irtables-aside/`` if its bytes are still what the record says; nothing is
  deleted on a record's word (a record edited to list a user's file would otherwise
  delete it).

The record is input like any other file: anyone may have edited it. Reading it, every
path must pass :func:`~irtables.base.paths.relative_path`, every hash be 64 hex digits
and every writer a known command; other entries are dropped with a warning and so
grant nothing. A missing or unreadable record grants nothing either: files that differ
from what irtables would write are then refused until ``--force``.
"""

from __future__ import annotations

import hashlib
import json
import re
import stat
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeGuard

from irtables.base.paths import is_relative_path
from irtables.errors import DataWarning, user_stacklevel

RECORD = ".irtables-written.json"
SCHEMA = 1
#: Commands that write into output folders; ``evaluate`` writes per-query results.
WRITERS = frozenset({"tables", "supplement", "compare", "diff", "evaluate", "reproduce"})
#: Writers whose files are results that ``irtables tables`` reads back.
RESULT_WRITERS = frozenset({"evaluate"})
MAX_RECORD_BYTES = 64 << 20
_SHA256 = re.compile(r"[0-9a-f]{64}")
_ABOUT = (
    "Files irtables wrote in this folder and their SHA-256. irtables overwrites or removes "
    "a file only while its hash is the one recorded here, and does not read these files "
    "as results (except those written by evaluate)."
)


@dataclass(frozen=True)
class Entry:
    """One written file: its SHA-256, the command that wrote it and, while a write is
    under way, the hash it had before (either is what irtables wrote)."""

    sha256: str
    by: str
    previous: str | None = None

    def accepts(self, sha256: str) -> bool:
        """Whether a file with this hash is one irtables wrote."""
        return sha256 in (self.sha256, self.previous)

    @property
    def is_output(self) -> bool:
        """An output (not results): discovery never reads it."""
        return self.by not in RESULT_WRITERS


@dataclass(frozen=True)
class Record:
    """The record of one folder; ``dropped`` says which entries were not trusted."""

    files: Mapping[str, Entry] = field(default_factory=dict)
    dropped: tuple[str, ...] = ()


def read_record(folder: Path, *, warn: bool = True) -> Record:
    """The record of ``folder`` (empty if there is none), keeping only valid entries.

    With ``warn``, one :class:`~irtables.errors.DataWarning` names what was dropped.
    """
    path = folder / RECORD
    try:
        info = path.lstat()
    except FileNotFoundError:
        return Record()
    except OSError as e:
        return _untrusted(path, f"cannot read it ({e.strerror or e})", warn)
    if not stat.S_ISREG(info.st_mode):
        return _untrusted(path, "it is not a regular file", warn)
    if info.st_size > MAX_RECORD_BYTES:
        return _untrusted(path, f"it is larger than {MAX_RECORD_BYTES >> 20} MiB", warn)
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as e:
        return _untrusted(path, f"not a record irtables wrote ({type(e).__name__})", warn)
    record = parse_record(data)
    if record.dropped and warn:
        shown = "; ".join(record.dropped[:3]) + (" ..." if len(record.dropped) > 3 else "")
        warnings.warn(
            f"{path}: ignored {len(record.dropped)} entries irtables did not write: {shown}",
            DataWarning,
            stacklevel=user_stacklevel(),
        )
    return record


def parse_record(data: object) -> Record:
    """Validate a decoded record; invalid entries are dropped and described.

    Examples
    --------
    >>> r = parse_record({"schema": 1, "files": {"../x": {"sha256": "0" * 64, "by": "tables"}}})
    >>> dict(r.files), r.dropped
    ({}, ("'../x': not a path inside the folder",))
    """
    if not isinstance(data, dict) or data.get("schema") != SCHEMA:
        return Record(dropped=("not a record of this irtables version",))
    files = data.get("files")
    if not isinstance(files, dict):
        return Record(dropped=("no 'files' table",))
    kept: dict[str, Entry] = {}
    dropped: list[str] = []
    for rel, raw in files.items():
        entry, problem = _entry(rel, raw)
        if entry is None:
            dropped.append(f"{rel!r}: {problem}")
        else:
            kept[rel] = entry
    return Record(kept, tuple(dropped))


def _entry(rel: object, raw: object) -> tuple[Entry | None, str]:
    if not is_relative_path(rel):
        return None, "not a path inside the folder"
    if not isinstance(raw, dict):
        return None, "not an entry with sha256 and by"
    sha, by, previous = raw.get("sha256"), raw.get("by"), raw.get("previous")
    if not is_sha256(sha) or (previous is not None and not is_sha256(previous)):
        return None, "not a SHA-256"
    if by not in WRITERS:
        return None, f"unknown writer {by!r}"
    return Entry(sha, str(by), previous), ""


def record_text(files: Mapping[str, Entry]) -> str:
    """The record as stable JSON (sorted, two-space indent, final newline).

    Examples
    --------
    >>> text = record_text({"t.csv": Entry("a" * 64, "tables")})
    >>> json.loads(text)["files"]["t.csv"]["by"], parse_record(json.loads(text)).dropped
    ('tables', ())
    """
    body = {
        rel: {"by": e.by, "sha256": e.sha256, **({"previous": e.previous} if e.previous else {})}
        for rel, e in sorted(files.items())
    }
    doc = {"about": _ABOUT, "files": body, "schema": SCHEMA}
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def is_sha256(value: object) -> TypeGuard[str]:
    """Whether ``value`` is a SHA-256 as irtables writes it: 64 lowercase hex digits.

    Examples
    --------
    >>> is_sha256("0" * 64), is_sha256("0" * 63), is_sha256("A" * 64), is_sha256(None)
    (True, False, False, False)
    """
    return isinstance(value, str) and _SHA256.fullmatch(value) is not None


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of ``data`` as 64 hex digits.

    Examples
    --------
    >>> sha256_hex(b"")[:12]
    'e3b0c44298fc'
    """
    return hashlib.sha256(data).hexdigest()


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes (hex)."""
    with path.open("rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def _untrusted(path: Path, reason: str, warn: bool) -> Record:
    if warn:
        warnings.warn(f"{path}: ignored: {reason}", DataWarning, stacklevel=user_stacklevel())
    return Record(dropped=(reason,))


#: How many folders up discovery looks for records (DIR/<dataset>/<system>/<seed>).
RECORD_DEPTH = 3


def recorded_outputs(
    folder: Path, records: dict[Path, Record] | None = None, *, root: Path | None = None
) -> dict[str, Entry]:
    """Entries of ``folder`` that a record lists as outputs (not results): name -> entry.

    The records of ``folder`` and of up to :data:`RECORD_DEPTH` folders above it are
    read (a supplement's record lists ``tables/table1.csv``), but none above ``root``,
    the folder being read: a record outside it grants nothing there. Discovery skips
    these. ``records`` keeps the records read, by folder, for later calls (one discovery
    reads each record once).
    """
    out: dict[str, Entry] = {}
    base = folder.absolute()
    top = (root if root is not None else folder).absolute()
    for up, anc in enumerate((base, *base.parents)):
        if up > RECORD_DEPTH or (anc != top and top not in anc.parents):
            break
        prefix = base.parts[len(anc.parts) :]
        record = records.get(anc) if records is not None else None
        if record is None:
            record = read_record(anc, warn=False)
            if records is not None:
                records[anc] = record
        for rel, entry in record.files.items():
            parts = tuple(rel.split("/"))
            if entry.is_output and len(parts) == len(prefix) + 1 and parts[:-1] == prefix:
                out.setdefault(parts[-1], entry)
    return out


def warn_if_changed(path: Path, entry: Entry) -> bool:
    """Warn that a recorded output left out of discovery was edited since irtables wrote
    it; whether it was."""
    try:
        current = file_sha256(path) if path.is_file() and not path.is_symlink() else None
    except OSError:
        current = None
    if current is None or not entry.accepts(current):
        warnings.warn(
            f"{path}: not read as results: {RECORD} lists it as written by irtables "
            f"{entry.by}, and it has changed since (remove it from {RECORD} to read it)",
            DataWarning,
            stacklevel=user_stacklevel(),
        )
        return True
    return False
