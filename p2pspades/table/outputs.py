"""What the table's machines return instead of changing the table (h11's and magic-wormhole's way).

A machine (the opening, the hand, the draw pile, the claims, the endings of claims, the clock) reads the table
through the narrow view its own `Protocol` names and says what should happen, as these typed outputs (and a
few of its own). `machine.py` applies them, in the order given, in one place: it is the only code that
changes the table's stage, its rules engine, its chain, its result or what it reports.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pspades.rules import Game
from p2pspades.table.events import Event, Violation
from p2pspades.table.stages import Stage


@dataclass(frozen=True)
class Enter:
    """Move to `stage`, which the transition table must list after the entry being applied; for an IN_TURN
    stage, the seats in turn."""

    stage: Stage
    order: tuple[int, ...] = ()


@dataclass(frozen=True)
class Begin:
    """The first dealer is drawn: the game's rules engine, `game`, starts with its first hand."""

    game: Game


@dataclass(frozen=True)
class NewHand:
    """A hand begins (the rules engine's next one): a fresh deal, and every seat commits to its seed."""


@dataclass(frozen=True)
class ChallengeDue:
    """Challenge at our next turn: something only we can see is wrong (the reveal will name who)."""

    why: str


@dataclass(frozen=True)
class Report:
    """An event for our caller."""

    event: Event


@dataclass(frozen=True)
class Halt:
    """A fault ends the game at slot `at` (None: where the chain stands; the entry that earned it is not on
    it)."""

    violation: Violation
    at: int | None = None


@dataclass(frozen=True)
class Known:
    """Frames we checked that change nothing: never check them again (nor log them)."""

    raws: tuple[bytes, ...]


@dataclass(frozen=True)
class Complete:
    """Every seat signed the result: the game is over, as the rules engine scored it."""
