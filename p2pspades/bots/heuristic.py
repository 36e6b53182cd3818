"""The heuristic bot: counts likely tricks to bid, then plays to make its side's contract and no more.

It sees exactly what its seat may know (`SeatView`): its own cards and the public record. From the record it
works out which cards are still unseen and, card by card, how likely each other seat is to hold them (hand
sizes and shown voids), and from that how likely a card is to hold a trick. Bidding counts top cards, spade
length and ruffs with the same odds, worked out for the rule set's deck, hand size and number of players.

The bot is pure: no I/O and no randomness of its own. What little variety it has (how it rounds a
borderline bid) comes from its seed through `ByteStream`, keyed by the view, so one seed and one view always
give the same choice.
"""

from __future__ import annotations

from p2pspades.bots.bidding import blind_choice, choose_bid, estimate_tricks, keep_draw, nil_danger
from p2pspades.bots.passing import choose_pass
from p2pspades.bots.play import choose_card
from p2pspades.rules import Action, ByteStream, Draw, SeatView
from p2pspades.table.events import Decision, DecisionKind

__all__ = ["HeuristicBot", "estimate_tricks", "nil_danger"]


class HeuristicBot:
    """A bot worth playing against: bids by counting tricks, plays for its contract, avoids bags, covers a
    partner's nil and tries to set an opponent's.

    `HeuristicBot(seed)` is a `Player`: call it with a `Decision`, get back one of `decision.legal`.
    """

    name = "heuristic"

    def __init__(self, seed: int | bytes = 0) -> None:
        self._seed = seed if isinstance(seed, bytes) else b"heuristic-bot" + str(seed).encode()

    def __call__(self, decision: Decision) -> Action:
        legal = decision.legal
        if not legal:
            raise ValueError(f"a {decision.kind.value} decision with no legal choices")
        view = decision.view
        kind = decision.kind
        choice: Action | None
        if kind is DecisionKind.PLAY:
            choice = choose_card(view, legal)
        elif kind is DecisionKind.BID:
            choice = choose_bid(view, legal, (self._stream(view).below(21) - 10) / 100.0)  # +/- 0.1
        elif kind is DecisionKind.BLIND_NIL:
            choice = blind_choice(view, legal)
        elif kind is DecisionKind.DRAW:
            choice = Draw(keep_draw(view))
        elif kind is DecisionKind.PASS:
            choice = choose_pass(view, legal)
        else:  # pragma: no cover - the enum has no other members
            choice = None
        return choice if choice in legal else legal[0]

    def _stream(self, view: SeatView) -> ByteStream:
        """The bot's randomness for this decision: its seed and the view, so choices are reproducible."""
        key = "|".join(
            (
                str(view.seat),
                str(view.hand_number),
                view.phase.value,
                str(len(view.tricks)),
                str(len(view.trick.cards)),
                str(view.stock_left),
                "".join(c.code for c in view.hand),
            )
        )
        return ByteStream(self._seed + b"/" + key.encode())
