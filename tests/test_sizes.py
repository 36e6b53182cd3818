"""The package stays in rooms a reader can hold: no module above 600 lines, no function above complexity 20,
and none in `table/` (the protocol's machines) above 15.

Complexity is radon's cyclomatic complexity: one, plus one for each branch, loop, `except`, comprehension's
`if` and boolean operator. ruff's ratchet (`max-complexity` in pyproject.toml, tighter in
`p2pspades/table/ruff.toml`) counts the same paths but not the boolean operators, so a function can pass it
and fail here.

`python benchmarks/shape.py --old TREE` counts the same figures (functions above 10, 15 and 20, the largest
modules) in this tree and another, side by side.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from radon.complexity import cc_visit
from radon.visitors import Function

PACKAGE = Path(__file__).resolve().parent.parent / "p2pspades"

MAX_LINES = 600
MAX_COMPLEXITY = 20
#: the tighter limits of some folders of the package
MAX_COMPLEXITY_IN = {"table": 15}


def line_count(source: str) -> int:
    return len(source.splitlines())


def complexities(source: str) -> Iterator[tuple[str, int, int]]:
    """(name, line, complexity) of every function and method of a module's source (a closure counts in the
    function that holds it, as radon counts it)."""
    for block in cc_visit(source):
        if isinstance(block, Function):
            name = f"{block.classname}.{block.name}" if block.classname else block.name
            yield name, block.lineno, block.complexity


def limit(path: Path, root: Path = PACKAGE) -> int:
    folder = path.relative_to(root).parts[0]
    return MAX_COMPLEXITY_IN.get(folder, MAX_COMPLEXITY)


def sources(root: Path = PACKAGE) -> Iterator[tuple[Path, str]]:
    for path in sorted(root.rglob("*.py")):
        yield path, path.read_text(encoding="utf-8")


def test_no_module_is_above_600_lines() -> None:
    long = [f"{path.relative_to(PACKAGE.parent)}: {n} lines"
            for path, source in sources() if (n := line_count(source)) > MAX_LINES]
    assert not long, f"split along its seams (at most {MAX_LINES} lines a module):\n" + "\n".join(long)


def test_no_function_is_above_its_complexity_limit() -> None:
    found = [f"{path.relative_to(PACKAGE.parent)}:{line} {name}: {n} (at most {limit(path)})"
             for path, source in sources() for name, line, n in complexities(source) if n > limit(path)]
    assert not found, "too complex to read alone:\n" + "\n".join(found)


def test_the_measures_see_what_they_count() -> None:
    branches = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(20))
    method = "class C:\n    def g(self, a, b):\n        return a and b\n"
    source = f"def f(x):\n{branches}    return -1\n\n\n{method}"
    assert list(complexities(source)) == [("f", 1, 21), ("C.g", 46, 2)]
    assert line_count(source) == 47
    assert limit(PACKAGE / "table" / "machine.py") == 15
    assert limit(PACKAGE / "ui" / "state.py") == MAX_COMPLEXITY
