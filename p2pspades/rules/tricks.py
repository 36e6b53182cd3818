"""Tricks and who wins them.

Spades are trump and the jokers are the two highest spades (Big over Little over the ace): the highest spade
played wins the trick, or, if none was played, the highest card of the led suit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from p2pspades.rules.cards import STANDARD_ORDER, SUITS, Card, CardOrder, Suit
from p2pspades.rules.errors import IllegalAction


def trick_winner(plays: Sequence[tuple[int, Card]], order: CardOrder = STANDARD_ORDER) -> int:
    """The seat that wins a trick given as (seat, card) pairs in play order (for an unfinished trick: the seat
    winning it so far), under the rule set's card order (`RuleSet.order`: deuces high or not)."""
    if not plays:
        raise IllegalAction("a trick with no cards has no winner")
    suit_of, power = order.suit_of, order.power
    led = suit_of[plays[0][1].index]
    best = -1
    winner = plays[0][0]
    for seat, card in plays:
        suit = suit_of[card.index]
        if (suit == led or suit == 0) and power[card.index] > best:
            best = power[card.index]
            winner = seat
    return winner


class Trick(NamedTuple):
    """One trick: who led it, the (seat, card) plays in order and the card order it is played under (a named
    tuple: cheap to make)."""

    leader: int
    plays: tuple[tuple[int, Card], ...]
    order: CardOrder = STANDARD_ORDER

    @property
    def led_suit(self) -> Suit | None:
        """The suit of the first card (jokers lead spades; with deuces high so does the 2D), None before the
        lead."""
        return SUITS[self.order.suit_of[self.plays[0][1].index]] if self.plays else None

    @property
    def winner(self) -> int | None:
        """The seat that won the trick (or is winning it so far); None before the lead."""
        return trick_winner(self.plays, self.order) if self.plays else None

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for _, card in self.plays)

    def __str__(self) -> str:
        return " ".join(f"{seat}:{card}" for seat, card in self.plays)
