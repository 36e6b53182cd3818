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
from functools import partial
from typing import Any

from p2pspades.errors import N_, Detail
from p2pspades.rules import hidden
from p2pspades.rules.actions import Action, Bid, BlindBid, BlindNil, Deal, Draw, Pass, Play, Reveal
from p2pspades.rules.audit import Violation, audit_hand, first_leader, renege_penalty
from p2pspades.rules.bidding import Bidding, partner
from p2pspades.rules.cards import SUITS, Card
from p2pspades.rules.errors import (
    BadSeat,
    IllegalAction,
    MustFollowSuit,
    NotYourTurn,
    SpadesNotBroken,
    WrongLead,
    WrongPhase,
)
from p2pspades.rules.hand import HandState, plays_of, suit_plays
from p2pspades.rules.results import HandResult, Outcome, Termination, ending_at, start_problem
from p2pspades.rules.ruleset import RuleSet
from p2pspades.rules.scoring import HandScore, SideTotal, score_hand
from p2pspades.rules.tricks import Trick, trick_winner
from p2pspades.rules.view import Phase, SeatView, seat_view

_DRAW_CHOICES: tuple[Draw, Draw] = (Draw(True), Draw(False))
_PLAY = Phase.PLAY
# Named tuples made straight from a tuple: their generated __new__ is a Python function, this is not.
_new_trick = partial(tuple.__new__, Trick)
_new_result = partial(tuple.__new__, HandResult)
_NO_SIDES: frozenset[int] = frozenset()
Won = tuple[int, ...]  # tricks per seat



