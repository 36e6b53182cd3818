"""The seats the game screen plays for: the person's (`HumanPlayer`, who answers on the screen) and a bot of
this process, shown "thinking…" while it chooses (`ThinkingShown`). Each is called like a bot."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable

from p2pspades.rules import Action
from p2pspades.table import Decision
from p2pspades.ui.state import UiState


class HumanPlayer:
    """Decides for our seat by asking the person: publishes the decision to the UI and awaits the answer.

    Call it like a bot (`await player(decision)`); a driver that no longer needs the answer cancels the
    awaiting task, and the decision leaves the screen.
    """

    def __init__(self, state: UiState) -> None:
        self.state = state

    async def __call__(self, decision: Decision) -> Action:
        future = self.state.publish(decision)
        try:
            return await future
        finally:
            self.state.withdraw(future)


class ThinkingShown:
    """A bot of this process, wrapped so that the screen says "thinking…" for its seat while it chooses.

    Works with a bot that answers at once and with one that answers with an awaitable (a bot in a thread).
    """

    def __init__(self, state: UiState, seat: int, player: Callable[[Decision], Action | Awaitable[Action]]):
        self.state = state
        self.seat = seat
        self.player = player

    async def __call__(self, decision: Decision) -> Action:
        self.state.set_thinking(self.seat, True)
        try:
            choice = self.player(decision)
            return await choice if inspect.isawaitable(choice) else choice
        finally:
            self.state.set_thinking(self.seat, False)
