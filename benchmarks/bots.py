"""Play strength: the heuristic bot against the random bot, on the rules engine in-process.

Two comparisons, each over `--games` whole games (capped at `--max-hands` hands; a capped game goes to the
side ahead, to none on a tie):

- partnership: a heuristic pair against a random pair on `--preset` (a partnership preset), the pairs swapping
  seats every other game;
- individual: one heuristic seat against random seats on `--individual-preset`, the heuristic seat rotated.

No cryptography: this measures how well the bots play, not the protocol. Deals come from a seeded shuffle
(`ByteStream`), so a run is repeatable. Prints one JSON object: win rates with 95% Wilson intervals, average
points per hand per bot type with 95% normal intervals (hands are the samples), and the heuristic bot's
margin. Progress goes to stderr.

    python benchmarks/bots.py [--games 200] [--preset classic] [--individual-preset individual] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from p2pspades.bots import HeuristicBot, RandomBot
from p2pspades.rules import PRESETS, Action, ByteStream, Game, Phase, Reveal, RuleSet, deal_from_order, preset
from p2pspades.table.events import Decision, DecisionKind

Bot = Callable[[Decision], Action]
Z95 = 1.959963984540054

KINDS = {
    Phase.BLIND: DecisionKind.BLIND_NIL,
    Phase.DRAW: DecisionKind.DRAW,
    Phase.BID: DecisionKind.BID,
    Phase.PLAY: DecisionKind.PLAY,
}


def play_hand(game: Game, bots: Sequence[Bot], deal_seed: bytes) -> None:
    """Play the game's current hand to its end: every seat's choices come from its bot."""
    rules = game.rules
    number = game.hand_number
    while game.hand_number == number and game.phase is not Phase.GAME_OVER:
        phase = game.phase
        if phase is Phase.DEAL:
            cards = list(rules.deck)
            ByteStream(deal_seed).shuffle(cards)
            game.apply(deal_from_order(rules, game.dealer, cards))
        elif phase is Phase.REVEAL:
            hands = game.initial_hands()
            assert hands is not None
            game.apply(Reveal(hands))
        else:
            seat = game.current_seat
            assert seat is not None
            view = game.view(seat)
            decision = Decision(KINDS[phase], view, view.legal_actions)
            action = bots[seat](decision)
            if action not in decision.legal:
                raise AssertionError(f"seat {seat} chose {action!r}, not a legal {phase.value} action")
            game.apply(action)


def play_game(
    rules: RuleSet, bots: Sequence[Bot], seed: bytes, max_hands: int
) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
    """One game: (winning sides, points of each side in each hand)."""
    game = Game(rules, ByteStream(seed + b"/dealer").below(rules.players))
    while game.phase is not Phase.GAME_OVER and len(game.history) < max_hands:
        play_hand(game, bots, seed + b"/hand/" + str(game.hand_number).encode())
    points = [tuple(score.points for score in result.scores) for result in game.history]
    if game.outcome is not None:
        return game.outcome.winners, points
    scores = [total.score for total in game.totals]
    top = max(scores)
    leaders = [side for side, score in enumerate(scores) if score == top]
    return (tuple(leaders) if len(leaders) == 1 else ()), points


def wilson(successes: int, n: int) -> list[float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return [0.0, 1.0]
    p = successes / n
    denominator = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denominator
    return [round(centre - half, 4), round(centre + half, 4)]


def mean_ci(samples: Sequence[float]) -> dict[str, Any]:
    """Mean with a 95% normal-approximation interval."""
    n = len(samples)
    mean = statistics.fmean(samples) if samples else 0.0
    half = Z95 * statistics.stdev(samples) / math.sqrt(n) if n > 1 else math.inf
    return {"mean": round(mean, 2), "ci95": [round(mean - half, 2), round(mean + half, 2)], "n": n}


def rate(wins: int, games: int) -> dict[str, Any]:
    return {"wins": wins, "rate": round(wins / games, 4) if games else 0.0, "ci95": wilson(wins, games)}


def partnership(
    rules: RuleSet, games: int, seed: int, max_hands: int, progress: Callable[[str], None]
) -> dict[str, Any]:
    """A heuristic pair against a random pair, on side 0 in even games and side 1 in odd ones."""
    wins = {"heuristic": 0, "random": 0}
    points: dict[str, list[float]] = {"heuristic": [], "random": []}
    margin: list[float] = []
    hands = capped = 0
    for g in range(games):
        side = g % 2
        bots: list[Bot] = []
        for seat in range(4):
            if rules.side_of(seat) == side:
                bots.append(HeuristicBot(seed * 1000003 + g * 4 + seat))
            else:
                bots.append(RandomBot(seed * 1000003 + g * 4 + seat))
        winners, per_hand = play_game(rules, bots, f"bots-benchmark/{seed}/pair/{g}".encode(), max_hands)
        capped += len(per_hand) >= max_hands
        hands += len(per_hand)
        wins["heuristic"] += side in winners
        wins["random"] += (1 - side) in winners
        for line in per_hand:
            points["heuristic"].append(line[side])
            points["random"].append(line[1 - side])
            margin.append(line[side] - line[1 - side])
        progress(f"partnership {g + 1}/{games}: heuristic won {wins['heuristic']}")
    return {
        "preset": rules.preset,
        "games": games,
        "hands": hands,
        "capped_games": capped,
        "win_rate": {kind: rate(count, games) for kind, count in wins.items()},
        "points_per_hand": {kind: mean_ci(values) for kind, values in points.items()},
        "margin": {
            "win_rate": round((wins["heuristic"] - wins["random"]) / games, 4) if games else 0.0,
            "points_per_hand": mean_ci(margin),
        },
    }


def individual(
    rules: RuleSet, games: int, seed: int, max_hands: int, progress: Callable[[str], None]
) -> dict[str, Any]:
    """One heuristic seat against random seats, the heuristic seat rotating from game to game."""
    n = rules.players
    wins = {"heuristic": 0, "random": 0}  # random: wins of any one random seat (so the rates compare)
    points: dict[str, list[float]] = {"heuristic": [], "random": []}
    margin: list[float] = []
    hands = capped = 0
    for g in range(games):
        me = g % n
        bots: list[Bot] = [
            HeuristicBot(seed * 1000003 + g * n + seat)
            if seat == me
            else RandomBot(seed * 1000003 + g * n + seat)
            for seat in range(n)
        ]
        winners, per_hand = play_game(rules, bots, f"bots-benchmark/{seed}/solo/{g}".encode(), max_hands)
        capped += len(per_hand) >= max_hands
        hands += len(per_hand)
        mine = rules.side_of(me)
        wins["heuristic"] += mine in winners
        wins["random"] += sum(1 for side in winners if side != mine)
        for line in per_hand:
            others = [line[side] for side in range(len(line)) if side != mine]
            points["heuristic"].append(line[mine])
            points["random"].extend(others)
            margin.append(line[mine] - statistics.fmean(others))
        progress(f"individual {g + 1}/{games}: heuristic won {wins['heuristic']}")
    random_games = games * (n - 1)  # seat-games of the random bot
    return {
        "preset": rules.preset,
        "players": n,
        "games": games,
        "hands": hands,
        "capped_games": capped,
        "chance_win_rate": round(1 / n, 4),
        "win_rate": {
            "heuristic": rate(wins["heuristic"], games),
            "random": rate(wins["random"], random_games),
        },
        "points_per_hand": {kind: mean_ci(values) for kind, values in points.items()},
        "margin": {
            "win_rate": round(wins["heuristic"] / games - wins["random"] / random_games, 4) if games else 0.0,
            "points_per_hand": mean_ci(margin),
        },
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=200, help="games per comparison (default 200)")
    parser.add_argument("--preset", default="classic", help="partnership rules (default classic)")
    parser.add_argument(
        "--individual-preset", default="individual", help="rules for one heuristic seat against randoms"
    )
    parser.add_argument(
        "--max-hands", type=int, default=60, help="hands before a game is called (default 60)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    if args.games < 1 or args.max_hands < 1:
        parser.error("--games and --max-hands must be at least 1")
    for name in (args.preset, args.individual_preset):
        if name not in PRESETS:
            parser.error(f"unknown preset {name!r}; the presets are {', '.join(PRESETS)}")

    def progress(text: str) -> None:
        if not args.quiet:
            print(f"\r{text}   ", end="", file=sys.stderr, flush=True)

    start = time.process_time()
    out: dict[str, Any] = {"benchmark": "bots", "seed": args.seed, "max_hands": args.max_hands}
    pair_rules = preset(args.preset)
    if pair_rules.partnerships:
        out["partnership"] = partnership(pair_rules, args.games, args.seed, args.max_hands, progress)
        if not args.quiet:
            print(file=sys.stderr)
    else:
        out["partnership"] = None
        out["note"] = f"preset {args.preset!r} has no partnerships: only the individual comparison ran"
    out["individual"] = individual(
        preset(args.individual_preset), args.games, args.seed, args.max_hands, progress
    )
    if not args.quiet:
        print(file=sys.stderr)
    out["cpu_seconds"] = round(time.process_time() - start, 2)
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
