"""How an object of a lower layer shows itself in a notebook, supplied by a layer above.

A :class:`~irtables.tables.model.TableModel` cannot import the renderers (they sit above
it); :mod:`irtables.render` registers them here when ``irtables`` is imported,
and the model's ``_repr_html_`` looks them up. Jupyter's display protocol stays on the
object, and no module imports a layer above its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Show = Callable[[Any], str]

#: The kind of a :class:`~irtables.tables.model.TableModel`.
TABLE = "table"

_SHOWN: dict[tuple[str, str], Show] = {}


def register(kind: str, mime: str, show: Show) -> None:
    """Make ``show(obj)`` the ``mime`` form (``"text/html"``) of objects of ``kind``."""
    _SHOWN[kind, mime] = show


def shown(obj: object, kind: str, mime: str) -> str:
    """The ``mime`` form of ``obj`` by the function registered for its ``kind``.

    Raises ``LookupError`` naming the pair when nothing is registered (``irtables.render``
    was not imported).
    """
    try:
        show = _SHOWN[kind, mime]
    except KeyError:
        raise LookupError(f"no {mime} display for {kind}: import irtables first") from None
    return show(obj)
