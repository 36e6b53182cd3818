"""The nil card pass (rule `nil_pass`): which cards a bot hands its partner.

A nil bidder passes its most dangerous cards, the ones most likely to win a trick: high spades first, then
high cards of the other suits. Its partner, who must cover the nil, passes its lowest cards, which help the
nil bidder duck and cost the partner nothing. Both partners nil: each passes its most dangerous cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from p2pspades.rules import Action, Card, Pass
from p2pspades.rules.cards import STANDARD_ORDER, CardOrder
from p2pspades.rules.view import SeatView


def danger(card: Card, order: CardOrder = STANDARD_ORDER) -> float:
    """How likely the card is to take a trick: its rank, and spades (the trumps, jokers too; with deuces high
    the 2D, and the 2S and 2D above the ace) above all."""
    return order.rank[card.index] + (20 if order.is_trump(card) else 0)


def choose_pass(view: SeatView, legal: Sequence[Action]) -> Action:
    """The nil bidder's highest cards, or the partner's lowest, among the legal passes."""
    seat = view.seat
    nil = view.bids[seat] == 0  # nil or blind nil (a blind bid, house rule blind_bid, is 1 or more)
    passes = [a for a in legal if isinstance(a, Pass)]
    if not passes:
        return legal[0]

    order = view.rules.order

    def weight(action: Pass) -> float:
        return sum(danger(card, order) for card in action.cards if card is not None)

    return max(passes, key=weight) if nil else min(passes, key=weight)
