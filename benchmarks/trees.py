"""This tree's benchmarks side by side with another checkout's, in one run: is a change any slower?

Each benchmark script runs from its own tree (`python TREE/benchmarks/NAME.py ...`, with that tree first on
`PYTHONPATH`), the two trees in alternating rounds, so that load from other processes on a shared machine hits
both alike. For each figure: the median over rounds in each tree, and the ratio of this tree's to the other's
(for a rate, above 1 is faster; for a time, below 1 is faster). Prints one JSON object; progress on stderr.

    git worktree add /tmp/before <commit>
    python benchmarks/trees.py --old /tmp/before [--rounds 3] [--only engine,deal,bots]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent

#: benchmark: (its arguments for a short run, the figures compared as (name, path in its JSON, "rate"/"time"))
BENCHMARKS: dict[str, tuple[list[str], list[tuple[str, str, str]]]] = {
    "engine": (
        ["--seconds", "2", "--rounds", "2"],
        [("engine_hands_per_s", "engine_hands_per_s", "rate")],
    ),
    "deal": (
        ["--hands", "2", "--verify-hands", "3", "--verify-repeat", "1", "--proof-repeat", "1", "--jobs", "1"],
        [
            ("setup_with_proofs_s", "setup_with_proofs_s", "time"),
            ("verify_hands_per_s", "verify_hands_per_s", "rate"),
            ("setup_ratio_v1", "setup_ratio_v1", "time"),
        ],
    ),
    "bots": (
        ["--deals", "2", "--presets", "classic", "--skip-random", "--quiet"],
        [("expert_decision_cpu_mean_s", "classic.expert_over_heuristic.bots.expert.decision_cpu_time.mean_s",
          "time")],
    ),
}


def figure(data: Any, path: str) -> float | None:
    for key in path.split("."):
        if not isinstance(data, dict) or key not in data:
            return None
        data = data[key]
    return float(data) if isinstance(data, int | float) else None


def run(tree: Path, name: str, args: Sequence[str]) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run(
        [sys.executable, str(tree / "benchmarks" / f"{name}.py"), *args],
        capture_output=True, text=True, env=env, cwd=tree, check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{name} failed in {tree}: {done.stderr.strip().splitlines()[-1:]}")
    text = done.stdout
    starts = [i for i, line in enumerate(text.splitlines()) if line.startswith("{")]
    for start in reversed(starts):  # the JSON object: one line, or pretty-printed to the end
        try:
            result: dict[str, Any] = json.loads("\n".join(text.splitlines()[start:]))
        except json.JSONDecodeError:
            continue
        return result
    raise SystemExit(f"{name} printed no JSON object in {tree}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", type=Path, required=True, help="the other checkout (a git worktree, say)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default=",".join(BENCHMARKS), help="comma-separated benchmark names")
    opts = ap.parse_args()
    if not (opts.old / "benchmarks").is_dir():
        print(f"{opts.old} holds no benchmarks/ folder: give a checkout of this project", file=sys.stderr)
        return 2
    names = [n for n in opts.only.split(",") if n]
    unknown = [n for n in names if n not in BENCHMARKS]
    if unknown or opts.rounds < 1:
        print(f"unknown benchmark {unknown} (known: {', '.join(BENCHMARKS)})" if unknown
              else "--rounds must be at least 1", file=sys.stderr)
        return 2
    trees = {"old": opts.old.resolve(), "new": HERE}
    samples: dict[str, dict[str, list[float]]] = {}
    for r in range(opts.rounds):
        for name in names:
            args, figures = BENCHMARKS[name]
            for label in ("old", "new") if r % 2 == 0 else ("new", "old"):
                print(f"round {r + 1}/{opts.rounds}: {name} in the {label} tree", file=sys.stderr, flush=True)
                data = run(trees[label], name, args)
                for fig, path, _ in figures:
                    value = figure(data, path)
                    if value is not None:
                        samples.setdefault(fig, {}).setdefault(label, []).append(value)
    out: dict[str, Any] = {"old": str(trees["old"]), "new": str(trees["new"]), "rounds": opts.rounds}
    kinds = {fig: kind for _, figures in BENCHMARKS.values() for fig, _, kind in figures}
    for fig, by in samples.items():
        old, new = (statistics.median(by[k]) if by.get(k) else None for k in ("old", "new"))
        ratio = None if not old or new is None else round(new / old, 3)
        out[fig] = {"old": old, "new": new, "new_over_old": ratio, "kind": kinds[fig]}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
