"""What decides for a seat: a bot, or the UI waiting for a person."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeAlias

from p2pspades.rules import Action
from p2pspades.table.events import Decision

Player: TypeAlias = Callable[[Decision], Action]
"""Answers a decision (the seat's view and its legal choices) at once with one of the choices: a bot. The
in-memory wiring (`harness.Wire`) calls players this way."""

AnyPlayer: TypeAlias = Callable[[Decision], Action | Awaitable[Action]]
"""A `Player`, or one that answers later (the UI, waiting for a person's key): what a network peer takes."""
