"""Bidding and its variants: who bids in which order, and which bids a seat may make.

One `Bidding` per game, made from the rule set: the bidding order, nil, the house rules that tie a seat's bid
to its partner's (`min_team_bid`, `double_nil`), the bid modes (mirror, whiz, suicide), blind nil and blind
bids (offered to a side that trails), and the nil card pass that follows a nil. It reads the hand in progress
(`HandState`) and never changes it: `Game` (engine.py) asks it for a seat's choices, has it refuse what the
rules forbid with the reason, and applies the rest itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

from p2pspades.errors import N_, Detail, N_plural
from p2pspades.rules.actions import Action, Bid, BlindBid, BlindNil, Pass
from p2pspades.rules.cards import FULL_DECK, Card, cards_of
from p2pspades.rules.errors import BadBid, BadPass
from p2pspades.rules.hand import HandState
from p2pspades.rules.ruleset import RuleSet

_BIDS: tuple[Bid, ...] = tuple(Bid(tricks) for tricks in range(len(FULL_DECK) + 1))
_BLIND_CHOICES: tuple[BlindNil, BlindNil] = (BlindNil(True), BlindNil(False))
_NO_BLIND: tuple[BlindNil] = (BlindNil(False),)
Seats = frozenset[int]


@cache
def _bid_range(nil: bool, lowest: int, top: int) -> tuple[Bid, ...]:
    """The bids nil (when `nil`) and `lowest` to `top`, as the cached `Bid`s."""
    return ((_BIDS[0],) if nil else ()) + _BIDS[lowest : top + 1]


def partner(seat: int) -> int:
    """A seat's partner, across the table (partnerships are four seats)."""
    return (seat + 2) % 4


