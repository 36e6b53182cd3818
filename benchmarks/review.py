"""How long `p2pspades review` takes on a ten-hand game (or a three-hand one, `--hands 3`), against
`p2pspades verify` of the same log in the same run (the review verifies the log too, then weighs every
decision of one seat).

The log is a classic game of ten hands (or three), played in memory by four heuristic bots from a fixed
seed, with the real deal, proofs and signatures (`--log` reuses a log instead). Each command runs as a person
runs it, a process of its own from start to exit, `--rounds` times, review and verify in turn, so that load
from other processes on a shared machine hits both alike. Reported: the wall-clock seconds of each (median
and best), the review's over verify's, the CPU seconds each used with its worker processes (median: what an
idle machine's cores must do), the load average around the runs, and how many decisions the review weighed.
Prints one JSON object.

`--old PATH` also times the review of another checkout of the project (a git worktree of main, say) on the
same log, in turn with this one's (the order swapped every round), and says whether the two reviews are the
same: the seat's totals and every costly decision listed, with its numbers.

    python benchmarks/review.py [--rounds 5] [--hands 10|3] [--think normal] [--jobs 2] [--seat 0]
                                [--log PATH] [--old PATH]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from p2pspades import log as logfile
from p2pspades.bots import HeuristicBot
from p2pspades.rules import PRESETS
from p2pspades.table.harness import play_in_memory

HERE = Path(__file__).resolve().parent.parent
SEED = b"review-speed"
TARGETS = {10: 560, 3: 320}
"""With this seed, the classic game to each target ends after exactly that many hands."""


def make_log(path: Path, target: int) -> int:
    """Play the benchmark's game to `target` points into `path`; the number of hands it took."""
    rules = dataclasses.replace(PRESETS["classic"], target=target)
    wire = play_in_memory(rules, [HeuristicBot(seat) for seat in range(4)], seed=SEED)
    entries = wire.tables[0].entries
    path.write_bytes(logfile.MAGIC + b"".join(len(e).to_bytes(4, "big") + e for e in entries))
    game = wire.tables[0].game
    assert game is not None
    return len(game.history)


def timed(command: list[str], tree: Path = HERE) -> tuple[float, float, str]:
    """Run a `p2pspades` command of the checkout `tree` to its end: its wall-clock seconds, the CPU seconds
    it and its worker processes used, and what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONPATH=str(tree))
    # run from the tree: `python -m` puts the working folder first on the path, before PYTHONPATH
    done = subprocess.run([sys.executable, "-m", "p2pspades", *command], capture_output=True, text=True,
                          check=False, env=env, cwd=tree)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"p2pspades {' '.join(command)} failed ({done.returncode}): {done.stderr.strip()}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return seconds, cpu, done.stdout


def summary(times: list[float], cpu: list[float]) -> dict[str, Any]:
    return {"median_s": round(statistics.median(times), 3), "best_s": round(min(times), 3),
            "runs": [round(t, 3) for t in times], "cpu_median_s": round(statistics.median(cpu), 3)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=5, help="times each command is run (default 5)")
    parser.add_argument("--hands", type=int, choices=sorted(TARGETS), default=10,
                        help="the benchmark's game: ten hands (default) or three")
    parser.add_argument("--think", default="normal", help="the review's --think (default normal, its own)")
    parser.add_argument("--jobs", type=int, default=None, help="the review's --jobs (default: its own)")
    parser.add_argument("--seat", type=int, default=0, help="the seat reviewed (default 0)")
    parser.add_argument("--log", help="review this log instead of the benchmark's game")
    parser.add_argument("--old", type=Path,
                        help="another checkout, whose review is timed in turn with this one's")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if args.old is not None and not (args.old / "p2pspades" / "cli" / "review.py").is_file():
        parser.error(f"{args.old} holds no p2pspades/cli/review.py: give a checkout of this project")
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(args.log).resolve() if args.log else Path(scratch) / f"{args.hands}-hands.p2plog"
        hands = None
        if not args.log:
            hands = make_log(path, TARGETS[args.hands])
            if hands != args.hands:
                raise SystemExit(f"the benchmark's game took {hands} hands, not {args.hands}: "
                                 "set TARGETS anew")
        review = ["review", str(path), "--json", "--seat", str(args.seat), "--think", args.think]
        if args.jobs is not None:
            review += ["--jobs", str(args.jobs)]
        trees = {"review": HERE} if args.old is None else {"review": HERE, "old": args.old.resolve()}
        times: dict[str, tuple[list[float], list[float]]] = {k: ([], []) for k in (*trees, "verify")}
        said: dict[str, Any] = {}
        load = os.getloadavg()[0]
        for r in range(args.rounds):
            for label in trees if r % 2 == 0 else reversed(trees):
                seconds, cpu, out = timed(review, trees[label])
                times[label][0].append(seconds)
                times[label][1].append(cpu)
                said[label] = json.loads(out)
            seconds, cpu, _out = timed(["verify", str(path)])
            times["verify"][0].append(seconds)
            times["verify"][1].append(cpu)
    reviews, verifies = times["review"][0], times["verify"][0]
    figures: dict[str, Any] = {}
    if args.old is not None:
        old_times, old_cpu = times["old"]
        cpu = statistics.median(times["review"][1]) / statistics.median(old_cpu)
        figures = {
            "old": str(args.old.resolve()),
            "old_review": summary(old_times, old_cpu),
            "review_over_old": round(statistics.median(reviews) / statistics.median(old_times), 2),
            "review_cpu_over_old": round(cpu, 2),
            # the seat's totals and every costly decision listed, with its numbers, as the old review says
            "same_review": said["review"] == said["old"],
        }
    print(json.dumps({
        "benchmark": "review",
        "hands": hands,
        "think": args.think,
        "jobs": args.jobs,
        "cores": os.cpu_count(),
        "decisions_weighed": said["review"]["decisions"],
        # what else the machine ran: the 1-minute load average before the first run and after the last
        "load_average": [round(load, 2), round(os.getloadavg()[0], 2)],
        "review": summary(reviews, times["review"][1]),
        "verify": summary(verifies, times["verify"][1]),
        "review_over_verify": round(statistics.median(reviews) / statistics.median(verifies), 2),
        **figures,
    }, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
