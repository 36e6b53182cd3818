"""The lobby over ZeroMQ: a small loop around the pure machines of `net/lobby_machine.py`.

The host binds a plain ROUTER (no CurveZMQ: a joiner does not know the host's key yet); every lobby message is
a signed envelope, so keys are compared the SSH way (protocol/network.md §6). `LobbyHost` feeds its ROUTER's
frames and the time to a `HostLobby`; `join_table` feeds its DEALER's to a `GuestLobby`. Both keep serving
while a person looks at a dialog (`confirm`), which runs as a task beside the loop: nobody is dropped for
reading fingerprints slowly, only for going silent. The time fed to the machines is the event loop's, unless
a `clock` is given (a test's fake clock, whose seconds pass when the test says so).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterable
from typing import TypeVar

import zmq
import zmq.asyncio

from p2pspades import crypto
from p2pspades.describe.lobby import said
from p2pspades.net import endpoints
from p2pspades.net.aio import settle
from p2pspades.net.lobby_guest import GuestLobby
from p2pspades.net.lobby_machine import (
    CONNECT_TIMEOUT,
    IDLE_TIMEOUT,
    KEEPALIVE,
    Changed,
    Dropped,
    GenesisMaker,
    HostLobby,
    LobbyEvent,
    Proposed,
    Stage,
    Started,
    Withdrawn,
)
from p2pspades.net.lobby_messages import MAX_LOBBY_FRAME
from p2pspades.net.lobby_seats import (
    LobbyError,
    LobbyResult,
    LobbySeat,
    Sequel,
    TableInfo,
    TableRefused,
    check_endpoint,
    check_name,
)
from p2pspades.net.mesh import PeerAddress
from p2pspades.reasons import Closing, Trouble
from p2pspades.rules import RuleSet
from p2pspades.table.messages import PROTOCOL_VERSION

logger = logging.getLogger(__name__)

T = TypeVar("T")
Confirm = Callable[[LobbyResult], "bool | Awaitable[bool]"]
"""A joiner's dialog: shown the checked proposal, True accepts it."""
StartWhen = Callable[[TableInfo], "bool | Awaitable[bool]"]
"""The host's dialog: shown the full seat map, True starts the game, False cancels the table."""
POLL = 0.2
"""Seconds between the loops' looks at the clock (keep-alives, time-outs, finished dialogs)."""

__all__ = [
    "KEEPALIVE",
    "Confirm",
    "LobbyError",
    "LobbyHost",
    "LobbyResult",
    "LobbySeat",
    "StartWhen",
    "TableInfo",
    "TableRefused",
    "check_endpoint",
    "check_name",
    "join_table",
    "peers_of",
]


def peers_of(table: TableInfo) -> list[PeerAddress]:
    """Where every seat's game peer listens: the mesh's allow-list for this seat map."""
    return [PeerAddress(s.seat, s.endpoint, s.public_key) for s in table.seated]


def _lobby_socket(context: zmq.asyncio.Context, kind: int) -> zmq.asyncio.Socket:
    sock = context.socket(kind)
    sock.setsockopt(zmq.LINGER, 0)
    sock.setsockopt(zmq.MAXMSGSIZE, MAX_LOBBY_FRAME)
    sock.setsockopt(zmq.SNDHWM, 100)
    sock.setsockopt(zmq.RCVHWM, 100)
    return sock


async def _answer(ask: Callable[[T], bool | Awaitable[bool]] | None, value: T) -> bool:
    return True if ask is None else bool(await settle(ask(value)))


def _note(events: Iterable[LobbyEvent], on_change: Callable[[TableInfo], None] | None) -> None:
    for event in events:
        if isinstance(event, Dropped):
            logger.warning("lobby: dropped a frame: %s", said(event.reason))
        elif isinstance(event, Changed) and on_change is not None:
            on_change(event.info)


async def _cancel(task: asyncio.Future[bool] | None) -> None:
    if task is not None and not task.done():
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


# ------------------------------------------------------------------------------------------------- host


