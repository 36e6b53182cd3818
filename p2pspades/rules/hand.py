"""The hand in progress, as one engine knows it: each seat's known cards (a bit mask) and how many it holds
that this engine does not know, the bids, the tricks, the voids shown, the draw pile's stock and the nil card
pass. `Game` (engine.py) alone writes it; `bidding.py` and `hidden.py` read it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from p2pspades.rules.actions import Action, Deal, Play
from p2pspades.rules.cards import FULL_DECK, STANDARD_ORDER, SUITS, Card, CardOrder, Suit, cards_of
from p2pspades.rules.errors import BadDeal
from p2pspades.rules.ruleset import RuleSet
from p2pspades.rules.tricks import Trick

PLAYS: tuple[Play, ...] = tuple(Play(card) for card in FULL_DECK)
"""One `Play` per card, by card index: `legal_actions` hands these out instead of making new ones."""


@cache
def suit_plays(mask: int) -> tuple[Action, ...]:
    """The `Play`s of the cards of one suit in a mask, low to high (the jokers after the ace of spades).
    Memoised over a finite domain: at most 2**13 masks per suit (2**15 for spades with the jokers); tens of
    thousands of random hands use about 19,000 of them (under 3 MB)."""
    return tuple(PLAYS[card.index] for card in cards_of(mask))


def plays_of(mask: int, suit_masks: Sequence[int]) -> tuple[Action, ...]:
    """The cached `Play`s of the cards in a mask, by suit (spades, hearts, diamonds, clubs), low to high."""
    out: tuple[Action, ...] = ()
    for suit_mask in suit_masks:
        part = mask & suit_mask
        if part:
            out += suit_plays(part)
    return out


class HandState:
    """The hand in progress. Read it through the public methods; the engine alone writes it."""

    __slots__ = (
        "_best",
        "_bids",
        "_blind",
        "_blind_bidders",
        "_blind_nilers",
        "_closed",
        "_dealt",
        "_discarded",
        "_draw_step",
        "_known",
        "_leader",
        "_led",
        "_must_lead",
        "_n",
        "_order",
        "_passes",
        "_plays",
        "_received",
        "_received_unknown",
        "_revealed",
        "_slow",
        "_start_known",
        "_start_unknown",
        "_stock",
        "_stock_known",
        "_stock_owner",
        "_suits",
        "_tricks",
        "_unknown",
        "_void_notes",
        "_voids",
        "_winning",
        "_won",
        "blind_eligible",
        "dealer",
        "number",
        "spades_broken",
    )

    def __init__(self, players: int, number: int, dealer: int, order: CardOrder = STANDARD_ORDER) -> None:
        n = players
        self._n = n
        self._order = order  # the rule set's card order, for the trick in progress
        self.number = number
        self.dealer = dealer
        self.blind_eligible: tuple[int, ...] = ()
        self.spades_broken = False
        self._bids: list[int | None] = [None] * n
        self._blind = [False] * n
        self._known = [0] * n  # known cards still in each hand
        self._unknown = [0] * n  # how many cards of each hand this engine does not know
        self._start_known: tuple[int, ...] = ()
        self._start_unknown: tuple[int, ...] = ()
        self._tricks: list[Trick] = []
        self._won = [0] * n
        self._plays: list[tuple[int, Card]] = []  # the trick in progress
        self._leader = -1
        self._led = -1  # suit index of the trick in progress, -1 before the lead
        self._best = -1  # power of the winning card so far
        self._winning = -1
        self._must_lead: Card | None = None  # rule "low_club": the first lead
        self._closed = False  # may a seat lead a spade only from a hand of spades?
        # per seat and suit, the cached Plays of its known cards, kept in step with _known during play: the
        # cards a seat may play are then one of these tuples, or a few of them joined
        self._suits: list[list[tuple[Action, ...]]] = []
        self._slow = True  # not every card known, or a first lead to check: legal_actions takes the long way
        self._dealt: tuple[tuple[Card | None, ...], ...] = ()  # the Deal's hands, for initial_hands()
        self._voids = [0] * n  # bit per suit index
        # how each void became public: (seat, suit) -> (trick index, the spade it led, or None for a discard)
        self._void_notes: dict[tuple[int, int], tuple[int, Card | None]] = {}
        self._stock: list[Card | None] = []
        self._stock_owner: list[int | None] = []  # seat, -1 for discarded, None while still in the stock
        self._stock_known = 0
        self._draw_step = 0
        self._discarded = 0  # known discarded stock cards
        self._revealed: tuple[tuple[Card, ...], ...] | None = None
        # rule nil_pass: the passes of the hand (seat, partner, cards), and per seat what it received (a mask
        # of the cards this engine knows, a count of those it does not), which it may not pass on
        self._passes: list[tuple[int, int, tuple[Card | None, ...]]] = []
        self._received = [0] * n
        self._received_unknown = [0] * n
        # house rule blind_bid: the seats of this hand that may bid blind nil, and those that may bid blind
        self._blind_nilers: frozenset[int] = frozenset()
        self._blind_bidders: frozenset[int] = frozenset()

    @property
    def bids(self) -> tuple[int | None, ...]:
        return tuple(self._bids)

    @property
    def blind(self) -> tuple[bool, ...]:
        return tuple(self._blind)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks."""
        return tuple(self._tricks)

    @property
    def trick(self) -> Trick:
        """The trick in progress (no plays before the lead)."""
        return Trick(self._leader, tuple(self._plays), self._order)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        return tuple(self._won)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The seat's cards that this engine knows, still in the hand, in canonical order."""
        return cards_of(self._known[seat])

    def unknown(self, seat: int) -> int:
        return self._unknown[seat]

    def played(self, seat: int) -> tuple[Card, ...]:
        """The cards the seat has played this hand, in canonical order."""
        return cards_of(self._played_by()[seat])

    def _played_by(self) -> list[int]:
        """The mask of the cards each seat has played this hand (worked out when needed, off the hot path)."""
        masks = [0] * self._n
        for trick in (*self._tricks, self.trick):
            for seat, card in trick.plays:
                masks[seat] |= card._bit
        return masks

    @property
    def passes(self) -> tuple[tuple[int, int, tuple[Card | None, ...]], ...]:
        """Rule `nil_pass`: each pass of the hand so far as (seat, partner, cards), None for a card this
        engine does not know."""
        return tuple(self._passes)

    def hand_size(self, seat: int) -> int:
        return self._known[seat].bit_count() + self._unknown[seat]

    def voids(self, seat: int) -> frozenset[Suit]:
        """The suits the seat has publicly shown it does not hold."""
        return frozenset(SUITS[i] for i in range(4) if self._voids[seat] >> i & 1)

    @property
    def stock(self) -> tuple[Card | None, ...]:
        """Draw pile: the stock in drawing order, None where this engine does not know the card."""
        return tuple(self._stock)

    @property
    def stock_left(self) -> int:
        """Draw pile: the cards not yet drawn."""
        return len(self._stock) - 2 * self._draw_step if self._stock else 0

    @property
    def draw_index(self) -> int | None:
        """Draw pile: the stock index of the top card (2 x the step), None when nothing is left to draw."""
        index = 2 * self._draw_step
        return index if index < len(self._stock) else None

    def deal(self, rules: RuleSet, deal: Deal) -> None:
        """Every seat's cards, as far as this engine knows them: `BadDeal` unless a hand of the rule set's
        size each, of the deck's cards."""
        _check_deck(rules, deal)
        n = self._n
        if deal.stock:
            raise BadDeal("only the two-player draw pile has a stock")
        if len(deal.hands) != n:
            raise BadDeal(f"a deal needs {n} hands, got {len(deal.hands)}")
        size = rules.hand_size
        for seat, cards in enumerate(deal.hands):
            if len(cards) != size:
                raise BadDeal(f"hand {seat} has {len(cards)} cards; each seat gets {size}")
        self._known = list(deal.masks)
        self._unknown = [size - mask.bit_count() for mask in deal.masks]
        self._dealt = deal.hands

    def stack(self, rules: RuleSet, deal: Deal) -> None:
        """Draw pile: the whole deck as the stock, as far as this engine knows its cards; no hands."""
        _check_deck(rules, deal)
        if len(deal.hands) != self._n or any(deal.hands):
            raise BadDeal("the draw pile deals no hands: expect hands=((), ()) and the stock")
        if len(deal.stock) != len(rules.deck):
            raise BadDeal(f"the stock must hold {len(rules.deck)} cards, got {len(deal.stock)}")
        self._stock = list(deal.stock)
        self._stock_owner = [None] * len(deal.stock)
        self._stock_known = deal.stock_mask

    def draw(self, seat: int, keep: bool) -> bool:
        """Draw pile: `seat` keeps the top card and discards the next, or discards the top and keeps the next
        (unseen). True once the stock is used up."""
        top = 2 * self._draw_step
        take, drop = (top, top + 1) if keep else (top + 1, top)
        for index, owner in ((take, seat), (drop, -1)):
            self._stock_owner[index] = owner
            card = self._stock[index]
            if card is None:
                if owner >= 0:
                    self._unknown[owner] += 1
            elif owner >= 0:
                self._known[owner] |= card._bit
            else:
                self._discarded |= card._bit
        self._draw_step += 1
        return 2 * self._draw_step >= len(self._stock)

    def give(self, seat: int, partner: int, cards: tuple[Card | None, ...]) -> None:
        """Rule `nil_pass`: `seat` passes `cards` (None: a card this engine does not know) to `partner`."""
        known = self._known[seat]
        for card in cards:
            if card is not None and card._bit & known:
                self._known[seat] ^= card._bit
            else:
                self._unknown[seat] -= 1
            if card is None:
                self._unknown[partner] += 1
                self._received_unknown[partner] += 1
            else:
                self._known[partner] |= card._bit
                self._received[partner] |= card._bit
        self._passes.append((seat, partner, cards))
        self._dealt = ()  # the hands at the first lead are no longer the dealt ones

    def clone(self) -> HandState:
        """An independent copy: every list and dict copied, everything else (cards, tricks, tuples) immutable
        and shared."""
        copy = HandState.__new__(HandState)
        for name in HandState.__slots__:
            value = getattr(self, name)
            setattr(copy, name, value.copy() if type(value) in (list, dict) else value)
        copy._suits = [row.copy() for row in self._suits]
        return copy


def _check_deck(rules: RuleSet, deal: Deal) -> None:
    """The Deal checked its own cards (cards or None, none twice) and worked out the masks of known cards:
    `BadDeal` if one of them is not in this game's deck."""
    strays = (deal.stock_mask | sum(deal.masks)) & ~rules.deck_mask
    if strays:
        raise BadDeal(f"{cards_of(strays)[0]} is not in this game's deck")
