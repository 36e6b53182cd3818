"""Running a bot beside an event loop: its decision is worked out in a worker thread, so the loop (a peer's
sockets, the screen) keeps running while the bot thinks."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from p2pspades.bots.base import Player
from p2pspades.rules import Action
from p2pspades.table.events import Decision


def thinking(player: Player) -> Callable[[Decision], Awaitable[Action]]:
    """`player` as a player that answers with an awaitable: call it inside a running event loop and await
    the answer (a peer does). The bot itself runs in the loop's default executor, one decision at a time."""

    def decide(decision: Decision) -> Awaitable[Action]:
        return asyncio.get_running_loop().run_in_executor(None, player, decision)

    return decide
