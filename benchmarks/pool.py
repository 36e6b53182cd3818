"""The figures of several runs of `benchmarks/bots.py` taken together: a long match played in chunks (each
run with a `--seed` of its own, so no deal is played twice), a chunk at a time on a shared machine.

Each comparison's deal-by-deal margins (the runs' `margins`) are pooled, preset by preset, into one mean with
its 95% interval, as `bots.py` reports a single run; the bots' tallies (decisions, their wall-clock and CPU
time, sets, nils, bags) are summed, the decision times as means weighted by decisions and the largest 95th
percentile of the runs. Runs whose settings differ (the budget, playouts, the yardstick's, the expert's
settings) are refused: their deals do not measure the same thing. Prints one JSON object.

With `--over`, the runs of another version or setting of the expert on the same deals (the same seeds), the
change is measured where it acts: each deal's margin less the other run's on that deal, pooled ("change on
the same deals", with how many deals changed at all). A deal the change leaves alone is played exactly as
before, so the difference has far less noise than the two matches apart.

Where every run recorded its hands (`bots.py --hands`) and a deal is played at two tables, each comparison
also says where its points go (`by_bids`): each side's cards are played once by each bot, so each side hand
compares the two on the same cards, sorted by how each bot's seats bid them (the same counted total, A's
higher or lower, a nil bid by both, by A alone or by B alone). Per kind: the side hands, A's points less B's a
side hand, that kind's share of the points per deal (the shares add up to the pooled points per deal) and
A's bags less B's a side hand.

    python benchmarks/pool.py RUN.json [RUN.json ...] [--over OLD.json [OLD.json ...]]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bots import mean_ci  # beside this script (its folder is on the path)

from p2pspades.rules import PRESETS, RuleSet, is_nil

SETTINGS = ("budget", "confidence", "playouts", "pimc_budget", "pimc_playouts", "expert", "exact_ending")
"""What every pooled run must share."""
KINDS = ("the same counted total", "A's total higher", "A's total lower", "nil by both", "nil by A alone",
         "nil by B alone")
"""How the two bots bid a side's cards, in `by_bids`."""


def load(path: str) -> dict[str, Any]:
    """One run's JSON (SystemExit with a one-line reason for a file that is not one)."""
    try:
        run = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise SystemExit(f"{path}: not a run of benchmarks/bots.py ({error})") from None
    if not isinstance(run, dict) or run.get("benchmark") != "bots":
        raise SystemExit(f"{path}: not a run of benchmarks/bots.py")
    return run


def _tallies(into: dict[str, Any], bots: dict[str, Any]) -> None:
    """Add one run's tallies of each bot to `into`."""
    for name, tally in bots.items():
        out = into.setdefault(name, {"decisions": 0, "wall_s": 0.0, "cpu_s": 0.0, "p95_s": 0.0,
                                     "cpu_p95_s": 0.0, "capped_decisions": 0, "side_hands": 0, "sets": 0,
                                     "nils": 0, "nils_made": 0, "bags": 0})
        decisions = tally["decision_time"]["decisions"]
        out["decisions"] += decisions
        out["wall_s"] += tally["decision_time"].get("mean_s", 0.0) * decisions
        out["cpu_s"] += tally["decision_cpu_time"].get("mean_s", 0.0) * decisions
        out["p95_s"] = max(out["p95_s"], tally["decision_time"].get("p95_s", 0.0))
        out["cpu_p95_s"] = max(out["cpu_p95_s"], tally["decision_cpu_time"].get("p95_s", 0.0))
        for key in ("capped_decisions", "side_hands", "sets", "bags"):
            out[key] += tally[key]
        made, nils = (int(n) for n in tally["nils_made"].split("/"))
        out["nils"] += nils
        out["nils_made"] += made


