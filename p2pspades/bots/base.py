"""What a bot is: a function from a decision (the seat's view and its legal choices) to one of the choices."""

from __future__ import annotations

from p2pspades.table.players import Player

__all__ = ["Player"]
