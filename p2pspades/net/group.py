"""The peers one process runs, together: our seat first, then the bot seats it runs.

Every seat is a whole peer: its own identity, its own ZeroMQ context and sockets, its own game directory. A
machine's bot seats are such peers too, run as asyncio tasks in its process; nothing distinguishes them on the
wire. `start_group` starts them once the lobby agreed on a genesis.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass, field

from p2pspades import crypto
from p2pspades.errors import N_
from p2pspades.net import endpoints
from p2pspades.net.auth import transport_keys
from p2pspades.net.discovery import local_address
from p2pspades.net.lobby_seats import LobbyResult
from p2pspades.net.mesh import Mesh
from p2pspades.net.peer import Peer, Timing, start_game
from p2pspades.net.seats import Seat, SessionError, make_bot
from p2pspades.printable import printable
from p2pspades.table import GameEnded

logger = logging.getLogger(__name__)


@dataclass
class Settings:
    """What every local seat of a game shares: where games are kept, the step timeouts, the driver's pace."""

    home: str | os.PathLike[str] | None = None
    timeouts: dict[str, float] = field(default_factory=dict)
    timing: Timing = field(default_factory=Timing)


class LocalGroup:
    """The peers one process runs: our seat first, then its bot seats."""

    def __init__(self, main: Peer, bots: Sequence[Peer] = ()) -> None:
        self.main = main
        self.bots = list(bots)
        self._closed = False
        seats = {peer.seat for peer in self.peers}
        for peer in self.peers:  # a resumed seat hearing only its own process's seats has heard nobody
            peer.sync.companions = frozenset(seats - {peer.seat})

    @property
    def peers(self) -> list[Peer]:
        return [self.main, *self.bots]

    async def run(self) -> GameEnded | None:
        """Play until the game ends for our seat and every bot seat has done its part (or, resumed, until
        our seat gives up because no other process answered: `main.gave_up`).

        A bot seat whose peer fails (a bug, its disk full...) leaves the game alone: the failure is logged,
        its sockets close, and the other seats, ours included, play on and claim its abandonment. A failure
        of our own seat's peer is raised, once the bot seats are stopped.
        """
        tasks = {asyncio.ensure_future(peer.run()): peer for peer in self.peers}
        ours = next(iter(tasks))
        try:
            pending = set(tasks)
            while pending:
                done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    failure = None if task.cancelled() else task.exception()
                    if failure is None:
                        continue
                    if task is ours:
                        raise failure
                    await self._lost(tasks[task], failure)
                if ours in done and self.main.gave_up:
                    return None  # resumed and nobody answered: our bot seats have nobody to play with either
            return ours.result()
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def _lost(self, peer: Peer, failure: BaseException) -> None:
        """A bot seat's peer failed: say so, and close it so that the others see it gone."""
        logger.error("seat %d, a bot this machine runs, failed and leaves the game: %s", peer.seat,
                     printable(f"{type(failure).__name__}: {failure}"))
        logger.debug("the failure of seat %d", peer.seat, exc_info=failure)
        with contextlib.suppress(Exception):
            await peer.close()

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for peer in self.peers:
            with contextlib.suppress(Exception):
                await peer.close()


def bind_for(address: str | None, port: int | str) -> tuple[str, str | None]:
    """The bind endpoint and the address to announce: every interface and the LAN address by default."""
    if address is None:
        return endpoints.tcp("*", port), local_address()
    return endpoints.tcp(address, port), None


async def open_mesh(identity: crypto.Identity, address: str | None, settings: Settings) -> Mesh:
    """A seat's game inbox, bound before the lobby announces its endpoint."""
    bind, announce = bind_for(address, "*")
    mesh = Mesh(transport_keys(identity), bind=bind, announce=announce, heartbeat=settings.timing.heartbeat)
    await mesh.start()
    return mesh


async def start_group(result: LobbyResult, main: Seat, main_mesh: Mesh, bots: Sequence[tuple[Seat, Mesh]],
                      settings: Settings) -> LocalGroup:
    """Start the peer of every local seat of the agreed game: ours, then our bot seats (found by key)."""
    peers: list[Peer] = []
    try:
        peers.append(await start_game(
            result, main.identity, main_mesh, main.player, home=settings.home, timeouts=settings.timeouts,
            timing=settings.timing, local=main.saved(result.seat, settings.timeouts)))
        for bot, mesh in bots:
            seat = result.table.seat_of(bot.identity.public)
            if seat is None:
                raise SessionError(N_("the bot {name} has no seat in the agreed game"), name=bot.name or "?")
            bot_result = LobbyResult(seat, result.table, result.genesis, result.game_id)
            player = bot.player or make_bot(bot.bot, bot.seed)
            peers.append(await start_game(
                bot_result, bot.identity, mesh, player, home=settings.home, timeouts=settings.timeouts,
                timing=settings.timing, local=bot.saved(result.seat, settings.timeouts)))
    except BaseException:
        for peer in peers:
            await peer.close()
        raise
    return LocalGroup(peers[0], peers[1:])


__all__ = ["LocalGroup", "Settings", "bind_for", "open_mesh", "start_group"]
