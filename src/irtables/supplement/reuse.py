"""A rerun redraws only the figures whose data changed (issue 33 §2).

Each figure is a job, a :func:`functools.partial` of a figure function and the data it
draws (:mod:`.drawing`). Its *recipe* (:func:`figure_recipe`) is the SHA-256 of exactly
that: the function (module and name), every value it is given (floats to the bit,
arrays with their dtype and shape, dataclasses field by field), the source of the
modules that draw it, irtables' version and the versions of matplotlib, fontTools and
Pillow. A build records each figure's recipe in its manifest
(:attr:`~irtables.supplement.manifest.Manifest.figures`); a rerun whose figure has the
recorded recipe, and whose files are on disk with the recorded bytes, keeps those bytes
(drawing the same data with the same code gives the same bytes: :mod:`.figures` fixes
the style, sizes and metadata) instead of drawing it again.

A value of a type the recipe cannot describe makes no recipe: that figure is always drawn.
"""

from __future__ import annotations

import enum
import hashlib
import json
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from functools import cache, partial
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

import numpy as np

from irtables._version import __version__
from irtables.base.code import module_digest
from irtables.base.paths import inside
from irtables.supplement.drawing import FigureDrawing, Rendered
from irtables.supplement.outputs import Plan

#: The packages whose versions a figure's bytes depend on.
DRAWN_WITH = ("matplotlib", "fonttools", "pillow")
#: Modules every figure is drawn with, whatever its function (style, fonts, saving).
COMMON_MODULES = ("irtables.supplement.figures", "irtables.supplement.fonts")
Progress = Callable[[int, int], None]


class _NoRecipe(Exception):
    """A value the recipe cannot describe."""


def figure_recipe(job: Callable[[], object]) -> str | None:
    """The SHA-256 of what a figure job draws and how, or None when a value of the job
    cannot be described (the figure is then always drawn).

    Examples
    --------
    >>> from functools import partial
    >>> a = figure_recipe(partial(round, 1.5))
    >>> a == figure_recipe(partial(round, 1.5)), a == figure_recipe(partial(round, 2.5))
    (True, False)
    >>> figure_recipe(partial(round, object())) is None
    True
    """
    digest = hashlib.sha256()
    head = {"irtables": __version__, "packages": _packages(), "code": _code_digest(job)}
    digest.update(json.dumps(head, sort_keys=True).encode())
    try:
        _feed(digest, job)
    except _NoRecipe:
        return None
    return digest.hexdigest()


@dataclass(frozen=True)
class KeptFigure:
    """A figure of the earlier build: its recipe and its files (extension -> bytes), read
    back from the output folder and checked against the manifest's hashes."""

    recipe: str
    files: Mapping[str, bytes]


@dataclass
class FigureWork:
    """The figures of one build: those whose recipe an earlier build recorded (with its
    files intact) are kept, the others are sent to ``drawing``.

    ``drawn`` and ``kept`` list the figures' stems as they were decided, ``recipes``
    maps each stem to its recipe (for the manifest; figures without one are absent).
    """

    drawing: FigureDrawing
    earlier: Mapping[str, KeptFigure] = field(default_factory=dict)
    recipes: dict[str, str] = field(default_factory=dict)
    drawn: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)

    def submit(self, plans: Sequence[Plan]) -> None:
        """Keep or draw each figure of ``plans``."""
        for entry, job in plans:
            recipe = figure_recipe(job)
            if recipe is not None:
                self.recipes[entry.stem] = recipe
            old = self.earlier.get(entry.stem)
            if recipe is not None and old is not None and old.recipe == recipe:
                self.kept.append(entry.stem)
            else:
                self.drawn.append(entry.stem)
                self.drawing.submit([job])

    def results(self, progress: Progress | None = None) -> dict[str, Rendered]:
        """Every figure's files by stem, once those to draw are drawn."""
        files = dict(zip(self.drawn, self.drawing.results(progress), strict=True))
        files.update({stem: dict(self.earlier[stem].files) for stem in self.kept})
        return files


