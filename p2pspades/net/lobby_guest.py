"""One joiner's side of the lobby protocol (protocol/network.md §6), sans-IO like the host's (`HostLobby` in
`lobby_machine.py`, with the events both report): `join_table` feeds it the frames its DEALER receives and
the time, and sends what it returns.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from p2pspades import crypto
from p2pspades.errors import RemoteError, detail_of
from p2pspades.net.lobby_machine import (
    CONNECT_TIMEOUT,
    IDLE_TIMEOUT,
    KEEPALIVE,
    SILENCE_SHOWN,
    Changed,
    Dropped,
    LobbyEvent,
    Proposed,
    Send,
    Stage,
    Started,
    Withdrawn,
    seconds_left,
)
from p2pspades.net.lobby_messages import (
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
    TableClosed,
    TableInfo,
    TableRefused,
    check_endpoint,
    check_name,
    check_version,
)
from p2pspades.reasons import LobbyDrop, Objection, Trouble
from p2pspades.table import read_genesis
from p2pspades.table.messages import PROTOCOL_VERSION


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
    of that game (the driver's: our own log of it, if we have one): the one line it returns (in the reader's
    words, made at the edge) refuses the table before we take a seat."""
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
            return seconds_left(self._heard, self.idle_timeout, now)
        return None

    def tick(self, now: float) -> list[LobbyEvent]:
        """Send the keep-alive when due; `LobbyError` if the host is gone (or never answered)."""
        if self.info is None and now - self._heard > self.connect_timeout:
            raise LobbyError(Trouble.NO_ANSWER, where=self.where)
        if now - self._heard > self.idle_timeout:
            raise LobbyError(Trouble.HOST_SILENT, where=self.where, seconds=self.idle_timeout)
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
            raise LobbyError(Trouble.DECLINED)
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
            raise LobbyError(Trouble.BAD_MESSAGE, kind=exc.kind, detail=exc.detail) from None
        except LobbyDecodeError as exc:
            return [Dropped.of(LobbyDrop.BAD_FRAME, detail=exc.detail)]
        self._heard = now
        proposal = self.proposal
        match frame.message:
            case Refuse(why=why):
                raise TableRefused(why, **self._refusal_data())
            case Closed(why=why):
                raise TableClosed(why)
            case Table() as table:
                return self._table(table.info(frame.sender))
            case Start() as start if self._announced is not None:
                return self._start(start.info(frame.sender), start.genesis)
            case Go(genesis_hash=x) if proposal is not None and self.answered and x == proposal.genesis_hash:
                self.stage = Stage.STARTED
                return [Started(proposal)]
        return [Dropped.of(LobbyDrop.UNEXPECTED, kind=frame.message.TYPE)]

    # ------------------------------------------------------------------------------------- internals

    def _send(self, message: LobbyMessage) -> None:
        self._out.append(Send(message.encode(self.identity)))

    def _refusal_data(self) -> dict[str, str]:
        """What the words of a refusal may name: the person whose machine runs us (a bot), and the game the
        table carries on."""
        info = self.info
        data = {}
        if info is not None and self.owner is not None and (owner := info.name_of(self.owner)) is not None:
            data["owner"] = owner
        if info is not None and info.after is not None:
            data["game"] = info.after.game_id.hex()[:12]
        return data

    def _table(self, info: TableInfo) -> list[LobbyEvent]:
        announced = self._announced
        if announced is None:
            if self.host_fingerprint is not None and info.host_fingerprint != self.host_fingerprint:
                expected = self.host_fingerprint
                raise LobbyError(Trouble.FINGERPRINT, got=info.host_fingerprint, expected=expected)
            if info.version < self.allow_version:
                self.stage = Stage.CLOSED
                raise Downgrade(info.version, self.allow_version)
            problem = None if info.after is None or self.check_after is None else self.check_after(info)
            if problem is not None:
                self.stage = Stage.CLOSED
                raise LobbyError(Trouble.FOLLOWS, problem=problem)
            self._announced = info
            self._send(Join(info.lobby, self.name, self.game_endpoint, self.owner))
        elif (info.lobby, info.rules, info.version, info.after) != (
                announced.lobby, announced.rules, announced.version, announced.after):
            raise LobbyError(Trouble.CHANGED)
        was_seated = self.seat is not None
        previous, self.info = self.info, info
        if self.seat is None and was_seated:
            raise LobbyError(Trouble.SEAT_TAKEN)
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
            raise LobbyError(Trouble.BAD_GENESIS, detail=detail_of(exc)) from None
        if setup.version < self.allow_version:
            self._send(Decline(announced.lobby, why=(Objection.DOWNGRADE,)))
            self.stage = Stage.CLOSED
            raise Downgrade(setup.version, self.allow_version)
        found = [
            objection for objection, wrong in (
                (Objection.VERSION, setup.version != announced.version or final.version != announced.version),
                (Objection.SIGNER, setup.keys[0] != final.host_key),
                (Objection.SEATS, [(s.name, s.key) for s in setup.seats]
                 != [(s.name, s.public_key) for s in final.seated]),
                (Objection.RULES, setup.rules != announced.rules or final.rules != announced.rules),
                (Objection.FOLLOWS, setup.after != announced.after or final.after != announced.after),
                (Objection.TABLE, final.lobby != announced.lobby or setup.name != announced.name),
                (Objection.NOT_SEATED, final.seat_of(self.identity.public) is None),
            ) if wrong
        ]
        seat = final.seat_of(self.identity.public)
        if found:
            self._send(Decline(announced.lobby, why=tuple(found)))
            self.stage = Stage.CLOSED
            raise LobbyError(Trouble.BAD_PROPOSAL, objections=tuple(found))
        assert seat is not None
        return LobbyResult(seat, final, genesis, setup.game_id)
