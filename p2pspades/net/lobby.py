"""The lobby: how players find seats at a table and agree on the genesis before the game mesh starts.

The host binds a plain ROUTER (no CurveZMQ: a joiner does not know the host's key yet). Instead, every lobby
message is a signed envelope (the log's `[1, payload, signature]`), so keys are compared the SSH way: each
person sees every seated player's name and key fingerprint before accepting. The flow:

    joiner -> host   info     (signed by the joiner)          host -> joiner  table   (seat map so far)
    joiner -> host   join     (name, key, game endpoint)      host -> all     table   (updated)
                                                              host -> joiner  refuse  (full, bad input)
    ... when every seat is taken (bots are seated by the host) ...
                                                              host -> all     start   (genesis + seat map)
    joiner -> host   accept | decline  (genesis hash)         host -> all     go      (everyone accepted)

A joiner pins the host key from the first `table` (or checks it against an expected fingerprint) and refuses
any later message not signed by it. It checks the genesis against the seat map and the announced rules before
it shows them to its player. A joiner that keeps quiet is dropped, and a host that stops answering is
reported, so nobody waits forever.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import zmq
import zmq.asyncio

from p2pspades import crypto, log
from p2pspades.errors import P2PSpadesError, RemoteError
from p2pspades.net import endpoints
from p2pspades.net.aio import settle
from p2pspades.net.mesh import PeerAddress
from p2pspades.rules import RuleSet
from p2pspades.table import make_genesis as table_genesis
from p2pspades.table import read_genesis

logger = logging.getLogger(__name__)

LOBBY_VERSION = 1
MAX_LOBBY_FRAME = log.MAX_ENVELOPE
KEEPALIVE = 2.0
"""Seconds between a joiner's keep-alive `info` requests while it waits."""
NAME_LIMIT = 32

GenesisMaker = Callable[[bytes, Sequence[tuple[str, bytes]]], bytes]
"""(game id, [(name, key) per seat]) -> the host's signed genesis entry."""
Confirm = Callable[["LobbyResult"], "bool | Awaitable[bool]"]


class LobbyError(P2PSpadesError):
    """The lobby could not seat us: refused, declined, cancelled, timed out, or the host misbehaved."""


class TableRefused(LobbyError):
    """The host refused our join (the table is full, our name is bad, ...)."""


# ------------------------------------------------------------------------------------------------- values


def check_name(name: object) -> str:
    """A player or table name: 1..32 printable characters, no control characters."""
    if not isinstance(name, str) or not 1 <= len(name) <= NAME_LIMIT or not name.isprintable():
        raise ValueError(f"a name is 1..{NAME_LIMIT} printable characters, not {name!r}"[:120])
    return name


def check_endpoint(endpoint: object) -> str:
    """A game endpoint others can connect to: tcp://HOST:PORT (no wildcard host or port)."""
    parsed = endpoints.parse(endpoint) if isinstance(endpoint, str) else None
    if parsed is None or parsed.host in endpoints.WILDCARDS:
        raise ValueError(f"an endpoint is tcp://HOST:PORT, not {endpoint!r}"[:120])
    return endpoint  # type: ignore[return-value]


def _check_key(key: object) -> bytes:
    if type(key) is not bytes:
        raise ValueError("a public key is 32 bytes")
    return crypto.check_public_key(key)  # WeakKey is a ValueError: weak keys are refused like bad frames


@dataclass(frozen=True)
class LobbySeat:
    """A seated player as the lobby shows it."""

    seat: int
    name: str
    public_key: bytes
    endpoint: str
    bot: bool = False

    @property
    def fingerprint(self) -> str:
        return crypto.fingerprint(self.public_key)

    def to_wire(self) -> dict[str, Any]:
        return {"b": self.bot, "e": self.endpoint, "k": self.public_key, "n": self.name, "s": self.seat}

    @classmethod
    def from_wire(cls, data: Any) -> LobbySeat:
        if not isinstance(data, dict) or set(data) != {"b", "e", "k", "n", "s"}:
            raise ValueError("a seat has exactly the fields b, e, k, n, s")
        if type(data["s"]) is not int or not 0 <= data["s"] < 16 or type(data["b"]) is not bool:
            raise ValueError("bad seat number or bot flag")
        name, key, endpoint = check_name(data["n"]), _check_key(data["k"]), check_endpoint(data["e"])
        return cls(data["s"], name, key, endpoint, data["b"])