def kept_figures(
    recipes: Mapping[str, str], outputs: Mapping[str, str], folder: Path
) -> dict[str, KeptFigure]:
    """The figures of an earlier build in ``folder`` that can be kept: each stem of
    ``recipes`` (the manifest's) whose files ``figures/<stem>.<ext>`` the manifest's
    ``outputs`` (path -> SHA-256) lists and which are on disk with those bytes (regular
    files inside ``folder``: :func:`~irtables.base.paths.inside`)."""
    from irtables.base.record import sha256_hex

    kept: dict[str, KeptFigure] = {}
    for stem, recipe in recipes.items():
        prefix = f"figures/{stem}."
        paths = {p[len(prefix) :]: p for p in outputs if p.startswith(prefix)}
        files: dict[str, bytes] = {}
        for ext, rel in paths.items():
            data = _read_regular(folder, rel)
            if data is None:
                break
            if sha256_hex(data) != outputs[rel]:
                break
            files[ext] = data
        else:
            if files:
                kept[stem] = KeptFigure(recipe, files)
    return kept


def _read_regular(folder: Path, rel: str) -> bytes | None:
    """The bytes of the regular file ``rel`` inside ``folder``; None for anything else
    (absent, a symlink, a FIFO, a place outside the folder)."""
    from irtables.errors import IrtablesError

    try:
        path = inside(folder, rel)
        if path.is_symlink() or not path.is_file():
            return None
        return path.read_bytes()
    except (IrtablesError, OSError):
        return None


@cache
def _packages() -> tuple[tuple[str, str], ...]:
    found = []
    for name in DRAWN_WITH:
        try:
            found.append((name, version(name)))
        except PackageNotFoundError:
            found.append((name, ""))
    return tuple(found)


def _code_digest(job: Callable[[], object]) -> str:
    func = job.func if isinstance(job, partial) else job
    return module_digest((*COMMON_MODULES, getattr(func, "__module__", "") or ""))


def _feed(digest: Any, value: object) -> None:
    """Feed a description of ``value`` to ``digest``: its type and content, exactly."""

    def tag(text: str) -> None:
        digest.update(text.encode("utf-8", "surrogatepass") + b"\0")

    if value is None or isinstance(value, bool | int | str | bytes):
        tag(f"{type(value).__name__}:{value!r}")
    elif isinstance(value, float):
        tag(f"float:{value.hex()}")
    elif isinstance(value, enum.Enum):
        tag(f"enum:{type(value).__qualname__}.{value.name}")
    elif isinstance(value, np.ndarray | np.generic):
        array = np.asarray(value)
        if array.dtype.hasobject:
            raise _NoRecipe
        tag(f"array:{array.dtype.str}:{array.shape}")
        digest.update(np.ascontiguousarray(array).tobytes())
    elif isinstance(value, partial):
        tag("partial")
        for part in (value.func, value.args, sorted(value.keywords.items())):
            _feed(digest, part)
    elif isinstance(value, tuple | list):
        tag(f"{type(value).__name__}:{len(value)}")
        for item in value:
            _feed(digest, item)
    elif isinstance(value, dict):
        tag(f"dict:{len(value)}")
        for key, item in value.items():
            _feed(digest, key)
            _feed(digest, item)
    elif is_dataclass(value) and not isinstance(value, type):
        tag(f"dataclass:{type(value).__module__}.{type(value).__qualname__}")
        for f in fields(value):
            tag(f.name)
            _feed(digest, getattr(value, f.name))
    elif _bound(value):
        tag(f"method:{type(value.__self__).__qualname__}.{value.__name__}")  # type: ignore[attr-defined]
        _feed(digest, value.__self__)  # type: ignore[attr-defined]
    elif _named(value):
        tag(f"callable:{getattr(value, '__module__', '')}.{getattr(value, '__qualname__', '')}")
    else:
        raise _NoRecipe


def _bound(value: object) -> bool:
    """A method bound to an object (not to a module, as builtins are)."""
    if not isinstance(value, types.MethodType | types.BuiltinMethodType):
        return False
    return not isinstance(getattr(value, "__self__", None), types.ModuleType | None)


def _named(value: object) -> bool:
    """A function or class found by its module and name alone (no closure, no lambda)."""
    if isinstance(value, types.FunctionType) and value.__closure__:
        return False
    plain = isinstance(value, types.FunctionType | types.BuiltinFunctionType | type)
    return plain and "<" not in getattr(value, "__qualname__", "<")
