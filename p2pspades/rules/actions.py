"""Actions: what a seat (or chance) does to the game. Frozen values that check their own fields.

Seat actions (`Bid`, `BlindNil`, `Draw`, `Play`) carry no seat: the engine knows whose turn it is. The chance
steps (`Deal`, `Reveal`) come from the cryptographic deal, or from a shuffle in tests and benchmarks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import chain, repeat
from operator import attrgetter
from typing import TypeAlias, TypeGuard, cast

from p2pspades.errors import N_, Detail
from p2pspades.rules.cards import Card
from p2pspades.rules.errors import BadDeal, IllegalAction
from p2pspades.rules.ruleset import RuleSet

_BIT = attrgetter("_bit")


def _check_int(name: Detail, value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalAction(N_("{name} must be a whole number, got {value}"), name=name,
                            value=repr(value)[:40])


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid of a number of tricks; 0 is nil where the rules allow nil."""

    tricks: int

    def __post_init__(self) -> None:
        _check_int(Detail(N_("a bid")), self.tricks)
        if self.tricks < 0:
            raise IllegalAction(N_("a bid cannot be negative, got {tricks}"), tricks=self.tricks)


@dataclass(frozen=True, slots=True)
class BlindNil:
    """The answer of an eligible seat, before the deal, to "do you bid blind nil?"."""

    declare: bool

    def __post_init__(self) -> None:
        if not isinstance(self.declare, bool):
            raise IllegalAction(N_("a blind-nil answer must be true or false, got {value}"),
                                value=repr(self.declare)[:40])


@dataclass(frozen=True, slots=True)
class BlindBid:
    """House rule `blind_bid`: an eligible seat's bid of a number of tricks, before the deal (it bids no
    more after it), for double the contract's points or double its loss."""

    tricks: int

    def __post_init__(self) -> None:
        _check_int(Detail(N_("a blind bid")), self.tricks)
        if self.tricks < 1:
            raise IllegalAction(N_("a blind bid is 1 trick or more (blind nil is BlindNil), got {tricks}"),
                                tricks=self.tricks)


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw pile: keep the top card (the next one is discarded unseen), or discard it and take the next."""

    keep: bool

    def __post_init__(self) -> None:
        if not isinstance(self.keep, bool):
            raise IllegalAction(N_("a draw choice must be true (keep) or false (discard), got {value}"),
                                value=repr(self.keep)[:40])


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card to the current trick."""

    card: Card

    def __post_init__(self) -> None:
        if not isinstance(self.card, Card):
            raise IllegalAction(N_("a play needs a card, got {value}"), value=repr(self.card)[:40])


@dataclass(frozen=True, slots=True)
class Pass:
    """Rule `nil_pass`: the cards the seat whose turn it is passes to its partner, face down; None for a
    card this engine does not know (another seat's pass, as an observer sees it). Kept in canonical order,
    the unknown ones last, so two passes of the same cards are equal."""

    cards: tuple[Card | None, ...]

    def __post_init__(self) -> None:
        cards, _ = _cards("a pass", self.cards, True, 0)
        known = sorted((card for card in cards if card is not None), key=_BIT)
        object.__setattr__(self, "cards", (*known, *(None for card in cards if card is None)))


_TUPLES: set[type] = {tuple}
_CARDS: set[type] = {Card}


def _is_sequence(value: object) -> TypeGuard[Sequence[object]]:
    return type(value) is tuple or (isinstance(value, Sequence) and not isinstance(value, (str, bytes)))


