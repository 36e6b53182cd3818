"""The lobby protocol as two sans-IO machines: `HostLobby` (the host's side, here) and `GuestLobby` (one
joiner's, in `lobby_guest.py`), with the frames they send and the events they report.

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
from p2pspades.net.lobby_messages import (
    Accept,
    BadLobbyMessage,
    Closed,
    Decline,
    Frame,
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
    LobbyError,
    LobbyResult,
    LobbySeat,
    TableInfo,
    check_endpoint,
    check_key,
    check_name,
    check_version,
    distinct_name,
)
from p2pspades.reasons import Closing, LobbyDrop, Reason, Refusal, Trouble
from p2pspades.rules import RuleSet
from p2pspades.table import After
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


def seconds_left(since: float, limit: float, now: float) -> int:
    """Whole seconds until `limit` seconds have passed since `since` (0 at the latest)."""
    return max(0, math.ceil(since + limit - now))


#: the refusal of a join whose field failed its check, by the field's wire key
BAD_FIELDS = {"name": Refusal.BAD_NAME, "e": Refusal.BAD_ENDPOINT, "o": Refusal.BAD_OWNER_KEY}
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
    """A frame that failed its checks, or came at the wrong moment; nothing changed. `reason`: a `LobbyDrop`
    code and its data."""

    reason: Reason

    @classmethod
    def of(cls, code: LobbyDrop, **data: object) -> Dropped:
        return cls(Reason.of(code, **data))


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
            raise LobbyError(Trouble.ALREADY_SEATED)
        chosen = self.seat_for_bot() if seat is None else seat
        if chosen not in self.free_seats():
            raise LobbyError(Trouble.NOT_FREE, seat=chosen)
        name = distinct_name(check_name(name), self._names())
        bot = LobbySeat(chosen, name, check_key(public_key), check_endpoint(endpoint), self.identity.public)
        self._seats[chosen] = _Seated(bot, None, 0.0, accepted=True)
        return self._changed()

    def remove(self, seat: int, why: Refusal = Refusal.REPLACED) -> list[LobbyEvent]:
        """Unseat a bot, or a joiner (who is told `why`); the host's own seat stays."""
        if seat == 0 or seat not in self._seats:
            raise LobbyError(Trouble.CANNOT_EMPTY, seat=seat)
        return self._unseat(seat, why)

    def move(self, seat: int, to: int) -> list[LobbyEvent]:
        """Move the bot at `seat` to seat `to` (swapping with the bot there, if any): choose a bot's side."""
        self._open_for_changes()
        bot = self._seats.get(seat)
        other = self._seats.get(to)
        if bot is None or not bot.seat.bot:
            raise LobbyError(Trouble.NOT_A_BOT, seat=seat)
        if not 0 <= to < self.rules.players or (other is not None and not other.seat.bot):
            raise LobbyError(Trouble.NO_PLACE, seat=to)
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
            raise LobbyError(Trouble.NOT_HOST_BOT, seat=seat)
        others = self._names() - {bot.seat.name}
        bot.seat = replace(bot.seat, name=distinct_name(check_name(name), others))
        return self._changed()

    def start(self, game_id: bytes) -> list[LobbyEvent]:
        """The host's player checked the full seat map: sign the genesis and send it to every joiner."""
        if self.stage is not Stage.OPEN or not self.full:
            raise LobbyError(Trouble.NOT_READY)
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

    def close(self, why: Closing) -> None:
        """Tell every joiner the table is closed, and why (unless the game already started)."""
        if self.stage not in (Stage.STARTED, Stage.CLOSED):
            self._send_all(Closed(why))
        self.stage = Stage.CLOSED

    # ------------------------------------------------------------------------------------- the network

    def silent(self, now: float) -> dict[int, int]:
        """The seats whose joiner has missed a keep-alive, each with the whole seconds until `tick` frees it
        (unless it answers): what the host's screen counts down."""
        return {seat: seconds_left(joiner.last_heard, self.idle_timeout, now)
                for seat, joiner in self._seats.items()
                if joiner.routing is not None and now - joiner.last_heard > SILENCE_SHOWN}

    def tick(self, now: float) -> list[LobbyEvent]:
        """Unseat every joiner silent for `idle_timeout` (its keep-alives stopped: it is gone)."""
        events: list[LobbyEvent] = []
        for seat, joiner in list(self._seats.items()):
            if joiner.routing is not None and now - joiner.last_heard > self.idle_timeout:
                events += self._unseat(seat, Refusal.SILENT)
        return events

    def receive(self, routing: bytes, raw: bytes, now: float) -> list[LobbyEvent]:
        if self.stage in (Stage.STARTED, Stage.CLOSED):
            return [Dropped.of(LobbyDrop.OVER)]
        frame = self._open(routing, raw)
        if not isinstance(frame, Frame):
            return frame
        message, key = frame.message, frame.sender
        seat = self._seat_of_key(key)
        joiner = self._seats.get(seat) if seat is not None else None
        if joiner is not None and joiner.routing is not None:
            if routing == joiner.routing or now - joiner.last_heard > KEEPALIVE + 1:
                joiner.routing = routing  # (a joiner that reconnected, once its old connection fell silent)
                joiner.last_heard = now
            elif isinstance(message, Join):  # while the seated program is still alive: a second one
                self._send(routing, Refuse(Refusal.SEATED_ELSEWHERE))
                return [Dropped.of(LobbyDrop.SECOND_PROGRAM, seat=seat)]
        match message:
            case Info():
                self._send(routing, Table.of(self.info()))
                return []
            case Join():
                return self._join(routing, key, message, seat, now)
            case Accept() if joiner is not None and seat is not None and self.proposal is not None:
                return self._accept(joiner, seat, message)
            case Decline() | Leave() if message.lobby == self.lobby_id:
                if seat is not None and joiner is not None and joiner.routing is not None:
                    return self._unseat(seat, Refusal.LEFT)
        return [Dropped.of(LobbyDrop.UNEXPECTED, kind=message.TYPE)]

    def _open(self, routing: bytes, raw: bytes) -> Frame | list[LobbyEvent]:
        """The frame, checked; else what comes of it: a signed join with a bad field is refused, saying
        which, anything else is dropped."""
        try:
            return open_frame(raw)
        except BadLobbyMessage as exc:
            if exc.kind == Join.TYPE:  # a signed join with a bad name, endpoint, ...: say so to the joiner
                self._send(routing, Refuse(BAD_FIELDS.get(exc.key or "", Refusal.BAD_JOIN)))
                return []
            return [Dropped.of(LobbyDrop.BAD_FRAME, detail=exc.detail)]
        except LobbyDecodeError as exc:
            return [Dropped.of(LobbyDrop.BAD_FRAME, detail=exc.detail)]

    def _accept(self, joiner: _Seated, seat: int, accept: Accept) -> list[LobbyEvent]:
        assert self.proposal is not None
        if accept.lobby == self.lobby_id and accept.genesis_hash == self.proposal.genesis_hash:
            joiner.accepted = True
            return self._maybe_go()
        return [Dropped.of(LobbyDrop.OTHER_GENESIS, seat=seat)]

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
            raise LobbyError(Trouble.FULL)
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
            raise LobbyError(Trouble.OVER)

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

    def _unseat(self, seat: int, why: Refusal) -> list[LobbyEvent]:
        joiner = self._seats.pop(seat)
        if joiner.routing is not None:
            self._send(joiner.routing, Refuse(why))
        if self.stage is Stage.PROPOSED:
            self._withdraw()
        for other, bot in list(self._seats.items()):  # a joiner's bots leave with it
            if bot.seat.owner == joiner.seat.public_key and bot.routing is not None:
                self._seats.pop(other)
                self._send(bot.routing, Refuse(Refusal.OWNER_LEFT))
        return self._changed()

    def _join(self, routing: bytes, key: bytes, join: Join, seat: int | None,
              now: float) -> list[LobbyEvent]:
        if join.lobby != self.lobby_id:
            self._send(routing, Refuse(Refusal.OTHER_TABLE))
            return []
        if seat is not None:
            return self._rejoin(routing, seat, join.name, join.endpoint)
        owner = join.owner
        owner_seat = None if owner is None else self._seat_of_key(owner)
        if owner is not None and (owner_seat is None or self._seats[owner_seat].routing is None
                                  or self._seats[owner_seat].seat.bot):
            self._send(routing, Refuse(Refusal.OWNER_NOT_SEATED))
            return []
        if self.only_places and key not in self.places:
            self._send(routing, Refuse(Refusal.ONLY_PLAYERS))
            return []
        if self.stage is not Stage.OPEN or self.full:
            self._send(routing, Refuse(Refusal.FULL))
            return []
        chosen = self._place(owner_seat, key)
        newcomer = LobbySeat(chosen, distinct_name(join.name, self._names()), key, join.endpoint, owner)
        self._seats[chosen] = _Seated(newcomer, routing, now)
        return self._changed()

    def _rejoin(self, routing: bytes, seat: int, name: str, endpoint: str) -> list[LobbyEvent]:
        """A repeated join with a seated key: idempotent (a joiner that restarted may change its endpoint)."""
        joiner = self._seats[seat]
        if joiner.routing is None:
            self._send(routing, Refuse(Refusal.HOST_KEY))
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
