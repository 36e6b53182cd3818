"""Message types of the table protocol: one frozen class per type, decoded and checked at the boundary.

Every payload is a canonical msgpack map with the common header (`g` game id, `n` sequence number, `p`
previous entry hash, `s` sender seat, `h` hand number, `t` type) and the fields of its type, nothing else.
Each class below names its fields, the wire key and the shape check of each, and turns back into the same
map with `to_fields()`. New fields mean a new protocol version (the genesis carries `v`).

Protocol version 2 adds the proofs of the deal (protocol/crypto.md §18): its `commit`, `shuffle`, `lock` and
`play` are the version 1 classes extended with their proof fields (`CommitV2`, ...), and every other type is
the same in both versions. `TYPES_BY_VERSION[v]` maps each type name to its class in version `v`.

`decode(payload, seat, version)` is the only way in: a payload whose type is unknown, or whose fields are
missing, extra or of the wrong shape for that version, is refused with a `RemoteError` naming the seat (check
"schema"). Text lengths (`name`, `why`) count characters (Unicode code points), not bytes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from p2pspades import log
from p2pspades.checks import Check
from p2pspades.crypto.passing import MAX_PASS
from p2pspades.errors import N_, Detail, RemoteError
from p2pspades.table.limits import MAX_LIST, MAX_LOCK_PROOF, MAX_SEATS, MAX_SHUFFLE_PROOF, MAX_VOID_PROOF

#: the version of new games; `SUPPORTED_VERSIONS` are those a peer and the verifier accept
PROTOCOL_VERSION = 2
SUPPORTED_VERSIONS = (1, 2)
HEADER_KEYS = frozenset({"g", "n", "p", "s", "h", "t"})
MAX_NAME = 32
MAX_WHY = 200
# the list and proof caps (`MAX_LIST`, `MAX_*_PROOF`, `MAX_SEATS`) are derived in `limits.py` from the largest
# honest entry of the largest legal rule set; each proof checks its exact length itself

FieldCheck = Callable[[Any], bool]


def _b32(v: Any) -> bool:
    return isinstance(v, bytes) and len(v) == 32


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _bool(v: Any) -> bool:
    return isinstance(v, bool)


def _map(v: Any) -> bool:
    return isinstance(v, dict)


def _blob(limit: int) -> FieldCheck:
    return lambda v: isinstance(v, bytes) and len(v) <= limit


def _text(limit: int) -> FieldCheck:
    return lambda v: isinstance(v, str) and len(v) <= limit


def _list(item: FieldCheck, limit: int = MAX_LIST) -> FieldCheck:
    return lambda v: isinstance(v, list) and len(v) <= limit and all(item(x) for x in v)


def _seat_record(v: Any) -> bool:
    return (
        isinstance(v, dict)
        and set(v) == {"k", "n"}
        and _b32(v["k"])
        and isinstance(v["n"], str)
        and 0 < len(v["n"]) <= MAX_NAME
    )


def wire(key: str, check: FieldCheck, *, optional: bool = False) -> Any:
    """A message field: its key in the payload map and the shape it must have there. An optional field is
    absent from the map when it is None (and None when the map has no such key)."""
    if optional:
        return dataclasses.field(default=None, metadata={"key": key, "check": check, "optional": True})
    return dataclasses.field(metadata={"key": key, "check": check})


M = TypeVar("M", bound="Message")


@dataclass(frozen=True)
class Message:
    """A table-protocol message without its header. Lists on the wire are tuples here."""

    TYPE: ClassVar[str] = ""
    #: (attribute, wire key, check) of every field, filled in by `_register`
    _WIRE: ClassVar[tuple[tuple[str, str, FieldCheck], ...]] = ()
    #: the wire keys of the optional fields (absent when None), filled in by `_register`
    _OPTIONAL: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def from_payload(cls: type[M], payload: Mapping[str, Any], seat: int | None = None) -> M:
        """Check the payload's fields against this type and build the message. RemoteError if they differ."""
        keys = {key for _, key, _ in cls._WIRE}
        extra = set(payload) - HEADER_KEYS - keys
        missing = keys - set(payload) - cls._OPTIONAL
        if extra or missing:
            why = f"{cls.TYPE}: missing {sorted(missing)} / unexpected {sorted(extra)} fields"
            raise RemoteError(Check.SCHEMA, why, seat)
        values: dict[str, Any] = {}
        for name, key, ok in cls._WIRE:
            if key not in payload:
                continue  # an optional field left out
            v = payload[key]
            if not ok(v):
                why = Detail(N_("{type}: field {key} has the wrong type or size"), type=cls.TYPE,
                             key=repr(key))
                raise RemoteError(Check.SCHEMA, why, seat)
            values[name] = tuple(v) if isinstance(v, list) else v
        return cls(**values)

    def to_fields(self) -> dict[str, Any]:
        """The payload fields of this message, type included (the header is added by the sender)."""
        out: dict[str, Any] = {"t": self.TYPE}
        for name, key, _ in self._WIRE:
            v = getattr(self, name)
            if v is None and key in self._OPTIONAL:
                continue
            out[key] = list(v) if isinstance(v, tuple) else v
        return out


