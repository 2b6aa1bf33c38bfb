"""The data flows one way: no part of irtables imports a part above it.

load -> ResultSet -> stats -> TableModel -> render -> write. Each top-level part of the
package has a layer; a module may import its own part and the parts of lower layers,
at module level or inside a function alike.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "irtables"

LAYERS: dict[str, int] = {
    "_version": 0,
    "errors": 0,
    "base": 1,
    "workers": 1,  # processes, threads and the Dask cluster; imports only errors
    "measures": 2,
    "model": 3,
    "loaders": 4,
    "evaluator": 5,
    "cache": 6,  # per-query values evaluated from runs, kept between rebuilds
    "stats": 6,
    "config": 7,
    "tables": 8,
    "render": 9,
    "output": 10,
    "lint": 10,
    "study": 11,
    "diff": 11,
    "supplement": 12,
    "cli": 13,
    "__init__": 14,
    "__main__": 14,
}

# (importing module, imported part): why the upward import is the lesser evil.
# None today: a table's notebook display is registered by irtables.render in
# irtables.base.display, where the model looks it up.
EXCEPTIONS: dict[tuple[str, str], str] = {}


def _part(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _imports() -> list[tuple[str, str]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        module = ".".join(p for p in rel.parts if p != "__init__") or "irtables"
        if rel.name == "__init__" and len(rel.parts) == 2:
            module = "irtables.__init__"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            found += [(module, n) for n in names if n.split(".")[0] == "irtables"]
    return found


def test_every_part_has_a_layer() -> None:
    # modules by name without .py; folders and other files (py.typed) by their full name
    parts = {p.stem if p.suffix == ".py" else p.name for p in PACKAGE.iterdir()}
    parts = {p for p in parts if not p.startswith(".") and p != "__pycache__"}
    assert parts <= set(LAYERS) | {"py.typed"}, parts - set(LAYERS) - {"py.typed"}


def test_no_import_reaches_up() -> None:
    upward = [
        f"{module} (layer {LAYERS[_part(module)]}) imports {imported} "
        f"(layer {LAYERS[_part(imported)]})"
        for module, imported in _imports()
        if _part(module) != _part(imported)
        and (module, _part(imported)) not in EXCEPTIONS
        and LAYERS[_part(imported)] >= LAYERS[_part(module)]
    ]
    assert upward == []


def test_exceptions_are_still_needed() -> None:
    used = {(m, _part(i)) for m, i in _imports()}
    assert set(EXCEPTIONS) <= used, set(EXCEPTIONS) - used


def _module_graph(package: str) -> dict[str, set[str]]:
    """Imports between the modules of one package (``irtables.<package>``): module ->
    the modules of the same package it imports (at any level, ``TYPE_CHECKING`` too)."""
    root = PACKAGE / package
    names = {
        ".".join(("irtables", package, *p.relative_to(root).with_suffix("").parts))
        for p in root.rglob("*.py")
    }
    names = {n.removesuffix(".__init__") for n in names}
    graph: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).with_suffix("").parts
        module = ".".join(("irtables", package, *rel)).removesuffix(".__init__")
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:  # `from irtables.pkg import module` names a module
                    full = f"{node.module}.{alias.name}"
                    targets.add(full if full in names else node.module)
            elif isinstance(node, ast.Import):
                targets.update(a.name for a in node.names)
        graph[module] = {t for t in targets if t in names and t != module}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_circles_are_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


# Packages whose modules import each other without a circle.
# every package: no module circle inside one, imports inside functions included
NO_CIRCLES = tuple(sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()))


def test_no_module_circles_within_a_package() -> None:
    circles = {p: _circles(_module_graph(p)) for p in NO_CIRCLES}
    assert circles == {p: [] for p in NO_CIRCLES}


def test_the_design_document_states_these_layers() -> None:
    """docs/design.md's table of packages and layers is this one, and it allows no
    upward import when there is no exception."""
    import re

    text = (PACKAGE.parents[1] / "docs" / "design.md").read_text(encoding="utf-8")
    stated: dict[str, int] = {}
    for layer, packages in re.findall(r"^\| (\d+) \| ([^|]+) \|", text, flags=re.M):
        for name in re.findall(r"`([^`]+)`", packages):
            for part in ("__init__", "__main__") if name == "irtables" else (name,):
                stated[part] = int(layer)
    assert stated == LAYERS, "docs/design.md's table of layers differs from tests/test_layers.py"
    if not EXCEPTIONS:
        assert "upward import allowed" not in text, "docs/design.md allows an upward import"
