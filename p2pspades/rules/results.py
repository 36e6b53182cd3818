"""What a finished hand and a finished game leave behind."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NamedTuple

from p2pspades.rules.audit import Violation
from p2pspades.rules.cards import Card
from p2pspades.rules.scoring import HandScore, SideTotal
from p2pspades.rules.tricks import Trick


class Termination(enum.Enum):
    """Why the game ended."""

    TARGET = "target"  # a side reached the target score
    LOSING_THRESHOLD = "losing_threshold"  # a side fell to the losing threshold
    VIOLATION = "violation"  # the audit found a violation and the rules say `renege="stop"`
    BOSTON = "boston"  # a side took every trick of a hand and the rules say `boston="win"`


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: the winning sides (more than one for a shared win; none after a violation)."""

    winners: tuple[int, ...]
    termination: Termination


class HandResult(NamedTuple):
    """One finished hand: the score-sheet line plus everything needed to check it."""

    number: int  # 1-based
    dealer: int
    bids: tuple[int, ...]  # per seat; a blind nil is 0
    blind: tuple[bool, ...]
    hands: tuple[tuple[Card, ...], ...]  # every seat's cards when play started, as revealed
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]  # per seat, as played
    tricks_scored: tuple[int, ...]  # per seat, after the renege penalty moved tricks
    scores: tuple[HandScore, ...]  # per side
    totals: tuple[SideTotal, ...]  # per side, after this hand
    violations: tuple[Violation, ...]
