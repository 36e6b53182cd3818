"""What one seat knows of where the unseen cards are, for the expert's search: the cards played, the suits
each seat has shown void in, the hand sizes, the draw pile's cards seen go by; and how to deal the unseen
cards at random consistently with all of it (`World.sample`), each deal weighted by how well it explains
the bids made (`World.weight`).

Pure: the randomness comes in as a `random.Random`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from p2pspades.bots.bidding import estimate_mask, nil_danger_mask
from p2pspades.rules import SeatView, is_nil
from p2pspades.rules.cards import FULL_DECK, mask_of

BID_SPREAD = 1.5
"""How far, in tricks, a seat's bid is expected to miss the heuristic count of its hand."""


class World:
    """What one seat knows of where the cards are, and how to deal the rest consistently with it."""

    def __init__(self, view: SeatView, seen: int) -> None:
        rules = view.rules
        self.rules = rules
        self.view = view
        self.n = rules.players
        self.seat = view.seat
        played = [0] * self.n
        for trick in (*view.tricks, view.trick):
            for s, card in trick.plays:
                played[s] |= 1 << card.index
        self.played = played
        mine = mask_of(view.hand)
        gone = mine
        for mask in played:
            gone |= mask
        self.mine = mine
        self.unseen = rules.deck_mask & ~gone
        # the draw pile: cards we saw and did not keep are discarded, not in the other hand
        self.discarded = seen & self.unseen & ~mine
        if view.hand:
            self.sizes = list(view.hand_sizes)
        else:  # blind nil: no cards dealt yet; deal ours too
            self.sizes = [rules.hand_size] * self.n
        self.sizes[self.seat] = 0 if view.hand else rules.hand_size
        self.others = [s for s in range(self.n) if s != self.seat and self.sizes[s] > 0] + (
            [] if view.hand else [self.seat]
        )
        self.voids = [sum(1 << suit.index for suit in view.voids[s]) for s in range(self.n)]
        held = sum(self.sizes[s] for s in self.others)
        self.pile = self.unseen.bit_count() - held
        free = self.unseen & ~self.discarded
        self.free = [i for i in range(len(FULL_DECK)) if free >> i & 1]
        suit_of = rules.order.suit_of  # deuces high: the 2D is a spade, for the voids too
        #: per card: how many seats to deal to have shown void in its suit (such cards are dealt first)
        self.shunned = [
            sum(1 for s in self.others if self.voids[s] >> suit_of[c] & 1) for c in range(len(FULL_DECK))
        ]

    def sample(self, rng: random.Random) -> list[int]:
        """Every seat's cards: ours as they are, the others dealt from the unseen cards at random, no seat
        given a suit it has shown void in (the draw pile's discards and unseen rest go to no one)."""
        for _ in range(20):
            hands = self._try(rng, True)
            if hands is not None:
                return hands
        hands = self._try(rng, False)
        assert hands is not None
        return hands

    def _try(self, rng: random.Random, voids: bool) -> list[int] | None:
        room = {s: self.sizes[s] for s in self.others}
        pile = self.pile - self.discarded.bit_count()
        suit_of = self.rules.order.suit_of  # deuces high: the 2D is a spade, for the voids too
        cards = self.free.copy()
        rng.shuffle(cards)
        if voids:
            cards.sort(key=self.shunned.__getitem__, reverse=True)
        hands = [0] * self.n
        hands[self.seat] = self.mine
        for card in cards:
            suit_bit = 1 << suit_of[card]
            options = [s for s in self.others if room[s] and not (voids and self.voids[s] & suit_bit)]
            total = sum(room[s] for s in options) + pile
            if total == 0:
                return None
            pick = rng.randrange(total)
            for s in options:
                pick -= room[s]
                if pick < 0:
                    hands[s] |= 1 << card
                    room[s] -= 1
                    break
            else:
                pile -= 1
        return hands

    def weight(self, hands: Sequence[int]) -> float:
        """How well the deal explains the bids made so far: the heuristic count of each bidder's hand (as it
        was when it bid) against its bid, and the danger of a nil bidder's hand."""
        view = self.view
        rules = self.rules
        weight = 1.0
        for s in range(self.n):
            bid = view.bids[s]
            if bid is None or s == self.seat or view.blind[s]:
                continue
            held = hands[s] | self.played[s]
            if is_nil(rules, bid, False):
                weight *= max(0.02, math.exp(-((nil_danger_mask(rules, held) / 1.45) ** 2)))
            else:
                miss = estimate_mask(rules, held) - bid
                weight *= math.exp(-(miss * miss) / (2 * BID_SPREAD * BID_SPREAD))
        return weight