class LobbyHost:
    """The host's side of the lobby, over a ROUTER: seat 0 is the host, `add_bot` seats its bots.

    `start_when` is the host's dialog: it is shown the full seat map (as a task, while the lobby keeps
    serving) and starts the game by returning True; if the seat map changes meanwhile it is cancelled and
    asked again. Without it the game starts as soon as every seat is taken.
    """

    def __init__(
        self,
        identity: crypto.Identity,
        table_name: str,
        rules: RuleSet,
        host_name: str,
        game_endpoint: str,
        *,
        bind: str = "tcp://127.0.0.1:*",
        start_when: StartWhen | None = None,
        on_change: Callable[[TableInfo], None] | None = None,
        make_genesis: GenesisMaker | None = None,
        idle_timeout: float = IDLE_TIMEOUT,
        version: int = PROTOCOL_VERSION,
        clock: Callable[[], float] | None = None,
        sequel: Sequel | None = None,
        on_wait: Callable[[dict[int, int]], None] | None = None,
    ) -> None:
        lobby_id = secrets.token_bytes(16)
        self.machine = HostLobby(identity, table_name, rules, host_name, game_endpoint, lobby_id,
                                 make_genesis, idle_timeout, version)
        if sequel is not None:
            self.machine.after = sequel.after
            self.machine.places = dict(sequel.places)
            self.machine.only_places = sequel.only_places
        self.identity = identity
        self.bind = bind
        self.start_when = start_when
        self.on_change = on_change
        self.on_wait = on_wait
        """Told, whenever it changes, which seats' joiners are silent and in how many seconds each is freed
        (`HostLobby.silent`): the host's countdown."""
        self._silent: dict[int, int] = {}
        self.clock = clock
        self.endpoint = ""
        self._context: zmq.asyncio.Context | None = None
        self._socket: zmq.asyncio.Socket | None = None

    async def start(self) -> str:
        """Bind the lobby socket; returns its endpoint (what `join HOST:PORT` connects to)."""
        if self._context is None:
            self._context = zmq.asyncio.Context()
        sock = _lobby_socket(self._context, zmq.ROUTER)
        sock.setsockopt(zmq.ROUTER_HANDOVER, 1)
        try:
            sock.bind(self.bind)
        except zmq.ZMQError as exc:
            sock.close(linger=0)
            raise LobbyError(Trouble.CANNOT_LISTEN, where=self.bind, error=str(exc)) from None
        self._socket = sock
        self.endpoint = sock.getsockopt_string(zmq.LAST_ENDPOINT)
        return self.endpoint

    def info(self) -> TableInfo:
        return self.machine.info()

    # ------------------------------------------------------------------------------------- seat management

    def add_bot(self, name: str, public_key: bytes, endpoint: str, seat: int | None = None) -> LobbySeat:
        """Seat a bot this host runs (at `seat`, or on the host's side if a seat is free there)."""
        self._apply(self.machine.add_bot(name, public_key, endpoint, seat))
        seated = self.info()
        found = seated.at(seated.seat_of(public_key) or 0)
        assert found is not None
        return found

    def remove(self, seat: int) -> LobbySeat:
        """Empty `seat` (a bot, or a joiner who is told so). Returns who sat there."""
        gone = self.info().at(seat)
        self._apply(self.machine.remove(seat))
        assert gone is not None
        return gone

    def move(self, seat: int, to: int) -> None:
        """Move the bot at `seat` to seat `to` (swapping with a bot there): which side a bot sits on."""
        self._apply(self.machine.move(seat, to))

    def rename(self, seat: int, name: str) -> None:
        """Rename the host's bot at `seat`."""
        self._apply(self.machine.rename(seat, name))

    # ------------------------------------------------------------------------------------- the loop

    async def run(self) -> LobbyResult:
        """Serve the lobby until every seat has accepted the genesis; `go` is then on its way."""
        if self._socket is None:
            await self.start()
        assert self._socket is not None
        now = self.clock or asyncio.get_running_loop().time
        deciding: asyncio.Future[bool] | None = None
        asked: TableInfo | None = None
        try:
            while True:
                if (result := self._apply(self.machine.tick(now()))) is not None:
                    return result
                self._tell_silence(now())
                if deciding is not None and (self.machine.stage is not Stage.OPEN or self.info() != asked):
                    await _cancel(deciding)  # the seat map changed under the dialog: ask again
                    deciding = None
                if deciding is None and self.machine.stage is Stage.OPEN and self.machine.full:
                    asked = self.info()
                    deciding = asyncio.ensure_future(_answer(self.start_when, asked))
                if deciding is not None and deciding.done():
                    go, deciding = deciding.result(), None
                    if not go:
                        raise LobbyError(Trouble.CANCELLED)
                    if (result := self._apply(self.machine.start(secrets.token_bytes(16)))) is not None:
                        return result
                    continue
                if not await self._socket.poll(int(POLL * 1000)):
                    continue
                frames = await self._socket.recv_multipart()
                if len(frames) != 2:
                    logger.warning("lobby: dropped a message of %d frames", len(frames))
                    continue
                result = self._apply(self.machine.receive(frames[0], frames[1], now()))
                if result is not None:
                    return result
        finally:
            await _cancel(deciding)

    def _tell_silence(self, now: float) -> None:
        silent = self.machine.silent(now)
        if silent != self._silent:
            self._silent = silent
            if self.on_wait is not None:
                self.on_wait(dict(silent))

    async def close(self, why: Closing | None = None) -> None:
        """Close the lobby socket (telling waiting joiners why, if the lobby did not finish).

        The last messages (`go`, `closed`) get up to a second to leave, in a thread, so the event loop
        never waits for a joiner that vanished.
        """
        if self._socket is not None:
            if why is not None:
                self.machine.close(why)
                self._flush()
            self._socket.close(linger=1000)
            self._socket = None
        if self._context is not None:
            context, self._context = self._context, None
            await asyncio.to_thread(context.term)

    def _apply(self, events: list[LobbyEvent]) -> LobbyResult | None:
        self._flush()
        _note(events, self.on_change)
        return next((e.result for e in events if isinstance(e, Started)), None)

    def _flush(self) -> None:
        for send in self.machine.take_outgoing():
            if self._socket is None:
                return
            try:
                self._socket.send_multipart([send.to, send.frame], zmq.NOBLOCK)
            except zmq.ZMQError as exc:
                logger.info("lobby: could not send to a joiner: %s", exc)


