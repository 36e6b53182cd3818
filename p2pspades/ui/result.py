"""How a game ended, as the game screen keeps it: for the game-over screen and the command's exit code.

A module of its own so that the model (`state.py`) and what it derives (`derived.py`) both read it without
importing each other.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class ResultStatus(enum.StrEnum):
    """How the game ended on this screen: as the table says (`TableStatus` but running), or stopped by the
    driver (nothing more can happen)."""

    COMPLETE = "complete"
    ABANDONED = "abandoned"
    VIOLATION = "violation"
    STOPPED = "stopped"


@dataclass(frozen=True)
class GameResult:
    """How the game ended, for the game-over screen and the exit code."""

    status: ResultStatus
    winners: tuple[int, ...]  # sides
    detail: str
    text: str  # one line a person reads
