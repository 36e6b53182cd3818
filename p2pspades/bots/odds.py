"""Odds for the bots: card helpers, the shape of a deal under a rule set, and one seat's reading of a hand
in progress (which unseen cards each other seat may hold, and how likely a card is to win a trick).

Pure: no I/O and no randomness.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import lru_cache

from p2pspades.rules import Card, RuleSet, SeatView, Suit, is_nil
from p2pspades.rules.cards import STANDARD_ORDER, CardOrder

SPADES = Suit.SPADES
SIDE_SUITS = (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
ALL_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)

RUFF_WILLINGNESS = 0.85
"""How often a seat that cannot follow suit trumps a trick it could win."""
NIL_WILLINGNESS = 0.3
"""How often a live nil bidder overtakes when it could: only when its cards force it to."""


# ----- cards ----------------------------------------------------------------------------------------------


# Every helper takes the rule set's card order (`RuleSet.order`): with deuces high the 2D is a spade and the
# 2S and 2D rank above the ace of spades. `order.suit(card)` and `order.rank[card.index]` are a card's suit
# and rank under it (the card's own under the standard order).


def beats(card: Card, best: Card, order: CardOrder = STANDARD_ORDER) -> bool:
    """Does `card` beat `best`, the card winning the trick so far? (Spades are trump, jokers top spades.)"""
    return order.power[card.index] > order.power[best.index] and (
        order.suit_of[card.index] in (0, order.suit_of[best.index])
    )


def cost(card: Card, order: CardOrder = STANDARD_ORDER) -> tuple[int, float]:
    """How much a card is worth keeping: any spade above any side card, then by rank."""
    return (1 if order.suit_of[card.index] == 0 else 0, order.rank[card.index])


def by_suit(cards: Iterable[Card], order: CardOrder = STANDARD_ORDER) -> dict[Suit, list[Card]]:
    """Cards grouped by suit (jokers are spades), each list from high to low."""
    out: dict[Suit, list[Card]] = {suit: [] for suit in ALL_SUITS}
    for card in cards:
        out[order.suit(card)].append(card)
    for cards_of_suit in out.values():
        cards_of_suit.sort(key=lambda c: order.rank[c.index], reverse=True)
    return out


# ----- odds of the deal -----------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _at_least(population: int, successes: int, draws: int, k: int) -> float:
    """P(X >= k) for X hypergeometric: `draws` cards from `population`, `successes` of them of one kind."""
    if k <= 0:
        return 1.0
    top = min(successes, draws)
    if k > top:
        return 0.0
    total = math.comb(population, draws)
    hits = sum(
        math.comb(successes, i) * math.comb(population - successes, draws - i) for i in range(k, top + 1)
    )
    return hits / total


@lru_cache(maxsize=4096)
def _expected_max(population: int, successes: int, draws: int, holders: int) -> float:
    """Expected longest holding of one suit among `holders` other hands (treated as independent draws)."""
    expected = 0.0
    for k in range(1, min(successes, draws) + 1):
        expected += 1.0 - (1.0 - _at_least(population, successes, draws, k)) ** holders
    return expected


class DealShape:
    """The shape of a deal under one rule set, as seen by a seat holding a full hand before play."""

    def __init__(self, rules: RuleSet, hand_size: int) -> None:
        self.rules = rules
        self.players = rules.players
        self.deck = rules.deck
        self.hand_size = hand_size
        self.population = len(self.deck) - hand_size  # the cards that are not ours
        self.order = rules.order
        self.suit_size = {suit: sum(1 for c in self.deck if self.order.suit(c) is suit) for suit in ALL_SUITS}
        order = self.order
        #: per card index, the mask of the deck's cards of its suit that rank above it (under the order)
        self.above = tuple(
            sum(1 << c.index for c in self.deck if order.suit_of[c.index] == order.suit_of[i]
                and order.rank[c.index] > order.rank[i])
            for i in range(len(order.rank))
        )
        others = self.players - 1
        self.opponents = others - (1 if rules.partnerships else 0)
        self.others = others
        # how many of the cards that are not ours the other seats hold between them, as a fraction: 1 when
        # every card is dealt; with the draw pile the rest are discards, but a drawing opponent keeps its
        # high cards, so it holds about twice its share of those (as measured in games between these bots)
        held = others * hand_size / self.population if self.population else 1.0
        self.held = min(1.0, 2.0 * held) if rules.deal == "draw" else min(1.0, held)

    def holding_at_least(self, suit: Suit, mine: int, k: int) -> float:
        """P(one given other seat holds at least k cards of `suit`) when we hold `mine` of them."""
        return _at_least(self.population, self.suit_size[suit] - mine, self.hand_size, k)

    def survives(self, suit: Suit, mine: int, rounds: int) -> float:
        """P(every opponent can still follow `suit` in round `rounds`): a side-suit winner is not trumped."""
        follow = self.holding_at_least(suit, mine, rounds)
        void = 1.0 - follow
        return (1.0 - void * RUFF_WILLINGNESS) ** self.opponents

    def longest_other(self, suit: Suit, mine: int, holders: int) -> float:
        return _expected_max(self.population, self.suit_size[suit] - mine, self.hand_size, holders)


# ----- what a seat can work out during play ---------------------------------------------------------------


class Reading:
    """The seat's reading of the hand in progress: unseen cards, who may hold them, contracts and needs."""

    def __init__(self, view: SeatView) -> None:
        rules = view.rules
        self.view = view
        self.rules = rules
        self.order = order = rules.order
        self.seat = view.seat
        self.n = rules.players
        self.partner: int | None = (view.seat + 2) % 4 if rules.partnerships else None
        self.hand = view.hand
        played: set[Card] = set()
        for trick in (*view.tricks, view.trick):
            played.update(trick.cards)
        self.played = played
        mine = set(view.hand)
        self.unseen = [c for c in rules.deck if c not in mine and c not in played]
        self.unseen_by_suit = by_suit(self.unseen, order)
        others = [s for s in range(self.n) if s != self.seat]
        self.others = others
        held = sum(view.hand_sizes[s] for s in others)
        self.pile = max(0, len(self.unseen) - held)  # draw pile: unseen cards discarded face down
        self._share = self._shares()
        # the trick in progress as (seat, card) plays: the leader first, then clockwise
        leader = view.trick.leader
        plays = [((leader + i) % self.n, card) for i, card in enumerate(view.trick.cards)]
        self.plays = plays
        self.led: Suit | None = order.suit(plays[0][1]) if plays else None
        self.winner: int | None = None
        self.best: Card | None = None
        for seat, card in plays:
            if self.best is None or beats(card, self.best, order):
                self.winner, self.best = seat, card
        self.later = [(self.seat + i) % self.n for i in range(1, self.n - len(plays))]
        self.tricks_left = rules.tricks_per_hand - len(view.tricks)

    def _shares(self) -> dict[tuple[int, Suit], float]:
        """P(seat s holds a given unseen card of a suit): its share among the seats that may hold that
        suit."""
        view = self.view
        shares: dict[tuple[int, Suit], float] = {}
        for suit in ALL_SUITS:
            holders = [s for s in self.others if suit not in view.voids[s]]
            room = sum(view.hand_sizes[s] for s in holders) + self.pile
            for s in self.others:
                share = 0.0
                if s in holders and room > 0:
                    share = min(1.0, view.hand_sizes[s] / room)
                shares[(s, suit)] = share
        return shares

    # --- the card order ---

    def suit(self, card: Card) -> Suit:
        """The suit `card` counts as (deuces high: the 2D is a spade)."""
        return self.order.suit(card)

    def rank(self, card: Card) -> float:
        """The card's rank within its suit (deuces high: the 2S and 2D above the ace of spades)."""
        return self.order.rank[card.index]

    def beats(self, card: Card, best: Card) -> bool:
        return beats(card, best, self.order)

    def cost(self, card: Card) -> tuple[int, float]:
        return cost(card, self.order)

    def by_suit(self, cards: Iterable[Card]) -> dict[Suit, list[Card]]:
        return by_suit(cards, self.order)

    # --- bids and contracts ---

    def is_nil(self, seat: int) -> bool:
        bid = self.view.bids[seat]
        return bid is not None and is_nil(self.rules, bid, self.view.blind[seat])

    def nil_alive(self, seat: int) -> bool:
        """A nil bid not yet broken."""
        return self.is_nil(seat) and self.view.tricks_won[seat] == 0

    def need(self, side: int) -> int:
        """Tricks the side still needs for its contract (0 or less: made)."""
        contract = counted = 0
        for seat in self.rules.sides[side]:
            bid = self.view.bids[seat]
            if bid is None:
                continue
            if self.is_nil(seat):
                if self.rules.nil_tricks_count_for_partner:
                    counted += self.view.tricks_won[seat]
            else:
                contract += bid
                counted += self.view.tricks_won[seat]
        return contract - counted

    @property
    def side(self) -> int:
        return self.rules.side_of(self.seat)

    def opponents(self) -> list[int]:
        return [s for s in self.others if s != self.partner]

    # --- odds ---

    def share(self, seat: int, card: Card) -> float:
        return self._share[(seat, self.suit(card))]

    def holds_none(self, seat: int, cards: Iterable[Card]) -> float:
        """P(seat holds none of `cards`)."""
        if self.view.hand_sizes[seat] == 0:
            return 1.0
        p = 1.0
        for card in cards:
            p *= 1.0 - self.share(seat, card)
        return p

    def beat_chance(self, seat: int, card: Card, led: Suit) -> float:
        """P(seat, still to play, beats `card` in a trick led in `led`)."""
        if self.view.hand_sizes[seat] == 0:
            return 0.0
        will = NIL_WILLINGNESS if self.nil_alive(seat) else 1.0
        spades = self.unseen_by_suit[SPADES]
        suit, rank = self.suit(card), self.rank(card)
        if suit is led:
            higher = [c for c in self.unseen_by_suit[led] if self.rank(c) > rank]
            p_higher = 1.0 - self.holds_none(seat, higher)
            if led is SPADES:
                return p_higher * will
            void = self.holds_none(seat, self.unseen_by_suit[led])
            p_ruff = void * (1.0 - self.holds_none(seat, spades)) * RUFF_WILLINGNESS
            return min(1.0, p_higher + p_ruff) * will
        if suit is SPADES:  # a ruff: beaten only by a higher ruff
            void = self.holds_none(seat, self.unseen_by_suit[led])
            higher_spades = [c for c in spades if self.rank(c) > rank]
            return void * (1.0 - self.holds_none(seat, higher_spades)) * RUFF_WILLINGNESS * will
        return 1.0

    def hold_chance(self, card: Card, with_partner: bool = False) -> float:
        """P(`card`, played now, wins the trick). The partner is no threat unless `with_partner` (a nil
        bidder counting on its partner to overtake)."""
        if self.best is not None and not self.beats(card, self.best):
            return 0.0
        led = self.led if self.led is not None else self.suit(card)
        p = 1.0
        for seat in self.later:
            if seat == self.partner and not with_partner:
                continue
            p *= 1.0 - self.beat_chance(seat, card, led)
        return p

    def top_share(self, card: Card) -> float:
        """How many of the unseen cards of its suit a card outranks, as a fraction: how hard it is to lose."""
        rest = self.unseen_by_suit[self.suit(card)]
        if not rest:
            return 1.0
        rank = self.rank(card)
        return sum(1 for c in rest if self.rank(c) < rank) / len(rest)
