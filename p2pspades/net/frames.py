"""The net-level messages peers exchange on the game mesh, and their strict wire codec.

Every frame a peer receives is hostile until proven otherwise: it is size-checked, decoded with hard limits,
must re-encode to the very same bytes, and must be exactly one of the message kinds below with fields of the
right types and ranges. Anything else raises `BadFrame`, which the mesh logs and drops. The log entries that
travel inside ENTRY and ENTRIES stay opaque bytes here: the table machine checks them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from p2pspades.checks import Check
from p2pspades.errors import RemoteError
from p2pspades.log import canonical

PROTOCOL_VERSION = 1
MAX_FRAME = 256 * 1024
"""Largest frame a game socket accepts (also set as ZMQ_MAXMSGSIZE, so bigger frames never reach Python)."""
MAX_ENTRY = 64 * 1024
"""Largest single log entry carried by ENTRY or ENTRIES."""
MAX_BATCH = canonical.MAX_ITEMS
"""Most entries one ENTRIES answer carries; a GET asks for at most this many."""
MAX_SEATS = 8
MAX_SEQ = 2**32 - 1
GAME_ID_SIZES = range(8, 65)
HASH_SIZE = 32


class BadFrame(RemoteError, ValueError):
    """A frame from the network is not a well-formed net-level message."""

    def __init__(self, detail: str) -> None:
        super().__init__(Check.FRAME, detail)


@dataclass(frozen=True)
class Hello:
    """Sent on (re)connecting and as anti-entropy: who I am and how far my log goes.

    `seq` is the number of entries I hold (the next sequence number), `head` the hash of my last entry
    (empty before the genesis).
    """

    game_id: bytes
    seat: int
    seq: int
    head: bytes
    version: int = PROTOCOL_VERSION

    def __post_init__(self) -> None:
        _check_bytes("game id", self.game_id, GAME_ID_SIZES)
        _check_int("seat", self.seat, 0, MAX_SEATS - 1)
        _check_int("seq", self.seq, 0, MAX_SEQ)
        _check_int("version", self.version, 1, 2**16 - 1)
        if type(self.head) is not bytes or len(self.head) not in (0, HASH_SIZE):
            raise BadFrame(f"head must be empty or {HASH_SIZE} bytes")
        if (self.seq == 0) != (self.head == b""):
            raise BadFrame("head must be empty exactly when seq is 0")


@dataclass(frozen=True)
class Entry:
    """One raw signed log entry, newly accepted by its sender (or its signer's own new entry)."""

    raw: bytes

    def __post_init__(self) -> None:
        _check_bytes("entry", self.raw, range(1, MAX_ENTRY + 1))


@dataclass(frozen=True)
class Get:
    """Ask for the entries with sequence numbers start <= seq < stop."""

    start: int
    stop: int

    def __post_init__(self) -> None:
        _check_int("start", self.start, 0, MAX_SEQ)
        _check_int("stop", self.stop, self.start + 1, min(self.start + MAX_BATCH, MAX_SEQ + 1))


@dataclass(frozen=True)
class Entries:
    """The answer to a GET: consecutive raw entries, the first with sequence number `start`."""

    start: int
    raws: tuple[bytes, ...]

    def __post_init__(self) -> None:
        _check_int("start", self.start, 0, MAX_SEQ)
        if not isinstance(self.raws, tuple) or len(self.raws) > MAX_BATCH:
            raise BadFrame(f"entries must be a list of at most {MAX_BATCH}")
        for raw in self.raws:
            _check_bytes("entry", raw, range(1, MAX_ENTRY + 1))


@dataclass(frozen=True)
class Ping:
    """Heartbeat: the receiver answers with a PONG carrying the same token."""

    token: int

    def __post_init__(self) -> None:
        _check_int("token", self.token, 0, MAX_SEQ)


@dataclass(frozen=True)
class Pong:
    token: int

    def __post_init__(self) -> None:
        _check_int("token", self.token, 0, MAX_SEQ)


Message = Hello | Entry | Get | Entries | Ping | Pong


def _check_int(name: str, value: object, low: int, high: int) -> None:
    if type(value) is not int or not low <= value <= high:
        raise BadFrame(f"{name} must be an integer in {low}..{high}, not {_show(value)}")


def _check_bytes(name: str, value: object, sizes: range) -> None:
    if type(value) is not bytes or len(value) not in sizes:
        raise BadFrame(f"{name} must be {sizes.start}..{sizes.stop - 1} bytes, not {_show(value)}")


def _show(value: object) -> str:
    if isinstance(value, bytes | str):
        return f"{type(value).__name__} of length {len(value)}"
    return type(value).__name__


# ---------------------------------------------------------------------------------------------- wire codec

_KINDS: dict[type[Message], str] = {
    Hello: "hello", Entry: "entry", Get: "get", Entries: "entries", Ping: "ping", Pong: "pong",
}


def _to_map(msg: Message) -> dict[str, Any]:
    match msg:
        case Hello():
            return {"g": msg.game_id, "h": msg.head, "n": msg.seq, "s": msg.seat, "v": msg.version}
        case Entry():
            return {"e": msg.raw}
        case Get():
            return {"a": msg.start, "b": msg.stop}
        case Entries():
            return {"a": msg.start, "e": list(msg.raws)}
        case Ping() | Pong():
            return {"t": msg.token}


def _hello(m: Mapping[str, Any]) -> Hello:
    return Hello(game_id=m["g"], seat=m["s"], seq=m["n"], head=m["h"], version=m["v"])


def _entries(m: Mapping[str, Any]) -> Entries:
    if type(m["e"]) is not list:
        raise BadFrame("entries must be a list")
    return Entries(start=m["a"], raws=tuple(m["e"]))


_FROM_MAP: dict[str, tuple[frozenset[str], Callable[[Mapping[str, Any]], Message]]] = {
    "hello": (frozenset("ghnsv"), _hello),
    "entry": (frozenset("e"), lambda m: Entry(raw=m["e"])),
    "get": (frozenset("ab"), lambda m: Get(start=m["a"], stop=m["b"])),
    "entries": (frozenset("ae"), _entries),
    "ping": (frozenset("t"), lambda m: Ping(token=m["t"])),
    "pong": (frozenset("t"), lambda m: Pong(token=m["t"])),
}


def pack(obj: Mapping[str, Any]) -> bytes:
    """The canonical msgpack of a frame's map (the same encoding as log payloads)."""
    return canonical.encode(dict(obj))


def unpack(data: bytes, *, max_size: int = MAX_FRAME) -> dict[str, Any]:
    """Decode one map from untrusted bytes, or raise `BadFrame`.

    The log layer's canonical decoder does the work: limits on every length, string keys only, no floats
    or extension types, and the bytes must be the one canonical encoding of what they hold.
    """
    if not isinstance(data, bytes):
        raise BadFrame(f"frame must be bytes, not {type(data).__name__}")
    if len(data) > max_size:
        raise BadFrame(f"frame of {len(data)} bytes exceeds the limit of {max_size}")
    try:
        return canonical.decode(data, max_size=max_size)
    except canonical.DecodeError as exc:
        raise BadFrame(exc.detail) from None


def encode_message(msg: Message) -> bytes:
    """The wire bytes of a net-level message."""
    return pack({"k": _KINDS[type(msg)], **_to_map(msg)})


def decode_message(data: bytes) -> Message:
    """Parse and check one frame from a peer; `BadFrame` says what is wrong with it."""
    obj = unpack(data)
    kind = obj.pop("k", None)
    if not isinstance(kind, str) or kind not in _FROM_MAP:
        raise BadFrame(f"unknown message kind {kind!r}"[:120])
    keys, build = _FROM_MAP[kind]
    if set(obj) != keys:
        raise BadFrame(f"{kind} must have exactly the fields {sorted(keys)}, not {sorted(obj)}"[:200])
    return build(obj)


_LARGEST_HELLO = Hello(b"\0" * (GAME_ID_SIZES.stop - 1), MAX_SEATS - 1, MAX_SEQ, b"\0" * HASH_SIZE, 2**16 - 1)
MAX_CONTROL = len(encode_message(_LARGEST_HELLO))
"""Size of the largest frame that is not an ENTRY or ENTRIES (the largest HELLO): a bigger frame from a seat
the mesh does not read entries from just now can be dropped without decoding it."""