def pool(runs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The pooled figures of `runs` (runs of the same settings)."""
    margins: dict[tuple[str, str], list[list[float]]] = {}
    tallies: dict[tuple[str, str], dict[str, Any]] = {}
    sides: dict[tuple[str, str], list[list[tuple[str, float, int]] | None]] = {}  # per run
    for run in runs:
        for preset, comparisons in run.items():
            if not isinstance(comparisons, dict) or preset == "expert":
                continue
            for name, comparison in comparisons.items():
                key = (preset, name)
                margins.setdefault(key, []).extend(comparison["margins"])
                _tallies(tallies.setdefault(key, {}), comparison["bots"])
                sides.setdefault(key, []).append(side_hands(preset, comparison.get("hands")))
    out: dict[str, Any] = {"benchmark": "bots-pooled", "runs": len(runs),
                           "seeds": [run["seed"] for run in runs],
                           **{key: runs[0].get(key) for key in SETTINGS}}
    for (preset, name), rows in margins.items():
        bots = {}
        for bot, t in tallies[(preset, name)].items():
            n = max(1, t["decisions"])
            bots[bot] = {"decisions": t["decisions"], "mean_s": round(t["wall_s"] / n, 4),
                         "cpu_mean_s": round(t["cpu_s"] / n, 4), "largest_p95_s": t["p95_s"],
                         "largest_cpu_p95_s": t["cpu_p95_s"], "capped_decisions": t["capped_decisions"],
                         "side_hands": t["side_hands"], "sets": t["sets"],
                         "nils_made": f"{t['nils_made']}/{t['nils']}", "bags": t["bags"]}
        out.setdefault(preset, {})[name] = {
            "deals": len(rows),
            "points_per_deal": mean_ci([row[1] for row in rows]),
            "points_per_deal_bags_charged": mean_ci([row[2] for row in rows]),
            "bots": bots,
        }
        per_run = sides[(preset, name)]
        if all(per_run):  # every run recorded its hands
            out[preset][name]["by_bids"] = by_bids([row for found in per_run if found for row in found])
    return out


def side_hands(preset: str, hands: Any) -> list[tuple[str, float, int]] | None:
    """Each side hand of a run's recorded hands (`--hands`) as (how the two bots bid it, A's points less B's,
    A's bags less B's), where every deal was played at two tables (None: no hands, or not two tables)."""
    rules = PRESETS.get(preset)
    if not hands or rules is None or rules.players % 2:
        return None
    tables: dict[int, dict[int, dict[str, Any]]] = {}
    for hand in hands:
        tables.setdefault(hand["deal"], {})[hand["table"]] = hand
    found = []
    for both in tables.values():
        if sorted(both) != [0, 1]:
            return None
        for index, side in enumerate(rules.sides):
            a, b = (both[0], both[1]) if side[0] in both[0]["a"] else (both[1], both[0])
            found.append((_kind(_bid(rules, a, side), _bid(rules, b, side)),
                          a["sides"][index]["points"] - b["sides"][index]["points"],
                          a["sides"][index]["bags"] - b["sides"][index]["bags"]))
    return found


def _bid(rules: RuleSet, hand: dict[str, Any], side: Sequence[int]) -> tuple[bool, int]:
    """How a side bid at a recorded table: whether a seat of it bid nil (blind or not), and its total."""
    nil = any(is_nil(rules, hand["bids"][s], s in hand["blind"]) for s in side)
    return nil, sum(hand["bids"][s] for s in side)


def _kind(a: tuple[bool, int], b: tuple[bool, int]) -> str:
    """Which of `KINDS` a side hand is, from how bot A's seats bid it and how bot B's did."""
    (a_nil, a_total), (b_nil, b_total) = a, b
    if a_nil or b_nil:
        return KINDS[3] if a_nil and b_nil else KINDS[4] if a_nil else KINDS[5]
    return KINDS[0] if a_total == b_total else KINDS[1] if a_total > b_total else KINDS[2]


def by_bids(found: Sequence[tuple[str, float, int]]) -> dict[str, Any]:
    """The side hands by how the two bots bid them: how many, A's points less B's a side hand, the kind's
    share of the points per deal (the mean of every side hand's difference is the points per deal), and A's
    bags less B's a side hand."""
    out = {}
    for kind in KINDS:
        rows = [(points, bags) for k, points, bags in found if k == kind]
        if rows:
            out[kind] = {"side_hands": len(rows),
                         "points_a_side_hand": round(sum(p for p, _ in rows) / len(rows), 2),
                         "points_per_deal": round(sum(p for p, _ in rows) / len(found), 2),
                         "bags_a_side_hand": round(sum(b for _, b in rows) / len(rows), 2)}
    return out


def change(runs: Sequence[dict[str, Any]], olds: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Each comparison's margins less the `olds`' on the same deals (`olds[i]` the run of `runs[i]`'s seed),
    deal by deal: the pooled difference, plain and with bags charged, and how many deals it moved."""
    rows: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for run, old in zip(runs, olds, strict=True):
        for preset, comparisons in run.items():
            if not isinstance(comparisons, dict) or preset == "expert":
                continue
            for name, comparison in comparisons.items():
                before = old.get(preset, {}).get(name)
                if before is None:
                    raise ValueError(f"the --over run of seed {run['seed']} has no {preset} {name}")
                played = len(comparison["margins"]), len(before["margins"])
                if played[0] != played[1]:
                    raise ValueError(f"the runs of seed {run['seed']} played {played[0]} and {played[1]} "
                                     f"deals of {preset} {name}: not the same deals")
                cards, were = _cards(comparison), _cards(before)
                if cards is not None and were is not None and cards != were:
                    raise ValueError(f"the runs of seed {run['seed']} dealt other cards in {preset}")
                rows.setdefault((preset, name), []).extend(
                    (new[1] - was[1], new[2] - was[2])
                    for new, was in zip(comparison["margins"], before["margins"], strict=True))
    out: dict[str, Any] = {"expert": olds[0].get("expert"), "seeds": [old["seed"] for old in olds]}
    for (preset, name), diffs in rows.items():
        out.setdefault(preset, {})[name] = {
            "deals": len(diffs),
            "changed": sum(1 for plain, charged in diffs if plain or charged),
            "points_per_deal": mean_ci([plain for plain, _ in diffs]),
            "points_per_deal_bags_charged": mean_ci([charged for _, charged in diffs]),
        }
    return out


def _cards(comparison: dict[str, Any]) -> list[Any] | None:
    """The cards of each deal, where the run recorded its hands (`--hands`), else None: unchecked, for the
    seed alone gives the deals."""
    hands = comparison.get("hands")
    if not hands:
        return None
    return [hand["cards"] for hand in hands if hand.get("table") == 0]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("runs", nargs="+", metavar="RUN.json", help="the JSON that bots.py printed")
    parser.add_argument("--over", nargs="+", metavar="OLD.json", default=[],
                        help="runs of the same seeds by another expert: the change on the same deals")
    args = parser.parse_args(argv)
    runs = [load(path) for path in args.runs]
    try:
        _one_match(args.runs, runs)
        out = pool(runs)
        if args.over:
            olds = [load(path) for path in args.over]
            _one_match(args.over, olds)
            by_seed = {old["seed"]: old for old in olds}
            missing = [run["seed"] for run in runs if run["seed"] not in by_seed]
            if missing:
                raise ValueError(f"no run of --over has seed {missing[0]}: a change is measured on the same "
                                 "deals")
            out["change_over"] = change(runs, [by_seed[run["seed"]] for run in runs])
    except ValueError as error:
        parser.error(str(error))
    except (KeyError, TypeError, IndexError) as error:
        parser.error(f"a run is not as benchmarks/bots.py prints one ({type(error).__name__}: {error})")
    print(json.dumps(out, indent=2))
    return 0


def _one_match(paths: Sequence[str], runs: Sequence[dict[str, Any]]) -> None:
    """ValueError for runs of other settings, or two of one seed: they are not one match."""
    for path, run in zip(paths, runs, strict=True):
        differ = [key for key in SETTINGS if run.get(key) != runs[0].get(key)]
        if differ:
            raise ValueError(f"{path} differs from {paths[0]} in {', '.join(differ)}: not one match")
    seeds = [run["seed"] for run in runs]
    if len(set(seeds)) != len(seeds):
        raise ValueError("two runs share a seed: their deals would count twice")


if __name__ == "__main__":
    raise SystemExit(main())
