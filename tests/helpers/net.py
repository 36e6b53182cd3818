"""Helpers for the net tests: keys, and waiting for mesh events (the tests run in pytest-asyncio's loop)."""

from __future__ import annotations

import asyncio
import secrets
import socket
import struct
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

import nacl.bindings

from p2pspades import crypto
from p2pspades.net import LobbyHost, Peer, Timing, join_table, transport_keys
from p2pspades.net.auth import CurveKeys
from p2pspades.net.frames import Message
from p2pspades.net.lobby_seats import LobbyResult
from p2pspades.net.mesh import Mesh, MeshEvent, PeerAddress, Received
from p2pspades.rules import RuleSet
from p2pspades.table import GameEnded

T = TypeVar("T")
WAIT = 10.0
"""Generous upper bound for anything to arrive on loopback; tests never assert on speed."""
FAST = Timing(tick=0.05, hello=0.3, heartbeat=0.2, away_after=0.6, linger=3.0)
"""A peer's timing made short, so that a test sees hellos, heartbeats and absences quickly."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on just now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Player:
    """A test player: an Ed25519 key pair and the CURVE keys derived from it."""

    def __init__(self) -> None:
        self.seed = secrets.token_bytes(32)
        self.public, _ = nacl.bindings.crypto_sign_seed_keypair(self.seed)
        self.curve = CurveKeys.from_ed25519_seed(self.seed)


async def within(awaitable: Awaitable[T], timeout: float = WAIT) -> T:
    return await asyncio.wait_for(awaitable, timeout)


async def run_against(peers: Sequence[Peer], rogue: int, timeout: float) -> list[GameEnded | None]:
    """Run every peer until all but seat `rogue` (a modified peer) have ended; then stop the rogue and close
    them all. The honest peers' endings, in seat order."""
    runs = [asyncio.ensure_future(p.run()) for p in peers]  # in seat order, as an honest game does
    try:
        return await within(asyncio.gather(*(run for p, run in zip(peers, runs, strict=True)
                                              if p.seat != rogue)), timeout)
    finally:
        runs[rogue].cancel()
        await asyncio.gather(runs[rogue], return_exceptions=True)
        for p in peers:
            await p.close()


async def seated_by_lobby(
    rules: RuleSet, heartbeat: float, timeout: float = WAIT
) -> list[tuple[crypto.Identity, Mesh, LobbyResult]]:
    """A new identity per seat of `rules`, each with a started mesh, seated by a real lobby over loopback in
    this process (the first hosts it): each one's identity, mesh and lobby result, in that order. The lobby
    gives seats in its own order: find a seat by `result.seat`."""
    ids = [crypto.Identity.generate() for _ in range(rules.players)]
    meshes = [Mesh(transport_keys(i), heartbeat=heartbeat) for i in ids]
    for mesh in meshes:
        await mesh.start()
    host = LobbyHost(ids[0], "Here", rules, "P0", meshes[0].endpoint)
    lobby = await host.start()
    joins = [join_table(lobby, ids[i], f"P{i}", meshes[i].endpoint) for i in range(1, len(ids))]
    results = await within(asyncio.gather(host.run(), *joins), timeout)
    await host.close()
    return list(zip(ids, meshes, results, strict=True))


async def until(condition: Callable[[], bool], timeout: float = WAIT) -> None:
    """Wait (polling) until `condition()` holds; TimeoutError if it never does."""

    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.02)

    await within(poll(), timeout)


async def next_received(mesh: Mesh, timeout: float = WAIT) -> Received:
    """The next frame delivered by `mesh`, skipping link events."""

    async def wait() -> Received:
        while True:
            event: MeshEvent = await mesh.next_event()
            if isinstance(event, Received):
                return event

    return await within(wait(), timeout)


def received_now(mesh: Mesh) -> list[Message]:
    """The frames `mesh` has already delivered and nobody has taken yet (link events are passed over)."""
    got: list[Message] = []
    while (event := mesh.poll_event()) is not None:
        if isinstance(event, Received):
            got.append(event.message)
    return got


async def build_mesh(count: int) -> tuple[list[Player], list[Mesh]]:
    """`count` started and admitted meshes on loopback, seats 0..count-1."""
    players = [Player() for _ in range(count)]
    meshes = [Mesh(p.curve, heartbeat=0.2) for p in players]
    for mesh in meshes:
        await mesh.start()
    pairs = enumerate(zip(players, meshes, strict=True))
    table = [PeerAddress(seat, mesh.endpoint, player.public) for seat, (player, mesh) in pairs]
    for seat, mesh in enumerate(meshes):
        mesh.admit(seat, table)
    return players, meshes


async def close_all(meshes: list[Mesh]) -> None:
    for mesh in meshes:
        await mesh.close()


def loopback_multicast_works() -> bool:
    """Whether a multicast datagram sent on 127.0.0.1 comes back (it does not on every machine)."""
    group, port = "239.255.77.77", 45877
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as rx, \
                socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as tx:
            rx.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            rx.bind((group, port))  # the group only, not every address of the machine
            membership = struct.pack("4s4s", socket.inet_aton(group), socket.inet_aton("127.0.0.1"))
            rx.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP, membership)
            rx.settimeout(1.0)
            tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton("127.0.0.1"))
            tx.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 1)
            tx.sendto(b"p2pspades", (group, port))
            return rx.recv(64) == b"p2pspades"
    except OSError:
        return False
