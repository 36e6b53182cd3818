"""Message types of the lobby (protocol/network.md §6): one frozen class per frame type, checked at the edge.

A lobby frame is a signed envelope whose payload is `{t, v, k, ...}`: the type, the lobby version
(`LOBBY_VERSION`), the sender's Ed25519 key, and exactly the fields of its type, nothing else. Each class
below names its fields, the wire key of each and the check that turns the wire value into the typed one
(`LobbySeat`, `RuleSet`, ...). `encode(identity)` gives back the signed frame, the same map byte for byte.

`open_frame(raw, expect_key)` is the way in for bytes from the network; `decode(payload)` checks an opened
payload without its signature. Both refuse what is wrong with one `LobbyDecodeError` (a `RemoteError` whose
`check` says which layer refused it, and a `ValueError`), never with anything else. `BadLobbyMessage` is the
one kind of it whose sender is known: a frame of a known type, correctly signed by `k`, with a bad field.

Pure, like `net/lobby_machine.py` and `net/lobby_seats.py`: no sockets, clocks or randomness.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self, TypeVar

from p2pspades import crypto, log
from p2pspades.checks import Check
from p2pspades.errors import N_, Detail, RemoteError, detail_of
from p2pspades.net.lobby_seats import (
    LobbySeat,
    TableInfo,
    check_endpoint,
    check_key,
    check_name,
    check_version,
)
from p2pspades.reasons import Closing, Objection, Refusal, Said
from p2pspades.rules import RuleSet
from p2pspades.table.genesis import After

LOBBY_VERSION = 2
MAX_LOBBY_FRAME = log.MAX_ENVELOPE
"""The largest lobby frame (also the lobby sockets' ZMQ_MAXMSGSIZE)."""
MAX_WHY = 200
"""The longest reason (`why`) a refusal, a decline or a closing carries, in characters (a code, or an older
peer's own words)."""
LOBBY_ID_SIZE = 16
MAX_SEAT = 15
HEADER_KEYS = frozenset({"t", "v", "k"})


class LobbyDecodeError(RemoteError, ValueError):
    """A lobby frame that is not a well-formed, correctly signed lobby message; `check` says which layer
    refused it (`envelope`, `encoding`, `header`, `signature`, `schema`) and `detail` how, in one line."""

    def __init__(self, check: Check, detail: str) -> None:
        super().__init__(check, detail)


class BadLobbyMessage(LobbyDecodeError):
    """A message of the known type `kind` whose fields are missing, extra or of the wrong type, range or
    size. From `open_frame` only once the signature verified: the sender's key sent it."""

    def __init__(self, kind: str, detail: str, key: str | None = None) -> None:
        super().__init__(Check.SCHEMA, detail)
        self.kind = kind
        #: the wire key of the field that failed its check (None: fields missing or extra, or together)
        self.key = key


# ------------------------------------------------------------------------------------------------- fields

Parse = Callable[[Any], Any]
"""Wire value -> typed value, or `ValueError` saying what is wrong in one line (whatever the value)."""


def _same(value: Any) -> Any:
    return value


@dataclass(frozen=True)
class _Wire:
    name: str
    key: str
    parse: Parse
    dump: Callable[[Any], Any]
    optional: bool


def wire(key: str, parse: Parse, dump: Callable[[Any], Any] = _same, *, optional: bool = False) -> Any:
    """A message field: its key in the payload, the check that reads it, how it is written back. An
    optional field is absent on the wire when it is None (nil is read as absent)."""
    meta = {"key": key, "parse": parse, "dump": dump, "optional": optional}
    return dataclasses.field(default=None, metadata=meta) if optional else dataclasses.field(metadata=meta)


def _show(value: object) -> Detail:
    """What a field holds instead, as a detail says it: its msgpack type (a code) and its length."""
    if isinstance(value, bytes | str | list | dict):
        return Detail(N_("a {type} of length {n}"), type=type(value).__name__, n=len(value))
    return Detail(N_("a {type}"), type=type(value).__name__)


def _bin(what: Detail, low: int, high: int) -> Parse:
    def parse(value: Any) -> bytes:
        if type(value) is not bytes or not low <= len(value) <= high:
            if low == high:
                raise ValueError(Detail(N_("{what} is {size} bytes, not {value}"), what=what, size=low,
                                        value=_show(value)))
            raise ValueError(Detail(N_("{what} is {low}..{high} bytes, not {value}"), what=what, low=low,
                                    high=high, value=_show(value)))
        return value

    return parse


def _why(value: Any) -> str:
    if type(value) is not str or len(value) > MAX_WHY:
        why = Detail(N_("a reason is a str of at most {most} characters, not {value}"), most=MAX_WHY,
                     value=_show(value))
        raise ValueError(why)
    return value


_REFUSALS = frozenset(code.value for code in Refusal)
_CLOSINGS = frozenset(code.value for code in Closing)
_OBJECTIONS = frozenset(code.value for code in Objection)


def _refusal(value: Any) -> Refusal | Said:
    """A `refuse` reason: a `Refusal` code, or an older host's own words."""
    text = _why(value)
    return Refusal(text) if text in _REFUSALS else Said(text)


def _closing(value: Any) -> Closing | Said:
    """A `closed` reason: a `Closing` code, or an older host's own words."""
    text = _why(value)
    return Closing(text) if text in _CLOSINGS else Said(text)


def _objections(value: Any) -> tuple[Objection | Said, ...]:
    """A `decline` reason: `Objection` codes joined by commas, or an older joiner's own words."""
    text = _why(value)
    codes = text.split(",")
    if all(code in _OBJECTIONS for code in codes):
        return tuple(Objection(code) for code in codes)
    return (Said(text),)


def _dump_why(why: Refusal | Closing | Said) -> str:
    return why.text if isinstance(why, Said) else why.value


def _dump_objections(found: tuple[Objection | Said, ...]) -> str:
    return ",".join(o.text if isinstance(o, Said) else o.value for o in found)


def _rules(value: Any) -> RuleSet:
    if type(value) is not dict:
        raise ValueError(Detail(N_("the rules are a map of options")))
    try:
        return RuleSet.from_dict(value)
    except (ValueError, TypeError) as exc:
        raise ValueError(Detail(N_("bad rules: {why}"), why=detail_of(exc))) from None


def _seat(data: Any) -> LobbySeat:
    if type(data) is not dict or set(data) != {"e", "k", "n", "o", "s"}:
        raise ValueError(Detail(N_("a seat has exactly the fields e, k, n, o, s")))
    if type(data["s"]) is not int or not 0 <= data["s"] <= MAX_SEAT:
        raise ValueError(Detail(N_("bad seat number")))
    owner = None if data["o"] is None else check_key(data["o"])
    name, key, endpoint = check_name(data["n"]), check_key(data["k"]), check_endpoint(data["e"])
    return LobbySeat(data["s"], name, key, endpoint, owner)


def _seats(value: Any) -> tuple[LobbySeat, ...]:
    if type(value) is not list:
        raise ValueError(Detail(N_("the seats are a list")))
    return tuple(_seat(s) for s in value)


def _dump_seat(s: LobbySeat) -> dict[str, Any]:
    return {"e": s.endpoint, "k": s.public_key, "n": s.name, "o": s.owner, "s": s.seat}


def _dump_seats(seats: tuple[LobbySeat, ...]) -> list[dict[str, Any]]:
    return [_dump_seat(s) for s in seats]


def _dump_rules(rules: RuleSet) -> dict[str, Any]:
    return rules.to_dict()


def _after(value: Any) -> After:
    return After.from_wire(value)


def _dump_after(after: After) -> dict[str, Any]:
    return after.to_wire()


_lobby_id = _bin(Detail(N_("the lobby id")), LOBBY_ID_SIZE, LOBBY_ID_SIZE)
_hash = _bin(Detail(N_("a genesis hash")), log.HASH_SIZE, log.HASH_SIZE)
_genesis = _bin(Detail(N_("the genesis")), 1, MAX_LOBBY_FRAME)


# ------------------------------------------------------------------------------------------------- messages


@dataclass(frozen=True)
class LobbyMessage:
    """A lobby message without its header (`t`, `v`, `k`: the type, the version and the sender's key)."""

    TYPE: ClassVar[str] = ""
    #: every field's name, wire key, check and writer, filled in by `_register`
    _WIRE: ClassVar[tuple[_Wire, ...]] = ()

    @classmethod
    def decode(cls, payload: Mapping[str, Any]) -> Self:
        """This type's message from a payload (its header is not looked at). `BadLobbyMessage` if a field is
        missing, extra or wrong."""
        keys = {w.key for w in cls._WIRE}
        missing = sorted(w.key for w in cls._WIRE if not w.optional and w.key not in payload)
        extra = sorted(str(key)[:20] for key in payload if key not in keys and key not in HEADER_KEYS)
        if missing or extra:
            why = Detail(N_("{kind}: missing fields {missing}, unexpected {extra}"), kind=cls.TYPE,
                         missing=str(missing), extra=str(extra[:5]))
            raise BadLobbyMessage(cls.TYPE, why)
        values: dict[str, Any] = {}
        for w in cls._WIRE:
            value = payload.get(w.key)
            try:
                values[w.name] = None if w.optional and value is None else w.parse(value)
            except ValueError as exc:
                raise BadLobbyMessage(cls.TYPE, detail_of(exc), w.key) from None
        message = cls(**values)
        try:
            message._check()
        except ValueError as exc:
            raise BadLobbyMessage(cls.TYPE, detail_of(exc)) from None
        return message

    def _check(self) -> None:
        """What the fields must satisfy together (`ValueError` otherwise)."""

    def fields(self) -> dict[str, Any]:
        """The payload of this message without its header: what `encode` signs after `t`, `v` and `k`."""
        out: dict[str, Any] = {}
        for w in self._WIRE:
            value = getattr(self, w.name)
            if not (w.optional and value is None):
                out[w.key] = w.dump(value)
        return out

    def encode(self, identity: crypto.Identity) -> bytes:
        """The signed frame: the envelope of `{t, v, k, **fields}`, signed by `identity`."""
        payload = {"t": self.TYPE, "v": LOBBY_VERSION, "k": identity.public, **self.fields()}
        return log.seal(payload, identity)


#: every lobby message class, by its type `t`
TYPES: dict[str, type[LobbyMessage]] = {}
M = TypeVar("M", bound=LobbyMessage)


def _register(cls: type[M]) -> type[M]:
    cls._WIRE = tuple(
        _Wire(f.name, f.metadata["key"], f.metadata["parse"], f.metadata["dump"], f.metadata["optional"])
        for f in dataclasses.fields(cls)
    )
    TYPES[cls.TYPE] = cls
    return cls


@_register
@dataclass(frozen=True)
class Info(LobbyMessage):
    """Joiner -> host: what is this table? Also the joiner's keep-alive, every `KEEPALIVE` seconds."""

    TYPE: ClassVar[str] = "info"


@dataclass(frozen=True)
class SeatMap(LobbyMessage):
    """The fields of `table` and `start`: the lobby id, the table's name, the protocol version of the genesis,
    the rule set and the seats taken so far."""

    lobby: bytes = wire("l", _lobby_id)
    name: str = wire("name", check_name)
    version: int = wire("pv", check_version)
    rules: RuleSet = wire("r", _rules, _dump_rules)  # noqa: RUF009 (a dataclasses.field, like the others)
    seats: tuple[LobbySeat, ...] = wire("seats", _seats, _dump_seats)
    #: the game this one follows, as the genesis `after` will say (optional; keyword-only, so that the
    #: fields of `Start` may follow it)
    after: After | None = dataclasses.field(
        default=None, kw_only=True,
        metadata={"key": "a", "parse": _after, "dump": _dump_after, "optional": True})

    def _check(self) -> None:
        if len({s.seat for s in self.seats}) != len(self.seats) or any(
                s.seat >= self.rules.players for s in self.seats):
            raise ValueError(Detail(N_("the seat list has a seat twice or a seat the rules do not have")))
        if len({s.public_key for s in self.seats}) != len(self.seats):
            raise ValueError(Detail(N_("two seats have the same key")))
        problem = None if self.after is None else self.after.problem(self.rules, None)
        if problem is not None:
            raise ValueError(Detail(N_("'after': {problem}"), problem=problem))

    def info(self, host_key: bytes) -> TableInfo:
        """The table this seat map announces, from the host with key `host_key` (the frame's `k`)."""
        return TableInfo(self.name, self.rules, host_key, self.lobby, self.seats, self.version, self.after)


@_register
@dataclass(frozen=True)
class Table(SeatMap):
    """Host -> joiner: the table so far (an answer to `info`, and to every joiner on every change)."""

    TYPE: ClassVar[str] = "table"

    @classmethod
    def of(cls, info: TableInfo) -> Table:
        return cls(info.lobby, info.name, info.version, info.rules, info.seated, after=info.after)


@_register
@dataclass(frozen=True)
class Start(SeatMap):
    """Host -> every joiner: the genesis entry the host signed, and the final seat map it names."""

    TYPE: ClassVar[str] = "start"
    genesis: bytes = wire("g", _genesis)

    @classmethod
    def of(cls, info: TableInfo, genesis: bytes) -> Start:
        return cls(info.lobby, info.name, info.version, info.rules, info.seated, genesis, after=info.after)


@_register
@dataclass(frozen=True)
class Join(LobbyMessage):
    """Joiner -> host: seat me at lobby `lobby` under `name`; my game peer listens at `endpoint`. `owner`: the
    key of the seated player whose machine runs this seat, which is then a bot (None: a person)."""

    TYPE: ClassVar[str] = "join"
    lobby: bytes = wire("l", _lobby_id)
    name: str = wire("name", check_name)
    endpoint: str = wire("e", check_endpoint)
    owner: bytes | None = wire("o", check_key, optional=True)


@_register
@dataclass(frozen=True)
class Refuse(LobbyMessage):
    """Host -> joiner: no seat for you (the table is full, a bad join, your seat was taken away): a
    `Refusal` code (an older host's own words are kept as `Said`)."""

    TYPE: ClassVar[str] = "refuse"
    why: Refusal | Said = wire("why", _refusal, _dump_why)  # noqa: RUF009 (a dataclasses.field)


@_register
@dataclass(frozen=True)
class Accept(LobbyMessage):
    """Joiner -> host: I accept the genesis whose envelope hashes to `genesis_hash`."""

    TYPE: ClassVar[str] = "accept"
    lobby: bytes = wire("l", _lobby_id)
    genesis_hash: bytes = wire("x", _hash)


@_register
@dataclass(frozen=True)
class Decline(LobbyMessage):
    """Joiner -> host: I refuse the proposal (the genesis `genesis_hash`, if it was read) and leave; `why`,
    the `Objection`s, if it failed a check (an older joiner's own words are kept as `Said`)."""

    TYPE: ClassVar[str] = "decline"
    lobby: bytes = wire("l", _lobby_id)
    genesis_hash: bytes | None = wire("x", _hash, optional=True)
    why: tuple[Objection | Said, ...] | None = wire("why", _objections, _dump_objections, optional=True)


@_register
@dataclass(frozen=True)
class Leave(LobbyMessage):
    """Joiner -> host: free my seat now."""

    TYPE: ClassVar[str] = "leave"
    lobby: bytes = wire("l", _lobby_id)


@_register
@dataclass(frozen=True)
class Go(LobbyMessage):
    """Host -> every joiner: everyone accepted the genesis `genesis_hash`: start the game."""

    TYPE: ClassVar[str] = "go"
    genesis_hash: bytes = wire("x", _hash)


@_register
@dataclass(frozen=True)
class Closed(LobbyMessage):
    """Host -> every joiner: the host cancelled the table: a `Closing` code (an older host's own words are
    kept as `Said`)."""

    TYPE: ClassVar[str] = "closed"
    why: Closing | Said = wire("why", _closing, _dump_why)  # noqa: RUF009 (a dataclasses.field)


# ------------------------------------------------------------------------------------------------- frames


@dataclass(frozen=True)
class Frame:
    """An opened lobby frame: the key that signed it, and its message."""

    sender: bytes
    message: LobbyMessage


def _header(payload: Any) -> tuple[type[LobbyMessage], bytes]:
    """The class of a payload's type and its sender's key; `LobbyDecodeError` (check `header`) if not."""
    if not isinstance(payload, Mapping):
        why = Detail(N_("a lobby payload is a map, not {value}"), value=_show(payload))
        raise LobbyDecodeError(Check.HEADER, why)
    version = payload.get("v")
    if type(version) is not int or version != LOBBY_VERSION:
        raise LobbyDecodeError(Check.HEADER, f"lobby version {str(version)[:10]!r} is not {LOBBY_VERSION}")
    kind = payload.get("t")
    if type(kind) is not str:
        raise LobbyDecodeError(Check.HEADER, Detail(N_("no message type")))
    cls = TYPES.get(kind)
    if cls is None:
        why = Detail(N_("an unknown message type {kind}"), kind=repr(kind[:20]))
        raise LobbyDecodeError(Check.HEADER, why)
    try:
        key = check_key(payload.get("k"))
    except ValueError as exc:
        raise LobbyDecodeError(Check.HEADER, detail_of(exc)) from None
    return cls, key


def decode(payload: Any) -> LobbyMessage:
    """The typed message of an opened payload (its signature is not checked: see `open_frame`).
    `LobbyDecodeError` if its header or fields are wrong."""
    cls, _ = _header(payload)
    return cls.decode(payload)


def open_frame(raw: bytes, expect_key: bytes | None = None) -> Frame:
    """Check one lobby frame from the network: size, envelope, header, the signature of the key it names (or
    of `expect_key`), then the fields of its type. `LobbyDecodeError` saying what is wrong otherwise."""
    if len(raw) > MAX_LOBBY_FRAME:
        why = Detail(N_("frame of {count} bytes is too big"), count=len(raw))
        raise LobbyDecodeError(Check.ENVELOPE, why)
    try:
        env = log.open_envelope(raw, max_size=MAX_LOBBY_FRAME)
    except RemoteError as exc:
        raise LobbyDecodeError(exc.check, exc.detail) from None
    cls, key = _header(env.payload)
    if expect_key is not None and key != expect_key:
        raise LobbyDecodeError(Check.SIGNATURE, Detail(N_("signed by a key other than the host's")))
    if not crypto.verify_signature(key, env.signature, env.payload_raw):
        raise LobbyDecodeError(Check.SIGNATURE, "bad signature")
    return Frame(key, cls.decode(env.payload))