# ------------------------------------------------------------------------------------------------- joiner


async def join_table(
    endpoint: str,
    identity: crypto.Identity,
    name: str,
    game_endpoint: str,
    *,
    host_fingerprint: str | None = None,
    owner: bytes | None = None,
    confirm: Confirm | None = None,
    on_change: Callable[[TableInfo], None] | None = None,
    connect_timeout: float = CONNECT_TIMEOUT,
    timeout: float = IDLE_TIMEOUT,
    allow_version: int = PROTOCOL_VERSION,
    clock: Callable[[], float] | None = None,
    check_after: Callable[[TableInfo], str | None] | None = None,
    on_wait: Callable[[int | None], None] | None = None,
) -> LobbyResult:
    """Take a seat at the table whose lobby listens at `endpoint` (tcp://HOST:PORT) and wait for the game.

    `confirm` is shown the proposal (the final seat map and the genesis, already checked against each other)
    and decides whether to accept; it may take as long as the person needs. No answer within
    `connect_timeout`, or a host silent for `timeout` seconds, ends the wait with `LobbyError`. `owner`: the
    key of the (already seated) player whose machine runs this seat, which is then a bot. A table or genesis
    of a protocol version older than `allow_version` is refused (`Downgrade`). `clock`: as for `LobbyHost`.
    `check_after`: see `GuestLobby.check_after`. `on_wait` is told, whenever it changes, in how many seconds
    we give up on a host that has not answered yet or went silent (`GuestLobby.silent`; None: it answers).
    """
    parsed = endpoints.parse(endpoint)
    where = endpoint if parsed is None else parsed.host_port
    context = zmq.asyncio.Context()
    sock = _lobby_socket(context, zmq.DEALER)
    try:
        sock.connect(endpoint)
    except zmq.ZMQError as exc:
        context.destroy(linger=0)
        raise LobbyError(Trouble.CANNOT_CONNECT, where=where, error=str(exc)) from None
    now = clock or asyncio.get_running_loop().time
    guest = GuestLobby(identity, name, game_endpoint, where, now(), host_fingerprint, owner,
                       connect_timeout, timeout, allow_version, check_after)

    def flush() -> None:
        for send in guest.take_outgoing():
            with contextlib.suppress(zmq.Again):
                sock.send(send.frame, zmq.NOBLOCK)

    deciding: asyncio.Future[bool] | None = None
    done = False
    silent: int | None = -1
    try:
        while True:
            flush()
            guest.tick(now())
            if on_wait is not None and (left := guest.silent(now())) != silent:
                silent = left
                on_wait(left)
            if deciding is not None and deciding.done():
                accept, deciding = deciding.result(), None
                guest.answer(accept)
                continue
            if not await sock.poll(int(POLL * 1000)):
                continue
            events = guest.receive(await sock.recv(), now())
            _note(events, on_change)
            for event in events:
                if isinstance(event, Withdrawn | Proposed):
                    await _cancel(deciding)
                    deciding = None
                if isinstance(event, Proposed):
                    deciding = asyncio.ensure_future(_answer(confirm, event.result))
                if isinstance(event, Started):
                    done = True
                    return event.result
    finally:
        await _cancel(deciding)
        if not done:
            guest.leave()  # free the seat at once rather than by time-out
            flush()
        context.destroy(linger=0 if done else 200)
