"""The end-of-hand audit: with every hand known, find each play that broke a follow-suit or lead rule.

During a hand a peer only knows its own cards, so it cannot tell a renege by another seat from an honest
discard. When the hand ends every seat reveals, and this audit replays the hand with full information. An
honest client never lets its player renege, so a violation here proves a tampered client; the rule set's
`renege` option says what it costs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import NamedTuple

from p2pspades.checks import Check
from p2pspades.errors import N_, Detail, N_plural
from p2pspades.rules.cards import SUITS, Card, cards_of
from p2pspades.rules.ruleset import RuleSet

_BIT = attrgetter("_bit")

KINDS: tuple[Check, ...] = (
    Check.RENEGE,  # did not follow the led suit while holding it
    Check.SPADE_LEAD,  # led a spade before spades were broken while holding another suit
    Check.FIRST_TRICK_SPADE,  # a spade led to the first trick (rule "not_first_trick") holding another suit
    Check.WRONG_LEAD,  # the first lead was not the lowest club (rule "low_club")
    Check.NOT_IN_HAND,  # played a card the seat did not hold (or had already played)
    Check.BAD_HAND,  # a hand of the wrong size, or a card not in the deck or dealt twice
    Check.BAD_BID,  # a bid outside the allowed range, or a side's bids against min_team_bid or double_nil
    Check.MISSING_PLAY,  # the hand ended before this seat played all its cards
    Check.EXTRA_PLAY,  # a play after the last trick
)
"""Every kind of violation the audit reports."""


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule: who, in which trick (0-based; None for a problem with a whole hand or a bid), with
    which card."""

    seat: int
    trick: int | None
    card: Card | None
    kind: Check
    detail: str
    #: a false mirror or whiz bid: the bid the seat's hand called for (the spades it held)
    honest: int | None = None


def first_leader(rules: RuleSet, dealer: int, holder_of_low_club: int | None) -> int:
    """The seat that leads the first trick."""
    if rules.first_leader == "dealer":
        return dealer
    if rules.first_leader == "low_club" and holder_of_low_club is not None:
        return holder_of_low_club
    return (dealer + 1) % rules.players


def audit_hand(
    rules: RuleSet,
    dealer: int,
    hands: Sequence[Sequence[Card]],
    bids: Sequence[int | None],
    plays: Sequence[Card],
) -> list[Violation]:
    """Every rule broken in one hand, in play order.

    `hands` are the seats' cards when play started, `bids` the bids (blind nil is 0), `plays` every card in
    the order played; who played each card follows from the turn order and the trick winners. Never raises on
    bad input: a malformed hand or play is itself reported.
    """
    n = rules.players
    found, remaining = _hand_masks(rules, hands)
    found.extend(_check_bids(rules, bids, dealer, remaining))
    low_club = rules.low_club if rules.first_leader == "low_club" else None
    holder = None
    if low_club is not None:
        holder = next((seat for seat in range(n) if remaining[seat] & low_club._bit), None)
    audit = _PlayAudit(rules, remaining, found, low_club if holder is not None else None)
    leader = first_leader(rules, dealer, holder)
    plays = list(plays)
    index = 0
    for trick in range(rules.tricks_per_hand):
        done = audit.trick(trick, leader, plays, index)
        if done is None:
            return found
        leader, index = done
    for card in plays[index:]:
        found.append(Violation(leader, None, card if card.__class__ is Card else None, Check.EXTRA_PLAY,
                               Detail(N_("{card} was played after the last trick"), card=repr(card))))
    return found