@dataclass(frozen=True)
class TableInfo:
    """A table as its host announces it: what is played and who sits where so far."""

    name: str
    rules: RuleSet
    host_key: bytes
    lobby: bytes
    """A random id of this lobby, which every join and accept names, so they cannot be replayed elsewhere."""
    seated: tuple[LobbySeat, ...]

    @property
    def seats(self) -> int:
        return self.rules.players

    @property
    def free(self) -> int:
        return self.seats - len(self.seated)

    @property
    def host_fingerprint(self) -> str:
        return crypto.fingerprint(self.host_key)

    def seat_of(self, key: bytes) -> int | None:
        return next((s.seat for s in self.seated if s.public_key == key), None)

    def to_wire(self) -> dict[str, Any]:
        return {
            "l": self.lobby,
            "name": self.name,
            "r": self.rules.to_dict(),
            "seats": [s.to_wire() for s in self.seated],
        }

    @classmethod
    def from_wire(cls, payload: dict[str, Any], host_key: bytes) -> TableInfo:
        if type(payload["r"]) is not dict:
            raise ValueError("the rules are a map of options")
        try:
            rules = RuleSet.from_dict(payload["r"])
        except (ValueError, TypeError) as exc:
            raise ValueError(f"bad rules: {exc}") from None
        if type(payload["seats"]) is not list:
            raise ValueError("the seats are a list")
        seated = tuple(LobbySeat.from_wire(s) for s in payload["seats"])
        if len({s.seat for s in seated}) != len(seated) or any(s.seat >= rules.players for s in seated):
            raise ValueError("the seat list has a seat twice or a seat the rules do not have")
        if len({s.public_key for s in seated}) != len(seated):
            raise ValueError("two seats have the same key")
        if type(payload["l"]) is not bytes or len(payload["l"]) != 16:
            raise ValueError("the lobby id is 16 bytes")
        return cls(check_name(payload["name"]), rules, host_key, payload["l"], seated)


@dataclass(frozen=True)
class LobbyResult:
    """The agreed table: our seat, every seat, and the genesis everyone accepted."""

    seat: int
    table: TableInfo
    genesis: bytes
    game_id: bytes

    @property
    def genesis_hash(self) -> bytes:
        return log.entry_hash(self.genesis)

    def peers(self) -> list[PeerAddress]:
        return [PeerAddress(s.seat, s.endpoint, s.public_key) for s in self.table.seated]

    def describe(self) -> str:
        """The seat map for a person to check: every seat's name and key fingerprint."""
        rules = self.table.rules.preset or "custom rules"
        lines = [f"Table {self.table.name!r} ({rules}), game {self.game_id.hex()}"]
        for s in sorted(self.table.seated, key=lambda s: s.seat):
            who = " (you)" if s.seat == self.seat else (" (bot)" if s.bot else "")
            lines.append(f"  seat {s.seat}: {s.name}{who}  key {s.fingerprint}")
        return "\n".join(lines)


# ------------------------------------------------------------------------------------------------- wire


def _seal(kind: str, identity: crypto.Identity, **fields: Any) -> bytes:
    return log.seal({"t": kind, "v": LOBBY_VERSION, "k": identity.public, **fields}, identity)


def _open(raw: bytes, expect_key: bytes | None = None) -> dict[str, Any]:
    """Check one lobby frame: envelope, version, and the signature of the key it names (or `expect_key`)."""
    if len(raw) > MAX_LOBBY_FRAME:
        raise ValueError(f"frame of {len(raw)} bytes is too big")
    try:
        env = log.open_envelope(raw)
    except RemoteError as exc:
        raise ValueError(exc.detail) from None
    payload = env.payload
    if payload.get("v") != LOBBY_VERSION:
        raise ValueError(f"lobby version {payload.get('v')!r} is not {LOBBY_VERSION}")
    if type(payload.get("t")) is not str:
        raise ValueError("no message type")
    key = _check_key(payload.get("k"))
    if expect_key is not None and key != expect_key:
        raise ValueError("signed by a key other than the host's")
    if not crypto.verify_signature(key, env.signature, env.payload_raw):
        raise ValueError("bad signature")
    return payload


