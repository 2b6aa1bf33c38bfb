"""The identity of irtables' own code: what a build records beside the version number.

Two installs of one version hold the same files and give the same digest; a change of any
module, template or font of the package (a development checkout, a patched install)
gives another, so a rerun built by other code is redone even when the version number is
the same.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import sys
from pathlib import Path

#: The package folder (``irtables/``): this module is ``irtables/base/code.py``.
PACKAGE = Path(__file__).resolve().parent.parent


@functools.cache
def code_digest(package: Path = PACKAGE) -> str:
    """The SHA-256 of every file of ``package`` (its path and bytes, in path order),
    compiled caches left out.

    Examples
    --------
    >>> len(code_digest()), code_digest() == code_digest()
    (64, True)
    """
    digest = hashlib.sha256()
    files = sorted(
        p
        for p in package.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".pyo")
    )
    for path in files:
        name = path.relative_to(package).as_posix().encode()
        data = path.read_bytes()
        digest.update(len(name).to_bytes(8, "little") + name)
        digest.update(len(data).to_bytes(8, "little") + data)
    return digest.hexdigest()


@functools.cache
def module_digest(modules: tuple[str, ...]) -> str:
    """The SHA-256 of the source files of ``modules`` (dotted names, in the order given;
    one without a source file counts as empty): what a recipe records of the code that
    computes or draws it.

    Examples
    --------
    >>> a = module_digest(("irtables.base.code",))
    >>> a == module_digest(("irtables.base.code",)), a == module_digest(("irtables.base",))
    (True, False)
    """
    digest = hashlib.sha256()
    for name in modules:
        origin = _source_file(name)
        data = Path(origin).read_bytes() if origin and Path(origin).is_file() else b""
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return digest.hexdigest()


def _source_file(name: str) -> str | None:
    """The file of module ``name``: the loaded module's, else where it would be found."""
    loaded = sys.modules.get(name)
    if loaded is not None:
        return getattr(loaded, "__file__", None)
    try:
        spec = importlib.util.find_spec(name) if name else None
    except (ImportError, ValueError):
        return None
    return spec.origin if spec is not None else None
