"""The lobby protocol as two sans-IO machines: `HostLobby` (the host's side) and `GuestLobby` (one joiner's).

This module is pure although it lives in `net/` beside its driver: like `table.Table`, the machines own no
socket, clock or randomness (they import only the pure layers, `net/endpoints.py` and `net/lobby_seats.py`).
The driver (`net/lobby.py`) feeds them the frames it receives and the time, passes in random ids, sends what
`take_outgoing()` returns and acts on the events they return. The machines read and write only the typed
messages of `net/lobby_messages.py`, which check every frame at the edge. The flow (protocol/network.md §6):

    joiner -> host   info     (keep-alive too)                host -> joiner  table   (seat map so far)
    joiner -> host   join     (name, key, game endpoint)      host -> all     table   (updated)
                                                              host -> joiner  refuse  (full, bad input)
    ... every seat is taken and the host's player starts the game ...
                                                              host -> all     start   (genesis + seat map)
    joiner -> host   accept | decline  (genesis hash)         host -> all     go      (everyone accepted)

Nobody waits on a clock for a person: a joiner's keep-alive (`info` every 2 s, answered by `table`) is the
heartbeat in both directions, so a person may take as long as they need on any dialog, and only a peer that
really went away (silent for `idle_timeout`) is dropped or reported.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

from p2pspades import crypto
from p2pspades.errors import RemoteError
from p2pspades.net.lobby_messages import (
    MAX_WHY,
    Accept,
    BadLobbyMessage,
    Closed,
    Decline,
    Go,
    Info,
    Join,
    Leave,
    LobbyDecodeError,
    LobbyMessage,
    Refuse,
    Start,
    Table,
    open_frame,
)
from p2pspades.net.lobby_seats import (
    Downgrade,
    LobbyError,
    LobbyResult,
    LobbySeat,
    TableInfo,
    TableRefused,
    check_endpoint,
    check_key,
    check_name,
    check_version,
    distinct_name,
)
from p2pspades.rules import RuleSet
from p2pspades.table import After, read_genesis
from p2pspades.table import make_genesis as table_genesis
from p2pspades.table.messages import PROTOCOL_VERSION

KEEPALIVE = 2.0
"""Seconds between a joiner's keep-alive `info` requests."""
IDLE_TIMEOUT = 6 * KEEPALIVE
"""A joiner (or a host) silent this long is gone."""
CONNECT_TIMEOUT = 5.0
"""How long a joiner waits for the first answer before it says that no table answers."""
SILENCE_SHOWN = KEEPALIVE + 1
"""Silent this long (a keep-alive missed), a host or a joiner is counted down to being given up on."""


def _left(since: float, limit: float, now: float) -> int:
    """Whole seconds until `limit` seconds have passed since `since` (0 at the latest)."""
    return max(0, math.ceil(since + limit - now))

SEATED_ELSEWHERE = ("this key is already seated at this table by another running program: each player needs "
                    "a profile of their own (--profile NAME)")
GenesisMaker = Callable[[bytes, Sequence[tuple[str, bytes]]], bytes]
"""(game id, [(name, key) per seat]) -> the host's signed genesis entry."""


# ------------------------------------------------------------------------------------------------- wire


@dataclass(frozen=True)
class Send:
    """A frame for the driver to send: to the joiner with routing id `to` (host side), or to the host."""

    frame: bytes
    to: bytes = b""


# ------------------------------------------------------------------------------------------------- events


@dataclass(frozen=True)
class Changed:
    """The seat map changed (or, for a joiner, was first seen)."""

    info: TableInfo


@dataclass(frozen=True)
class Dropped:
    """A frame that failed its checks, or came at the wrong moment; nothing changed."""

    detail: str


@dataclass(frozen=True)
class Proposed:
    """(Joiner) The host proposes this game: show it to the person, then call `answer`."""

    result: LobbyResult


@dataclass(frozen=True)
class Withdrawn:
    """(Joiner) The seat map changed after the proposal: it is void, a new one will follow."""


@dataclass(frozen=True)
class Started:
    """Everyone accepted the genesis (host: `go` is queued; joiner: `go` arrived). Start the game."""

    result: LobbyResult


LobbyEvent = Changed | Dropped | Proposed | Withdrawn | Started


class Stage(Enum):
    OPEN = "open"
    """Seats are being taken (host), or we are not seated yet / waiting (joiner)."""
    PROPOSED = "proposed"
    """The genesis was sent (host), or received and not yet answered / answered (joiner)."""
    STARTED = "started"
    CLOSED = "closed"


