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
from p2pspades.bots.odds import beats
from p2pspades.bots.simulate import bags_hurt
from p2pspades.rules import Card, RuleSet, SeatView, is_nil
from p2pspades.rules.cards import FULL_DECK, CardOrder, mask_of

BID_SPREAD = 1.5
"""How far, in tricks, a seat's bid is expected to miss the heuristic count of its hand."""


def read_plays(view: SeatView) -> list[tuple[int, int]]:
    """What the cards played say of the cards a seat still holds, as (seat, mask) pairs: the seat is read
    not to hold any card of the mask. Two readings, each of a seat following suit under the winning card:
    - a seat that does not want the trick (its nil is alive, or its side has made its contract where bags
      cost) throws the highest card of the suit that loses, so it holds none between its card and the
      winning one (none above its card, when the trick is trumped);
    - a seat still short of its contract, last to play to an opponent's card of the suit led, takes the
      trick when it can, so it holds none above the winning card.
    A reading that the seat's own later cards contradict is dropped: the seat does not play that way."""
    rules = view.rules
    order = rules.order
    n = rules.players
    won = [0] * n
    signs: list[tuple[int, int]] = []
    later = [0] * n  # the cards each seat played after the trick being read
    tricks = (*view.tricks, view.trick)
    for trick in reversed(tricks):
        for seat, card in trick.plays:
            later[seat] |= 1 << card.index
    for trick in tricks:
        for seat, card in trick.plays:
            later[seat] &= ~(1 << card.index)
        signs += _trick_signs(view, trick.plays, won, order)
        if len(trick.plays) == n:
            winner = trick.winner
            assert winner is not None
            won[winner] += 1
    return [(seat, mask) for seat, mask in signs if mask and not mask & later[seat]]


def _trick_signs(
    view: SeatView, plays: Sequence[tuple[int, Card]], won: Sequence[int], order: CardOrder
) -> list[tuple[int, int]]:
    """The readings of one trick's plays, the tricks won before it being `won`."""
    if not plays:
        return []
    rules = view.rules
    n = rules.players
    led = order.suit_of[plays[0][1].index]
    suit = order.suit_masks[led]
    rank = order.rank
    signs = []
    best = plays[0][1]
    for i, (seat, card) in enumerate(plays[1:], 1):
        c = card.index
        if order.suit_of[c] == led and not beats(card, best, order):
            b = best.index
            if _ducks(view, seat, won):
                cap = rank[b] if order.suit_of[b] == led else math.inf
                signs.append((seat, _ranked_between(rules, suit, rank[c], cap)))
            elif i == n - 1 and order.suit_of[b] == led and _short(view, seat, won) and not _partners(
                rules, seat, plays[_index_of(plays, best)][0]
            ):
                signs.append((seat, _ranked_between(rules, suit, rank[b], math.inf)))
        if beats(card, best, order):
            best = card
    return signs


def _index_of(plays: Sequence[tuple[int, Card]], card: Card) -> int:
    return next(i for i, (_, c) in enumerate(plays) if c is card)


def _partners(rules: RuleSet, a: int, b: int) -> bool:
    return a == b or (rules.partnerships and (a - b) % 4 == 2)


def _ranked_between(rules: RuleSet, suit: int, low: float, high: float) -> int:
    """The deck's cards of the suit mask `suit` ranked strictly between `low` and `high`."""
    rank = rules.order.rank
    return sum(1 << c.index for c in rules.deck if suit >> c.index & 1 and low < rank[c.index] < high)


def _ducks(view: SeatView, seat: int, won: Sequence[int]) -> bool:
    """Did the seat not want the trick: its nil alive, or its side's contract made where bags cost?"""
    rules = view.rules
    bid = view.bids[seat]
    if bid is None:
        return False
    if is_nil(rules, bid, view.blind[seat]):
        return won[seat] == 0
    return bags_hurt(rules) and _need(view, seat, won) <= 0


def _short(view: SeatView, seat: int, won: Sequence[int]) -> bool:
    """Was the seat's side still short of its contract (the seat not a nil bidder)?"""
    bid = view.bids[seat]
    return bid is not None and not is_nil(view.rules, bid, view.blind[seat]) and _need(view, seat, won) > 0


def _need(view: SeatView, seat: int, won: Sequence[int]) -> int:
    """Tricks the seat's side still needed for its contract, `won` taken so far."""
    rules = view.rules
    need = 0
    for s in rules.sides[rules.side_of(seat)]:
        bid = view.bids[s]
        if bid is None:
            continue
        if is_nil(rules, bid, view.blind[s]):
            need -= won[s] if rules.nil_tricks_count_for_partner else 0
        else:
            need += bid - won[s]
    return need


class World:
    """What one seat knows of where the cards are, and how to deal the rest consistently with it."""

    def __init__(self, view: SeatView, seen: int, infer: float = 1.0) -> None:
        rules = view.rules
        #: how much a deal's weight keeps for each reading of the cards played that it breaks (1: the
        #: readings are not used; see `read_plays`)
        self.infer = infer
        self.signs = read_plays(view) if infer < 1.0 else []
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
        #: no seat to deal to has shown a void: a deal is a shuffle cut into hands (`_plain`)
        self.void_free = not any(self.voids[s] for s in self.others)
        #: per card: how many seats to deal to have shown void in its suit (such cards are dealt first)
        self.shunned = [
            sum(1 for s in self.others if self.voids[s] >> suit_of[c] & 1) for c in range(len(FULL_DECK))
        ]

    def sample(self, rng: random.Random) -> list[int]:
        """Every seat's cards: ours as they are, the others dealt from the unseen cards at random, no seat
        given a suit it has shown void in (the draw pile's discards and unseen rest go to no one)."""
        if self.void_free:
            return self._plain(rng)
        for _ in range(20):
            hands = self._try(rng, True)
            if hands is not None:
                return hands
        hands = self._try(rng, False)
        assert hands is not None
        return hands

    def _plain(self, rng: random.Random) -> list[int]:
        """A deal where no seat to deal to has shown a void: the unseen cards shuffled and cut into hands."""
        cards = self.free.copy()
        rng.shuffle(cards)
        hands = [0] * self.n
        hands[self.seat] = self.mine
        start = 0
        for s in self.others:
            hand = 0
            for card in cards[start : start + self.sizes[s]]:
                hand |= 1 << card
            hands[s] = hand
            start += self.sizes[s]
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
        for s, mask in self.signs:
            if hands[s] & mask:
                weight *= self.infer
        return weight
