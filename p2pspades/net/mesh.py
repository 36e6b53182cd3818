"""The game mesh: one CURVE ROUTER inbox per peer, one DEALER from it to every other peer.

Traffic only ever flows DEALER -> ROUTER: a peer sends through its DEALER to the other peer's inbox, and
answers (PONG, ENTRIES, HELLO) go back the same way through its own DEALER. So every frame a peer receives
arrives on its ROUTER, over a CurveZMQ connection that its ZAP handler let in, tagged with the sender's seat
as User-Id. The mesh turns that into `Received(seat, message)` events; the upper layer checks that an entry's
signer is that seat. Each DEALER's routing id is the link id only its two ends can compute (`auth.link_id`),
so with ROUTER_HANDOVER a restarted peer takes its old connection over and nobody else can. Sends never block
the event loop: a peer that is away has its queue capped by the high water mark and later frames are dropped,
to be recovered by the HELLO/GET sync once it is back.

What a peer has received and not handled yet waits in the `Inbox`, so that a seat flooding us costs the
others nothing: link events and control frames (HELLO, GET) are handed out ahead of every queued entry
frame, entry frames go one seat at a time in turn, and each seat's queues are bounded (its frames over the
bound are dropped). A seat the upper layer mutes (`mute`: its entries failed their checks too often) is not
read for a while: its frames too big to be control frames are dropped before they are decoded, and its
queued entry frames are discarded. The inbox reader yields after every `READ_BURST` frames, so a flood
never keeps the peer from handling what it has read.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import zmq
import zmq.asyncio
from zmq.utils.monitor import parse_monitor_message

from p2pspades.errors import N_, LocalError
from p2pspades.net import endpoints
from p2pspades.net.auth import GAME_DOMAIN, AccessList, CurveKeys, ZapHandler, curve_public_key, link_id
from p2pspades.net.frames import (
    MAX_CONTROL,
    MAX_FRAME,
    MAX_SEATS,
    BadFrame,
    Entries,
    Entry,
    Hello,
    Message,
    Ping,
    Pong,
    decode_message,
    encode_message,
)

log = logging.getLogger(__name__)

HWM = 1000
"""Frames queued per connection before sends to a stalled peer are dropped (the sync recovers them)."""
RETRY_FIRST = 0.25
RETRY_MAX = 5.0
"""Seconds before connecting again to a seat that refused us (doubling from the first to the most)."""
ENTRY_QUEUE = 256
"""Entry frames (ENTRY, ENTRIES) of one seat waiting to be handled, at most; later ones are dropped."""
CONTROL_QUEUE = 32
"""Control frames (HELLO, GET) of one seat waiting to be handled, at most; later ones are dropped."""
READ_BURST = 64
"""Frames the inbox reader takes before it lets the rest of the peer run."""


class MeshError(LocalError):
    """The mesh was used wrongly (unknown seat, not started, frame too big to send)."""


@dataclass(frozen=True)
class PeerAddress:
    """Where a seated peer listens and who it is."""

    seat: int
    endpoint: str
    public_key: bytes
    """The seat's Ed25519 public key; its CURVE key is derived from it."""


@dataclass(frozen=True)
class Received:
    """A well-formed frame from the peer that the transport authenticated as `seat`."""

    seat: int
    message: Message


@dataclass(frozen=True)
class LinkUp:
    """Our connection to `seat` completed its CURVE handshake: a good moment to send HELLO."""

    seat: int


@dataclass(frozen=True)
class LinkDown:
    """Our connection to `seat` dropped; ZeroMQ keeps reconnecting."""

    seat: int


@dataclass(frozen=True)
class Refused:
    """`seat` refused our handshake: its allow-list lacks our key (or its key is not the one we know)."""

    seat: int


MeshEvent = Received | LinkUp | LinkDown | Refused


