"""The shape of this tree's code beside another checkout's: what a refactor of the table set out to change,
counted the same way in both.

For each tree:
- `import_circles`: the sets of modules of the package that import each other, however indirectly, every
  import counted (`tests/test_imports.py`'s reader: TYPE_CHECKING and a function's imports too), each with its
  modules;
- `complexity`: how many functions are above 10, 15 and 20 by mccabe (ruff's C901, the measure of the
  ratchet in pyproject.toml) and by radon (where it is installed), in the package and in `table/`, and the
  most complex ones;
- `largest_modules`: the line counts of the largest modules, and how many are above 600 lines;
- `table_parts`: for each module of `table/` but the boss (`machine.py`), the members of `Table` it reads
  or writes through a name bound to the table (`t.x`, `self.t.x`, `self._t.x`, `table.x`), with their uses
  and writes, and the members of a narrow view it reads (`view.x`); `table_imports`, the modules of `table/`
  each imports.

Prints one JSON object: {"old": {...}, "new": {...}}, or this tree's alone without `--old`.

    git worktree add /tmp/before <commit>        # or: git archive <commit> | tar -x -C /tmp/before
    python benchmarks/shape.py --old /tmp/before
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE / "tests"))
from test_imports import circles, graph  # noqa: E402

#: the names a part of the table binds the table to
TABLE_NAMES = {"t", "table"}
TABLE_ATTRIBUTES = {"t", "_t", "table"}  # self.t, self._t, self.table


def complexity_by_ruff(tree: Path, above: int) -> list[tuple[str, int]]:
    """(function, complexity) of every function of the package above `above`, by ruff's mccabe."""
    done = subprocess.run(
        ["ruff", "check", "--isolated", "--select", "C901", "--config", f"lint.mccabe.max-complexity={above}",
         "--output-format", "json", "p2pspades"],
        capture_output=True, text=True, cwd=tree, check=False,
    )
    found = []
    for item in json.loads(done.stdout or "[]"):
        # "`name` is too complex (N > M)"
        name = item["message"].split("`")[1]
        value = int(item["message"].split("(")[1].split(" ")[0])
        path = Path(item["filename"]).resolve().relative_to(tree.resolve())
        found.append((f"{path}:{name}", value))
    return sorted(found, key=lambda f: -f[1])


def complexity_by_radon(tree: Path) -> list[tuple[str, int]] | None:
    """(function, complexity) of every function and method of the package by radon (None: no radon here)."""
    done = subprocess.run([sys.executable, "-m", "radon", "cc", "-j", "p2pspades"], capture_output=True,
                          text=True, cwd=tree, check=False)
    if done.returncode != 0:
        return None
    found = []
    for path, blocks in json.loads(done.stdout).items():
        for block in blocks:
            if isinstance(block, dict) and block.get("type") in ("function", "method"):
                name = f"{block['classname']}.{block['name']}" if block.get("classname") else block["name"]
                found.append((f"{path}:{name}", int(block["complexity"])))
    return sorted(found, key=lambda f: -f[1])


def counted(found: list[tuple[str, int]]) -> dict[str, Any]:
    table = [f for f in found if f[0].startswith("p2pspades/table/")]
    return {
        **{f"above_{n}": sum(1 for _, c in found if c > n) for n in (10, 15, 20)},
        **{f"table_above_{n}": sum(1 for _, c in table if c > n) for n in (10, 15)},
        "most": [f"{name} {c}" for name, c in found[:5]],
    }


def largest(tree: Path, top: int = 8) -> dict[str, Any]:
    modules = (tree / "p2pspades").rglob("*.py")
    sizes = {str(p.relative_to(tree)): len(p.read_text().splitlines()) for p in modules}
    ranked = sorted(sizes.items(), key=lambda s: -s[1])
    return {"above_600": sum(1 for _, n in ranked if n > 600), "top": dict(ranked[:top])}


def _table_name(node: ast.expr) -> bool:
    """Whether `node` names the table: `t`, `table`, `self.t`, `self._t`, `self.table`."""
    if isinstance(node, ast.Name):
        return node.id in TABLE_NAMES
    return (isinstance(node, ast.Attribute) and node.attr in TABLE_ATTRIBUTES
            and isinstance(node.value, ast.Name) and node.value.id == "self")


def table_parts(tree: Path) -> dict[str, Any]:
    """What each module of `table/` but the boss touches of `Table`, and of a narrow view."""
    out: dict[str, Any] = {}
    for path in sorted((tree / "p2pspades" / "table").glob("*.py")):
        if path.stem in ("machine", "__init__"):
            continue
        uses: Counter[str] = Counter()
        writes: set[str] = set()
        viewed: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Attribute):
                continue
            if _table_name(node.value):
                uses[node.attr] += 1
                if isinstance(node.ctx, ast.Store | ast.Del):
                    writes.add(node.attr)
            elif isinstance(node.value, ast.Name) and node.value.id == "view":
                viewed.add(node.attr)
        if uses or viewed:
            out[path.stem] = {"table_members": len(uses), "table_uses": sum(uses.values()),
                              "table_members_written": sorted(writes), "view_members": len(viewed)}
    return out


def shape(tree: Path) -> dict[str, Any]:
    found = circles(graph(tree / "p2pspades"))
    edges = graph(tree / "p2pspades")
    table = {name.removeprefix("p2pspades.table."): sorted(t.removeprefix("p2pspades.table.") for t in targets
                                                           if t.startswith("p2pspades.table."))
             for name, targets in edges.items() if name.startswith("p2pspades.table.")}
    radon = complexity_by_radon(tree)
    return {
        "import_circles": len(found),
        "circles": [sorted(c) for c in found],
        "complexity": {"mccabe": counted(complexity_by_ruff(tree, 10)),
                       "radon": None if radon is None else counted(radon)},
        "largest_modules": largest(tree),
        "table_parts": table_parts(tree),
        "table_imports": table,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", type=Path, help="the other checkout (a git worktree, say)")
    opts = ap.parse_args()
    if opts.old is not None and not (opts.old / "p2pspades").is_dir():
        print(f"{opts.old} holds no p2pspades/ package: give a checkout of this project", file=sys.stderr)
        return 2
    out: dict[str, Any] = {"new": shape(HERE)}
    if opts.old is not None:
        out = {"old": shape(opts.old.resolve()), **out}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
