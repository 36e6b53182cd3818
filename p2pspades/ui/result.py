"""How a game ended, as the game screen keeps it: for the game-over screen and the command's exit code.

A module of its own so that the model (`state.py`) and what it derives (`derived.py`) both read it without
importing each other.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class ResultStatus(enum.StrEnum):
    """How the game ended on this screen: as the table says (`TableStatus` but running), or given up by the
    driver (nothing more can happen)."""

    COMPLETE = "complete"
    ABANDONED = "abandoned"
    VIOLATION = "violation"
    LEFT = "left"  # a seat said goodbye
    STOPPED = "stopped"  # stopped by agreement
    GAVE_UP = "gave up"  # the driver gave up: nothing more can happen


@dataclass(frozen=True)
class GameResult:
    """How the game ended, for the game-over screen and the exit code."""

    status: ResultStatus
    winners: tuple[int, ...]  # sides
    detail: str
    text: str  # one line a person reads


def result_level(status: ResultStatus) -> str:
    """How the game-over screen colours an ending: good, info, warn or bad."""
    return {ResultStatus.COMPLETE: "good", ResultStatus.ABANDONED: "warn", ResultStatus.LEFT: "warn",
            ResultStatus.STOPPED: "info"}.get(status, "bad")