class Inbox:
    """What the mesh received and nobody has taken yet, handed out in the order that keeps a flood cheap.

    Our own link events come first, then control frames in the order they came, then entry frames, one
    seat at a time in turn. A seat's control and entry frames are each bounded (`CONTROL_QUEUE`,
    `ENTRY_QUEUE`); `put` drops what is over the bound and says so.
    """

    def __init__(self) -> None:
        self._links: deque[MeshEvent] = deque()
        self._control: deque[Received] = deque()
        self._controls: Counter[int] = Counter()
        self._entries: dict[int, deque[Received]] = {}
        self._turns: deque[int] = deque()
        """Seats with entry frames waiting, the next to be served first."""
        self._ready = asyncio.Event()

    def __len__(self) -> int:
        return len(self._links) + len(self._control) + sum(len(q) for q in self._entries.values())

    def link(self, event: MeshEvent) -> None:
        self._links.append(event)
        self._ready.set()

    def room_for_entries(self, seat: int) -> bool:
        return len(self._entries.get(seat, ())) < ENTRY_QUEUE

    def put(self, event: Received) -> bool:
        """Queue a frame; False if the seat already has as many of its kind waiting as it may."""
        seat = event.seat
        if isinstance(event.message, Entry | Entries):
            if not self.room_for_entries(seat):
                return False
            queue = self._entries.setdefault(seat, deque())
            if not queue:
                self._turns.append(seat)
            queue.append(event)
        else:
            if self._controls[seat] >= CONTROL_QUEUE:
                return False
            self._controls[seat] += 1
            self._control.append(event)
        self._ready.set()
        return True

    def discard_entries(self, seat: int) -> int:
        """Drop the entry frames `seat` has waiting; how many there were."""
        queue = self._entries.pop(seat, deque())
        if queue:
            self._turns.remove(seat)
        return len(queue)

    def take(self) -> MeshEvent | None:
        if self._links:
            return self._links.popleft()
        if self._control:
            event = self._control.popleft()
            self._controls[event.seat] -= 1
            return event
        if self._turns:
            seat = self._turns.popleft()
            queue = self._entries[seat]
            event = queue.popleft()
            if queue:
                self._turns.append(seat)
            else:
                del self._entries[seat]
            return event
        self._ready.clear()
        return None

    async def get(self) -> MeshEvent:
        while (event := self.take()) is None:
            await self._ready.wait()
        return event


def _common_options(sock: zmq.Socket[Any], keys: CurveKeys) -> None:
    sock.setsockopt(zmq.LINGER, 0)
    sock.setsockopt(zmq.MAXMSGSIZE, MAX_FRAME)
    sock.setsockopt(zmq.SNDHWM, HWM)
    sock.setsockopt(zmq.RCVHWM, HWM)
    sock.setsockopt(zmq.HEARTBEAT_IVL, 1000)
    sock.setsockopt(zmq.HEARTBEAT_TIMEOUT, 4000)
    sock.setsockopt(zmq.HEARTBEAT_TTL, 4000)
    sock.setsockopt(zmq.CURVE_PUBLICKEY, keys.public)
    sock.setsockopt(zmq.CURVE_SECRETKEY, keys.secret)


def announced(bound: str, address: str | None) -> str:
    """The endpoint to tell others: the bound one, with a wildcard host replaced by `address`.

    A socket bound to every interface reports `tcp://0.0.0.0:PORT`, which nobody can connect to; the peer
    announces the address others reach it at (its LAN address) with the port it got.
    """
    parsed = endpoints.parse(bound)
    if parsed is None or parsed.host not in endpoints.WILDCARDS:
        return bound
    if address is None:
        raise MeshError(f"bound {bound}: say which address to announce for it")
    return endpoints.tcp(address, parsed.port)


