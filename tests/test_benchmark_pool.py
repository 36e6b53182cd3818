"""benchmarks/pool.py: runs of the bots benchmark played in chunks are pooled deal by deal, and runs that do
not measure the same thing are refused in one line."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from p2pspades.rules import PRESETS

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "pool.py"


def run(seed: int, margins: list[tuple[float, float]], playouts: int = 2000) -> dict[str, Any]:
    """A run as bots.py prints it, with these deals' margins (plain, with bags charged)."""
    tally = {"decision_time": {"decisions": 10, "mean_s": 0.2, "p95_s": 0.4},
             "decision_cpu_time": {"decisions": 10, "mean_s": 0.1, "p95_s": 0.3},
             "capped_decisions": 0, "side_hands": 2 * len(margins), "sets": 1, "nils_made": "1/2", "bags": 3}
    return {"benchmark": "bots", "seed": seed, "budget": None, "confidence": None, "playouts": playouts,
            "pimc_budget": 0.3, "pimc_playouts": 1900, "expert": {}, "deals_played": len(margins),
            "classic": {"expert_over_pimc": {
                "a": "expert", "b": "pimc", "deals": len(margins),
                "margins": [[d, m, c] for d, (m, c) in enumerate(margins)],
                "bots": {"expert": tally, "pimc": tally}}}}


def pool(tmp_path: Path, *runs: dict[str, Any], over: Sequence[dict[str, Any]] = ()
         ) -> subprocess.CompletedProcess[str]:
    """pool.py over these runs (and `--over` those), written to files first."""
    def written(name: str, these: Sequence[dict[str, Any]]) -> list[str]:
        paths = [tmp_path / f"{name}{i}.json" for i in range(len(these))]
        for path, r in zip(paths, these, strict=True):
            path.write_text(json.dumps(r), encoding="utf-8")
        return [str(path) for path in paths]

    args = written("run", runs) + (["--over", *written("old", over)] if over else [])
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=60, check=False)


def test_chunks_are_pooled_deal_by_deal(tmp_path: Path) -> None:
    first, second = [(10.0, 5.0), (-4.0, -9.0), (30.0, 20.0)], [(1.0, -9.0), (60.0, 50.0)]
    done = pool(tmp_path, run(1, first), run(2, second))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)["classic"]["expert_over_pimc"]
    plain = [m for m, _ in first + second]
    assert out["deals"] == 5 and out["points_per_deal"]["mean"] == round(statistics.fmean(plain), 2)
    low, high = out["points_per_deal"]["ci95"]
    mean, half = statistics.fmean(plain), 1.96 * statistics.stdev(plain) / 5**0.5
    assert abs(low - (mean - half)) < 0.02 and abs(high - (mean + half)) < 0.02
    charged = statistics.fmean(c for _, c in first + second)
    assert out["points_per_deal_bags_charged"]["mean"] == round(charged, 2)
    assert out["bots"]["expert"]["decisions"] == 20 and out["bots"]["expert"]["nils_made"] == "2/4"


def test_runs_of_other_settings_or_the_same_deals_are_refused_in_one_line(tmp_path: Path) -> None:
    other = pool(tmp_path, run(1, [(1.0, 1.0)]), run(2, [(2.0, 2.0)], playouts=500))
    assert other.returncode == 2 and "differs" in other.stderr and "playouts" in other.stderr
    again = pool(tmp_path, run(1, [(1.0, 1.0)]), run(1, [(2.0, 2.0)]))
    assert again.returncode == 2 and "share a seed" in again.stderr
    (tmp_path / "junk.json").write_text("not json", encoding="utf-8")
    junk = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "junk.json")], capture_output=True,
                          text=True, timeout=60, check=False)
    assert junk.returncode == 1 and "not a run of benchmarks/bots.py" in junk.stderr
    assert "Traceback" not in other.stderr + again.stderr + junk.stderr


def test_a_change_is_measured_deal_by_deal_over_the_runs_of_the_same_seeds(tmp_path: Path) -> None:
    """`--over`: each deal's margin less the other expert's on the same deal, whatever order the runs are
    given in; a deal the change left alone counts as a 0, and is not counted as changed."""
    new = [run(1, [(10.0, 5.0), (-4.0, -9.0)], playouts=4000),
           run(2, [(30.0, 20.0), (1.0, 1.0)], playouts=4000)]
    old = [run(2, [(20.0, 20.0), (1.0, 1.0)]), run(1, [(10.0, 5.0), (-14.0, -10.0)])]
    done = pool(tmp_path, *new, over=old)
    assert done.returncode == 0, done.stderr
    change = json.loads(done.stdout)["change_over"]
    out = change["classic"]["expert_over_pimc"]
    plain, charged = [0.0, 10.0, 10.0, 0.0], [0.0, 1.0, 0.0, 0.0]
    assert out["deals"] == 4 and out["changed"] == 2
    assert out["points_per_deal"]["mean"] == round(statistics.fmean(plain), 2)
    assert out["points_per_deal_bags_charged"]["mean"] == round(statistics.fmean(charged), 2)
    assert change["seeds"] == [1, 2]


