"""A cache of per-query values computed from runs, so that a rebuild re-evaluates only
the runs that changed.

An entry is keyed by the content (SHA-256) of the qrels file and of the run file, the
evaluation options and irtables' version: any change to one of them is a different key,
never a stale hit. Entries are Parquet files in a cache folder inside the study's
folder (``.irtables-cache``, which the loaders never read as results); each carries a
checksum of its values and its own key, and one that does not check out is evaluated
again and rewritten, never used. :func:`clear` removes what irtables wrote there.
"""

from __future__ import annotations

from irtables.cache.store import CACHE_DIR_NAME, Cache, clear, content_hashes, entries

__all__ = ["CACHE_DIR_NAME", "Cache", "clear", "content_hashes", "entries"]