class Mesh:
    """One peer's end of the game mesh.

    Life cycle: `await start()` binds the inbox (before the lobby, so the endpoint can be announced);
    `admit(seat, peers)` installs the seat map as the allow-list and connects to every other seat; then
    `send`/`broadcast` and `await next_event()`; `await close()` at the end.
    """

    def __init__(
        self,
        keys: CurveKeys,
        *,
        bind: str = "tcp://127.0.0.1:*",
        heartbeat: float = 1.0,
        context: zmq.asyncio.Context | None = None,
        announce: str | None = None,
    ) -> None:
        self.keys = keys
        self.heartbeat = heartbeat
        self._bind = bind
        self._announce = announce
        self._own_context = context is None
        self._context = context if context is not None else zmq.asyncio.Context()
        self.access = AccessList()
        self.seat: int | None = None
        self.peers: dict[int, PeerAddress] = {}
        self._zap: ZapHandler | None = None
        self._router: zmq.asyncio.Socket | None = None
        self._dealers: dict[int, zmq.Socket[Any]] = {}
        self._monitors: dict[int, zmq.asyncio.Socket] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._inbox = Inbox()
        self._muted: dict[int, float] = {}
        """Seats whose entries are not read, until when (event loop time)."""
        self._last_heard: dict[int, float] = {}
        self._inbound_ids: dict[int, bytes] = {}
        self._tokens = itertools.count(1)
        self.dropped = 0
        """Frames received and dropped as malformed or misaddressed."""
        self.ignored = 0
        """Frames of a seated peer dropped because it is muted or has too many frames waiting."""
        self.endpoint = ""
        """The endpoint others connect to (announced in the lobby)."""
        self.bound = ""
        """The endpoint the inbox is bound to (may be a wildcard address)."""

    # ------------------------------------------------------------------------------------------ life cycle

    async def start(self) -> str:
        """Start the ZAP handler and bind the CURVE inbox; returns the bound endpoint."""
        self._zap = ZapHandler(self._context, self.access)
        self._zap.start()
        router = self._context.socket(zmq.ROUTER)
        _common_options(router, self.keys)
        router.setsockopt(zmq.CURVE_SERVER, 1)
        router.setsockopt(zmq.ZAP_DOMAIN, GAME_DOMAIN)
        router.setsockopt(zmq.ROUTER_HANDOVER, 1)
        router.setsockopt(zmq.ROUTER_MANDATORY, 0)
        try:
            router.bind(self._bind)
        except zmq.ZMQError as exc:
            router.close(linger=0)
            raise MeshError(N_("cannot listen on {where}: {error}"), where=self._bind,
                            error=str(exc)) from None
        bound = router.getsockopt_string(zmq.LAST_ENDPOINT)
        try:
            self.endpoint = announced(bound, self._announce)
        except MeshError:
            router.close(linger=0)
            raise
        self._router = router
        self.bound = bound
        self._spawn(self._read_inbox(), "inbox")
        return self.endpoint

    def allow(self, seat: int, peers: Iterable[PeerAddress]) -> None:
        """Let exactly the other listed seats in, without connecting to them yet.

        A peer allows the seat map as soon as it accepts the genesis, before the lobby says go: then nobody
        who starts connecting on "go" can reach a peer that would still refuse it. Calling it again (the
        lobby proposed another seat map) replaces the list.
        """
        if self._router is None:
            raise MeshError("start the mesh before admitting peers")
        if self.seat is not None:
            raise MeshError("the seat map is already installed")
        others = {p.seat: p for p in peers if p.seat != seat}
        if any(not 0 <= s < MAX_SEATS for s in [seat, *others]):
            raise MeshError(f"seats must be in 0..{MAX_SEATS - 1}")
        self.access.admit({s: p.public_key for s, p in others.items()})

    def admit(self, seat: int, peers: Iterable[PeerAddress]) -> None:
        """Take `seat`, let exactly the other listed seats in, and connect to each of them."""
        peers = list(peers)
        self.allow(seat, peers)
        others = {p.seat: p for p in peers if p.seat != seat}
        self.seat = seat
        self.peers = others
        for peer in others.values():
            peer_key = curve_public_key(peer.public_key)
            self._inbound_ids[peer.seat] = link_id(self.keys, peer_key, sending=False)
            self._connect(peer)
        self._spawn(self._beat(), "heartbeat")

    def _connect(self, peer: PeerAddress) -> None:
        dealer: zmq.Socket[Any] = zmq.Socket(self._context, zmq.DEALER)
        _common_options(dealer, self.keys)
        server = curve_public_key(peer.public_key)
        dealer.setsockopt(zmq.CURVE_SERVERKEY, server)
        dealer.setsockopt(zmq.ROUTING_ID, link_id(self.keys, server, sending=True))
        dealer.setsockopt(zmq.RECONNECT_IVL, 100)
        dealer.setsockopt(zmq.RECONNECT_IVL_MAX, 2000)
        address = f"inproc://p2pspades-monitor-{id(self):x}-{peer.seat}"
        dealer.monitor(
            address,
            zmq.EVENT_HANDSHAKE_SUCCEEDED | zmq.EVENT_DISCONNECTED | zmq.EVENT_HANDSHAKE_FAILED_AUTH
            | zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL,
        )
        monitor = self._context.socket(zmq.PAIR)
        monitor.setsockopt(zmq.LINGER, 0)
        monitor.connect(address)
        try:
            dealer.connect(peer.endpoint)
        except zmq.ZMQError as exc:
            dealer.close(linger=0)
            monitor.close(linger=0)
            raise MeshError(f"seat {peer.seat}: bad endpoint {peer.endpoint!r}: {exc}") from None
        self._dealers[peer.seat] = dealer
        self._monitors[peer.seat] = monitor
        self._spawn(self._watch(peer.seat, monitor), f"monitor-{peer.seat}")

    async def close(self) -> None:
        """Stop every task and close every socket (and the context, if the mesh made it)."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()
        for dealer in self._dealers.values():
            with contextlib.suppress(zmq.ZMQError):
                dealer.disable_monitor()
            dealer.close(linger=0)
        for monitor in self._monitors.values():
            monitor.close(linger=0)
        if self._router is not None:
            self._router.close(linger=0)
        if self._zap is not None:
            await self._zap.close()
        self._dealers.clear()
        self._monitors.clear()
        self._router = None
        if self._own_context:
            self._context.destroy(linger=0)

    async def __aenter__(self) -> Mesh:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def _spawn(self, coro: Any, name: str) -> None:
        self._tasks.append(asyncio.get_running_loop().create_task(coro, name=f"mesh-{name}"))

    # ------------------------------------------------------------------------------------------ sending

    def send(self, seat: int, message: Message) -> bool:
        """Queue `message` for `seat` without waiting; False if it had to be dropped (peer stalled)."""
        return self._send_bytes(seat, encode_message(message))

    def broadcast(self, message: Message) -> None:
        """Queue `message` for every other seat."""
        data = encode_message(message)
        for seat in self._dealers:
            self._send_bytes(seat, data)

    def _send_bytes(self, seat: int, data: bytes) -> bool:
        dealer = self._dealers.get(seat)
        if dealer is None:
            raise MeshError(f"no connection to seat {seat}")
        if len(data) > MAX_FRAME:
            raise MeshError(f"frame of {len(data)} bytes is over the {MAX_FRAME}-byte limit")
        try:
            dealer.send(data, zmq.NOBLOCK)
        except zmq.Again:
            log.debug("seat %d is not keeping up; frame dropped", seat)
            return False
        return True

    # ------------------------------------------------------------------------------------------ receiving

    async def next_event(self) -> MeshEvent:
        """The next event: a change in our link to a seat, or a frame from one (control frames first)."""
        return await self._inbox.get()

    def poll_event(self) -> MeshEvent | None:
        """The next event if one is already waiting (no suspension), else None."""
        return self._inbox.take()

    @property
    def waiting(self) -> int:
        """How many events wait to be taken."""
        return len(self._inbox)

    def mute(self, seat: int, until: float) -> None:
        """Read no entries from `seat` until `until` (event loop time): its entry frames waiting now are
        dropped, and so are those that come before then, undecoded when they are bigger than any control
        frame. Its control frames are still read."""
        self._muted[seat] = until
        self.ignored += self._inbox.discard_entries(seat)

    def _reads_entries(self, seat: int, now: float) -> bool:
        until = self._muted.get(seat)
        if until is not None and now >= until:
            del self._muted[seat]
            until = None
        return until is None and self._inbox.room_for_entries(seat)

    def silent_for(self, seat: int) -> float | None:
        """Seconds since anything was heard from `seat` (None: never heard)."""
        heard = self._last_heard.get(seat)
        return None if heard is None else asyncio.get_running_loop().time() - heard

    async def _read_inbox(self) -> None:
        assert self._router is not None
        loop = asyncio.get_running_loop()
        for count in itertools.count(1):
            try:
                frames = await self._router.recv_multipart(copy=False)
            except zmq.ZMQError as exc:
                if exc.errno in (zmq.ETERM, zmq.ENOTSOCK):
                    return
                log.warning("inbox receive failed: %s", exc)
                continue
            self._take(frames, loop.time())
            if count % READ_BURST == 0:
                await asyncio.sleep(0)  # frames keep coming in a flood: let the peer handle what we have

    def _take(self, frames: list[zmq.Frame], now: float) -> None:
        """Check one inbox message and queue it, or count it dropped."""
        seat = self._sender(frames)
        if seat is None:
            self.dropped += 1
            return
        self._last_heard[seat] = now
        reads_entries = self._reads_entries(seat, now)
        if not reads_entries and len(frames[1]) > MAX_CONTROL:
            self.ignored += 1  # an entry frame by its size: not worth decoding
            return
        event = self._decode(seat, frames[1].bytes)
        if event is None:
            self.dropped += 1
        elif isinstance(event.message, Ping):
            self._reply_pong(seat, event.message.token)
        elif isinstance(event.message, Pong):
            pass
        elif isinstance(event.message, Entry | Entries) and not reads_entries:
            self.ignored += 1
        elif not self._inbox.put(event):
            self.ignored += 1
            log.debug("seat %d has too many frames waiting; frame dropped", seat)

    def _sender(self, frames: list[zmq.Frame]) -> int | None:
        """The seat an inbox message comes from, once its connection and routing id say so; None (logged)
        if they do not."""
        if len(frames) != 2:
            log.warning("dropped a message of %d frames (expected 1)", len(frames) - 1)
            return None
        try:
            user = frames[1].get("User-Id")
            seat = int(user)
        except (zmq.ZMQError, ValueError, TypeError):
            log.warning("dropped a frame with no seat attached to its connection")
            return None
        if seat not in self.peers:
            log.warning("dropped a frame from seat %d, which is not another seat of this table", seat)
            return None
        if frames[0].bytes != self._inbound_ids[seat]:
            log.warning("dropped a frame from seat %d sent under a routing id not its own", seat)
            return None
        return seat

    def _decode(self, seat: int, data: bytes) -> Received | None:
        """The message a frame from `seat` holds, or None (logged) if it is not well-formed."""
        try:
            message = decode_message(data)
        except BadFrame as exc:
            log.warning("dropped a frame from seat %d: %s", seat, exc.detail)
            return None
        if isinstance(message, Hello) and message.seat != seat:
            log.warning("dropped a HELLO from seat %d claiming seat %d", seat, message.seat)
            return None
        return Received(seat, message)

    def _reply_pong(self, seat: int, token: int) -> None:
        if seat in self._dealers:
            self.send(seat, Pong(token))

    async def _beat(self) -> None:
        while True:
            self.broadcast(Ping(next(self._tokens) & 0xFFFFFFFF))
            await asyncio.sleep(self.heartbeat)

    async def _watch(self, seat: int, monitor: zmq.asyncio.Socket) -> None:
        kinds: dict[int, Callable[[int], MeshEvent]] = {
            zmq.EVENT_HANDSHAKE_SUCCEEDED: LinkUp,
            zmq.EVENT_DISCONNECTED: LinkDown,
            zmq.EVENT_HANDSHAKE_FAILED_AUTH: Refused,
            zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL: Refused,
        }
        refusals = 0
        while True:
            try:
                frames = await monitor.recv_multipart()
                event = parse_monitor_message(frames)["event"]
            except zmq.ZMQError:
                return
            except RuntimeError:
                continue
            kind = kinds.get(event)
            if kind is None:
                continue
            if kind is Refused:
                refusals += 1
                level = logging.WARNING if refusals == 1 else logging.DEBUG
                log.log(level, "seat %d refused our connection: our key is not on its list (yet)", seat)
                # libzmq does not retry a connection its peer refused; the seat may admit us a moment later
                # (it is still in the lobby), so try again, less and less often
                delay = min(RETRY_MAX, RETRY_FIRST * 2 ** min(refusals - 1, 8))
                asyncio.get_running_loop().call_later(delay, self._reconnect, seat)
            elif kind is LinkUp:
                refusals = 0
            self._inbox.link(kind(seat))

    def _reconnect(self, seat: int) -> None:
        dealer, peer = self._dealers.get(seat), self.peers.get(seat)
        if dealer is None or peer is None or dealer.closed:
            return
        with contextlib.suppress(zmq.ZMQError):
            dealer.disconnect(peer.endpoint)
        with contextlib.suppress(zmq.ZMQError):
            dealer.connect(peer.endpoint)
