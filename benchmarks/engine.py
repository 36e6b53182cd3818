"""Random playouts of whole hands per second: our engine against OpenSpiel's `spades`, in the same run.

Both sides do the same work per hand: a random deal, random legal bids, random legal cards until the hand's
scores are known. OpenSpiel plays one hand per episode (its default); its deal is 52 chance steps. Ours runs
whole games (restarted after 20 hands): blind-nil offers, the deal, bids, cards, then the reveal, which the
engine checks before it scores the hand and keeps the totals and the history. Choices come from a seeded
`random.Random`, so a run is repeatable. Time is the CPU time of this process. The two run in alternating
rounds; the reported ratio is the median over rounds of the two rates measured back to back, so that load from
other processes on a shared machine hits both alike. Prints one JSON object.

    python benchmarks/engine.py [--seconds 6] [--rounds 12] [--preset classic] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from typing import Any

from p2pspades.rules import Game, Phase, Reveal, deal_from_order, preset

HANDS_PER_GAME = 20  # a game that has not ended by then is restarted, as real games are a few dozen hands


def engine_playouts(preset_name: str, seconds: float, seed: int) -> dict[str, Any]:
    """Hands per second of our engine with full knowledge (every card known), `preset_name` rules."""
    rules = preset(preset_name)
    rng = random.Random(seed)
    choice, shuffle = rng.choice, rng.shuffle
    deck = list(rules.deck)
    hands = games = 0
    game = Game(rules, 0)
    start = time.process_time()
    deadline = start + seconds
    while True:
        if game.phase is Phase.GAME_OVER or game.hand_number > HANDS_PER_GAME:
            game = Game(rules, rng.randrange(rules.players))
            games += 1
        while game.phase is Phase.BLIND:
            game.apply(choice(game.legal_actions()))
        shuffle(deck)
        game.apply(deal_from_order(rules, game.dealer, deck))
        while game.current_seat is not None:  # draw, bids and cards
            game.apply(choice(game.legal_actions()))
        initial = game.initial_hands()
        assert initial is not None
        game.apply(Reveal(initial))
        hands += 1
        if hands % 16 == 0 and time.process_time() >= deadline:
            break
    elapsed = time.process_time() - start
    return {"hands": hands, "games": games, "seconds": round(elapsed, 3), "hands_per_s": hands / elapsed}


def openspiel_playouts(seconds: float, seed: int) -> dict[str, Any] | None:
    """Hands per second of OpenSpiel's `spades` (one hand per episode by default), or None without pyspiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    spiel_game = pyspiel.load_game("spades")
    rng = random.Random(seed)
    choice = rng.choice
    hands = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        state = spiel_game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
            else:
                state.apply_action(choice(state.legal_actions()))
        state.returns()
        hands += 1
        if hands % 16 == 0 and time.process_time() >= deadline:
            break
    elapsed = time.process_time() - start
    return {
        "hands": hands,
        "seconds": round(elapsed, 3),
        "hands_per_s": hands / elapsed,
        "params": {key: str(value) for key, value in spiel_game.get_parameters().items()},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Random playouts of whole hands per second.")
    parser.add_argument("--seconds", type=float, default=6.0, help="CPU seconds per engine (default 6)")
    parser.add_argument("--rounds", type=int, default=12, help="alternating rounds (default 12)")
    parser.add_argument("--preset", default="classic", help="rule set for our engine (default classic)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rounds = max(1, args.rounds)
    per_round = args.seconds / rounds
    ours: list[dict[str, Any]] = []
    theirs: list[dict[str, Any]] = []
    for number in range(rounds):
        seed = args.seed + number
        if number % 2:  # alternate which goes first, so that a drift in machine load hits both alike
            other = openspiel_playouts(per_round, seed)
            ours.append(engine_playouts(args.preset, per_round, seed))
        else:
            ours.append(engine_playouts(args.preset, per_round, seed))
            other = openspiel_playouts(per_round, seed)
        if other is not None:
            theirs.append(other)
    ours_rates = [r["hands_per_s"] for r in ours]
    theirs_rates = [r["hands_per_s"] for r in theirs]
    engine_rate = statistics.median(ours_rates)
    spiel_rate = statistics.median(theirs_rates) if theirs_rates else None
    paired = [a / b for a, b in zip(ours_rates, theirs_rates, strict=False)]
    result = {
        "engine_hands_per_s": round(engine_rate, 1),
        "openspiel_hands_per_s": None if spiel_rate is None else round(spiel_rate, 1),
        # the median over rounds of (ours / OpenSpiel) measured back to back
        "ratio": round(statistics.median(paired), 3) if paired else None,
        "ratio_of_best": round(max(ours_rates) / max(theirs_rates), 3) if theirs_rates else None,
        "engine_us_per_hand": round(1e6 / engine_rate, 1),
        "engine_best_hands_per_s": round(max(ours_rates), 1),
        "openspiel_best_hands_per_s": round(max(theirs_rates), 1) if theirs_rates else None,
        "round_ratios": [round(r, 3) for r in paired],
        "engine_hands": sum(r["hands"] for r in ours),
        "engine_games": sum(r["games"] for r in ours),
        "openspiel_hands": sum(r["hands"] for r in theirs),
        "openspiel_params": theirs[0]["params"] if theirs else None,
        "clock": "CPU time of this process (time.process_time)",
        "preset": args.preset,
        "python": sys.version.split()[0],
        "machine": platform.machine(),
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