def test_a_change_over_other_deals_is_refused_in_one_line(tmp_path: Path) -> None:
    missing = pool(tmp_path, run(1, [(1.0, 1.0)]), run(2, [(1.0, 1.0)]), over=[run(1, [(1.0, 1.0)])])
    assert missing.returncode == 2 and "no run of --over has seed 2" in missing.stderr
    shorter = pool(tmp_path, run(1, [(1.0, 1.0), (2.0, 2.0)]), over=[run(1, [(1.0, 1.0)])])
    assert shorter.returncode == 2 and "not the same deals" in shorter.stderr
    dealt, other = run(1, [(1.0, 1.0)]), run(1, [(1.0, 1.0)])
    dealt["classic"]["expert_over_pimc"]["hands"] = [{"deal": 0, "table": 0, "cards": ["AS KS", "QS JS"]}]
    other["classic"]["expert_over_pimc"]["hands"] = [{"deal": 0, "table": 0, "cards": ["AS QS", "KS JS"]}]
    cards = pool(tmp_path, dealt, over=[other])
    assert cards.returncode == 2 and "dealt other cards" in cards.stderr
    (tmp_path / "bare.json").write_text(json.dumps({"benchmark": "bots"}), encoding="utf-8")
    bare = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "bare.json")], capture_output=True,
                          text=True, timeout=60, check=False)
    assert bare.returncode == 2 and "not as benchmarks/bots.py prints one" in bare.stderr
    assert "Traceback" not in missing.stderr + shorter.stderr + cards.stderr + bare.stderr


def test_the_points_are_split_by_how_each_bot_bid_the_same_cards(tmp_path: Path) -> None:
    """`by_bids`: from a real run's recorded hands, every side hand of every deal counted once, each under
    how the two bots bid it, and the kinds' shares adding up to the pooled points per deal; a preset played
    at more than two tables a deal has none."""
    played = subprocess.run(
        [sys.executable, str(SCRIPT.parent / "bots.py"), "--deals", "4", "--presets",
         "classic,individual,cutthroat3", "--skip-heuristic", "--skip-pimc", "--skip-random", "--pair",
         "heuristic/random", "--hands", "--quiet"],
        capture_output=True, text=True, timeout=120, check=False)
    assert played.returncode == 0, played.stderr
    path = tmp_path / "run.json"
    path.write_text(played.stdout, encoding="utf-8")
    done = subprocess.run([sys.executable, str(SCRIPT), str(path)], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    recorded = json.loads(played.stdout)
    for preset, sides in (("classic", 2), ("individual", 4)):
        (comparison,) = out[preset].values()
        by_bids = comparison["by_bids"]
        assert sum(kind["side_hands"] for kind in by_bids.values()) == 4 * sides
        shares = sum(kind["points_per_deal"] for kind in by_bids.values())
        assert abs(shares - comparison["points_per_deal"]["mean"]) < 0.05, (by_bids, comparison)
        (hands,) = (c["hands"] for c in recorded[preset].values())
        table = {(h["deal"], h["table"]): h for h in hands}
        for kind, figures in by_bids.items():  # each kind's side hands, counted again from the records
            count = 0
            for d in range(4):
                for side in PRESETS[preset].sides:
                    a = table[(d, 0)] if side[0] in table[(d, 0)]["a"] else table[(d, 1)]
                    b = table[(d, 1)] if a is table[(d, 0)] else table[(d, 0)]
                    totals = [sum(h["bids"][s] for s in side) for h in (a, b)]
                    nils = [any(h["bids"][s] == 0 for s in side) for h in (a, b)]
                    expected = ("nil by both" if all(nils) else "nil by A alone" if nils[0]
                                else "nil by B alone" if nils[1] else "the same counted total"
                                if totals[0] == totals[1] else "A's total higher" if totals[0] > totals[1]
                                else "A's total lower")
                    count += expected == kind
            assert count == figures["side_hands"], kind
    assert all("by_bids" not in c for c in out["cutthroat3"].values())