# ------------------------------------------------------------------------------------------------- host


@dataclass
class _Seated:
    seat: LobbySeat
    routing: bytes | None
    """None for the host itself and its own bots; the joiner's connection otherwise."""
    last_heard: float
    accepted: bool = False


@dataclass
class HostLobby:
    """The host's side: seat 0 is the host, `add_bot` seats its bots, joiners (and their bots) fill the rest.

    `lobby_id` is random (the driver draws it). Nothing happens on a clock: the driver calls `tick(now)`
    now and then, and `start(game_id)` when its player starts the game. `version` is the protocol version of
    the genesis, announced in every `table`: an older one than the newest only when the host's player asked.
    """

    identity: crypto.Identity
    table_name: str
    rules: RuleSet
    host_name: str
    game_endpoint: str
    lobby_id: bytes
    make_genesis: GenesisMaker | None = None
    idle_timeout: float = IDLE_TIMEOUT
    version: int = PROTOCOL_VERSION
    after: After | None = None
    """The game this table's game follows (the genesis `after`), announced in every `table`."""
    places: Mapping[bytes, int] = field(default_factory=dict)
    """The seat each key held in the game this one follows: it gets that seat back if it is free, and
    newcomers are given the other free seats first."""
    only_places: bool = False
    """Only the keys in `places` may join (a continuation: every seat but the abandoned one is kept)."""
    stage: Stage = Stage.OPEN
    proposal: LobbyResult | None = None
    _seats: dict[int, _Seated] = field(default_factory=dict, repr=False)
    _out: list[Send] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        check_name(self.table_name)
        check_name(self.host_name)
        check_endpoint(self.game_endpoint)
        if len(self.lobby_id) != 16:
            raise ValueError("a lobby id is 16 bytes")
        check_version(self.version)
        me = LobbySeat(0, self.host_name, self.identity.public, self.game_endpoint)
        self._seats[0] = _Seated(me, None, 0.0, accepted=True)

    # ------------------------------------------------------------------------------------- reading

    def info(self) -> TableInfo:
        seated = tuple(self._seats[s].seat for s in sorted(self._seats))
        return TableInfo(self.table_name, self.rules, self.identity.public, self.lobby_id, seated,
                         self.version, self.after)

    def free_seats(self) -> list[int]:
        return [s for s in range(self.rules.players) if s not in self._seats]

    @property
    def full(self) -> bool:
        return not self.free_seats()

    def seat_for_bot(self, key: bytes | None = None) -> int:
        """Where `add_bot` seats a bot by default: the seat its key held in the game this one follows, else
        the host's side first (`LobbyError` if it is full)."""
        return self._place(0, key)

    def take_outgoing(self) -> list[Send]:
        out, self._out = self._out, []
        return out

    # ------------------------------------------------------------------------------------- the host's player

    def add_bot(self, name: str, public_key: bytes, endpoint: str,
                seat: int | None = None) -> list[LobbyEvent]:
        """Seat a bot the host runs: at `seat`, or a free seat on the host's side, or the last free one."""
        self._open_for_changes()
        if self._seat_of_key(public_key) is not None:
            raise LobbyError("that key is already seated")
        chosen = self.seat_for_bot() if seat is None else seat
        if chosen not in self.free_seats():
            raise LobbyError(f"seat {chosen} is not free")
        name = distinct_name(check_name(name), self._names())
        bot = LobbySeat(chosen, name, check_key(public_key), check_endpoint(endpoint), self.identity.public)
        self._seats[chosen] = _Seated(bot, None, 0.0, accepted=True)
        return self._changed()

    def remove(self, seat: int, why: str = "the host gave your seat to someone else") -> list[LobbyEvent]:
        """Unseat a bot, or a joiner (who is told `why`); the host's own seat stays."""
        if seat == 0 or seat not in self._seats:
            raise LobbyError(f"seat {seat} cannot be emptied")
        return self._unseat(seat, why)

    def move(self, seat: int, to: int) -> list[LobbyEvent]:
        """Move the bot at `seat` to seat `to` (swapping with the bot there, if any): choose a bot's side."""
        self._open_for_changes()
        bot = self._seats.get(seat)
        other = self._seats.get(to)
        if bot is None or not bot.seat.bot:
            raise LobbyError(f"seat {seat} is not a bot")
        if not 0 <= to < self.rules.players or (other is not None and not other.seat.bot):
            raise LobbyError(f"seat {to} is not free and holds no bot")
        del self._seats[seat]
        if other is not None:
            del self._seats[to]
            other.seat = replace(other.seat, seat=seat)
            self._seats[seat] = other
        bot.seat = replace(bot.seat, seat=to)
        self._seats[to] = bot
        return self._changed()

    def rename(self, seat: int, name: str) -> list[LobbyEvent]:
        """Rename the host's bot at `seat` (made distinct from the other names at the table)."""
        self._open_for_changes()
        bot = self._seats.get(seat)
        if bot is None or bot.routing is not None or seat == 0:
            raise LobbyError(f"seat {seat} is not one of the host's bots")
        others = self._names() - {bot.seat.name}
        bot.seat = replace(bot.seat, name=distinct_name(check_name(name), others))
        return self._changed()

    def start(self, game_id: bytes) -> list[LobbyEvent]:
        """The host's player checked the full seat map: sign the genesis and send it to every joiner."""
        if self.stage is not Stage.OPEN or not self.full:
            raise LobbyError("the table can start only once every seat is taken")
        info = self.info()
        seats = [(s.name, s.public_key) for s in info.seated]
        if self.make_genesis is not None:
            genesis = self.make_genesis(game_id, seats)
        else:
            genesis = table_genesis(game_id, self.rules, seats, self.identity, self.table_name, self.version,
                                    self.after)
        self.proposal = LobbyResult(0, info, genesis, game_id)
        self.stage = Stage.PROPOSED
        for joiner in self._seats.values():
            joiner.accepted = joiner.routing is None
        self._send_all(Start.of(info, genesis))
        return self._maybe_go()

    def close(self, why: str) -> None:
        """Tell every joiner the table is closed (unless the game already started)."""
        if self.stage not in (Stage.STARTED, Stage.CLOSED):
            self._send_all(Closed(why[:MAX_WHY]))
        self.stage = Stage.CLOSED

    # ------------------------------------------------------------------------------------- the network

    def silent(self, now: float) -> dict[int, int]:
        """The seats whose joiner has missed a keep-alive, each with the whole seconds until `tick` frees it
        (unless it answers): what the host's screen counts down."""
        return {seat: _left(joiner.last_heard, self.idle_timeout, now) for seat, joiner in self._seats.items()
                if joiner.routing is not None and now - joiner.last_heard > SILENCE_SHOWN}

    def tick(self, now: float) -> list[LobbyEvent]:
        """Unseat every joiner silent for `idle_timeout` (its keep-alives stopped: it is gone)."""
        events: list[LobbyEvent] = []
        for seat, joiner in list(self._seats.items()):
            if joiner.routing is not None and now - joiner.last_heard > self.idle_timeout:
                events += self._unseat(seat, "no word from you for too long")
        return events

    def receive(self, routing: bytes, raw: bytes, now: float) -> list[LobbyEvent]:
        if self.stage in (Stage.STARTED, Stage.CLOSED):
            return [Dropped("the lobby is over")]
        try:
            frame = open_frame(raw)
        except BadLobbyMessage as exc:
            if exc.kind == Join.TYPE:  # a signed join with a bad name, endpoint, ...: say so to the joiner
                self._send(routing, Refuse(exc.detail[:MAX_WHY]))
                return []
            return [Dropped(exc.detail)]
        except LobbyDecodeError as exc:
            return [Dropped(exc.detail)]
        message, key = frame.message, frame.sender
        seat = self._seat_of_key(key)
        joiner = self._seats.get(seat) if seat is not None else None
        if joiner is not None and joiner.routing is not None:
            if routing == joiner.routing or now - joiner.last_heard > KEEPALIVE + 1:
                joiner.routing = routing  # (a joiner that reconnected, once its old connection fell silent)
                joiner.last_heard = now
            elif isinstance(message, Join):  # while the seated program is still alive: a second one
                self._send(routing, Refuse(SEATED_ELSEWHERE))
                return [Dropped(f"a second program joined with the key of seat {seat}")]
        match message:
            case Info():
                self._send(routing, Table.of(self.info()))
                return []
            case Join():
                return self._join(routing, key, message, seat, now)
            case Accept() if joiner is not None and self.proposal is not None:
                if message.lobby == self.lobby_id and message.genesis_hash == self.proposal.genesis_hash:
                    joiner.accepted = True
                    return self._maybe_go()
                return [Dropped(f"seat {seat} accepted another genesis")]
            case Decline() | Leave() if message.lobby == self.lobby_id:
                if seat is not None and joiner is not None and joiner.routing is not None:
                    return self._unseat(seat, f"{joiner.seat.name} left the table")
        return [Dropped(f"an unexpected {message.TYPE!r}")]

    # ------------------------------------------------------------------------------------- internals

    def _names(self) -> set[str]:
        return {j.seat.name for j in self._seats.values()}

    def _seat_of_key(self, key: bytes) -> int | None:
        return next((s for s, j in self._seats.items() if j.seat.public_key == key), None)

    def _place(self, near: int | None, key: bytes | None = None) -> int:
        """The seat for a newcomer: the one `key` held in the game this follows if it is free; else on the
        side of seat `near` if one is free there, else the last free seat (a bot) or the first (a person,
        `near` None), seats kept for keys of the game this follows coming last."""
        free = self.free_seats()
        if not free:
            raise LobbyError("the table is full")
        if key is not None and self.places.get(key) in free:
            return self.places[key]
        kept = {seat for k, seat in self.places.items() if self._seat_of_key(k) is None}
        free = [s for s in free if s not in kept] or free
        if near is None:
            return free[0]
        side = next((side for side in self.rules.sides if near in side), ())
        return next((s for s in side if s in free), free[-1])

    def _open_for_changes(self) -> None:
        if self.stage is Stage.PROPOSED:
            self._withdraw()
        if self.stage is not Stage.OPEN:
            raise LobbyError("the lobby is over")

    def _withdraw(self) -> None:
        self.proposal = None  # a new genesis (and game id) once the table is full again
        self.stage = Stage.OPEN

    def _changed(self) -> list[LobbyEvent]:
        info = self.info()
        self._send_all(Table.of(info))
        return [Changed(info)]

    def _send(self, routing: bytes, message: LobbyMessage) -> None:
        self._out.append(Send(message.encode(self.identity), routing))

    def _send_all(self, message: LobbyMessage) -> None:
        frame = message.encode(self.identity)
        self._out.extend(Send(frame, j.routing) for j in self._seats.values() if j.routing is not None)

    def _maybe_go(self) -> list[LobbyEvent]:
        if self.proposal is None or not all(j.accepted for j in self._seats.values()):
            return []
        self._send_all(Go(self.proposal.genesis_hash))
        self.stage = Stage.STARTED
        return [Started(self.proposal)]

    def _unseat(self, seat: int, why: str) -> list[LobbyEvent]:
        joiner = self._seats.pop(seat)
        if joiner.routing is not None:
            self._send(joiner.routing, Refuse(why[:MAX_WHY]))
        if self.stage is Stage.PROPOSED:
            self._withdraw()
        for other, bot in list(self._seats.items()):  # a joiner's bots leave with it
            if bot.seat.owner == joiner.seat.public_key and bot.routing is not None:
                self._seats.pop(other)
                self._send(bot.routing, Refuse(f"{joiner.seat.name}, who runs this bot, left"))
        return self._changed()

    def _join(self, routing: bytes, key: bytes, join: Join, seat: int | None,
              now: float) -> list[LobbyEvent]:
        if join.lobby != self.lobby_id:
            self._send(routing, Refuse("that join was meant for another table"))
            return []
        if seat is not None:
            return self._rejoin(routing, seat, join.name, join.endpoint)
        owner = join.owner
        owner_seat = None if owner is None else self._seat_of_key(owner)
        if owner is not None and (owner_seat is None or self._seats[owner_seat].routing is None
                                  or self._seats[owner_seat].seat.bot):
            self._send(routing, Refuse("a bot's owner must be a player seated at this table"))
            return []
        if self.only_places and key not in self.places:
            game = "" if self.after is None else f" game {self.after.game_id.hex()[:12]}"
            self._send(routing, Refuse(f"this table carries on{game}: only its players may sit"))
            return []
        if self.stage is not Stage.OPEN or self.full:
            self._send(routing, Refuse("the table is full"))
            return []
        chosen = self._place(owner_seat, key)
        newcomer = LobbySeat(chosen, distinct_name(join.name, self._names()), key, join.endpoint, owner)
        self._seats[chosen] = _Seated(newcomer, routing, now)
        return self._changed()

    def _rejoin(self, routing: bytes, seat: int, name: str, endpoint: str) -> list[LobbyEvent]:
        """A repeated join with a seated key: idempotent (a joiner that restarted may change its endpoint)."""
        joiner = self._seats[seat]
        if joiner.routing is None:
            self._send(routing, Refuse("that key belongs to the host or one of its bots"))
            return []
        events: list[LobbyEvent] = []
        if self.stage is Stage.OPEN and joiner.seat.endpoint != endpoint:
            joiner.seat = replace(joiner.seat, endpoint=endpoint)
            events = self._changed()
        else:
            self._send(routing, Table.of(self.info()))
        if self.proposal is not None:
            self._send(routing, Start.of(self.proposal.table, self.proposal.genesis))
        return events


