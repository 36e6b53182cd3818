"""The easy bot: the heuristic bot with deliberate, seeded mistakes a beginner can punish.

About one card in four is a random legal card instead of the heuristic's, and about one bid in three is a
trick off. The mistakes come from the seed and the view (`ByteStream`), so a game replays exactly.
"""

from __future__ import annotations

from p2pspades.bots.heuristic import HeuristicBot
from p2pspades.rules import Action, Bid, ByteStream
from p2pspades.table.events import Decision, DecisionKind

PLAY_MISTAKES = 0.25
"""The share of card plays that are a random legal card."""
BID_MISTAKES = 0.35
"""The share of bids that are one trick off (up or down, when legal)."""


class EasyBot:
    """`EasyBot(seed)` is a `Player`: the heuristic bot, with mistakes."""

    name = "easy"

    def __init__(self, seed: int | bytes = 0) -> None:
        self._seed = seed if isinstance(seed, bytes) else b"easy-bot" + str(seed).encode()
        self._bot = HeuristicBot(self._seed)

    def __call__(self, decision: Decision) -> Action:
        choice = self._bot(decision)
        legal = decision.legal
        view = decision.view
        key = f"{view.seat}|{view.hand_number}|{view.phase.value}|{len(view.tricks)}|{len(view.trick.cards)}"
        stream = ByteStream(self._seed + b"/mistake/" + key.encode())
        chance = stream.below(1000) / 1000
        if decision.kind is DecisionKind.PLAY and chance < PLAY_MISTAKES:
            return legal[stream.below(len(legal))]
        if decision.kind is DecisionKind.BID and chance < BID_MISTAKES and isinstance(choice, Bid):
            if choice.tricks == 0 and view.rules.nil:
                return choice  # a beginner's nil is its own mistake
            off = Bid(choice.tricks + (1 if stream.below(2) else -1))
            if off in legal and not (off.tricks == 0 and view.rules.nil):
                return off
        return choice