#: the message classes of each protocol version, by type name
TYPES_BY_VERSION: dict[int, dict[str, type[Message]]] = {v: {} for v in SUPPORTED_VERSIONS}
#: those of the version of new games
TYPES = TYPES_BY_VERSION[PROTOCOL_VERSION]


def _fields(cls: type[M]) -> None:
    cls._WIRE = tuple((f.name, f.metadata["key"], f.metadata["check"]) for f in dataclasses.fields(cls))
    optional = (f.metadata["key"] for f in dataclasses.fields(cls) if f.metadata.get("optional"))
    cls._OPTIONAL = frozenset(optional)


def _register(cls: type[M]) -> type[M]:
    """A type of every version (until a later version replaces it with `_register_v2`)."""
    _fields(cls)
    for types in TYPES_BY_VERSION.values():
        types[cls.TYPE] = cls
    return cls


def _register_v2(cls: type[M]) -> type[M]:
    """The version 2 form of a type: the version 1 class with more fields."""
    _fields(cls)
    TYPES_BY_VERSION[2][cls.TYPE] = cls
    return cls


def decode(
    payload: Mapping[str, Any], seat: int | None = None, version: int = PROTOCOL_VERSION,
    nil_pass: bool = False,
) -> Message:
    """The typed message of a payload in protocol `version`. RemoteError (check "schema") if its type or
    fields are wrong. `nil_pass`: the game's rule `nil_pass` is on, so its `commit` carries `E`."""
    kind = payload.get("t")
    cls = TYPES_BY_VERSION[version].get(kind) if isinstance(kind, str) else None
    if nil_pass and cls is CommitV2:
        cls = CommitPass
    if cls is None:
        raise RemoteError(Check.SCHEMA, Detail(N_("unknown message type {kind}"), kind=repr(kind)), seat)
    return cls.from_payload(payload, seat)



# ================================================================= game setup
@_register
@dataclass(frozen=True)
class Genesis(Message):
    """Entry 0, signed by seat 0: protocol version, rule set, the seats' names and keys, the table's name, and
    (optional) the game it follows."""

    TYPE: ClassVar[str] = "genesis"
    version: int = wire("v", _int)
    rules: Mapping[str, Any] = wire("rules", _map)
    seats: tuple[Mapping[str, Any], ...] = wire("seats", _list(_seat_record, MAX_SEATS))
    name: str = wire("name", _text(MAX_NAME))
    #: the game this one follows (a rematch, or a continuation from its scores): `table.genesis.After`
    after: Mapping[str, Any] | None = wire("after", _map, optional=True)


@_register
@dataclass(frozen=True)
class Accept(Message):
    """A seat accepts the genesis (seat 0's genesis counts as its acceptance)."""

    TYPE: ClassVar[str] = "accept"