# ------------------------------------------------------------------------------------------------- joiner


@dataclass
class GuestLobby:
    """One joiner's conversation with one host. `where` (HOST:PORT) only words the errors.

    `owner`: the key of the player whose machine runs us, if we are that player's bot. `allow_version`: the
    oldest protocol version we accept, the newest we speak unless the person asked for less; a table or a
    genesis below it is a downgrade, refused (`Downgrade`). Failures are raised as `LobbyError`
    (`TableRefused` for a refusal) from `receive` and `tick`.
    """

    identity: crypto.Identity
    name: str
    game_endpoint: str
    where: str
    now: float
    host_fingerprint: str | None = None
    owner: bytes | None = None
    connect_timeout: float = CONNECT_TIMEOUT
    idle_timeout: float = IDLE_TIMEOUT
    allow_version: int = PROTOCOL_VERSION
    check_after: Callable[[TableInfo], str | None] | None = None
    """Checks a table that says its game follows another (its `after` and its rules) against what we know
    of that game (the driver's: our own log of it, if we have one): the one line it returns refuses the table
    before we take a seat."""
    stage: Stage = Stage.OPEN
    info: TableInfo | None = None
    proposal: LobbyResult | None = None
    answered: bool = False
    _announced: TableInfo | None = field(default=None, repr=False)
    _heard: float = field(default=0.0, repr=False)
    _pinged: float = field(default=0.0, repr=False)
    _out: list[Send] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        check_name(self.name)
        check_endpoint(self.game_endpoint)
        check_version(self.allow_version)
        self._heard = self._pinged = self.now
        self._send(Info())

    @property
    def seat(self) -> int | None:
        return None if self.info is None else self.info.seat_of(self.identity.public)

    @property
    def waiting_for_host(self) -> bool:
        """Seated at a full table that the host has not started yet: the host is deciding."""
        info = self.info
        return info is not None and self.seat is not None and not info.free and self.proposal is None

    def take_outgoing(self) -> list[Send]:
        out, self._out = self._out, []
        return out

    def silent(self, now: float) -> int | None:
        """Once the host has missed a keep-alive: the whole seconds until `tick` gives up on it (unless it
        answers); else None. What the joiner's screen counts down. (Before its first answer, the wait is
        `connect_timeout`, which the joiner says as it connects.)"""
        if self.info is not None and now - self._heard > SILENCE_SHOWN and self.stage is not Stage.STARTED:
            return _left(self._heard, self.idle_timeout, now)
        return None

    def tick(self, now: float) -> list[LobbyEvent]:
        """Send the keep-alive when due; `LobbyError` if the host is gone (or never answered)."""
        if self.info is None and now - self._heard > self.connect_timeout:
            raise LobbyError(f"no table answers at {self.where}")
        if now - self._heard > self.idle_timeout:
            raise LobbyError(f"the host at {self.where} stopped answering ({self.idle_timeout:.0f} s)")
        if now - self._pinged >= KEEPALIVE:
            self._pinged = now
            self._send(Info())
        return []

    def answer(self, accept: bool) -> None:
        """The person's answer to the current proposal. Declining ends the lobby with `LobbyError`."""
        if self.proposal is None or self.answered:
            return
        lobby = self.proposal.table.lobby
        if not accept:
            self._send(Decline(lobby, self.proposal.genesis_hash))
            self.stage = Stage.CLOSED
            raise LobbyError("we declined the table")
        self.answered = True
        self._send(Accept(lobby, self.proposal.genesis_hash))

    def leave(self) -> None:
        """Free our seat at once (rather than by the host's time-out)."""
        if self.info is not None and self.stage not in (Stage.STARTED, Stage.CLOSED):
            self._send(Leave(self.info.lobby))
        self.stage = Stage.CLOSED

    def receive(self, raw: bytes, now: float) -> list[LobbyEvent]:
        host_key = None if self.info is None else self.info.host_key
        try:
            frame = open_frame(raw, host_key)
        except BadLobbyMessage as exc:  # signed by the host (or, before its first table, whoever answered)
            raise LobbyError(f"the host sent a bad {exc.kind}: {exc.detail}") from None
        except LobbyDecodeError as exc:
            return [Dropped(f"from the host: {exc.detail}")]
        self._heard = now
        proposal = self.proposal
        match frame.message:
            case Refuse(why=why):
                raise TableRefused(f"the host refused: {why}")
            case Closed(why=why):
                raise LobbyError(f"the host closed the table: {why}")
            case Table() as table:
                return self._table(table.info(frame.sender))
            case Start() as start if self._announced is not None:
                return self._start(start.info(frame.sender), start.genesis)
            case Go(genesis_hash=x) if proposal is not None and self.answered and x == proposal.genesis_hash:
                self.stage = Stage.STARTED
                return [Started(proposal)]
        return [Dropped(f"an unexpected {frame.message.TYPE!r} from the host")]

    # ------------------------------------------------------------------------------------- internals

    def _send(self, message: LobbyMessage) -> None:
        self._out.append(Send(message.encode(self.identity)))

    def _table(self, info: TableInfo) -> list[LobbyEvent]:
        announced = self._announced
        if announced is None:
            if self.host_fingerprint is not None and info.host_fingerprint != self.host_fingerprint:
                raise LobbyError(f"the host's key fingerprint is {info.host_fingerprint}, "
                                 f"not the expected {self.host_fingerprint}")
            if info.version < self.allow_version:
                self.stage = Stage.CLOSED
                raise Downgrade(info.version, self.allow_version)
            problem = None if info.after is None or self.check_after is None else self.check_after(info)
            if problem is not None:
                self.stage = Stage.CLOSED
                raise LobbyError(problem)
            self._announced = info
            self._send(Join(info.lobby, self.name, self.game_endpoint, self.owner))
        elif (info.lobby, info.rules, info.version, info.after) != (
                announced.lobby, announced.rules, announced.version, announced.after):
            raise LobbyError("the host changed the table's rules, protocol version, id or the game it "
                             "follows")
        was_seated = self.seat is not None
        previous, self.info = self.info, info
        if self.seat is None and was_seated:
            raise LobbyError("the host took our seat away")
        events: list[LobbyEvent] = []
        if self.proposal is not None and (info.free or self.seat is None):
            self.proposal, self.answered = None, False  # someone left: a new proposal will follow
            self.stage = Stage.OPEN
            events.append(Withdrawn())
        if info != previous:
            events.append(Changed(info))
        return events

    def _start(self, final: TableInfo, genesis: bytes) -> list[LobbyEvent]:
        result = self._check_start(final, genesis)
        if self.proposal is not None and self.proposal.genesis == result.genesis:
            return []  # the same proposal again (after a rejoin)
        self.proposal, self.answered = result, False
        self.info = result.table
        self.stage = Stage.PROPOSED
        return [Proposed(result)]

    def _check_start(self, final: TableInfo, genesis: bytes) -> LobbyResult:
        """The host's proposal, checked: the genesis must name exactly the seats and rules shown."""
        announced = self._announced
        assert announced is not None
        try:
            _, setup = read_genesis(genesis)
        except (RemoteError, ValueError, KeyError, TypeError) as exc:
            raise LobbyError(f"the host's genesis is invalid: {exc}") from None
        if setup.version < self.allow_version:
            self._send(Decline(announced.lobby, why=f"protocol version {setup.version} is refused"))
            self.stage = Stage.CLOSED
            raise Downgrade(setup.version, self.allow_version)
        problems = []
        if setup.version != announced.version or final.version != announced.version:
            problems.append("its protocol version differs from the announced one")
        if setup.keys[0] != final.host_key:
            problems.append("it is not signed by the host")
        if [(s.name, s.key) for s in setup.seats] != [(s.name, s.public_key) for s in final.seated]:
            problems.append("its seats differ from the seat map")
        if setup.rules != announced.rules or final.rules != announced.rules:
            problems.append("its rules differ from the announced ones")
        if setup.after != announced.after or final.after != announced.after:
            problems.append("the game it follows differs from the announced one")
        if final.lobby != announced.lobby or setup.name != announced.name:
            problems.append("it is for another table")
        seat = final.seat_of(self.identity.public)
        if seat is None:
            problems.append("we are not seated in it")
        if problems:
            self._send(Decline(announced.lobby, why="; ".join(problems)[:MAX_WHY]))
            self.stage = Stage.CLOSED
            raise LobbyError(f"the host proposed a bad game: {'; '.join(problems)}")
        assert seat is not None
        return LobbyResult(seat, final, genesis, setup.game_id)
