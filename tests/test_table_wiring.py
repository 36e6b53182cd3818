"""The table's machines know no table: the boss (`machine.py`, and `receiving.py`, its intake of frames) is
the only importer of them, none of them imports another (what one asks of another goes through the boss,
`machine.CARRY`), and none imports the boss or its view. Every import counts: at the top of a module, inside a
function, and under `if TYPE_CHECKING:`.
(That no module of the package imports itself through others: `test_imports.py`.)"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TABLE = Path(__file__).resolve().parent.parent / "p2pspades" / "table"
#: the machines: each sees its own narrow view of the table and returns what should happen
MACHINES = {"opening", "hand", "drawpile", "makers", "claims", "abandonment", "late", "clock", "own",
            "intake", "partings"}
#: the boss, in two files: the table and the one place it changes, and the path a frame takes to the machines
BOSS = {"machine", "receiving"}


def imports(path: Path) -> set[str]:
    """The modules of `table/` that the module at `path` imports, wherever the import is."""
    names = {p.stem for p in TABLE.glob("*.py")}
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name.removeprefix("p2pspades.table.") for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 1 and node.module is None:
            found.update(a.name for a in node.names)  # from . import x
        elif isinstance(node, ast.ImportFrom) and node.module in ("p2pspades.table", None):
            found.update(a.name for a in node.names)  # from p2pspades.table import x
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            found.add(node.module.removeprefix("p2pspades.table."))
    return (found & names) - {path.stem}


def graph() -> dict[str, set[str]]:
    return {p.stem: imports(p) for p in sorted(TABLE.glob("*.py"))}


def test_every_machine_is_a_module_of_the_table() -> None:
    assert set(graph()) >= MACHINES


@pytest.mark.parametrize("machine", sorted(MACHINES))
def test_only_the_boss_imports_a_machine_and_a_machine_imports_no_machine_nor_the_boss(machine: str) -> None:
    edges = graph()
    importers = {name for name, targets in edges.items() if machine in targets}
    # (the package's __init__ gives the public API: `Makers`, the seam for a modified peer)
    assert importers <= BOSS | {"__init__"}, f"{machine} is imported by {sorted(importers)}"
    assert not edges[machine] & (MACHINES | BOSS | {"views", "harness"}), sorted(edges[machine])


def test_the_reader_of_imports_sees_every_kind_of_import(tmp_path: Path) -> None:
    """The checks above can fail: an import under TYPE_CHECKING, inside a function, of the package's name,
    or relative is an import."""
    module = tmp_path / "part.py"
    module.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                      "    from p2pspades.table.machine import Table\n"
                      "def f():\n    from p2pspades.table import claims\n"
                      "from . import clock\nimport p2pspades.table.late\n")
    assert imports(module) == {"machine", "claims", "clock", "late"}
