"""A cache of per-query values computed from runs, so that a rebuild re-evaluates only
the runs that changed.

An entry is keyed by what determines its values: the content (SHA-256) of the qrels file
and of the run file, the run's name, the evaluation options and the evaluator's
semantics version (:mod:`irtables.evaluator.semantics`): any change to one of them is a
different key, never a stale hit. Entries are Parquet files in a cache folder inside the
study's folder (``.irtables-cache``, which the loaders never read as results); each
carries that description, checked against the request when read, and its values pass
the checks of any input; one that does not check out is evaluated again, with a
warning, never used. :func:`clear` removes what irtables wrote there;
:func:`~irtables.study.verify.verify_cache` evaluates entries again and compares.

The results of significance tests are kept beside them, by recipe, as JSON
(:mod:`irtables.cache.results`, in ``tests/``).
"""

from __future__ import annotations

from irtables.cache.store import (
    CACHE_DIR_NAME,
    Cache,
    DamagedEntry,
    Request,
    clear,
    content_hashes,
    entries,
    read_entry,
    rows_bound,
    warn_damaged,
)

__all__ = [
    "CACHE_DIR_NAME",
    "Cache",
    "DamagedEntry",
    "Request",
    "clear",
    "content_hashes",
    "entries",
    "read_entry",
    "rows_bound",
    "warn_damaged",
]
