"""The modules of irtables.stats import each other without a circle (every import
counted: module level, inside functions, under TYPE_CHECKING)."""

from __future__ import annotations

import ast
from pathlib import Path

STATS = Path(__file__).resolve().parents[2] / "src" / "irtables" / "stats"


def graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for path in STATS.glob("*.py"):
        if path.stem == "__init__":
            continue
        found = edges.setdefault(path.stem, set())
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                parts = node.module.split(".")
                if parts[:2] == ["irtables", "stats"] and len(parts) > 2:
                    found.add(parts[2])
    return edges


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_no_circle_between_the_modules_of_stats() -> None:
    edges = graph()
    assert "report" in edges["comparisons"]  # the notebook display: comparisons -> report
    assert cycle(edges) is None, " -> ".join(cycle(edges) or [])


def test_the_cycle_finder_finds_one() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