def _lobby_socket(context: zmq.asyncio.Context, kind: int) -> zmq.asyncio.Socket:
    sock = context.socket(kind)
    sock.setsockopt(zmq.LINGER, 0)
    sock.setsockopt(zmq.MAXMSGSIZE, MAX_LOBBY_FRAME)
    sock.setsockopt(zmq.SNDHWM, 100)
    sock.setsockopt(zmq.RCVHWM, 100)
    return sock


async def _ask(confirm: Confirm | None, result: LobbyResult) -> bool:
    if confirm is None:
        return True
    return bool(await settle(confirm(result)))


# ------------------------------------------------------------------------------------------------- host


@dataclass
class _Seated:
    seat: LobbySeat
    routing: bytes | None  # None for the host itself and its bots
    last_heard: float
    accepted: bool = False


@dataclass
class LobbyHost:
    """The host's side of the lobby: seat 0 is the host, `add_bot` seats bots, joiners fill the rest."""

    identity: crypto.Identity
    table_name: str
    rules: RuleSet
    host_name: str
    game_endpoint: str
    bind: str = "tcp://127.0.0.1:*"
    confirm: Confirm | None = None
    """Shown the final seat map before the host signs the genesis; False cancels the table."""
    on_change: Callable[[TableInfo], None] | None = None
    make_genesis: GenesisMaker | None = None
    idle_timeout: float = 6 * KEEPALIVE
    accept_timeout: float = 300.0
    endpoint: str = ""
    _context: zmq.asyncio.Context | None = field(default=None, repr=False)
    _socket: zmq.asyncio.Socket | None = field(default=None, repr=False)
    _seats: dict[int, _Seated] = field(default_factory=dict, repr=False)
    _lobby: bytes = field(default_factory=lambda: secrets.token_bytes(16), repr=False)
    _start: LobbyResult | None = field(default=None, repr=False)
    _deadline: float = 0.0

    def __post_init__(self) -> None:
        check_name(self.table_name)
        check_name(self.host_name)
        check_endpoint(self.game_endpoint)
        me = LobbySeat(0, self.host_name, self.identity.public, self.game_endpoint)
        self._seats[0] = _Seated(me, None, 0.0, accepted=True)

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
            raise LobbyError(f"cannot listen on {self.bind}: {exc}") from None
        self._socket = sock
        self.endpoint = sock.getsockopt_string(zmq.LAST_ENDPOINT)
        return self.endpoint

    def add_bot(self, name: str, public_key: bytes, endpoint: str, seat: int | None = None) -> LobbySeat:
        """Seat a bot peer run by the host (at `seat`, or the highest free seat)."""
        free = self._free_seats()
        if not free:
            raise LobbyError("the table is full")
        chosen = free[-1] if seat is None else seat
        if chosen not in free:
            raise LobbyError(f"seat {chosen} is not free")
        if self._seat_of_key(public_key) is not None:
            raise LobbyError("that key is already seated")
        bot = LobbySeat(chosen, check_name(name), _check_key(public_key), check_endpoint(endpoint), bot=True)
        self._seats[chosen] = _Seated(bot, None, 0.0, accepted=True)
        self._changed()
        return bot

    def info(self) -> TableInfo:
        seated = tuple(self._seats[s].seat for s in sorted(self._seats))
        return TableInfo(self.table_name, self.rules, self.identity.public, self._lobby, seated)

    async def run(self) -> LobbyResult:
        """Serve the lobby until every seat has accepted the genesis; then tell everyone to go."""
        if self._socket is None:
            await self.start()
        assert self._socket is not None
        loop = asyncio.get_running_loop()
        while True:
            now = loop.time()
            if self._start is None and not self._free_seats():
                await self._propose()
                self._deadline = loop.time() + self.accept_timeout
            if self._start is not None and all(j.accepted for j in self._seats.values()):
                self._send_all("go", x=self._start.genesis_hash)
                return self._start
            self._expire(now)
            if not await self._socket.poll(500):
                continue
            frames = await self._socket.recv_multipart()
            if len(frames) != 2:
                logger.warning("lobby: dropped a message of %d frames", len(frames))
                continue
            self._handle(frames[0], frames[1], loop.time())

    async def close(self, why: str = "") -> None:
        """Close the lobby socket (telling waiting joiners why, if the lobby did not finish).

        The last messages (`go`, `closed`) get up to a second to leave, in a thread, so the event loop
        never waits for a joiner that vanished.
        """
        if self._socket is not None:
            if why:
                self._send_all("closed", why=why[:200])
            self._socket.close(linger=1000)
            self._socket = None
        if self._context is not None:
            context, self._context = self._context, None
            await asyncio.to_thread(context.term)

    # -------------------------------------------------------------------------------------- internals

    def _free_seats(self) -> list[int]:
        return [s for s in range(self.rules.players) if s not in self._seats]

    def _seat_of_key(self, key: bytes) -> int | None:
        return next((s for s, j in self._seats.items() if j.seat.public_key == key), None)

    def _changed(self) -> None:
        info = self.info()
        if self.on_change is not None:
            self.on_change(info)
        self._send_all("table", **info.to_wire())

    def _send(self, routing: bytes, kind: str, **fields: Any) -> None:
        if self._socket is None:
            return
        try:
            self._socket.send_multipart([routing, _seal(kind, self.identity, **fields)], zmq.NOBLOCK)
        except zmq.ZMQError as exc:
            logger.info("lobby: could not send %s: %s", kind, exc)

    def _send_all(self, kind: str, **fields: Any) -> None:
        for joiner in self._seats.values():
            if joiner.routing is not None:
                self._send(joiner.routing, kind, **fields)

    async def _propose(self) -> None:
        """Every seat is taken: let the host check the seat map, then sign the genesis and send it out."""
        info = self.info()
        game_id = secrets.token_bytes(16)
        seats = [(s.name, s.public_key) for s in info.seated]
        if self.make_genesis is not None:
            genesis = self.make_genesis(game_id, seats)
        else:
            genesis = table_genesis(game_id, self.rules, seats, self.identity, self.table_name)
        result = LobbyResult(0, info, genesis, game_id)
        if not await _ask(self.confirm, result):
            await self.close("the host cancelled the table")
            raise LobbyError("the host cancelled the table")
        self._start = result
        for joiner in self._seats.values():
            joiner.accepted = joiner.routing is None
        self._send_all("start", g=genesis, **info.to_wire())
        logger.info("lobby: every seat is taken; genesis %s sent", result.genesis_hash.hex()[:16])

    def _unseat(self, seat: int, why: str) -> None:
        joiner = self._seats.pop(seat)
        logger.info("lobby: seat %d (%s) left: %s", seat, joiner.seat.name, why)
        if joiner.routing is not None:
            self._send(joiner.routing, "refuse", why=why[:200])
        if self._start is not None:
            self._start = None  # the seat map changed: a new genesis (and game id) once the table is full
        self._changed()

    def _expire(self, now: float) -> None:
        for seat, joiner in list(self._seats.items()):
            if joiner.routing is None:
                continue
            if self._start is None and now - joiner.last_heard > self.idle_timeout:
                self._unseat(seat, "no word from you for too long")
            elif self._start is not None and not joiner.accepted and now > self._deadline:
                self._unseat(seat, "you did not accept the table in time")

    def _handle(self, routing: bytes, raw: bytes, now: float) -> None:
        try:
            payload = _open(raw)
        except ValueError as exc:
            logger.warning("lobby: dropped a frame: %s", exc)
            return
        kind, key = payload["t"], payload["k"]
        seat = self._seat_of_key(key)
        joiner = self._seats.get(seat) if seat is not None else None
        if joiner is not None and joiner.routing is not None:
            joiner.routing = routing  # a joiner that reconnected
            joiner.last_heard = now
        if kind == "info":
            self._send(routing, "table", **self.info().to_wire())
        elif kind == "join":
            self._join(routing, payload, seat, now)
        elif kind == "accept" and joiner is not None and self._start is not None:
            if payload.get("l") == self._lobby and payload.get("x") == self._start.genesis_hash:
                joiner.accepted = True
            else:
                logger.warning("lobby: seat %s accepted another genesis", seat)
        elif kind in ("decline", "leave"):
            if seat is not None and joiner is not None and joiner.routing and payload.get("l") == self._lobby:
                self._unseat(seat, f"{joiner.seat.name} left the table")
        else:
            logger.warning("lobby: dropped an unexpected %r", str(kind)[:20])

    def _join(self, routing: bytes, payload: dict[str, Any], seat: int | None, now: float) -> None:
        if payload.get("l") != self._lobby:
            self._send(routing, "refuse", why="that join was meant for another table")
            return
        try:
            name = check_name(payload.get("name"))
            endpoint = check_endpoint(payload.get("e"))
        except ValueError as exc:
            self._send(routing, "refuse", why=str(exc))
            return
        key = payload["k"]
        if seat is not None:
            joiner = self._seats[seat]
            if joiner.routing is None:
                self._send(routing, "refuse", why="that key belongs to the host or one of its bots")
                return
            if self._start is None and (joiner.seat.name, joiner.seat.endpoint) != (name, endpoint):
                joiner.seat = replace(joiner.seat, name=name, endpoint=endpoint)  # a joiner that restarted
                self._changed()
            else:
                self._send(routing, "table", **self.info().to_wire())
            if self._start is not None:
                self._send(routing, "start", g=self._start.genesis, **self._start.table.to_wire())
            return
        free = self._free_seats()
        if not free:
            self._send(routing, "refuse", why="the table is full")
            return
        newcomer = LobbySeat(free[0], name, key, endpoint)
        self._seats[free[0]] = _Seated(newcomer, routing, now)
        logger.info("lobby: %s (%s) takes seat %d", name, newcomer.fingerprint, free[0])
        self._changed()


