"""Lazy attributes for package ``__init__`` modules (PEP 562).

A package lists its public names and the submodule each comes from; the submodule is
imported on first access. ``import irtables.cli`` (and ``irtables --help``) thus imports
no pandas, scipy or matplotlib: those load only when a command needs them.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(
    package: str, exports: Mapping[str, tuple[str, ...]]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``, from ``{submodule: names}``.

    Submodules are absolute names or relative ones (``".results"``). A resolved name is
    stored in the package, so it is looked up once.

    Examples
    --------
    >>> getattr_, dir_ = lazy_exports("irtables", {"._version": ("__version__",)})
    >>> getattr_("__version__") == __import__("irtables._version").__version__
    True
    """
    where = {name: module for module, names in exports.items() for name in names}

    def __getattr__(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(where))

    return __getattr__, __dir__
