"""Tricks and who wins them.

Spades are trump and the jokers are the two highest spades (Big over Little over the ace): the highest spade
played wins the trick, or, if none was played, the highest card of the led suit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from p2pspades.rules.cards import SUITS, Card, Suit
from p2pspades.rules.errors import IllegalAction


def trick_winner(plays: Sequence[tuple[int, Card]]) -> int:
    """The seat that wins a trick given as (seat, card) pairs in play order (for an unfinished trick: the seat
    winning it so far)."""
    if not plays:
        raise IllegalAction("a trick with no cards has no winner")
    led = plays[0][1]._suit_i
    best = -1
    winner = plays[0][0]
    for seat, card in plays:
        suit = card._suit_i
        if (suit == led or suit == 0) and card._power > best:
            best = card._power
            winner = seat
    return winner


class Trick(NamedTuple):
    """One trick: who led it and the (seat, card) plays in order (a named tuple: cheap to make)."""

    leader: int
    plays: tuple[tuple[int, Card], ...]

    @property
    def led_suit(self) -> Suit | None:
        """The suit of the first card (jokers lead spades), None before the lead."""
        return SUITS[self.plays[0][1]._suit_i] if self.plays else None

    @property
    def winner(self) -> int | None:
        """The seat that won the trick (or is winning it so far); None before the lead."""
        return trick_winner(self.plays) if self.plays else None

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for _, card in self.plays)

    def __str__(self) -> str:
        return " ".join(f"{seat}:{card}" for seat, card in self.plays)