class Game:
    """A whole game under one rule set, starting with `first_dealer` dealing the first hand."""

    __slots__ = (
        "_bidding",
        "_broken_rule",
        "_leaders",
        "_n",
        "_next",
        "_non_spades",
        "_order",
        "_power",
        "_queue",
        "_spade_rule",
        "_suit_masks",
        "_suit_of",
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
        self._tricks_per_hand = rules.hand_size
        self._spade_rule = rules.spade_lead
        self._broken_rule = rules.spade_lead == "broken"
        order = rules.order  # deuces high moves the 2S and 2D
        self._order = order
        self._suit_of = order.suit_of
        self._power = order.power
        self._suit_masks = order.suit_masks
        self._non_spades = order.non_spades_mask
        self._leaders = tuple(first_leader(rules, dealer, None) for dealer in range(n))
        self._bidding = Bidding(rules)
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
        hidden.forget_cards(hand)
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
                return plays_of(self._legal_mask(seat), self._suit_masks)
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
            bidding = self._bidding  # every bid of `legal` unless a house rule or bid mode narrows them
            return bidding.choices(self.hand, seat) if bidding.team_bids else bidding.legal
        if phase is Phase.BLIND:
            return self._bidding.blind_choices(self.hand, seat)
        if phase is Phase.DRAW:
            return _DRAW_CHOICES
        if phase is Phase.PASS:
            return self._bidding.pass_choices(self.hand, seat)
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
            _HANDLERS.get(type(action), Game._not_an_action)(self, action, seat)
            return
        # Playing a card is the hot path, so it stays in this one function. Every check comes before the first
        # change, so a refused card changes nothing.
        card = action.card
        hand = self.hand
        current = self.current_seat
        if current is None or self.phase is not _PLAY:
            current = self._play_turn(card, seat)
        elif seat is not None and seat != current:
            raise NotYourTurn(N_("it is seat {current}'s turn, not seat {seat}'s"), seat, current=current,
                              seat=seat)
        bit = card._bit
        known = hand._known[current]
        held = known & bit
        if not held:
            hidden.check_unknown_play(self.rules, hand, current, card)
        suit = self._suit_of[card.index]
        power = self._power[card.index]
        led = hand._led
        if led < 0:
            if suit == 0 or hand._must_lead is not None:
                self._restricted_lead(current, card, suit, known)
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
                    N_("seat {seat} must follow {suit} and may not play {card}"), current, seat=current,
                    suit=Detail(SUITS[led].noun), card=card)
            hand._voids[current] |= 1 << led
            hand._void_notes.setdefault((current, led), (len(hand._tricks), None))  # the first time it showed
            if suit == 0:
                hand.spades_broken = True
                if power > hand._best:
                    hand._best = power
                    hand._winning = current
        if held:
            known ^= bit
            hand._known[current] = known
            hand._suits[current][suit] = suit_plays(known & self._suit_masks[suit])
        else:
            hand._unknown[current] -= 1
        plays = hand._plays
        plays.append((current, card))
        if len(plays) < self._n:
            self.current_seat = self._next[current]
            return
        self._trick_done(hand)

    def _trick_done(self, hand: HandState) -> None:
        """The trick on the table is complete: its winner leads the next, or the hand is played out."""
        winner = hand._winning
        hand._tricks.append(_new_trick((hand._leader, tuple(hand._plays), self._order)))
        hand._won[winner] += 1
        hand._plays = []
        hand._led = -1
        hand._best = -1
        hand._leader = winner
        if hand._closed:  # open once spades are broken, or after the first trick ("not_first_trick")
            hand._closed = self._broken_rule and not hand.spades_broken
        if len(hand._tricks) == self._tricks_per_hand:
            self.phase = Phase.REVEAL
            self.current_seat = None
        else:
            self.current_seat = winner

    def _not_an_action(self, action: object, seat: int | None) -> None:
        raise IllegalAction(f"not an action: {action!r}")

    def _turn(self, phase: Phase, action: object, seat: int | None) -> int:
        if self.phase is not phase:
            raise self._wrong_phase(action)
        current = self.current_seat
        if current is None:
            raise NotYourTurn(N_("no seat's turn is known here, so {action} cannot be placed"), seat,
                              action=action)
        if seat is not None and seat != current:
            raise NotYourTurn(N_("it is seat {current}'s turn, not seat {seat}'s"), seat, current=current,
                              seat=seat)
        return current

    def _chance(self, seat: int | None, phase: Phase, action: object) -> None:
        if seat is not None:
            name = type(action).__name__
            raise IllegalAction(N_("{name} is a chance step, not an action of seat {seat}"), seat,
                                name=name, seat=seat)
        if self.phase is not phase:
            raise self._wrong_phase(action)

    def _wrong_phase(self, action: object, name: str | None = None) -> WrongPhase:
        """An action (or the call `name`) that this phase does not take."""
        name = type(action).__name__ if name is None else name
        if self.phase is Phase.GAME_OVER:
            return WrongPhase(N_("{name}: the game is over"), self.current_seat, name=name)
        return WrongPhase(N_("{name} is not allowed in the {phase} phase"), self.current_seat, name=name,
                          phase=self.phase.value)

    # ----- hand start, blind nil, deal, draw, bids -------------------------------------------------------

    def _start_hand(self, dealer: int) -> None:
        self.hand_number += 1
        hand = self.hand = HandState(self._n, self.hand_number, dealer, self._order)
        scores = [total.score for total in self.totals]
        eligible, hand._blind_nilers, hand._blind_bidders = self._bidding.blind_seats(dealer, scores)
        hand.blind_eligible = tuple(eligible)
        if eligible:
            self.phase = Phase.BLIND
            self._queue = eligible
            self.current_seat = eligible[0]
        else:
            self._await_deal()

    def _blind_nil(self, action: BlindNil, seat: int | None) -> None:
        seat = self._turn(Phase.BLIND, action, seat)
        if action.declare:
            self._bidding.check_blind_nil(self.hand, seat)
            self.hand._bids[seat] = 0
            self.hand._blind[seat] = True
        self._next_blind()

    def _blind_bid(self, action: BlindBid, seat: int | None) -> None:
        seat = self._turn(Phase.BLIND, action, seat)
        self._bidding.check_blind_bid(self.hand, seat, action)
        self.hand._bids[seat] = action.tricks
        self.hand._blind[seat] = True
        self._next_blind()

    def _next_blind(self) -> None:
        self._next_in_queue(self._await_deal)

    def _await_deal(self) -> None:
        self.phase = Phase.DEAL
        self.current_seat = None

    def _next_in_queue(self, then: Callable[[], None]) -> None:
        """The seat that answered leaves the queue of BLIND, BID or PASS: the next one's turn, or `then`."""
        self._queue.pop(0)
        if self._queue:
            self.current_seat = self._queue[0]
        else:
            then()

    def _deal(self, deal: Deal, seat: int | None) -> None:
        # The Deal checked its own cards (cards or None, none twice) and worked out the masks of known cards.
        self._chance(seat, Phase.DEAL, deal)
        hand = self.hand
        if self.rules.deal != "draw":
            hand.deal(self.rules, deal)
            self._start_bidding()
            return
        hand.stack(self.rules, deal)
        self.phase = Phase.DRAW
        self.current_seat = self._next[hand.dealer]

    def _draw(self, action: Draw, seat: int | None) -> None:
        seat = self._turn(Phase.DRAW, action, seat)
        if self.hand.draw(seat, action.keep):
            self._start_bidding()
        else:
            self.current_seat = self._next[seat]

    def learn(self, stock_index: int, card: Card) -> None:
        """Draw pile: record that the stock card at `stock_index` is `card` (seen by this engine's seat).

        Allowed from the stacking of the deck until the first card is played: the card a discard takes opens
        after that draw, which may end the bidding too when every seat bid blind before the deal. A
        contradiction with what is known is refused.
        """
        if self.rules.deal != "draw":
            raise WrongPhase("learn() is for the two-player draw pile; this game deals every card")
        started = self.phase is Phase.PLAY and (self.hand._tricks or self.hand._plays)
        if self.phase not in (Phase.DRAW, Phase.BID, Phase.PLAY) or started:
            raise self._wrong_phase(None, "learn")
        hidden.learn(self.rules, self.hand, stock_index, card)

    def _start_bidding(self) -> None:
        hand = self.hand
        order = self._bidding.orders[hand.dealer]
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
            raise NotYourTurn(N_("it is seat {current}'s turn, not seat {seat}'s"), seat, current=current,
                              seat=seat)
        tricks = action.tricks
        bidding = self._bidding
        if bidding.team_bids or tricks not in bidding.values:
            bidding.check_bid(self.hand, current, tricks)
        self.hand._bids[current] = tricks
        queue = self._queue  # (inline: four times a hand)
        queue.pop(0)
        if queue:
            self.current_seat = queue[0]
        else:
            self._after_bids()

    # ----- the nil card pass ------------------------------------------------------------------------------

    def passing_seats(self) -> tuple[int, ...]:
        """Rule `nil_pass`: the seats that pass this hand, in order: both seats of every side with a nil or
        blind-nil bid, from the dealer's left. () when the rule is off or nobody bid nil."""
        return self._bidding.passing_seats(self.hand)

    def _after_bids(self) -> None:
        passing = self.passing_seats()
        if passing:
            self.phase = Phase.PASS
            self._queue = list(passing)
            self.current_seat = passing[0]
        else:
            self._start_play()

    def _pass(self, action: Pass, seat: int | None) -> None:
        seat = self._turn(Phase.PASS, action, seat)
        hand = self.hand
        cards = action.cards
        self._bidding.check_pass(hand, seat, cards)
        hand.give(seat, partner(seat), cards)
        self._next_in_queue(self._start_play)

    def _start_play(self) -> None:
        hand, rules = self.hand, self.rules
        hand._start_known = tuple(hand._known)
        hand._start_unknown = tuple(hand._unknown)
        hand._suits = [
            [suit_plays(known & suit_mask) for suit_mask in self._suit_masks] for known in hand._known
        ]
        hand._closed = rules.spade_lead != "always"
        self.phase = Phase.PLAY
        leader: int | None = self._leaders[hand.dealer]
        if rules.first_leader == "low_club":
            low = rules.low_club
            assert low is not None  # the rule set refuses "low_club" without clubs
            hand._must_lead = low
            leader = hidden.holder(hand, low)
        hand._slow = any(hand._start_unknown) or hand._must_lead is not None
        hand._leader = -1 if leader is None else leader
        self.current_seat = leader

    # ----- play ------------------------------------------------------------------------------------------

    def _legal_mask(self, seat: int) -> int:
        hand = self.hand
        known = hand._known[seat]
        if hand._unknown[seat]:
            return hidden.legal_mask_partial(self.rules, hand, seat)
        led = hand._led
        if led >= 0:
            return (known & self._suit_masks[led]) or known
        if hand._must_lead is not None:
            return known & hand._must_lead._bit
        if hand._closed:
            return (known & self._non_spades) or known
        return known

    def _play_turn(self, card: Card, seat: int | None) -> int:
        """The seat playing `card` when the fast check in `apply` did not settle it."""
        if self.phase is not _PLAY:
            raise self._wrong_phase(Play(card))
        return hidden.claim_first_lead(self.hand, card, seat)

    def _restricted_lead(self, seat: int, card: Card, suit: int, known: int) -> None:
        """A lead a rule may forbid: the first lead under "low_club", a spade while the spade rule holds
        spades back (legal only from a hand of nothing but spades). A spade lead breaks spades."""
        if self.hand._must_lead is not None:
            self._first_lead(seat, card)
        if suit == 0:
            if self.hand._closed:
                self._lead_only_spades(seat, card, known)
            self.hand.spades_broken = True

    def _first_lead(self, seat: int, card: Card) -> None:
        """Rule "low_club": the first lead must be the lowest club."""
        hand = self.hand
        if card is not hand._must_lead:
            raise WrongLead(N_("the first lead must be {low}, not {card}"), seat, low=hand._must_lead,
                            card=card)
        hand._must_lead = None
        hand._slow = any(hand._start_unknown)

    def _lead_only_spades(self, seat: int, card: Card, known: int) -> None:
        """A spade lead the spade rule forbids is legal only from a hand of nothing but spades."""
        hand = self.hand
        if known & self._non_spades:
            first = self._spade_rule == "not_first_trick"
            why = Detail(N_("on the first trick")) if first else Detail(N_("before spades are broken"))
            raise SpadesNotBroken(
                N_("seat {seat} may not lead {card} {why} while holding other suits"), seat, seat=seat,
                card=card, why=why)
        for suit in (1, 2, 3):
            if not hand._voids[seat] >> suit & 1:
                hand._voids[seat] |= 1 << suit
                hand._void_notes[(seat, suit)] = (len(hand._tricks), card)

    # ----- reveal, scoring, the end ----------------------------------------------------------------------

    def _reveal(self, reveal: Reveal, seat: int | None) -> None:
        # The Reveal checked that it holds cards; sizes, the deck and duplicates are checked here.
        self._chance(seat, Phase.REVEAL, reveal)
        hand = self.hand
        hidden.check_revealed(self.rules, hand, reveal)
        hands = hand._revealed = reveal.hands
        bids: tuple[int, ...] = tuple(hand._bids)  # type: ignore[arg-type]  # all bid by now (blind nil: 0)
        tricks = tuple(hand._tricks)
        won = tuple(hand._won)
        violations, scored, scores, totals = self._score(hands, bids, tricks, won)
        self.history.append(
            _new_result(
                (hand.number, hand.dealer, bids, tuple(hand._blind), hands, tricks, won, scored, scores,
                 totals, violations)
            )
        )
        self.totals = totals
        stop = bool(violations) and self.rules.renege == "stop"
        outcome = Outcome((), Termination.VIOLATION) if stop else self._game_end(scores)
        if outcome is not None:
            self.outcome = outcome
            self.phase = Phase.GAME_OVER
            self.current_seat = None
        else:
            self._start_hand(self._next[hand.dealer])

    def _score(
        self, hands: Sequence[Sequence[Card]], bids: tuple[int, ...], tricks: Sequence[Trick], won: Won
    ) -> tuple[tuple[Violation, ...], Won, tuple[HandScore, ...], tuple[SideTotal, ...]]:
        """The finished hand's audit, the tricks each seat scores (a renege penalty moves some), the sides'
        scores and the new totals: none under rule renege "stop" once a violation is found."""
        rules, hand = self.rules, self.hand
        violations: tuple[Violation, ...] = ()
        if any(hand._start_unknown):
            plays = [card for trick in tricks for _, card in trick.plays]
            violations = tuple(audit_hand(rules, hand.dealer, hands, bids, plays))
        # else this engine held every hand from the first lead and checked each play against it then: the
        # audit's checks exactly, so it cannot find anything (tests/test_rules_audit.py keeps that true).
        if not violations:
            scores, totals = score_hand(rules, bids, hand._blind, won, self.totals, _NO_SIDES)
            return violations, won, scores, totals
        winners = [trick_winner(trick.plays, self._order) for trick in tricks]
        scored, set_sides, honest = renege_penalty(rules, violations, won, winners)
        if rules.renege == "stop":
            nothing = tuple(
                HandScore(side, 0, 0, False, 0, 0, 0, 0, 0, True, 0) for side in range(len(rules.sides))
            )
            return violations, scored, nothing, self.totals
        scores, totals = score_hand(rules, bids, hand._blind, scored, self.totals, set_sides, honest)
        return violations, scored, scores, totals

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
        return hidden.initial_hands(hand, masks, unknown)

    def view(self, seat: int) -> SeatView:
        """What `seat` may know, as a frozen snapshot."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self._n:
            raise BadSeat(f"no seat {seat!r}: seats are 0 to {self._n - 1}")
        return seat_view(self, seat)


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