@_register
@dataclass(frozen=True)
class DrawCommit(Message):
    """Commitment to the seat's secret for the first-dealer draw."""

    TYPE: ClassVar[str] = "dcommit"
    commitment: bytes = wire("c", _b32)


@_register
@dataclass(frozen=True)
class DrawReveal(Message):
    """The secret of the first-dealer draw."""

    TYPE: ClassVar[str] = "dreveal"
    seed: bytes = wire("r", _b32)


# ================================================================= one hand
@_register
@dataclass(frozen=True)
class Commit(Message):
    """Commitment to the seat's seed for this hand."""

    TYPE: ClassVar[str] = "commit"
    commitment: bytes = wire("c", _b32)


@_register
@dataclass(frozen=True)
class Blind(Message):
    """The answer to "blind nil?", before the deal."""

    TYPE: ClassVar[str] = "blind"
    declare: bool = wire("b", _bool)


@_register
@dataclass(frozen=True)
class BlindBid(Message):
    """House rule `blind_bid`: the answer "a blind bid of `tricks`" to the question before the deal."""

    TYPE: ClassVar[str] = "blind_bid"
    tricks: int = wire("b", _int)


@_register
@dataclass(frozen=True)
class Shuffle(Message):
    """The deck after this seat's shuffle."""

    TYPE: ClassVar[str] = "shuffle"
    deck: tuple[bytes, ...] = wire("d", _list(_b32))


@_register
@dataclass(frozen=True)
class Lock(Message):
    """The deck after this seat's lock."""

    TYPE: ClassVar[str] = "lock"
    deck: tuple[bytes, ...] = wire("d", _list(_b32))


@_register
@dataclass(frozen=True)
class Keys(Message):
    """This seat's lock keys for the positions others must open."""

    TYPE: ClassVar[str] = "keys"
    positions: tuple[int, ...] = wire("j", _list(_int))
    keys: tuple[bytes, ...] = wire("k", _list(_b32))


@_register
@dataclass(frozen=True)
class Draw(Message):
    """Two-player draw pile: keep the top card (True) or discard it and take the next."""

    TYPE: ClassVar[str] = "draw"
    keep: bool = wire("x", _bool)


@_register
@dataclass(frozen=True)
class Bid(Message):
    """A bid of a number of tricks (0: nil)."""

    TYPE: ClassVar[str] = "bid"
    tricks: int = wire("b", _int)


@_register
@dataclass(frozen=True)
class Play(Message):
    """A card played: its deck position and the seat's lock key that opens it."""

    TYPE: ClassVar[str] = "play"
    position: int = wire("j", _int)
    key: bytes = wire("k", _b32)


@_register
@dataclass(frozen=True)
class Challenge(Message):
    """The seat says entry `entry` or the deal is wrong: every seat must reveal its seed now."""

    TYPE: ClassVar[str] = "challenge"
    entry: int = wire("e", _int)
    why: str = wire("why", _text(MAX_WHY))


@_register
@dataclass(frozen=True)
class Reveal(Message):
    """The seat's seed for this hand, for the audit."""

    TYPE: ClassVar[str] = "reveal"
    seed: bytes = wire("r", _b32)


# ================================================================= version 2: the proofs of the deal
@_register_v2
@dataclass(frozen=True)
class CommitV2(Commit):
    """Version 2: the commitment and `S = s·B`, the seat's shuffle scalar in public (crypto.md §13)."""

    shuffle_commitment: bytes = wire("S", _b32)


@dataclass(frozen=True)
class CommitPass(CommitV2):
    """Version 2 under the rule `nil_pass`: also `E = e·B`, the seat's pass key in public (crypto.md §20)."""

    pass_public: bytes = wire("E", _b32)


_fields(CommitPass)


@_register_v2
@dataclass(frozen=True)
class Pass(Message):
    """Rule `nil_pass` (PROTOCOL.md §7.6): the positions the seat passes to its partner, ascending, and its
    lock key of each sealed for the partner."""

    TYPE: ClassVar[str] = "pass"
    positions: tuple[int, ...] = wire("j", _list(_int, MAX_PASS))
    keys: tuple[bytes, ...] = wire("k", _list(_b32, MAX_PASS))