class _PlayAudit:
    """The play of one hand, checked trick by trick against the cards each seat still holds (`remaining`,
    updated as it goes); what it finds is added to `found`. `low_club`: the card that must lead the first
    trick (rule "low_club", where a seat holds it)."""

    __slots__ = ("broken", "found", "low_club", "n", "non_spades", "power", "remaining", "rule", "suit_masks",
                 "suit_of")

    def __init__(self, rules: RuleSet, remaining: list[int], found: list[Violation], low_club: Card | None):
        order = rules.order  # deuces high: the 2D is a spade, the 2S and 2D the top trumps
        self.n, self.rule, self.remaining, self.found, self.low_club = (
            rules.players, rules.spade_lead, remaining, found, low_club)
        self.suit_of, self.power = order.suit_of, order.power
        self.suit_masks, self.non_spades = order.suit_masks, order.non_spades_mask
        self.broken = False

    def trick(self, trick: int, leader: int, plays: Sequence[Card], index: int) -> tuple[int, int] | None:
        """Trick `trick`, led by `leader`, from `plays[index:]`: its winner and the index of the next play,
        or None where the hand stopped before the trick was whole."""
        n, found, remaining = self.n, self.found, self.remaining
        seat = winner = leader
        led = best = -1
        for _ in range(n):
            if index == len(plays):
                why = Detail(N_("the hand stopped on trick {trick} before seat {seat} played"),
                             trick=trick + 1, seat=seat)
                found.append(Violation(seat, trick, None, Check.MISSING_PLAY, why))
                return None
            card = plays[index]
            index += 1
            if card.__class__ is not Card:
                found.append(Violation(seat, trick, None, Check.NOT_IN_HAND,
                                       Detail(N_("seat {seat} played {card}"), seat=seat, card=repr(card))))
                seat = (seat + 1) % n
                continue
            held = remaining[seat]
            bit = card._bit
            suit = self.suit_of[card.index]
            strength = self.power[card.index]
            if not held & bit:
                why = Detail(N_("seat {seat} played {card} on trick {trick} without holding it"), seat=seat,
                             card=card, trick=trick + 1)
                found.append(Violation(seat, trick, card, Check.NOT_IN_HAND, why))
            if led < 0:
                self._lead(seat, trick, card, held, suit)
                led, best, winner = suit, strength, seat
            elif suit == led:
                if strength > best:
                    best, winner = strength, seat
            else:
                if held & self.suit_masks[led]:
                    why = Detail(N_("seat {seat} played {card} on trick {trick} while holding {suit}, the "
                                    "led suit"), seat=seat, card=card, trick=trick + 1,
                                 suit=Detail(SUITS[led].noun))
                    found.append(Violation(seat, trick, card, Check.RENEGE, why))
                if suit == 0:
                    self.broken = True
                    if strength > best:
                        best, winner = strength, seat
            remaining[seat] = held & ~bit
            seat = (seat + 1) % n
        return winner, index

    def _lead(self, seat: int, trick: int, card: Card, held: int, suit: int) -> None:
        """The checks of a lead: the lowest club first (rule "low_club"), and no spade led while the spade
        rule forbids it and the seat holds another suit."""
        low_club = self.low_club
        if low_club is not None and trick == 0 and card is not low_club:
            self.found.append(Violation(seat, 0, card, Check.WRONG_LEAD,
                                        Detail(N_("seat {seat} led {card}, not the lowest club {low_club}"),
                                               seat=seat, card=card, low_club=low_club)))
        if suit == 0:
            rule = self.rule
            closed = (rule == "broken" and not self.broken) or (rule == "not_first_trick" and trick == 0)
            if closed and held & self.non_spades:
                self.found.append(_bad_spade_lead(rule, seat, trick, card))
            self.broken = True


def _bad_spade_lead(rule: str, seat: int, trick: int, card: Card) -> Violation:
    if rule == "not_first_trick":
        return Violation(seat, trick, card, Check.FIRST_TRICK_SPADE,
                         Detail(N_("seat {seat} led {card} to the first trick while holding other suits"),
                                seat=seat, card=card))
    return Violation(seat, trick, card, Check.SPADE_LEAD,
                     Detail(N_("seat {seat} led {card} on trick {trick} before spades were broken while "
                               "holding other suits"), seat=seat, card=card, trick=trick + 1))