# ------------------------------------------------------------------------------------------------- joiner


async def join_table(
    endpoint: str,
    identity: crypto.Identity,
    name: str,
    game_endpoint: str,
    *,
    host_fingerprint: str | None = None,
    confirm: Confirm | None = None,
    on_change: Callable[[TableInfo], None] | None = None,
    timeout: float = 10.0,
    accept_timeout: float = 600.0,
) -> LobbyResult:
    """Take a seat at the table whose lobby listens at `endpoint` (tcp://HOST:PORT) and wait for the game.

    `confirm` is shown the final seat map and the genesis (already checked against each other) and decides
    whether to accept. A host that does not answer for `timeout` seconds ends the wait with `LobbyError`.
    """
    check_name(name)
    check_endpoint(game_endpoint)
    context = zmq.asyncio.Context()
    sock = _lobby_socket(context, zmq.DEALER)
    try:
        sock.connect(endpoint)
    except zmq.ZMQError as exc:
        context.destroy(linger=0)
        raise LobbyError(f"cannot connect to {endpoint!r}: {exc}") from None
    guest = _Guest(sock, identity, timeout, accept_timeout)
    done = False
    try:
        result = await guest.run(name, game_endpoint, host_fingerprint, confirm, on_change)
        done = True
        return result
    finally:
        if not done and guest.info is not None:
            guest.send("leave", l=guest.info.lobby)  # free the seat at once rather than by time-out
        context.destroy(linger=0 if done else 200)


