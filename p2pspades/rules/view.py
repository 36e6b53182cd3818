"""What one seat may know: the only input bots and the user interface get."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from p2pspades.rules.actions import Action
from p2pspades.rules.cards import Card, Suit
from p2pspades.rules.results import HandResult, Outcome
from p2pspades.rules.ruleset import RuleSet
from p2pspades.rules.scoring import SideTotal
from p2pspades.rules.tricks import Trick


class Phase(enum.Enum):
    """Where a game is. DEAL and REVEAL are chance steps; GAME_OVER is final."""

    BLIND = "blind"  # eligible seats answer "blind nil?" before the deal
    DEAL = "deal"
    DRAW = "draw"  # the two-player draw pile
    BID = "bid"
    PASS = "pass"  # rule nil_pass: a nil bidder and its partner pass cards to each other
    PLAY = "play"
    REVEAL = "reveal"  # every seat shows its cards; the hand is audited and scored
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class SeatView:
    """A frozen snapshot of the game as one seat sees it."""

    seat: int
    rules: RuleSet
    hand_number: int
    dealer: int
    phase: Phase
    current_seat: int | None
    hand: tuple[Card, ...]  # this seat's cards, in canonical order
    unknown: int  # this seat's cards the engine does not know (0 in the seat's own engine)
    hand_sizes: tuple[int, ...]  # cards each seat holds now
    bids: tuple[int | None, ...]
    blind: tuple[bool, ...]
    blind_eligible: tuple[int, ...]  # seats asked about blind nil this hand
    tricks: tuple[Trick, ...]  # completed tricks of this hand
    trick: Trick  # the trick in progress (no plays before the lead)
    tricks_won: tuple[int, ...]
    spades_broken: bool
    voids: tuple[frozenset[Suit], ...]  # suits each seat has publicly shown it does not hold
    totals: tuple[SideTotal, ...]
    history: tuple[HandResult, ...]
    legal_actions: tuple[Action, ...]  # empty unless it is this seat's turn
    draw_card: Card | None  # draw pile: the top card, when this seat is drawing and knows it
    stock_left: int  # draw pile: cards not yet drawn
    outcome: Outcome | None

    @property
    def my_turn(self) -> bool:
        return self.current_seat == self.seat

    @property
    def side(self) -> int:
        return self.rules.side_of(self.seat)