class Bidding:
    """The bidding rules of one rule set, worked out once: what the engine asks at each bid. Two are equal
    when their rule sets are (a clone and its original, an observer and a seat's engine)."""

    __slots__ = (
        "blind_bids",
        "legal",
        "lowest",
        "mode",
        "no_double_nil",
        "orders",
        "rules",
        "team_bids",
        "tricks",
        "values",
    )

    def __init__(self, rules: RuleSet) -> None:
        n = rules.players
        self.rules = rules
        self.tricks = rules.hand_size
        first_bidder = [dealer if rules.first_bidder == "dealer" else (dealer + 1) % n for dealer in range(n)]
        #: per dealer, the seats in the order they bid
        self.orders = tuple(tuple((first + k) % n for k in range(n)) for first in first_bidder)
        self.lowest = max(rules.min_bid, 1 if rules.nil else 0)
        #: every bid the rules allow, before a partner's bid or a bid mode narrows them
        self.legal = _bid_range(rules.nil, self.lowest, self.tricks)
        self.values = frozenset(bid.tricks for bid in self.legal)
        # house rules that make a seat's bids depend on its partner's
        self.no_double_nil = rules.partnerships and not rules.double_nil
        self.team_bids = self.no_double_nil or (rules.partnerships and rules.min_team_bid > 0)
        # bid modes: a seat's bids depend on its cards (mirror, whiz) or on its partner's bid (suicide)
        self.mode = rules.bid_mode
        if self.mode != "free":
            self.team_bids = True
            self.no_double_nil = self.no_double_nil or self.mode == "suicide"
        lowest_blind = max(rules.blind_bid_min, self.lowest, 1)
        self.blind_bids: tuple[Action, ...] = tuple(BlindBid(k) for k in range(lowest_blind, self.tricks + 1))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Bidding) and other.rules == self.rules

    def __hash__(self) -> int:
        return hash(self.rules)

    # ----- who is asked before the deal ------------------------------------------------------------------

    def blind_seats(self, dealer: int, scores: Sequence[int]) -> tuple[list[int], Seats, Seats]:
        """The seats asked before the deal, in bidding order; under the house rule blind_bid also those of
        them that may bid blind nil and those that may bid blind (else both empty)."""
        rules = self.rules
        eligible: list[int] = []
        if rules.blind_nil and max(scores) - min(scores) >= rules.blind_nil_margin:
            eligible = self._trailing(dealer, scores, rules.blind_nil_margin)
        if not rules.blind_bid:
            return eligible, frozenset(), frozenset()
        nilers = frozenset(eligible)
        bidders = frozenset(self._trailing(dealer, scores, rules.blind_bid_margin))
        return [s for s in self.orders[dealer] if s in nilers | bidders], nilers, bidders

    def _trailing(self, dealer: int, scores: Sequence[int], margin: int) -> list[int]:
        """The seats, in bidding order, whose side trails the best other side by at least `margin`."""
        rules = self.rules
        out = []
        for seat in self.orders[dealer]:
            side = rules.side_of(seat)
            best_other = max(score for i, score in enumerate(scores) if i != side)
            if best_other - scores[side] >= margin:
                out.append(seat)
        return out

    def partner_is_nil(self, hand: HandState, seat: int) -> bool:
        """Has the seat's partner bid nil or blind nil this hand? (Partnerships only.)"""
        other = partner(seat)
        bid = hand._bids[other]
        return bid == 0 and (hand._blind[other] or self.rules.nil)

    def blind_choices(self, hand: HandState, seat: int) -> tuple[Action, ...]:
        """A seat's answers before the deal: blind nil or not, and the blind bids it may make."""
        nil: tuple[Action, ...] = (
            _NO_BLIND if self.no_double_nil and self.partner_is_nil(hand, seat) else _BLIND_CHOICES
        )
        if not hand._blind_bidders:
            return nil
        if seat not in hand._blind_nilers:
            nil = _NO_BLIND
        return nil + self.blind_bids if seat in hand._blind_bidders else nil

    def check_blind_nil(self, hand: HandState, seat: int) -> None:
        """`BadBid` if the seat may not declare blind nil."""
        if self.no_double_nil and self.partner_is_nil(hand, seat):
            raise BadBid(N_("seat {seat} may not bid blind nil: its partner bid nil (double nil is off)"),
                         seat, seat=seat)
        if hand._blind_bidders and seat not in hand._blind_nilers:
            raise BadBid(N_("seat {seat} may not bid blind nil: its side does not trail by {margin} "
                            "(blind_nil_margin)"), seat, seat=seat, margin=self.rules.blind_nil_margin)

    def check_blind_bid(self, hand: HandState, seat: int, action: BlindBid) -> None:
        """`BadBid` if the seat may not bid `action` blind."""
        rules = self.rules
        if seat not in hand._blind_bidders:
            margin = rules.blind_bid_margin
            raise BadBid(N_("seat {seat} may not bid blind: its side does not trail by {margin} "
                            "(blind_bid_margin)"), seat, seat=seat, margin=margin)
        if action not in self.blind_bids:
            lowest = max(rules.blind_bid_min, rules.min_bid, 1)
            raise BadBid(N_("seat {seat} bid {tricks} blind: blind bids are {lowest} to {highest}"), seat,
                         seat=seat, tricks=action.tricks, lowest=lowest, highest=self.tricks)

    # ----- the bids -------------------------------------------------------------------------------------

    def choices(self, hand: HandState, seat: int) -> tuple[Bid, ...]:
        """The bids of a seat now: all of `legal`, unless a house rule or bid mode ties them to its partner's
        bid or to its cards."""
        if not self.team_bids:
            return self.legal
        mode = self.mode
        if mode != "free":
            return self._suicide_bids(hand, seat) if mode == "suicide" else self._spade_bids(hand, seat)
        return self._team_choices(hand, seat)

    def _team_choices(self, hand: HandState, seat: int) -> tuple[Bid, ...]:
        """The bids of a seat under `min_team_bid` and `double_nil`: once its partner has bid, a bid that is
        not nil must bring the side to the minimum, unless the partner bid nil; nil is refused after a
        partner's nil when `double_nil` is off."""
        rules = self.rules
        partner_bid = hand._bids[partner(seat)]
        if partner_bid is None:
            return self.legal
        partner_nil = self.partner_is_nil(hand, seat)
        lowest = self.lowest
        if not partner_nil:
            lowest = max(lowest, rules.min_team_bid - partner_bid)
        nil = rules.nil and (rules.double_nil or not partner_nil)
        return _bid_range(nil, lowest, self.tricks)

    def _spades_held(self, hand: HandState, seat: int) -> int:
        return (hand._known[seat] & self.rules.order.spades_mask).bit_count()

    def _spade_bids(self, hand: HandState, seat: int) -> tuple[Bid, ...]:
        """Bid modes "mirror" (the spades held; nil for none) and "whiz" (the spades held, or nil). An engine
        that does not know the seat's cards accepts any bid: the claim is checked against the revealed hand
        by the end-of-hand audit (`bad_bid`)."""
        if hand._unknown[seat]:
            return self.legal
        count = self._spades_held(hand, seat)
        if self.mode == "mirror" or not count:
            return (_BIDS[count],)
        return (_BIDS[0], _BIDS[count])

    def _suicide_bids(self, hand: HandState, seat: int) -> tuple[Bid, ...]:
        """Bid mode "suicide": exactly one partner of a side bids nil (or blind nil); a bid other than nil is
        at least `min_team_bid` (and `min_bid`). The side's first bidder chooses which."""
        rules = self.rules
        lowest = max(rules.min_bid, 1, rules.min_team_bid)
        partner_bid = hand._bids[partner(seat)]
        if partner_bid is None:
            return _bid_range(True, lowest, self.tricks)
        if partner_bid == 0:
            return _bid_range(False, lowest, self.tricks)
        return (_BIDS[0],)

    def check_bid(self, hand: HandState, seat: int, tricks: int) -> None:
        """`BadBid`, with the reason, if the seat may not bid `tricks` now."""
        if self.team_bids and tricks in self.values and _BIDS[tricks] not in self.choices(hand, seat):
            raise BadBid(self._team_bid_refusal(hand, seat, tricks), seat)
        if tricks not in self.values:
            rules = self.rules
            said = N_("seat {seat} bid {tricks}: bids are {lowest} to {highest} (or 0 for nil)")
            if not rules.nil:
                said = N_("seat {seat} bid {tricks}: bids are {lowest} to {highest}")
            raise BadBid(said, seat, seat=seat, tricks=tricks, lowest=rules.min_bid, highest=self.tricks)

    def _team_bid_refusal(self, hand: HandState, seat: int, tricks: int) -> Detail:
        rules = self.rules
        other = partner(seat)
        mode = self.mode
        if mode in ("mirror", "whiz"):
            held = self._spades_held(hand, seat)
            spades = Detail(N_plural("{n} spade{cards}", "{n} spades{cards}"), n=held, cards="")
            if mode == "whiz":
                return Detail(N_("seat {seat} bid {tricks}: under whiz bids it bids the spades it holds, "
                                 "{spades}, or nil"), seat=seat, tricks=tricks, spades=spades)
            return Detail(N_("seat {seat} bid {tricks}: under mirror bids it bids the spades it holds, "
                             "{spades}"), seat=seat, tricks=tricks, spades=spades)
        partner_bid = hand._bids[other]
        if mode == "suicide":
            if partner_bid is None or partner_bid == 0:
                lowest = max(rules.min_bid, 1, rules.min_team_bid)
                if partner_bid is None:
                    return Detail(N_("seat {seat} bid {tricks}: under suicide bids a bid other than nil is "
                                     "{lowest}+"), seat=seat, tricks=tricks, lowest=lowest)
                return Detail(N_("seat {seat} bid {tricks}: under suicide bids its partner, seat {other}, "
                                 "bid nil, so it may not; a bid other than nil is {lowest}+"), seat=seat,
                              tricks=tricks, other=other, lowest=lowest)
            return Detail(N_("seat {seat} bid {tricks}: under suicide bids its partner, seat {other}, bid "
                             "{partner_bid}, so it bids nil"), seat=seat, tricks=tricks, other=other,
                          partner_bid=partner_bid)
        if tricks == 0 and rules.nil:
            return Detail(N_("seat {seat} may not bid nil: its partner, seat {other}, bid nil (double nil is "
                             "off)"), seat=seat, other=other)
        return Detail(N_("seat {seat} bid {tricks}: with its partner's {partner_bid} the side must bid at "
                         "least {lowest} (min_team_bid)"), seat=seat, tricks=tricks, partner_bid=partner_bid,
                      lowest=rules.min_team_bid)

    # ----- the nil card pass ----------------------------------------------------------------------------

    def passing_seats(self, hand: HandState) -> tuple[int, ...]:
        """Rule `nil_pass`: the seats that pass this hand, in order: both seats of every side with a nil or
        blind-nil bid, from the dealer's left. () when the rule is off or nobody bid nil."""
        if not self.rules.nil_pass:
            return ()
        n = self.rules.players
        nil = [hand._bids[seat] == 0 for seat in range(n)]  # nil or blind nil (a blind bid is 1 or more)
        order = ((hand.dealer + 1 + k) % n for k in range(n))
        return tuple(seat for seat in order if nil[seat] or nil[partner(seat)])

    def pass_choices(self, hand: HandState, seat: int) -> tuple[Pass, ...]:
        """Every set of `nil_pass` cards of the seat's dealt cards, if this engine knows them all."""
        if hand._unknown[seat] > hand._received_unknown[seat]:
            return ()
        dealt = cards_of(hand._known[seat] & ~hand._received[seat])
        return tuple(Pass(cards) for cards in combinations(dealt, self.rules.nil_pass))

    def check_pass(self, hand: HandState, seat: int, cards: Sequence[Card | None]) -> None:
        """`BadPass` unless `cards` are as many as the rule says, each dealt to the seat (as far as this
        engine knows: not held elsewhere, not received in the pass, in the deck)."""
        size = self.rules.nil_pass
        if len(cards) != size:
            raise BadPass(N_("seat {seat} passes {count} cards; the rule is {size}"), seat, seat=seat,
                          count=len(cards), size=size)
        known, received = hand._known[seat], hand._received[seat]
        from_unknown = 0  # cards this engine did not know the seat held
        for card in cards:
            if card is None:
                from_unknown += 1
                continue
            bit = card._bit
            if bit & received:
                raise BadPass(N_("seat {seat} may not pass on {card}, which it received in the pass"), seat,
                              seat=seat, card=card)
            if bit & known:
                continue
            if not bit & self.rules.deck_mask:
                raise BadPass(N_("{card} is not in this game's deck"), seat, card=card)
            other = next((s for s in range(self.rules.players) if hand._known[s] & bit), None)
            if other is not None:
                raise BadPass(N_("seat {seat} cannot pass {card}: seat {other} holds it"), seat, seat=seat,
                              card=card, other=other)
            from_unknown += 1
        if from_unknown > hand._unknown[seat] - hand._received_unknown[seat]:
            raise BadPass(N_("seat {seat} passes cards it was not dealt"), seat, seat=seat)