class _Guest:
    """The joiner's conversation with one host."""

    def __init__(
        self, sock: zmq.asyncio.Socket, identity: crypto.Identity, timeout: float, accept: float
    ) -> None:
        self.sock = sock
        self.identity = identity
        self.timeout = timeout
        self.accept_timeout = accept
        self.host_key: bytes | None = None
        self.info: TableInfo | None = None

    def send(self, kind: str, **fields: Any) -> None:
        with contextlib.suppress(zmq.Again):
            self.sock.send(_seal(kind, self.identity, **fields), zmq.NOBLOCK)

    async def receive(self) -> dict[str, Any]:
        """The next valid message from the host; `LobbyError` if the host falls silent."""
        loop = asyncio.get_running_loop()
        silent_since = loop.time()
        while True:
            if not await self.sock.poll(int(KEEPALIVE * 1000)):
                if loop.time() - silent_since > self.timeout:
                    raise LobbyError(f"the host did not answer for {self.timeout:.0f} s")
                self.send("info")  # keep-alive: the host answers with the table
                continue
            raw = await self.sock.recv()
            try:
                payload = _open(raw, self.host_key)
            except ValueError as exc:
                logger.warning("lobby: dropped a frame from the host: %s", exc)
                continue
            return payload

    def table_from(self, payload: dict[str, Any]) -> TableInfo:
        try:
            return TableInfo.from_wire(payload, payload["k"])
        except (KeyError, ValueError) as exc:
            raise LobbyError(f"the host sent a bad table: {exc}") from None

    async def run(
        self,
        name: str,
        game_endpoint: str,
        host_fingerprint: str | None,
        confirm: Confirm | None,
        on_change: Callable[[TableInfo], None] | None,
    ) -> LobbyResult:
        self.send("info")
        while True:
            first = await self.receive()
            if first["t"] == "table":
                break
        info = self.table_from(first)
        if host_fingerprint is not None and info.host_fingerprint != host_fingerprint:
            raise LobbyError(
                f"the host's key fingerprint is {info.host_fingerprint}, not the expected {host_fingerprint}"
            )
        self.host_key = info.host_key
        self.info = info
        self.send("join", l=info.lobby, name=name, e=game_endpoint)
        seated = False
        shown: TableInfo | None = None
        while True:
            payload = await self.receive()
            kind = payload["t"]
            if kind == "table":
                info = self.table_from(payload)
                if info.seat_of(self.identity.public) is not None:
                    seated = True
                elif seated:
                    raise LobbyError("the host took our seat away")
                if on_change is not None and info != shown:
                    on_change(info)
                shown = info
            elif kind == "refuse":
                raise TableRefused(f"the host refused: {str(payload.get('why'))[:200]}")
            elif kind == "closed":
                raise LobbyError(f"the host closed the table: {str(payload.get('why'))[:200]}")
            elif kind == "start":
                result = self.check_start(payload, info)
                if not await _ask(confirm, result):
                    self.send("decline", l=info.lobby, x=result.genesis_hash)
                    raise LobbyError("we declined the table")
                self.send("accept", l=info.lobby, x=result.genesis_hash)
                if await self.wait_go(result):
                    return result

    def check_start(self, payload: dict[str, Any], announced: TableInfo) -> LobbyResult:
        """The host's proposal, checked: the genesis must name exactly the seats and rules shown."""
        final = self.table_from(payload)
        genesis = payload.get("g")
        if type(genesis) is not bytes:
            raise LobbyError("the host's start carries no genesis")
        try:
            _, setup = read_genesis(genesis)
        except (RemoteError, ValueError, KeyError, TypeError) as exc:
            raise LobbyError(f"the host's genesis is invalid: {exc}") from None
        problems = []
        if setup.keys[0] != final.host_key:
            problems.append("it is not signed by the host")
        if [(s.name, s.key) for s in setup.seats] != [(s.name, s.public_key) for s in final.seated]:
            problems.append("its seats differ from the seat map")
        if setup.rules != announced.rules or final.rules != announced.rules:
            problems.append("its rules differ from the announced ones")
        if final.lobby != announced.lobby or setup.name != announced.name:
            problems.append("it is for another table")
        seat = final.seat_of(self.identity.public)
        if seat is None:
            problems.append("we are not seated in it")
        if problems:
            self.send("decline", l=announced.lobby, why="; ".join(problems))
            raise LobbyError(f"the host proposed a bad game: {'; '.join(problems)}")
        assert seat is not None
        return LobbyResult(seat, final, genesis, setup.game_id)

    async def wait_go(self, result: LobbyResult) -> bool:
        """After accepting: True on `go`; False if the seat map changed and a new proposal will follow."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.accept_timeout
        while loop.time() < deadline:
            payload = await self.receive()
            kind = payload["t"]
            if kind == "go" and payload.get("x") == result.genesis_hash:
                return True
            if kind == "table":
                info = self.table_from(payload)
                if info.seat_of(self.identity.public) is None:
                    raise LobbyError("the host took our seat away")
                if info.free:
                    return False  # someone left: wait for the next proposal
            elif kind == "refuse":
                raise TableRefused(f"the host refused: {str(payload.get('why'))[:200]}")
            elif kind == "closed":
                raise LobbyError(f"the host closed the table: {str(payload.get('why'))[:200]}")
        raise LobbyError("the other players did not all accept in time")