@_register_v2
@dataclass(frozen=True)
class ShuffleV2(Shuffle):
    """Version 2: the deck and the proof that it is the previous deck permuted and multiplied by `s`."""

    proof: bytes = wire("x", _blob(MAX_SHUFFLE_PROOF))


@_register_v2
@dataclass(frozen=True)
class LockV2(Lock):
    """Version 2: the deck, the key commitments `P_j = k_j·B` and the proof that `out[j] = k_j·s⁻¹·in[j]`."""

    commitments: tuple[bytes, ...] = wire("P", _list(_b32))
    proof: bytes = wire("x", _blob(MAX_LOCK_PROOF))


@_register_v2
@dataclass(frozen=True)
class PlayV2(Play):
    """Version 2: the play, and when it does not follow the led suit (rule `void_proofs`), the proof that
    none of the seat's other positions holds a card of that suit (empty otherwise)."""

    void: bytes = wire("x", _blob(MAX_VOID_PROOF))


# ================================================================= game end
@_register
@dataclass(frozen=True)
class End(Message):
    """The seat signs the game's result: the winning sides and every side's total."""

    TYPE: ClassVar[str] = "end"
    winners: tuple[int, ...] = wire("w", _list(_int, MAX_SEATS))
    totals: tuple[int, ...] = wire("z", _list(_int, MAX_SEATS))


# ================================================================= abandonment claims (PROTOCOL.md §5)
#: the largest vote or stall a certificate carries: a vote envelope is about 160 bytes, a stall about 170
MAX_VOTE = 512


def _refusal_overhead() -> int:
    """The bytes a refusal's payload takes besides the entry it carries: its header at the largest values a
    header may hold, its other field, and the longest bin header of `e`."""
    biggest = {"g": bytes(log.GAME_ID_SIZE), "n": 2**63 - 1, "p": bytes(log.HASH_SIZE), "s": log.MAX_SEAT,
               "h": 2**63 - 1, "t": "answered", "a": log.MAX_SEAT, "e": b""}
    return len(log.encode(biggest)) + 4  # "e": bin 8 header (1 byte + 1) grows to bin 32 (1 + 4) at most


#: the largest entry a refusal carries: what fits a refusal in `log.MAX_PAYLOAD` (the largest honest entry,
#: 14372 bytes of envelope, fits: tests/test_table_limits.py builds it and wraps it in a refusal)
MAX_CARRIED = log.MAX_PAYLOAD - _refusal_overhead()


def _nat(v: Any) -> bool:
    return _int(v) and v >= 0


def _seat_list(v: Any) -> bool:
    return (isinstance(v, list) and 0 < len(v) <= MAX_SEATS and all(_nat(x) for x in v)
            and v == sorted(set(v)))


@_register
@dataclass(frozen=True)
class Abandon(Message):
    """Off the chain: the signer's vote that seat `seat` kept the table waiting for this entry (`n`, after
    `p`) past the timeout in force on its clock, `wait` whole seconds."""

    TYPE: ClassVar[str] = "abandon"
    seat: int = wire("a", _int)
    wait: int = wire("w", _nat)


@_register
@dataclass(frozen=True)
class Answered(Message):
    """Off the chain: the signer took seat `seat`'s entry for this slot before it voted, so it never will: the
    claim against `seat` is void. It carries that entry (`entry`, the raw envelope): a refusal proves what it
    says, and one whose entry is not the slot's is its signer's fault."""

    TYPE: ClassVar[str] = "answered"
    seat: int = wire("a", _int)
    entry: bytes = wire("e", lambda v: isinstance(v, bytes) and 0 < len(v) <= MAX_CARRIED)


