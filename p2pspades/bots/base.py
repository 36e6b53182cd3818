"""What a bot is: a function from a decision (the seat's view and its legal choices) to one of the choices."""

from __future__ import annotations

from typing import Protocol

from p2pspades.rules import Action
from p2pspades.table.events import Decision


class Player(Protocol):
    """Anything that can decide for a seat: a bot, or the UI waiting for a person."""

    def __call__(self, decision: Decision) -> Action: ...
