"""Checks every rules package's layout test shares: module sizes and the import
graph inside the package (relative and absolute imports alike)."""

from __future__ import annotations

import ast
from pathlib import Path

#: The most lines a rules module may have.
MAX_LINES = 500


def own_imports(rules: Path, package: str, name: str) -> set[str]:
    """The package's modules that module ``name`` imports."""
    tree = ast.parse((rules / f"{name}.py").read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level == 1:  # from . import x / from .x import y
            found.update([node.module] if node.module else (a.name for a in node.names))
        elif node.module == package:
            found.update(alias.name for alias in node.names)
        elif node.module and node.module.startswith(package + "."):
            found.add(node.module[len(package) + 1 :])
    return found


def modules(rules: Path) -> list[str]:
    """The package's modules (not its ``__init__``)."""
    return sorted(p.stem for p in rules.glob("*.py") if p.stem != "__init__")


def oversized_modules(rules: Path, limit: int = MAX_LINES) -> dict[str, int]:
    """Modules longer than ``limit`` lines, with their lengths."""
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in rules.glob("*.py")}
    return {name: lines for name, lines in sizes.items() if lines > limit}


def import_graph(rules: Path, package: str) -> dict[str, set[str]]:
    """Module -> the package's modules it imports."""
    names = modules(rules)
    return {name: own_imports(rules, package, name) & set(names) for name in names}


def import_cycle(rules: Path, package: str) -> list[str]:
    """One import cycle inside the package as a path of modules ([] when none)."""
    graph = import_graph(rules, package)
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> list[str]:
        if name in path:
            return [*path, name]
        if name in done:
            return []
        for target in sorted(graph[name]):
            cycle = visit(target, (*path, name))
            if cycle:
                return cycle
        done.add(name)
        return []

    for name in graph:
        cycle = visit(name, ())
        if cycle:
            return cycle
    return []