@_register
@dataclass(frozen=True)
class Stall(Message):
    """Off the chain: the signer, which voted against seat `seat` for this slot, still lacks the votes of the
    seats `missing` (ascending) after the timeout in force ran out again (`wait` whole seconds on its clock):
    the seats still playing end the game, contested (PROTOCOL.md §5.4)."""

    TYPE: ClassVar[str] = "stall"
    seat: int = wire("a", _int)
    missing: tuple[int, ...] = wire("m", _seat_list)
    wait: int = wire("w", _nat)


@_register
@dataclass(frozen=True)
class Certificate(Message):
    """On the chain, at the slot of the seat `s` that stopped answering: the votes of every other seat, in
    seat order. Its envelope's signature is 64 zero bytes: the votes are what is signed."""

    TYPE: ClassVar[str] = "certificate"
    votes: tuple[bytes, ...] = wire("v", _list(_blob(MAX_VOTE), MAX_SEATS - 1))


@_register
@dataclass(frozen=True)
class Stalled(Message):
    """On the chain, at the slot of the seat `s` that stopped answering, when some other seats signed nothing:
    the votes of the seats still playing and each one's stall naming the others, both in seat order. Unsigned
    like a certificate: what it proves is what its notes say."""

    TYPE: ClassVar[str] = "stalled"
    votes: tuple[bytes, ...] = wire("v", _list(_blob(MAX_VOTE), MAX_SEATS - 2))
    stalls: tuple[bytes, ...] = wire("x", _list(_blob(MAX_VOTE), MAX_SEATS - 2))


# ================================================================= the players' own word (PROTOCOL.md §5.10)
@_register
@dataclass(frozen=True)
class Leave(Message):
    """Off the chain: a signed goodbye. Its signer leaves the game at this slot (`n`, after `p`): the game
    ends there on every table, and the signer's side forfeits."""

    TYPE: ClassVar[str] = "leave"


@_register
@dataclass(frozen=True)
class Stop(Message):
    """Off the chain: the signer agrees to stop the game at this slot, the scores standing as they are
    there (`totals`: every side's score, in side order) and nobody winning. The first stop for a slot
    proposes it."""

    TYPE: ClassVar[str] = "stop"
    totals: tuple[int, ...] = wire("z", _list(_int, MAX_SEATS))


@_register
@dataclass(frozen=True)
class GoOn(Message):
    """Off the chain: the signer declines to stop at this slot: the proposal lapses, the game goes on. It ends
    a pause and nothing else: no result depends on it."""

    TYPE: ClassVar[str] = "go"


@_register
@dataclass(frozen=True)
class Left(Message):
    """On the chain, at the slot its goodbyes name: the goodbye of every seat that left there, in seat order.
    Unsigned (64 zero bytes) like a certificate: what it proves is what its goodbyes say."""

    TYPE: ClassVar[str] = "left"
    goodbyes: tuple[bytes, ...] = wire("v", _list(_blob(MAX_VOTE), MAX_SEATS))


@_register
@dataclass(frozen=True)
class Stopped(Message):
    """On the chain, at the slot its stops name: the stop of every seat, in seat order. Unsigned."""

    TYPE: ClassVar[str] = "stopped"
    stops: tuple[bytes, ...] = wire("v", _list(_blob(MAX_VOTE), MAX_SEATS))


#: the notes of a claim: signed, off the chain, kept in the logs
NOTES = (Abandon.TYPE, Answered.TYPE, Stall.TYPE)
#: the notes of the players' own word: a goodbye, a stop, a decline (signed, off the chain, kept in the logs)
PARTINGS = (Leave.TYPE, Stop.TYPE, GoOn.TYPE)
#: the entries that end a claim: unsigned, on the chain
CLAIM_ENDINGS = (Certificate.TYPE, Stalled.TYPE)
#: the entries that end the game by the players' word: unsigned, on the chain
PARTING_ENDINGS = (Left.TYPE, Stopped.TYPE)
#: every entry nobody signs, that ends the game at its slot
ENDINGS = (*CLAIM_ENDINGS, *PARTING_ENDINGS)
