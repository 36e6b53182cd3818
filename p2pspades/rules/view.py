"""What one seat may know: the only input bots and the user interface get, and how an engine gives it."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Protocol

from p2pspades.rules.actions import Action
from p2pspades.rules.cards import Card, Suit
from p2pspades.rules.hand import HandState
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


class Engine(Protocol):
    """What `seat_view` reads of a game engine (`Game`)."""

    rules: RuleSet
    hand_number: int
    phase: Phase
    current_seat: int | None
    hand: HandState
    totals: tuple[SideTotal, ...]
    history: list[HandResult]
    outcome: Outcome | None

    def legal_actions(self) -> tuple[Action, ...]: ...


def seat_view(game: Engine, seat: int) -> SeatView:
    """What `seat` may know of `game`, as a frozen snapshot: its own cards as far as the engine knows them,
    the public record, and the top of the draw pile when it is the seat's turn to draw."""
    hand = game.hand
    players = game.rules.players
    mine = game.current_seat == seat
    index = hand.draw_index
    draw_card = hand.stock[index] if game.phase is Phase.DRAW and mine and index is not None else None
    return SeatView(
        seat=seat,
        rules=game.rules,
        hand_number=game.hand_number,
        dealer=hand.dealer,
        phase=game.phase,
        current_seat=game.current_seat,
        hand=hand.hand(seat),
        unknown=hand.unknown(seat),
        hand_sizes=tuple(hand.hand_size(s) for s in range(players)),
        bids=hand.bids,
        blind=hand.blind,
        blind_eligible=hand.blind_eligible,
        tricks=hand.tricks,
        trick=hand.trick,
        tricks_won=hand.tricks_won,
        spades_broken=hand.spades_broken,
        voids=tuple(hand.voids(s) for s in range(players)),
        totals=game.totals,
        history=tuple(game.history),
        legal_actions=tuple(game.legal_actions()) if mine else (),
        draw_card=draw_card,
        stock_left=hand.stock_left,
        outcome=game.outcome,
    )
