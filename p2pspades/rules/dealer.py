"""Choosing the first dealer: every seat draws a card, the highest rank deals; tied seats draw again.

The randomness is given as bytes (in a real game, from a commit-reveal among the peers), so every peer
computes the same draw.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pspades.rules.cards import Card
from p2pspades.rules.chance import ByteStream
from p2pspades.rules.errors import IllegalAction
from p2pspades.rules.ruleset import RuleSet


@dataclass(frozen=True, slots=True)
class FirstDealerDraw:
    """The chosen dealer and every round of the draw as (seat, card) pairs."""

    dealer: int
    rounds: tuple[tuple[tuple[int, Card], ...], ...]


def choose_first_dealer(rules: RuleSet, randomness: bytes) -> FirstDealerDraw:
    """Draw for the first deal.

    The rule set's deck is shuffled once with `ByteStream(randomness)`; seats draw from the top in seat
    order, the highest rank wins (jokers highest, suits do not matter), and tied seats draw again from the
    rest of the same deck. Should the deck run out, the whole deck is shuffled again from the same stream.
    """
    if not isinstance(randomness, (bytes, bytearray)):
        got = type(randomness).__name__
        raise IllegalAction(f"the draw for the first dealer needs random bytes, got {got}")
    if len({card.rank for card in rules.deck}) < 2:
        raise IllegalAction("every card of this deck has the same rank, so a draw can never pick a dealer")
    stream = ByteStream(bytes(randomness))
    deck = list(rules.deck)
    stream.shuffle(deck)
    position = 0
    seats = list(range(rules.players))
    rounds: list[tuple[tuple[int, Card], ...]] = []
    while True:
        drawn: list[tuple[int, Card]] = []
        for seat in seats:
            if position == len(deck):
                deck = list(rules.deck)
                stream.shuffle(deck)
                position = 0
            drawn.append((seat, deck[position]))
            position += 1
        rounds.append(tuple(drawn))
        top = max(card.rank for _, card in drawn)
        seats = [seat for seat, card in drawn if card.rank == top]
        if len(seats) == 1:
            return FirstDealerDraw(seats[0], tuple(rounds))