def _cards(
    what: str | int, cards: object, allow_unknown: bool, seen: int
) -> tuple[tuple[Card | None, ...], int]:
    """`cards` as a tuple, and the bit mask of its cards; IllegalAction if it holds anything else (None is
    allowed for an unknown card if `allow_unknown`) or a card also in `seen` or twice. `what` names the cards
    in messages (a number: "hand <number>")."""
    if type(cards) is tuple:
        try:  # fast path, all cards: distinct bits add up without a carry, one bit per card
            mask: int = sum(map(_BIT, cards))
        except AttributeError:
            mask = -1
        if mask >= 0 and mask.bit_count() == len(cards) and not mask & seen:
            return cards, mask
    if isinstance(what, int):
        what = f"hand {what}"
    if not _is_sequence(cards):
        raise IllegalAction(f"{what} must be a sequence of cards, got {cards!r}")
    out = tuple(cards)
    mask = 0
    for card in out:
        if card.__class__ is Card:
            assert isinstance(card, Card)
            if card._bit & (mask | seen):
                raise IllegalAction(f"{card} is dealt twice (again in {what})")
            mask |= card._bit
        elif not (allow_unknown and card is None):
            also = " or None" if allow_unknown else ""
            raise IllegalAction(f"{what} holds {card!r}, which is not a card{also}")
    return cast("tuple[Card | None, ...]", out), mask


def _hands(hands: object, allow_unknown: bool) -> tuple[tuple[tuple[Card | None, ...], ...], tuple[int, ...]]:
    """Each hand as a tuple of cards, and the mask of each; no card may be in two hands."""
    if type(hands) is tuple and set(map(type, hands)) <= _TUPLES:
        try:  # fast path, all cards: distinct bits add up without a carry, one bit per card
            sums: tuple[int, ...] = tuple(map(sum, map(map, repeat(_BIT), hands)))  # each hand's sum of bits
        except AttributeError:
            sums = ()
        if sums and sum(sums).bit_count() == sum(map(len, hands)):
            return hands, sums  # checked: tuples of cards
    if not _is_sequence(hands):
        raise IllegalAction(f"hands must be a sequence of hands, got {hands!r}")
    out: list[tuple[Card | None, ...]] = []
    masks: list[int] = []
    seen = 0
    for seat, cards in enumerate(hands):
        hand, mask = _cards(seat, cards, allow_unknown, seen)
        out.append(hand)
        masks.append(mask)
        seen |= mask
    return tuple(out), tuple(masks)


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance step: the cards each seat receives, `None` where this engine may not know the card.

    With the two-player draw pile the hands are empty and `stock` holds the whole deck in drawing order. The
    bit masks of the known cards are worked out once, here (`masks`, `stock_mask`).
    """

    hands: tuple[tuple[Card | None, ...], ...]
    stock: tuple[Card | None, ...] = ()
    masks: tuple[int, ...] = field(init=False, repr=False, compare=False)
    stock_mask: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        hands, masks = _hands(self.hands, True)
        stock, stock_mask = self.stock, 0
        if stock != ():
            stock, stock_mask = _cards("the stock", stock, True, sum(masks))  # (masks are disjoint)
        object.__setattr__(self, "hands", hands)
        object.__setattr__(self, "masks", masks)
        object.__setattr__(self, "stock", stock)
        object.__setattr__(self, "stock_mask", stock_mask)

    def seen_by(self, seat: int) -> Deal:
        """The same deal as one seat's engine knows it: its own cards, every other card None."""
        hands = tuple(hand if i == seat else (None,) * len(hand) for i, hand in enumerate(self.hands))
        return Deal(hands, (None,) * len(self.stock))


@dataclass(frozen=True, slots=True)
class Reveal:
    """Chance step at the end of a hand: every seat's full cards as they were when play started."""

    hands: tuple[tuple[Card, ...], ...]

    def __post_init__(self) -> None:
        hands = self.hands
        # fast path, a tuple of tuples of cards: check the types at C speed
        if not (
            type(hands) is tuple
            and set(map(type, hands)) <= _TUPLES
            and set(map(type, chain.from_iterable(hands))) <= _CARDS
        ):
            object.__setattr__(self, "hands", _hands(hands, False)[0])  # converts, or says what is wrong

    def masks(self) -> tuple[int, ...]:
        """Each hand's bit mask; IllegalAction if a card is in two hands. (Worked out on demand: an engine
        that recognises the very hands it dealt does not need them.)"""
        return _hands(self.hands, False)[1]


Action: TypeAlias = Bid | BlindNil | BlindBid | Draw | Pass | Play | Deal | Reveal
SeatAction: TypeAlias = Bid | BlindNil | BlindBid | Draw | Pass | Play


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
