"""Loaders: per-query metric dumps in many formats, read into one tidy frame.

:data:`LOADERS` names the formats; :func:`load_file` reads one file and
:func:`load_results` / :func:`load_study` read a file or a folder of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from irtables.base.lazy import lazy_exports

if TYPE_CHECKING:
    from irtables.loaders.base import LoadedFile, Loader
    from irtables.loaders.detect import detect_format
    from irtables.loaders.discover import Study, load_results, load_study
    from irtables.loaders.registry import LOADERS, get_loader, load_file

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "irtables.loaders.base": (
            "LoadedFile",
            "Loader",
        ),
        "irtables.loaders.detect": ("detect_format",),
        "irtables.loaders.discover": (
            "Study",
            "load_results",
            "load_study",
        ),
        "irtables.loaders.registry": (
            "LOADERS",
            "get_loader",
            "load_file",
        ),
    },
)

__all__ = [
    "LOADERS",
    "LoadedFile",
    "Loader",
    "Study",
    "detect_format",
    "get_loader",
    "load_file",
    "load_results",
    "load_study",
]
