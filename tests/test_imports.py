"""The package imports in one direction: no module imports, however indirectly, a module that imports it.

Every import counts: at the top of a module, inside a function, and under `if TYPE_CHECKING:` (a circle
hidden from the interpreter is still a circle for the reader, and for the next change). `from package import
name` is an import of the submodule `package.name` where there is one, else of the package.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "p2pspades"

def modules(root: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by its dotted name (a package by its own name, for its __init__)."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imported(name: str, path: Path, known: Iterable[str]) -> set[str]:
    """The modules of the package that the module `name` (at `path`) imports, wherever the import is."""
    known = set(known)
    here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = here[: len(here) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            out.update(f"{module}.{alias.name}" if f"{module}.{alias.name}" in known else module
                       for alias in node.names)
    return {target for target in out if target in known and target != name}


def graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    found = modules(root)
    return {name: imported(name, path, found) for name, path in found.items()}


def circles(edges: Mapping[str, Iterable[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module: each a set of modules that import each
    other, directly or not (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[frozenset[str]] = []
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(edges[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges.get(child, ()))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.append(frozenset(component))
    return out


def test_no_module_imports_itself_through_others() -> None:
    found = circles(graph())
    assert not found, f"import circles: {[sorted(c) for c in found]}"


def test_the_reader_of_imports_sees_every_kind_of_import(tmp_path: Path) -> None:
    """A circle through a TYPE_CHECKING import, a function's import, a relative import and `from package
    import module` is found: the test above can fail."""
    pkg = tmp_path / "p2pspades"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from p2pspades.sub.a import A\n")
    (pkg / "sub" / "a.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                      "    from p2pspades.sub.b import B\nA = 1\n")
    (pkg / "sub" / "b.py").write_text("def f():\n    from . import c\n")
    (pkg / "sub" / "c.py").write_text("from p2pspades.sub import a\n")
    (pkg / "other.py").write_text("from p2pspades import sub\n")
    edges = graph(pkg)
    assert edges["p2pspades.sub.c"] == {"p2pspades.sub.a"}, "`from package import module` is the module"
    assert edges["p2pspades.other"] == {"p2pspades.sub"}
    assert circles(edges) == [frozenset({"p2pspades.sub.a", "p2pspades.sub.b", "p2pspades.sub.c"})]


@pytest.mark.parametrize(("edges", "expected"), [
    ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
    ({"a": {"b"}, "b": {"a"}}, [{"a", "b"}]),
    ({"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": {"d"}}, [{"d", "e"}, {"a", "b", "c"}]),
])
def test_circles_are_the_strongly_connected_components(edges: dict[str, set[str]],
                                                        expected: list[set[str]]) -> None:
    assert sorted(map(sorted, circles(edges))) == sorted(map(sorted, expected))
