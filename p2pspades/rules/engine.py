"""The game engine: whose turn it is, what is legal, what happens when an action is applied.

One `Game` runs a whole game, hand after hand: BLIND (eligible seats answer "blind nil?") -> DEAL (chance) ->
DRAW (two-player draw pile) -> BID -> PLAY -> REVEAL (chance: every seat's cards; audit and score) -> the next
hand, until GAME_OVER.

An engine may know only some of the cards: each peer knows its own hand. Hands are bit masks of the known
cards (bit `card.index`) plus a count of unknown ones. A card played from unknown cards is checked against the
public record (not played yet, not known to be elsewhere, not in a suit the seat has shown void in); the full
follow-suit audit runs when the hands are revealed. With every card known the same code simply never meets an
unknown card; that is the fast path the benchmark measures.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, partial
from itertools import combinations
from typing import Any

from p2pspades.rules.actions import Action, Bid, BlindBid, BlindNil, Deal, Draw, Pass, Play, Reveal
from p2pspades.rules.audit import Violation, audit_hand, first_leader, renege_penalty
from p2pspades.rules.cards import (
    FULL_DECK,
    STANDARD_ORDER,
    SUITS,
    Card,
    CardOrder,
    Suit,
    cards_of,
)
from p2pspades.rules.errors import (
    BadBid,
    BadDeal,
    BadPass,
    BadReveal,
    BadSeat,
    CardNotInHand,
    IllegalAction,
    MustFollowSuit,
    NotYourTurn,
    PublicInconsistency,
    SpadesNotBroken,
    WrongLead,
    WrongPhase,
)
from p2pspades.rules.results import HandResult, Outcome, Termination
from p2pspades.rules.ruleset import RuleSet
from p2pspades.rules.scoring import HandScore, SideTotal, score_hand
from p2pspades.rules.tricks import Trick, trick_winner
from p2pspades.rules.view import Phase, SeatView

PLAYS: tuple[Play, ...] = tuple(Play(card) for card in FULL_DECK)
"""One `Play` per card, by card index: `legal_actions` hands these out instead of making new ones."""
_BIDS: tuple[Bid, ...] = tuple(Bid(tricks) for tricks in range(len(FULL_DECK) + 1))
_BLIND_CHOICES: tuple[BlindNil, BlindNil] = (BlindNil(True), BlindNil(False))
_NO_BLIND: tuple[BlindNil] = (BlindNil(False),)
_DRAW_CHOICES: tuple[Draw, Draw] = (Draw(True), Draw(False))
_PHASE_WAITS = {
    Phase.BLIND: "blind-nil answers",
    Phase.DEAL: "the deal",
    Phase.DRAW: "the draw",
    Phase.BID: "bids",
    Phase.PASS: "the nil card pass",
    Phase.PLAY: "cards",
    Phase.REVEAL: "the revealed hands",
    Phase.GAME_OVER: "nothing: the game is over",
}
_PLAY = Phase.PLAY
# Named tuples made straight from a tuple: their generated __new__ is a Python function, this is not.
_new_trick = partial(tuple.__new__, Trick)
_new_result = partial(tuple.__new__, HandResult)
_NO_HONEST: tuple[tuple[int, int], ...] = ()
_NO_SIDES: frozenset[int] = frozenset()


@cache
def _bid_range(nil: bool, lowest: int, top: int) -> tuple[Bid, ...]:
    """The bids nil (when `nil`) and `lowest` to `top`, as the cached `Bid`s."""
    return ((_BIDS[0],) if nil else ()) + _BIDS[lowest : top + 1]


@cache
def _suit_plays(mask: int) -> tuple[Action, ...]:
    """The `Play`s of the cards of one suit in a mask, low to high (the jokers after the ace of spades).
    Memoised over a finite domain: at most 2**13 masks per suit (2**15 for spades with the jokers); tens of
    thousands of random hands use about 19,000 of them (under 3 MB)."""
    return tuple(PLAYS[card.index] for card in cards_of(mask))


def _plays_of(mask: int, suit_masks: Sequence[int]) -> tuple[Action, ...]:
    """The cached `Play`s of the cards in a mask, by suit (spades, hearts, diamonds, clubs), low to high."""
    out: tuple[Action, ...] = ()
    for suit_mask in suit_masks:
        part = mask & suit_mask
        if part:
            out += _suit_plays(part)
    return out


class HandState:
    """The hand in progress. Read it through the public methods; the engine alone writes it."""

    __slots__ = (
        "_best",
        "_bids",
        "_blind",
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
    def draw_index(self) -> int | None:
        """Draw pile: the stock index of the top card (2 x the step), None when nothing is left to draw."""
        index = 2 * self._draw_step
        return index if index < len(self._stock) else None

    def clone(self) -> HandState:
        """An independent copy: every list and dict copied, everything else (cards, tricks, tuples) immutable
        and shared."""
        copy = HandState.__new__(HandState)
        for name in HandState.__slots__:
            value = getattr(self, name)
            setattr(copy, name, value.copy() if type(value) in (list, dict) else value)
        copy._suits = [row.copy() for row in self._suits]
        return copy

    def _forget_cards(self) -> None:
        """Forget every card still hidden, in the hands and in the stock, as an observer never knew them;
        the cards each seat holds become a count (see `Game.public_clone`)."""
        n = self._n
        self._unknown = [self.hand_size(seat) for seat in range(n)]
        self._known = [0] * n
        if self._start_known:
            starts = zip(self._start_known, self._start_unknown, strict=True)
            self._start_unknown = tuple(known.bit_count() + unknown for known, unknown in starts)
            self._start_known = (0,) * n
        self._dealt = tuple((None,) * len(cards) for cards in self._dealt)
        received = zip(self._received, self._received_unknown, strict=True)
        self._received_unknown = [known.bit_count() + unknown for known, unknown in received]
        self._received = [0] * n
        self._passes = [(seat, partner, (None,) * len(cards)) for seat, partner, cards in self._passes]
        self._suits = [[(), (), (), ()] for _ in self._suits]
        self._slow = True
        self._stock = [None] * len(self._stock)
        self._stock_known = 0
        self._discarded = 0


MAX_START_SCORE = 1_000_000
"""The largest score (and, negated, the lowest) a continued game may start from; also the most bags it may
start with under rules that never reset them (`bag_limit` nil)."""


def ending_at(rules: RuleSet, scores: Sequence[int]) -> Outcome | None:
    """How a game of `rules` ends once the sides' scores are `scores` after a hand (no Boston this hand):
    a side reached the target or fell to the losing threshold, unless the leaders tie and ties play on.
    None: the game goes on."""
    reached = max(scores) >= rules.target
    fell = rules.losing_threshold is not None and min(scores) <= rules.losing_threshold
    if not (reached or fell):
        return None
    top = max(scores)
    leaders = tuple(side for side, score in enumerate(scores) if score == top)
    if len(leaders) > 1 and rules.tie == "another_hand":
        return None
    return Outcome(leaders, Termination.TARGET if reached else Termination.LOSING_THRESHOLD)


def start_problem(rules: RuleSet, totals: Sequence[SideTotal]) -> str | None:
    """Why a game of `rules` cannot start from `totals` (one per side, in side order), or None if it can:
    one total per side, each score a whole number within +-`MAX_START_SCORE`, each side's bags a whole
    number from 0 to below `bag_limit` (as a hand leaves them: every `bag_limit` bags are paid at once;
    up to `MAX_START_SCORE` if bags are never paid), and a game that `ending_at` these scores would not
    already be over."""
    sides = len(rules.sides)
    if len(totals) != sides:
        return f"{len(totals)} starting totals for rules with {sides} sides"
    for side, total in enumerate(totals):
        score, bags = total.score, total.bags
        if not isinstance(score, int) or isinstance(score, bool) or abs(score) > MAX_START_SCORE:
            return f"side {side}'s starting score {score!r} is not a whole number within +-{MAX_START_SCORE}"
        most = MAX_START_SCORE if rules.bag_limit is None else rules.bag_limit - 1
        if not isinstance(bags, int) or isinstance(bags, bool) or not 0 <= bags <= most:
            return f"side {side}'s starting bags {bags!r} are not a whole number from 0 to {most}"
    if ending_at(rules, [total.score for total in totals]) is not None:
        return "a game at these scores is already over"
    return None


class Game:
    """A whole game under one rule set, starting with `first_dealer` dealing the first hand."""

    __slots__ = (
        "_bid_mode",
        "_bid_orders",
        "_bid_values",
        "_blind_bidders",
        "_blind_bids",
        "_blind_nilers",
        "_broken_rule",
        "_deck_mask",
        "_hand_size",
        "_leaders",
        "_legal_bids",
        "_n",
        "_next",
        "_no_double_nil",
        "_non_spades",
        "_order",
        "_power",
        "_queue",
        "_spade_rule",
        "_suit_masks",
        "_suit_of",
        "_team_bids",
        "_tricks_per_hand",
        "current_seat",
        "hand",
        "hand_number",
        "history",
        "outcome",
        "phase",
        "rules",
        "totals",
    )

    def __init__(self, rules: RuleSet, first_dealer: int, totals: Sequence[SideTotal] | None = None) -> None:
        """`totals`: each side's score and bags at the start (a game that continues another, PROTOCOL.md
        §4.1 "after"); None: every side starts at 0 with no bags. `IllegalAction` if they are not totals
        a game of these rules can go on from (`start_problem`)."""
        if not isinstance(rules, RuleSet):
            raise IllegalAction(f"a game needs a RuleSet, got {type(rules).__name__}")
        n = rules.players
        if not isinstance(first_dealer, int) or isinstance(first_dealer, bool) or not 0 <= first_dealer < n:
            raise BadSeat(f"the first dealer must be a seat from 0 to {n - 1}, got {first_dealer!r}")
        if totals is not None:
            problem = start_problem(rules, totals)
            if problem is not None:
                raise IllegalAction(problem)
        self.rules = rules
        self._n = n
        self._next = tuple((seat + 1) % n for seat in range(n))
        self._deck_mask = rules.deck_mask
        self._tricks_per_hand = self._hand_size = rules.hand_size
        self._spade_rule = rules.spade_lead
        self._broken_rule = rules.spade_lead == "broken"
        order = rules.order  # deuces high moves the 2S and 2D
        self._order = order
        self._suit_of = order.suit_of
        self._power = order.power
        self._suit_masks = order.suit_masks
        self._non_spades = order.non_spades_mask
        first_bidder = [dealer if rules.first_bidder == "dealer" else (dealer + 1) % n for dealer in range(n)]
        self._bid_orders = tuple(tuple((first + k) % n for k in range(n)) for first in first_bidder)
        self._leaders = tuple(first_leader(rules, dealer, None) for dealer in range(n))
        lowest = max(rules.min_bid, 1 if rules.nil else 0)
        self._legal_bids = _bid_range(rules.nil, lowest, self._tricks_per_hand)
        self._bid_values = frozenset(bid.tricks for bid in self._legal_bids)
        # house rules that make a seat's bids depend on its partner's
        self._no_double_nil = rules.partnerships and not rules.double_nil
        self._team_bids = self._no_double_nil or (rules.partnerships and rules.min_team_bid > 0)
        # bid modes: a seat's bids depend on its cards (mirror, whiz) or on its partner's bid (suicide)
        self._bid_mode = rules.bid_mode
        # house rule blind_bid: the seats of this hand that may bid blind nil, and those that may bid blind
        self._blind_nilers: frozenset[int] = frozenset()
        self._blind_bidders: frozenset[int] = frozenset()
        lowest_blind = max(rules.blind_bid_min, lowest, 1)
        self._blind_bids: tuple[Action, ...] = tuple(
            BlindBid(k) for k in range(lowest_blind, self._tricks_per_hand + 1)
        )
        if self._bid_mode != "free":
            self._team_bids = True
            self._no_double_nil = self._no_double_nil or self._bid_mode == "suicide"
        self.hand_number = 0
        self.history: list[HandResult] = []
        self.totals: tuple[SideTotal, ...] = (
            tuple(SideTotal() for _ in rules.sides) if totals is None
            else tuple(SideTotal(t.score, t.bags) for t in totals))
        self.outcome: Outcome | None = None
        self.phase = Phase.DEAL
        self.current_seat: int | None = None
        self._queue: list[int] = []  # seats still to answer in BLIND or BID
        self.hand = HandState(n, 0, first_dealer, self._order)
        self._start_hand(first_dealer)

    @property
    def dealer(self) -> int:
        return self.hand.dealer

    def clone(self) -> Game:
        """An independent copy of the game as this engine knows it, for search and look-ahead: actions
        applied to the copy never change this game, nor the other way round. Costs about ten microseconds."""
        copy = Game.__new__(Game)
        for name in Game.__slots__:
            setattr(copy, name, getattr(self, name))
        copy.history = self.history.copy()
        copy._queue = self._queue.copy()
        copy.hand = self.hand.clone()
        return copy

    def public_clone(self) -> Game:
        """A clone that knows only the public record: the engine of an observer (a table with no seat, the
        verifier) at this point of the game. Every card still in a hand or in the stock becomes unknown, so
        a play that only this engine's own cards refute is accepted by the copy as every other peer accepts
        it. Under "low_club", before the first lead, the copy no longer knows who leads."""
        copy = self.clone()
        hand = copy.hand
        hand._forget_cards()
        if copy.phase is _PLAY and hand._must_lead is not None:
            copy.current_seat = None  # an observer learns the holder of the lowest club from its lead
            hand._leader = -1
        return copy

    # ----- the turn --------------------------------------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """The actions the current seat may take, by suit and rank for cards; () at chance steps, at the end,
        and when the turn is not known. (A tuple: the engine hands out the same cached objects each time.)"""
        phase = self.phase
        seat = self.current_seat
        if seat is None:
            return ()
        if phase is _PLAY:
            hand = self.hand
            if hand._slow:
                return _plays_of(self._legal_mask(seat), self._suit_masks)
            # The fast path of _legal_mask, with the seat's whole hand known: one suit, or the whole hand.
            suits = hand._suits[seat]
            led = hand._led
            if led >= 0:
                plays = suits[led]
                if plays:
                    return plays
            elif hand._closed:
                plays = suits[1] + suits[2] + suits[3]
                if plays:
                    return plays
            return suits[0] + suits[1] + suits[2] + suits[3]
        if phase is Phase.BID:
            return self._bid_choices(seat) if self._team_bids else self._legal_bids
        if phase is Phase.BLIND:
            nil: tuple[Action, ...] = (
                _NO_BLIND if self._no_double_nil and self._partner_is_nil(seat) else _BLIND_CHOICES
            )
            if not self._blind_bidders:
                return nil
            if seat not in self._blind_nilers:
                nil = _NO_BLIND
            return nil + self._blind_bids if seat in self._blind_bidders else nil
        if phase is Phase.DRAW:
            return _DRAW_CHOICES
        if phase is Phase.PASS:
            return self._pass_choices(seat)
        return ()

    def is_legal(self, action: Action) -> bool:
        """Would `apply(action)` succeed? (Checks without changing the game.)"""
        if self.current_seat is None:
            return False
        return action in self.legal_actions()

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply one action. `seat`, when given, is who sent it: a different seat than the current one is
        refused with `NotYourTurn`. Anything illegal raises a specific `IllegalAction` and changes nothing."""
        if type(action) is not Play:
            handler = _HANDLERS.get(type(action))
            if handler is None:
                raise IllegalAction(f"not an action: {action!r}")
            handler(self, action, seat)
            return
        # Playing a card is the hot path, so it stays in this one function. Every check comes before the first
        # change, so a refused card changes nothing.
        card = action.card
        hand = self.hand
        current = self.current_seat
        if current is None or self.phase is not _PLAY:
            current = self._play_turn(card, seat)
        elif seat is not None and seat != current:
            raise NotYourTurn(f"it is seat {current}'s turn, not seat {seat}'s", seat)
        bit = card._bit
        known = hand._known[current]
        held = known & bit
        if not held:
            self._check_unknown_play(current, card)
        suit = self._suit_of[card.index]
        power = self._power[card.index]
        led = hand._led
        if led < 0:
            if hand._must_lead is not None:
                self._first_lead(current, card)
            if suit == 0:
                if hand._closed:
                    self._lead_only_spades(current, card, known)
                hand.spades_broken = True
            hand._led = suit
            hand._leader = current
            hand._best = power
            hand._winning = current
        elif suit == led:
            if power > hand._best:
                hand._best = power
                hand._winning = current
        else:
            if known & self._suit_masks[led]:
                raise MustFollowSuit(
                    f"seat {current} must follow {SUITS[led].noun} and may not play {card}", current
                )
            if not hand._voids[current] >> led & 1:
                hand._voids[current] |= 1 << led
                hand._void_notes[(current, led)] = (len(hand._tricks), None)
            if suit == 0:
                hand.spades_broken = True
                if power > hand._best:
                    hand._best = power
                    hand._winning = current
        if held:
            known ^= bit
            hand._known[current] = known
            hand._suits[current][suit] = _suit_plays(known & self._suit_masks[suit])
        else:
            hand._unknown[current] -= 1
        plays = hand._plays
        plays.append((current, card))
        if len(plays) < self._n:
            self.current_seat = self._next[current]
            return
        # the trick is complete (inline: it happens a dozen times a hand)
        winner = hand._winning
        hand._tricks.append(_new_trick((hand._leader, tuple(plays), self._order)))
        hand._won[winner] += 1
        hand._plays = []
        hand._led = -1
        hand._best = -1
        hand._leader = winner
        if hand._closed and (hand.spades_broken or not self._broken_rule):
            hand._closed = False
        if len(hand._tricks) == self._tricks_per_hand:
            self.phase = Phase.REVEAL
            self.current_seat = None
        else:
            self.current_seat = winner

    def _turn(self, phase: Phase, action: object, seat: int | None) -> int:
        if self.phase is not phase:
            raise self._wrong_phase(action)
        current = self.current_seat
        if current is None:
            raise NotYourTurn(f"no seat's turn is known here, so {action} cannot be placed", seat)
        if seat is not None and seat != current:
            raise NotYourTurn(f"it is seat {current}'s turn, not seat {seat}'s", seat)
        return current

    def _chance(self, seat: int | None, phase: Phase, action: object) -> None:
        if seat is not None:
            name = type(action).__name__
            raise IllegalAction(f"{name} is a chance step, not an action of seat {seat}", seat)
        if self.phase is not phase:
            raise self._wrong_phase(action)

    def _wrong_phase(self, action: object) -> WrongPhase:
        name = type(action).__name__
        if self.phase is Phase.GAME_OVER:
            return WrongPhase(f"{name}: the game is over", self.current_seat)
        return WrongPhase(
            f"{name} is not allowed in the {self.phase.value} phase (waiting for {_PHASE_WAITS[self.phase]})",
            self.current_seat,
        )

    # ----- hand start, blind nil, deal, draw, bids -------------------------------------------------------

    def _start_hand(self, dealer: int) -> None:
        self.hand_number += 1
        hand = self.hand = HandState(self._n, self.hand_number, dealer, self._order)
        rules = self.rules
        eligible: list[int] = []
        scores = [total.score for total in self.totals]
        if rules.blind_nil and max(scores) - min(scores) >= rules.blind_nil_margin:
            eligible = self._trailing(dealer, scores, rules.blind_nil_margin)
        if rules.blind_bid:  # blind bids: the seats asked are those that may bid either
            self._blind_nilers = frozenset(eligible)
            self._blind_bidders = frozenset(self._trailing(dealer, scores, rules.blind_bid_margin))
            eligible = [s for s in self._bid_orders[dealer] if s in self._blind_nilers | self._blind_bidders]
        hand.blind_eligible = tuple(eligible)
        if eligible:
            self.phase = Phase.BLIND
            self._queue = eligible
            self.current_seat = eligible[0]
        else:
            self.phase = Phase.DEAL
            self.current_seat = None

    def _partner_is_nil(self, seat: int) -> bool:
        """Has the seat's partner bid nil or blind nil this hand? (Partnerships only.)"""
        hand, partner = self.hand, (seat + 2) % 4
        bid = hand._bids[partner]
        return bid == 0 and (hand._blind[partner] or self.rules.nil)

    def _bid_choices(self, seat: int) -> tuple[Bid, ...]:
        """The bids of a seat under `min_team_bid` and `double_nil`: once its partner has bid, a bid that is
        not nil must bring the side to the minimum, unless the partner bid nil; nil is refused after a
        partner's nil when `double_nil` is off."""
        mode = self._bid_mode
        if mode != "free":
            return self._suicide_bids(seat) if mode == "suicide" else self._spade_bids(seat)
        rules = self.rules
        partner_bid = self.hand._bids[(seat + 2) % 4]
        if partner_bid is None:
            return self._legal_bids
        partner_nil = self._partner_is_nil(seat)
        lowest = max(rules.min_bid, 1 if rules.nil else 0)
        if not partner_nil:
            lowest = max(lowest, rules.min_team_bid - partner_bid)
        nil = rules.nil and (rules.double_nil or not partner_nil)
        return _bid_range(nil, lowest, self._tricks_per_hand)

    def _spade_bids(self, seat: int) -> tuple[Bid, ...]:
        """Bid modes "mirror" (the spades held; nil for none) and "whiz" (the spades held, or nil). An engine
        that does not know the seat's cards accepts any bid: the claim is checked against the revealed hand
        by the end-of-hand audit (`bad_bid`)."""
        hand = self.hand
        if hand._unknown[seat]:
            return self._legal_bids
        count = (hand._known[seat] & self._order.spades_mask).bit_count()
        if self._bid_mode == "mirror" or not count:
            return (_BIDS[count],)
        return (_BIDS[0], _BIDS[count])

    def _suicide_bids(self, seat: int) -> tuple[Bid, ...]:
        """Bid mode "suicide": exactly one partner of a side bids nil (or blind nil); a bid other than nil is
        at least `min_team_bid` (and `min_bid`). The side's first bidder chooses which."""
        rules = self.rules
        lowest = max(rules.min_bid, 1, rules.min_team_bid)
        partner_bid = self.hand._bids[(seat + 2) % 4]
        if partner_bid is None:
            return _bid_range(True, lowest, self._tricks_per_hand)
        if partner_bid == 0:
            return _bid_range(False, lowest, self._tricks_per_hand)
        return (_BIDS[0],)

    def _blind_nil(self, action: BlindNil, seat: int | None) -> None:
        seat = self._turn(Phase.BLIND, action, seat)
        if action.declare and self._no_double_nil and self._partner_is_nil(seat):
            raise BadBid(f"seat {seat} may not bid blind nil: its partner bid nil (double nil is off)", seat)
        if action.declare and self._blind_bidders and seat not in self._blind_nilers:
            raise BadBid(f"seat {seat} may not bid blind nil: its side does not trail by "
                         f"{self.rules.blind_nil_margin} (blind_nil_margin)", seat)
        if action.declare:
            self.hand._bids[seat] = 0
            self.hand._blind[seat] = True
        self._next_blind()

    def _blind_bid(self, action: BlindBid, seat: int | None) -> None:
        seat = self._turn(Phase.BLIND, action, seat)
        rules = self.rules
        if seat not in self._blind_bidders:
            margin = rules.blind_bid_margin
            why = f"its side does not trail by {margin} (blind_bid_margin)"
            raise BadBid(f"seat {seat} may not bid blind: {why}", seat)
        if action not in self._blind_bids:
            lowest = max(rules.blind_bid_min, rules.min_bid, 1)
            raise BadBid(f"seat {seat} bid {action.tricks} blind: blind bids are {lowest} to "
                         f"{self._tricks_per_hand}", seat)
        self.hand._bids[seat] = action.tricks
        self.hand._blind[seat] = True
        self._next_blind()

    def _next_blind(self) -> None:
        self._queue.pop(0)
        if self._queue:
            self.current_seat = self._queue[0]
        else:
            self.phase = Phase.DEAL
            self.current_seat = None

    def _trailing(self, dealer: int, scores: Sequence[int], margin: int) -> list[int]:
        """The seats, in bidding order, whose side trails the best other side by at least `margin`."""
        rules = self.rules
        out = []
        for seat in self._bid_orders[dealer]:
            side = rules.side_of(seat)
            best_other = max(score for i, score in enumerate(scores) if i != side)
            if best_other - scores[side] >= margin:
                out.append(seat)
        return out

    def _deal(self, deal: Deal, seat: int | None) -> None:
        # The Deal checked its own cards (cards or None, none twice) and worked out the masks of known cards.
        self._chance(seat, Phase.DEAL, deal)
        rules, hand, n = self.rules, self.hand, self._n
        strays = (deal.stock_mask | sum(deal.masks)) & ~self._deck_mask
        if strays:
            raise BadDeal(f"{cards_of(strays)[0]} is not in this game's deck")
        if rules.deal == "draw":
            if len(deal.hands) != n or any(deal.hands):
                raise BadDeal("the draw pile deals no hands: expect hands=((), ()) and the stock")
            if len(deal.stock) != len(rules.deck):
                raise BadDeal(f"the stock must hold {len(rules.deck)} cards, got {len(deal.stock)}")
            hand._stock = list(deal.stock)
            hand._stock_owner = [None] * len(deal.stock)
            hand._stock_known = deal.stock_mask
            self.phase = Phase.DRAW
            self.current_seat = self._next[hand.dealer]
            return
        if deal.stock:
            raise BadDeal("only the two-player draw pile has a stock")
        if len(deal.hands) != n:
            raise BadDeal(f"a deal needs {n} hands, got {len(deal.hands)}")
        size = self._hand_size
        for seat, cards in enumerate(deal.hands):
            if len(cards) != size:
                raise BadDeal(f"hand {seat} has {len(cards)} cards; each seat gets {size}")
        hand._known = list(deal.masks)
        hand._unknown = [size - mask.bit_count() for mask in deal.masks]
        hand._dealt = deal.hands
        self._start_bidding()

    def _draw(self, action: Draw, seat: int | None) -> None:
        seat = self._turn(Phase.DRAW, action, seat)
        hand = self.hand
        top = 2 * hand._draw_step
        take, drop = (top, top + 1) if action.keep else (top + 1, top)
        for index, owner in ((take, seat), (drop, -1)):
            hand._stock_owner[index] = owner
            card = hand._stock[index]
            if card is None:
                if owner >= 0:
                    hand._unknown[owner] += 1
            elif owner >= 0:
                hand._known[owner] |= card._bit
            else:
                hand._discarded |= card._bit
        hand._draw_step += 1
        if 2 * hand._draw_step >= len(hand._stock):
            self._start_bidding()
        else:
            self.current_seat = self._next[seat]

    def learn(self, stock_index: int, card: Card) -> None:
        """Draw pile: record that the stock card at `stock_index` is `card` (seen by this engine's seat).

        Allowed while the draw or the bidding is in progress; a contradiction with what is known is refused.
        """
        hand = self.hand
        if self.rules.deal != "draw":
            raise WrongPhase("learn() is for the two-player draw pile; this game deals every card")
        if self.phase not in (Phase.DRAW, Phase.BID):
            raise self._wrong_phase(f"learn({stock_index}, {card})")
        if not isinstance(card, Card):
            raise BadDeal(f"learn() needs a card, got {card!r}")
        if not isinstance(stock_index, int) or isinstance(stock_index, bool) or not (
            0 <= stock_index < len(hand._stock)
        ):
            raise BadDeal(f"stock index must be 0 to {len(hand._stock) - 1}, got {stock_index!r}")
        current = hand._stock[stock_index]
        if current is card:
            return
        if current is not None:
            raise PublicInconsistency(f"stock card {stock_index} is known to be {current}, not {card}")
        if not card._bit & self._deck_mask:
            raise BadDeal(f"{card} is not in this game's deck")
        if card._bit & hand._stock_known:
            raise PublicInconsistency(f"{card} is already known to be stock card {hand._stock.index(card)}")
        hand._stock[stock_index] = card
        hand._stock_known |= card._bit
        owner = hand._stock_owner[stock_index]
        if owner == -1:
            hand._discarded |= card._bit
        elif owner is not None:
            hand._known[owner] |= card._bit
            hand._unknown[owner] -= 1

    def _start_bidding(self) -> None:
        hand = self.hand
        order = self._bid_orders[hand.dealer]
        self._queue = [seat for seat in order if not hand._blind[seat]]
        if self._queue:
            self.phase = Phase.BID
            self.current_seat = self._queue[0]
        else:
            self._after_bids()

    def _bid(self, action: Bid, seat: int | None) -> None:
        current = self.current_seat
        if self.phase is not Phase.BID or current is None:
            raise self._wrong_phase(action)
        if seat is not None and seat != current:
            raise NotYourTurn(f"it is seat {current}'s turn, not seat {seat}'s", seat)
        tricks = action.tricks
        if self._team_bids and tricks in self._bid_values and Bid(tricks) not in self._bid_choices(current):
            raise BadBid(self._team_bid_refusal(current, tricks), current)
        if tricks not in self._bid_values:
            rules = self.rules
            nil = " (or 0 for nil)" if rules.nil else ""
            top = self._tricks_per_hand
            raise BadBid(f"seat {current} bid {tricks}: bids are {rules.min_bid} to {top}{nil}", current)
        self.hand._bids[current] = tricks
        self._queue.pop(0)
        if self._queue:
            self.current_seat = self._queue[0]
        else:
            self._after_bids()

    def _team_bid_refusal(self, seat: int, tricks: int) -> str:
        rules = self.rules
        partner = (seat + 2) % 4
        mode = self._bid_mode
        if mode in ("mirror", "whiz"):
            count = (self.hand._known[seat] & self._order.spades_mask).bit_count()
            also = " or nil" if mode == "whiz" else ""
            return f"seat {seat} bid {tricks}: under {mode} bids it bids the {count} spades it holds{also}"
        if mode == "suicide":
            partner_bid = self.hand._bids[partner]
            if partner_bid is None or partner_bid == 0:
                nil = "" if partner_bid is None else f"its partner, seat {partner}, bid nil, so it may not; "
                lowest = max(rules.min_bid, 1, rules.min_team_bid)
                return f"seat {seat} bid {tricks}: under suicide bids {nil}a bid other than nil is {lowest}+"
            return (
                f"seat {seat} bid {tricks}: under suicide bids its partner, seat {partner}, bid "
                f"{partner_bid}, so it bids nil"
            )
        if tricks == 0 and rules.nil:
            return f"seat {seat} may not bid nil: its partner, seat {partner}, bid nil (double nil is off)"
        partner_bid = self.hand._bids[partner]
        return (
            f"seat {seat} bid {tricks}: with its partner's {partner_bid} the side must bid at least "
            f"{rules.min_team_bid} (min_team_bid)"
        )

    # ----- the nil card pass ------------------------------------------------------------------------------

    def passing_seats(self) -> tuple[int, ...]:
        """Rule `nil_pass`: the seats that pass this hand, in order: both seats of every side with a nil or
        blind-nil bid, from the dealer's left. () when the rule is off or nobody bid nil."""
        if not self.rules.nil_pass:
            return ()
        hand, n = self.hand, self._n
        nil = [hand._bids[seat] == 0 for seat in range(n)]  # nil or blind nil (a blind bid is 1 or more)
        order = ((hand.dealer + 1 + k) % n for k in range(n))
        return tuple(seat for seat in order if nil[seat] or nil[(seat + 2) % 4])

    def _after_bids(self) -> None:
        passing = self.passing_seats()
        if passing:
            self.phase = Phase.PASS
            self._queue = list(passing)
            self.current_seat = passing[0]
        else:
            self._start_play()

    def _pass_choices(self, seat: int) -> tuple[Pass, ...]:
        """Every set of `nil_pass` cards of the seat's dealt cards, if this engine knows them all."""
        hand = self.hand
        if hand._unknown[seat] > hand._received_unknown[seat]:
            return ()
        dealt = cards_of(hand._known[seat] & ~hand._received[seat])
        return tuple(Pass(cards) for cards in combinations(dealt, self.rules.nil_pass))

    def _pass(self, action: Pass, seat: int | None) -> None:
        seat = self._turn(Phase.PASS, action, seat)
        hand, size = self.hand, self.rules.nil_pass
        cards = action.cards
        if len(cards) != size:
            raise BadPass(f"seat {seat} passes {len(cards)} cards; the rule is {size}", seat)
        known, received = hand._known[seat], hand._received[seat]
        from_unknown = 0  # cards this engine did not know the seat held
        for card in cards:
            if card is None:
                from_unknown += 1
                continue
            bit = card._bit
            if bit & received:
                raise BadPass(f"seat {seat} may not pass on {card}, which it received in the pass", seat)
            if bit & known:
                continue
            if not bit & self._deck_mask:
                raise BadPass(f"{card} is not in this game's deck", seat)
            other = next((s for s in range(self._n) if hand._known[s] & bit), None)
            if other is not None:
                raise BadPass(f"seat {seat} cannot pass {card}: seat {other} holds it", seat)
            from_unknown += 1
        if from_unknown > hand._unknown[seat] - hand._received_unknown[seat]:
            raise BadPass(f"seat {seat} passes cards it was not dealt", seat)
        partner = (seat + 2) % 4
        for card in cards:
            if card is not None and card._bit & known:
                hand._known[seat] ^= card._bit
            else:
                hand._unknown[seat] -= 1
            if card is None:
                hand._unknown[partner] += 1
                hand._received_unknown[partner] += 1
            else:
                hand._known[partner] |= card._bit
                hand._received[partner] |= card._bit
        hand._passes.append((seat, partner, cards))
        hand._dealt = ()  # the hands at the first lead are no longer the dealt ones
        self._queue.pop(0)
        if self._queue:
            self.current_seat = self._queue[0]
        else:
            self._start_play()

    def _start_play(self) -> None:
        hand, rules = self.hand, self.rules
        hand._start_known = tuple(hand._known)
        hand._start_unknown = tuple(hand._unknown)
        hand._suits = [
            [_suit_plays(known & suit_mask) for suit_mask in self._suit_masks] for known in hand._known
        ]
        hand._closed = rules.spade_lead != "always"
        self.phase = Phase.PLAY
        leader: int | None = self._leaders[hand.dealer]
        if rules.first_leader == "low_club":
            low = rules.low_club
            assert low is not None  # the rule set refuses "low_club" without clubs
            hand._must_lead = low
            holders = [seat for seat in range(self._n) if hand._known[seat] & low._bit]
            if not holders:
                holders = [seat for seat in range(self._n) if hand._unknown[seat]]
            leader = holders[0] if len(holders) == 1 else None
        hand._slow = any(hand._start_unknown) or hand._must_lead is not None
        hand._leader = -1 if leader is None else leader
        self.current_seat = leader

    # ----- play ------------------------------------------------------------------------------------------

    def _legal_mask(self, seat: int) -> int:
        hand = self.hand
        known = hand._known[seat]
        if hand._unknown[seat]:
            return self._legal_mask_partial(seat)
        led = hand._led
        if led >= 0:
            return (known & self._suit_masks[led]) or known
        if hand._must_lead is not None:
            return known & hand._must_lead._bit
        if hand._closed:
            return (known & self._non_spades) or known
        return known

    def _possible_unknown(self, seat: int) -> int:
        """The cards a seat might be holding among its unknown cards, given the public record."""
        hand = self.hand
        mask = self._deck_mask & ~sum(hand._played_by()) & ~hand._discarded
        for known in hand._known:
            mask &= ~known
        voids = hand._voids[seat]
        for suit in range(4):
            if voids >> suit & 1:
                mask &= ~self._suit_masks[suit]
        return mask

    def _legal_mask_partial(self, seat: int) -> int:
        hand = self.hand
        known = hand._known[seat]
        candidates = known | self._possible_unknown(seat)
        led = hand._led
        if led >= 0:
            return (known & self._suit_masks[led]) or candidates
        if hand._must_lead is not None:
            return candidates & hand._must_lead._bit
        if hand._closed:
            non_spades = self._non_spades
            return candidates & non_spades if known & non_spades else candidates
        return candidates

    def _play_turn(self, card: Card, seat: int | None) -> int:
        """The seat playing `card` when the fast check in `apply` did not settle it."""
        if self.phase is not _PLAY:
            raise self._wrong_phase(Play(card))
        return self._claim_first_lead(card, seat)

    def _first_lead(self, seat: int, card: Card) -> None:
        """Rule "low_club": the first lead must be the lowest club."""
        hand = self.hand
        if card is not hand._must_lead:
            raise WrongLead(f"the first lead must be {hand._must_lead}, not {card}", seat)
        hand._must_lead = None
        hand._slow = any(hand._start_unknown)

    def _claim_first_lead(self, card: Card, seat: int | None) -> int:
        """Rule "low_club" when this engine does not know who holds the lowest club: the sender says so."""
        low = self.hand._must_lead
        if seat is None:
            raise NotYourTurn(
                f"this engine does not know who holds {low}; pass the seat that leads it: apply(action, seat)"
            )
        if not isinstance(seat, int) or not 0 <= seat < self._n:
            raise BadSeat(f"no seat {seat!r} at this table")
        if card is not low:
            raise WrongLead(f"the first lead must be {low}, not {card}", seat)
        if not self.hand._unknown[seat] and not self.hand._known[seat] & card._bit:
            raise CardNotInHand(f"seat {seat} does not hold {card}", seat)
        return seat

    def _check_unknown_play(self, seat: int, card: Card) -> None:
        """A card that is not among the seat's known cards: possible only from its unknown ones."""
        hand = self.hand
        bit = card._bit
        if not hand._unknown[seat]:
            raise CardNotInHand(f"seat {seat} does not hold {card}", seat)
        if not bit & self._deck_mask:
            raise CardNotInHand(f"{card} is not in this game's deck", seat)
        played_by = hand._played_by()
        if bit & sum(played_by):
            player = next(s for s in range(self._n) if played_by[s] & bit)
            raise PublicInconsistency(f"{card} was already played by seat {player} this hand", seat)
        for other in range(self._n):
            if hand._known[other] & bit:
                raise PublicInconsistency(f"seat {seat} cannot hold {card}: seat {other} holds it", seat)
        if bit & hand._discarded:
            raise PublicInconsistency(f"seat {seat} cannot hold {card}: it was discarded", seat)
        suit = self._suit_of[card.index]
        note = hand._void_notes.get((seat, suit))
        if note is not None:
            trick, spade = note
            if spade is None:
                shown = f"showed void in {SUITS[suit].noun} on trick {trick + 1}"
            else:
                shown = f"led {spade} on trick {trick + 1}, which only a hand of spades could do,"
            raise PublicInconsistency(f"seat {seat} {shown} and now plays {card}", seat)

    def _lead_only_spades(self, seat: int, card: Card, known: int) -> None:
        """A spade lead the spade rule forbids is legal only from a hand of nothing but spades."""
        hand = self.hand
        if known & self._non_spades:
            first = self._spade_rule == "not_first_trick"
            why = "on the first trick" if first else "before spades are broken"
            raise SpadesNotBroken(
                f"seat {seat} may not lead {card} {why} while holding other suits", seat
            )
        for suit in (1, 2, 3):
            if not hand._voids[seat] >> suit & 1:
                hand._voids[seat] |= 1 << suit
                hand._void_notes[(seat, suit)] = (len(hand._tricks), card)

    # ----- reveal, scoring, the end ----------------------------------------------------------------------

    def _reveal(self, reveal: Reveal, seat: int | None) -> None:
        # The Reveal checked that it holds cards; sizes, the deck and duplicates are checked here.
        self._chance(seat, Phase.REVEAL, reveal)
        rules, hand, n = self.rules, self.hand, self._n
        hands = reveal.hands
        if len(hands) != n:
            raise BadReveal(f"a reveal needs {n} hands, got {len(hands)}")
        size = self._hand_size
        dealt = hand._dealt if len(hand._dealt) == n else ()
        masks: tuple[int, ...] = ()
        played_by: list[int] = []
        for seat, cards in enumerate(hands):
            if len(cards) != size:
                raise BadReveal(f"seat {seat} revealed {len(cards)} cards; it held {size}", seat)
            if dealt and cards is dealt[seat] and not hand._start_unknown[seat]:
                continue  # the very tuple of cards the deal checked and this engine knew all along
            if not masks:
                try:
                    masks = reveal.masks()
                except IllegalAction as exc:
                    raise BadReveal(f"the revealed hands: {exc}") from None
                strays = sum(masks) & ~self._deck_mask
                if strays:
                    raise BadReveal(f"{cards_of(strays)[0]} is revealed, but it is not in this game's deck")
            mask = masks[seat]
            if hand._start_known[seat] & ~mask:
                card = cards_of(hand._start_known[seat] & ~mask)[0]
                raise BadReveal(f"seat {seat} was known to hold {card}, but its revealed hand does not", seat)
            if hand._start_unknown[seat]:  # it played cards this engine did not know: were they its own?
                played_by = played_by or hand._played_by()
                if played_by[seat] & ~mask:
                    card = cards_of(played_by[seat] & ~mask)[0]
                    raise BadReveal(f"seat {seat} played {card}, but its revealed hand lacks it", seat)
        hand._revealed = hands
        bids: tuple[int, ...] = tuple(hand._bids)  # type: ignore[arg-type]  # all bid by now (blind nil: 0)
        tricks = tuple(hand._tricks)
        won = tuple(hand._won)
        violations: tuple[Violation, ...] = ()
        if any(hand._start_unknown):
            plays = [card for trick in tricks for _, card in trick.plays]
            violations = tuple(audit_hand(rules, hand.dealer, hands, bids, plays))
        # else this engine held every hand from the first lead and checked each play against it then: the
        # audit's checks exactly, so it cannot find anything (tests/test_rules_audit.py keeps that true).
        stop = bool(violations) and rules.renege == "stop"
        scored, set_sides, honest = won, _NO_SIDES, _NO_HONEST
        if violations:
            winners = [trick_winner(trick.plays, self._order) for trick in tricks]
            scored, set_sides, honest = renege_penalty(rules, violations, won, winners)
        if stop:
            scores = tuple(
                HandScore(side, 0, 0, False, 0, 0, 0, 0, 0, True, 0) for side in range(len(rules.sides))
            )
            totals = self.totals
        else:
            scores, totals = score_hand(rules, bids, hand._blind, scored, self.totals, set_sides, honest)
        self.history.append(
            _new_result(
                (hand.number, hand.dealer, bids, tuple(hand._blind), hands, tricks, won, scored, scores,
                 totals, violations)
            )
        )
        self.totals = totals
        outcome = Outcome((), Termination.VIOLATION) if stop else self._game_end(scores)
        if outcome is not None:
            self.outcome = outcome
            self.phase = Phase.GAME_OVER
            self.current_seat = None
        else:
            self._start_hand(self._next[hand.dealer])

    def _game_end(self, hand_scores: Sequence[HandScore] = ()) -> Outcome | None:
        rules = self.rules
        if rules.boston == "win":
            boston = tuple(score.side for score in hand_scores if score.boston)
            if boston:
                return Outcome(boston, Termination.BOSTON)
        return ending_at(rules, [total.score for total in self.totals])

    # ----- what is known ---------------------------------------------------------------------------------

    def initial_hands(self) -> tuple[tuple[Card, ...], ...] | None:
        """Every seat's cards at the start of play, if this engine knows them all (else None)."""
        hand = self.hand
        if hand._revealed is not None:
            return hand._revealed
        if self.phase is Phase.BID:
            masks, unknown = tuple(hand._known), tuple(hand._unknown)
        elif self.phase in (Phase.PLAY, Phase.REVEAL):
            masks, unknown = hand._start_known, hand._start_unknown
        else:
            return None
        if any(unknown):
            return None
        if len(hand._dealt) == self._n:
            return hand._dealt  # type: ignore[return-value]  # every card known, so no None in it
        return tuple(cards_of(mask) for mask in masks)

    def view(self, seat: int) -> SeatView:
        """What `seat` may know, as a frozen snapshot."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self._n:
            raise BadSeat(f"no seat {seat!r}: seats are 0 to {self._n - 1}")
        hand = self.hand
        draw_card = None
        index = hand.draw_index
        if self.phase is Phase.DRAW and self.current_seat == seat and index is not None:
            draw_card = hand._stock[index]
        stock_left = len(hand._stock) - 2 * hand._draw_step if hand._stock else 0
        mine = self.current_seat == seat
        return SeatView(
            seat=seat,
            rules=self.rules,
            hand_number=self.hand_number,
            dealer=hand.dealer,
            phase=self.phase,
            current_seat=self.current_seat,
            hand=hand.hand(seat),
            unknown=hand._unknown[seat],
            hand_sizes=tuple(hand.hand_size(s) for s in range(self._n)),
            bids=hand.bids,
            blind=hand.blind,
            blind_eligible=hand.blind_eligible,
            tricks=hand.tricks,
            trick=hand.trick,
            tricks_won=hand.tricks_won,
            spades_broken=hand.spades_broken,
            voids=tuple(hand.voids(s) for s in range(self._n)),
            totals=self.totals,
            history=tuple(self.history),
            legal_actions=tuple(self.legal_actions()) if mine else (),
            draw_card=draw_card,
            stock_left=stock_left,
            outcome=self.outcome,
        )


_HANDLERS: dict[type, Callable[[Game, Any, int | None], None]] = {
    Bid: Game._bid,
    BlindBid: Game._blind_bid,
    BlindNil: Game._blind_nil,
    Deal: Game._deal,
    Draw: Game._draw,
    Pass: Game._pass,
    Reveal: Game._reveal,
}
"""What `Game.apply` calls for each kind of action other than `Play`."""


def deal_from_order(rules: RuleSet, dealer: int, cards: Sequence[Card]) -> Deal:
    """A full-knowledge `Deal` from a shuffled deck: one card at a time, clockwise from the dealer's left (or,
    for the draw pile, the whole deck as the stock). For tests, bots and benchmarks; applying it checks that
    the cards are the rule set's deck."""
    n = rules.players
    cards = tuple(cards)
    if len(cards) != len(rules.deck):  # (the rest is checked when the deal is applied)
        raise BadDeal(f"deal_from_order needs the {len(rules.deck)} cards of the deck, got {len(cards)}")
    if rules.deal == "draw":
        return Deal(hands=((),) * n, stock=cards)
    hands: list[tuple[Card, ...]] = [()] * n
    for offset in range(n):
        seat = (dealer + 1 + offset) % n
        hands[seat] = cards[offset::n]
    return Deal(hands=tuple(hands))