def _hand_masks(rules: RuleSet, hands: Sequence[Sequence[Card]]) -> tuple[list[Violation], list[int]]:
    """The bit mask of each hand, and every problem with the hands (size, cards not in the deck, twice)."""
    found: list[Violation] = []
    n, size, deck = rules.players, rules.hand_size, rules.deck_mask
    if len(hands) != n:
        found.append(Violation(0, None, None, Check.BAD_HAND,
                               Detail(N_("{hands} hands for {seats} seats"), hands=len(hands), seats=n)))
    masks = [0] * n
    seen = 0
    for seat, hand in enumerate(hands[:n]):
        if len(hand) != size:
            found.append(Violation(seat, None, None, Check.BAD_HAND,
                                   Detail(N_("seat {seat} holds {held} cards instead of {size}"), seat=seat,
                                          held=len(hand), size=size)))
        try:  # fast path: distinct bits add up without a carry, so the sum has one bit per card
            mask = sum(map(_BIT, hand))
        except (AttributeError, TypeError):
            mask = -1
        if mask < 0 or mask.bit_count() != len(hand) or mask & ~deck or mask & seen:
            mask = 0
            for item in hand:
                card = item if item.__class__ is Card else None
                if card is None:
                    problem = Detail(N_("seat {seat} holds {item}, not a card"), seat=seat, item=repr(item))
                elif not card._bit & deck:
                    problem = Detail(N_("seat {seat} holds {card}, not in the deck"), seat=seat, card=card)
                elif card._bit & (seen | mask):
                    problem = Detail(N_("{card} was dealt twice (to seat {seat})"), card=card, seat=seat)
                else:
                    mask |= card._bit
                    continue
                found.append(Violation(seat, None, card, Check.BAD_HAND, problem))
        masks[seat] = mask
        seen |= mask
    return found, masks


def _check_bids(
    rules: RuleSet, bids: Sequence[int | None], dealer: int, hands: Sequence[int]
) -> list[Violation]:
    found: list[Violation] = []
    top = rules.tricks_per_hand
    for seat, bid in enumerate(bids):
        ok = isinstance(bid, int) and not isinstance(bid, bool) and (
            rules.min_bid <= bid <= top or (bid == 0 and rules.nil)
        )
        if not ok:
            found.append(Violation(seat, None, None, Check.BAD_BID,
                                   Detail(N_("seat {seat} bid {bid}"), seat=seat, bid=repr(bid))))
    if len(bids) != rules.players:
        why = Detail(N_("{bids} bids for {seats} seats"), bids=len(bids), seats=rules.players)
        found.append(Violation(0, None, None, Check.BAD_BID, why))
    elif not found and rules.bid_mode in ("mirror", "whiz"):
        found.extend(_check_spade_bids(rules, bids, hands))  # type: ignore[arg-type]  # every bid an int
    elif not found and rules.partnerships:
        found.extend(_check_side_bids(rules, bids, dealer))  # type: ignore[arg-type]  # every bid an int by now
    return found


def _check_spade_bids(rules: RuleSet, bids: Sequence[int], hands: Sequence[int]) -> list[Violation]:
    """Bid modes "mirror" and "whiz": a bid is a claim about the hand, the number of spades it holds (or,
    whiz, nil), which the revealed hand proves or refutes."""
    found: list[Violation] = []
    order = rules.order
    for seat, (bid, held) in enumerate(zip(bids, hands, strict=False)):
        spades = held & order.spades_mask
        count = spades.bit_count()
        if bid == count or (rules.bid_mode == "whiz" and bid == 0):
            continue
        cards = " ".join(card.code for card in sorted(cards_of(spades), key=order.strength, reverse=True))
        if rules.bid_mode == "whiz":
            said = N_("seat {seat} bid {bid} holding {spades}: under whiz bids a seat bids the spades it "
                      "holds or nil")
        else:
            said = N_("seat {seat} bid {bid} holding {spades}: under mirror bids a seat bids the spades it "
                      "holds")
        spade_count = Detail(N_plural("{n} spade{cards}", "{n} spades{cards}"), n=count,
                             cards=f" ({cards})" if cards else "")
        why = Detail(said, seat=seat, bid=bid, spades=spade_count)
        found.append(Violation(seat, None, None, Check.BAD_BID, why, count))
    return found


def _check_side_bids(rules: RuleSet, bids: Sequence[int], dealer: int) -> list[Violation]:
    """The house rules on a side's bids (a blind nil is a bid of 0, and nil is on wherever blind nil is),
    charged to the side's last seat in bidding order."""
    found: list[Violation] = []
    n = rules.players
    start = dealer if rules.first_bidder == "dealer" else dealer + 1
    for side in rules.sides:
        first, second = sorted(side, key=lambda seat: (seat - start) % n)
        nils = [seat for seat in (first, second) if rules.nil and bids[seat] == 0]
        if rules.bid_mode == "suicide":
            lowest = max(rules.min_bid, 1, rules.min_team_bid)
            other = next((seat for seat in (first, second) if seat not in nils), first)
            if len(nils) != 1:
                found.append(Violation(second, None, None, Check.BAD_BID, Detail(
                    N_("seats {first} and {second} bid {bid} and {other_bid}: under suicide bids exactly "
                       "one partner bids nil"), first=first, second=second, bid=bids[first],
                    other_bid=bids[second])))
            elif bids[other] < lowest:
                found.append(Violation(other, None, None, Check.BAD_BID, Detail(
                    N_("seat {seat} bid {bid}: under suicide bids the nil's partner bids {lowest} or more"),
                    seat=other, bid=bids[other], lowest=lowest)))
        elif len(nils) == 2 and not rules.double_nil:
            why = Detail(N_("seats {first} and {second} both bid nil, and double nil is off"), first=first,
                         second=second)
            found.append(Violation(second, None, None, Check.BAD_BID, why))
        elif not nils and bids[first] + bids[second] < rules.min_team_bid:
            why = Detail(N_("seats {first} and {second} bid {bid} together, below the minimum team bid of "
                            "{lowest}"), first=first, second=second, bid=bids[first] + bids[second],
                         lowest=rules.min_team_bid)
            found.append(Violation(second, None, None, Check.BAD_BID, why))
    return found


class Penalty(NamedTuple):
    """What the audit's violations cost a hand: the tricks won per seat as scored, the sides scored as a
    failed contract, and the bid each false mirror or whiz bidder's hand called for (`score_hand` scores a
    set side at the worse of its bids and these)."""

    tricks: tuple[int, ...]
    set_sides: frozenset[int] = frozenset()
    honest: tuple[tuple[int, int], ...] = ()


def renege_penalty(
    rules: RuleSet, violations: Sequence[Violation], tricks_won: Sequence[int], trick_winners: Sequence[int]
) -> Penalty:
    """Apply the rule set's renege penalty to the violations of the play, and the penalty of a false bid.

    A bid the audit finds false (`bad_bid`) never pays, whatever `renege` says: the bidder's side is scored
    as a failed contract (every nil of the side failed, no bags), and for a false mirror or whiz bid at the
    worse of the bid made and the bid its hand called for (the spades it held), so the side never scores
    more than failing the honest bid would have. The play's violations follow `renege`: "set" scores every
    offending side as a failed contract; "three_tricks" moves, for each violation, 3 tricks (or as many as
    the offending side has) from the offender (then its partner) to the seat that won the trick of the
    violation, or, if that seat is on the offending side, to the next seat clockwise that is not. "stop"
    changes nothing here: the engine ends the game instead.
    """
    tricks = list(tricks_won)
    if not violations or rules.renege == "stop":
        return Penalty(tuple(tricks))
    bids = [v for v in violations if v.kind is Check.BAD_BID]
    plays = [v for v in violations if v.kind is not Check.BAD_BID]
    set_sides = {rules.side_of(v.seat) for v in bids}
    honest = tuple(sorted((v.seat, v.honest) for v in bids if v.honest is not None))
    if rules.renege == "set":
        set_sides |= {rules.side_of(v.seat) for v in plays}
    else:
        _three_tricks(rules, plays, tricks, trick_winners)
    return Penalty(tuple(tricks), frozenset(set_sides), honest)


def _three_tricks(rules: RuleSet, violations: Sequence[Violation], tricks: list[int],
                  trick_winners: Sequence[int]) -> None:
    """Rule renege "three_tricks": for each violation, move 3 tricks (as many as the side has) away."""
    n = rules.players
    for violation in violations:
        offender = violation.seat
        side = rules.side_of(offender)
        receiver = None
        if violation.trick is not None and 0 <= violation.trick < len(trick_winners):
            receiver = trick_winners[violation.trick]
        if receiver is None or rules.side_of(receiver) == side:
            clockwise = ((offender + k) % n for k in range(1, n))
            receiver = next(seat for seat in clockwise if rules.side_of(seat) != side)
        givers = [offender, *(seat for seat in rules.sides[side] if seat != offender)]
        moved = 0
        for giver in givers:
            while moved < 3 and tricks[giver] > 0:
                tricks[giver] -= 1
                tricks[receiver] += 1
                moved += 1
