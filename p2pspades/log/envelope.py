"""Signed envelopes, entry hashes and the header every payload carries.

An envelope is the msgpack array `[version, payload, signature]`: the canonical payload bytes, and the
sender's Ed25519 signature over exactly those bytes. Entries are hashed and checked as the raw bytes that
arrived; nothing is ever re-encoded to verify it, so what one peer signed and hashed is what every other peer
and the offline verifier hash.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgpack

from p2pspades.checks import Check

from ..crypto import verify_signature
from ..errors import N_, Detail, RemoteError
from .canonical import MAX_PAYLOAD, DecodeError, EncodeError, decode, encode

__all__ = [
    "ENVELOPE_OVERHEAD",
    "ENVELOPE_VERSION",
    "GAME_ID_SIZE",
    "HASH_SIZE",
    "MAX_ENVELOPE",
    "MAX_MESSAGE_TYPE",
    "MAX_SEAT",
    "SIGNATURE_SIZE",
    "ZERO_HASH",
    "BadSignature",
    "Envelope",
    "Header",
    "Signer",
    "check_signature",
    "entry_hash",
    "open_envelope",
    "seal",
    "validate_header",
]

ENVELOPE_VERSION = 1
SIGNATURE_SIZE = 64
HASH_SIZE = 32
GAME_ID_SIZE = 16
ZERO_HASH = bytes(HASH_SIZE)
"""The `p` field of the genesis (sequence number 0), which has no previous entry."""

ENVELOPE_OVERHEAD = 1 + 1 + 3 + 2 + SIGNATURE_SIZE
"""Array header, version, bin 16 header of a payload over 255 bytes, bin 8 header and the signature."""

MAX_ENVELOPE = MAX_PAYLOAD + ENVELOPE_OVERHEAD
"""The largest envelope that can hold a payload of MAX_PAYLOAD bytes; also the largest log frame."""

MAX_SEAT = 15
"""Largest seat number a header may carry; the genesis decides which seats exist (at most 5 in our rules)."""

MAX_MESSAGE_TYPE = 32
"""Longest message type name, in characters."""

_MAX_SEQUENCE = 2**63 - 1


class BadSignature(RemoteError):
    """The signature does not verify under the sender's public key."""


class Signer(Protocol):
    """What `seal` needs of an identity (`p2pspades.crypto.Identity` is one)."""

    def sign(self, data: bytes) -> bytes: ...


NO_SIGNATURE = bytes(SIGNATURE_SIZE)
"""The signature field of an entry that nobody signs (a certificate, whose contents are signed votes)."""


class _Unsigned:
    """The `Signer` of an entry that nobody signs: its signature field is `NO_SIGNATURE`."""

    def sign(self, data: bytes) -> bytes:
        return NO_SIGNATURE


UNSIGNED: Signer = _Unsigned()


def entry_hash(raw: bytes) -> bytes:
    """SHA-256 of an entry's raw envelope bytes: the link the next entry's `p` field carries."""
    return hashlib.sha256(raw).digest()


@dataclass(frozen=True)
class Envelope:
    """An envelope that is well formed and canonical; its signature is checked separately (`check_signature`),
    because only the table, which knows the seats, knows whose key must have signed it."""

    raw: bytes = field(repr=False)
    payload_raw: bytes = field(repr=False, compare=False)
    signature: bytes = field(repr=False, compare=False)
    payload: dict[str, Any] = field(compare=False)
    hash: bytes = field(compare=False)

    def __repr__(self) -> str:
        return f"Envelope(hash={self.hash.hex()[:16]}..., payload={self.payload!r})"


def seal(payload: Mapping[str, Any], identity: Signer) -> bytes:
    """Encode `payload` canonically, sign those exact bytes, and wrap both in an envelope.

    EncodeError if the payload has no canonical encoding or is over MAX_PAYLOAD bytes.
    """
    if not isinstance(payload, Mapping):
        raise EncodeError(f"a payload is a map, not a {type(payload).__name__}")
    payload_raw = encode(dict(payload))
    if len(payload_raw) > MAX_PAYLOAD:
        raise EncodeError(f"payload of {len(payload_raw)} bytes is over the limit of {MAX_PAYLOAD}")
    signature = identity.sign(payload_raw)
    if type(signature) is not bytes or len(signature) != SIGNATURE_SIZE:
        raise EncodeError(f"the identity returned a signature that is not {SIGNATURE_SIZE} bytes")
    return msgpack.packb([ENVELOPE_VERSION, payload_raw, signature], use_bin_type=True)  # type: ignore[no-any-return]


def open_envelope(raw: bytes | bytearray | memoryview, *, max_size: int = MAX_ENVELOPE) -> Envelope:
    """Check an envelope's size, structure, exact encoding and version, and decode its payload.

    DecodeError(Check.ENVELOPE) for the framing, DecodeError(Check.ENCODING) for the payload. Never
    raises anything else for any bytes. The signature is not checked here.
    """
    if not isinstance(raw, bytes | bytearray | memoryview):
        raise TypeError(f"open_envelope() needs bytes, not {type(raw).__name__}")
    raw = bytes(raw)
    if len(raw) > max_size:
        why = Detail(N_("envelope of {count} bytes is over the limit of {max_size}"), count=len(raw),
                     max_size=max_size)
        raise DecodeError(Check.ENVELOPE, why)
    if not raw:
        raise DecodeError(Check.ENVELOPE, "empty envelope")
    try:
        outer = msgpack.unpackb(
            raw,
            raw=False,
            use_list=True,
            strict_map_key=True,
            max_bin_len=max_size,
            max_str_len=max_size,
            max_array_len=16,
            max_map_len=16,
            max_ext_len=0,
        )
    except msgpack.ExtraData:
        raise DecodeError(Check.ENVELOPE, Detail(N_("bytes after the end of the envelope"))) from None
    except Exception as exc:  # malformed input of any kind is the sender's fault
        why = Detail(N_("not valid msgpack ({type}: {exc})"), type=type(exc).__name__, exc=exc)
        raise DecodeError(Check.ENVELOPE, why) from None
    if type(outer) is not list or not outer:
        why = Detail(N_("an envelope is a non-empty array, not a {type}"), type=type(outer).__name__)
        raise DecodeError(Check.ENVELOPE, why)
    version = outer[0]
    if type(version) is not int:
        why = Detail(N_("the version is a {type}, not an int"), type=type(version).__name__)
        raise DecodeError(Check.ENVELOPE, why)
    if version != ENVELOPE_VERSION:
        why = Detail(N_("unsupported envelope version {version} (this is version {envelope_version})"),
                     version=version, envelope_version=ENVELOPE_VERSION)
        raise DecodeError(Check.ENVELOPE, why)
    if len(outer) != 3:
        why = Detail(N_("a version 1 envelope has 3 elements, not {count}"), count=len(outer))
        raise DecodeError(Check.ENVELOPE, why)
    _, payload_raw, signature = outer
    if type(payload_raw) is not bytes:
        why = Detail(N_("the payload is a {type}, not bin"), type=type(payload_raw).__name__)
        raise DecodeError(Check.ENVELOPE, why)
    if type(signature) is not bytes:
        why = Detail(N_("the signature is a {type}, not bin"), type=type(signature).__name__)
        raise DecodeError(Check.ENVELOPE, why)
    if len(signature) != SIGNATURE_SIZE:
        why = Detail(N_("the signature has {count} bytes, not {signature_size}"), count=len(signature),
                     signature_size=SIGNATURE_SIZE)
        raise DecodeError(Check.ENVELOPE, why)
    if msgpack.packb(outer, use_bin_type=True) != raw:
        raise DecodeError(Check.ENVELOPE, Detail(N_("the envelope is not in canonical form")))
    payload = decode(payload_raw, max_size=MAX_PAYLOAD)
    return Envelope(raw=raw, payload_raw=payload_raw, signature=signature, payload=payload,
                    hash=entry_hash(raw))


def check_signature(env: Envelope, public: bytes) -> None:
    """BadSignature unless `env`'s signature over its payload bytes verifies under `public`."""
    if not verify_signature(public, env.signature, env.payload_raw):
        why = Detail(N_("the signature does not verify under the sender's key"))
        raise BadSignature(Check.SIGNATURE, why)


@dataclass(frozen=True)
class Header:
    """The fields every payload carries, which place it in one game's hash chain."""

    game_id: bytes
    seq: int
    prev: bytes
    seat: int
    hand: int
    type: str


def _field(payload: Mapping[str, Any], key: str, kind: type) -> Any:
    if key not in payload:
        raise DecodeError(Check.HEADER, Detail(N_("the payload has no {key} field"), key=repr(key)))
    value = payload[key]
    if type(value) is not kind:
        why = Detail(N_("field {key} is a {type}, not {expected}"), key=repr(key),
                     type=type(value).__name__, expected=kind.__name__)
        raise DecodeError(Check.HEADER, why)
    return value


def validate_header(payload: Mapping[str, Any]) -> Header:
    """The header of a decoded payload; DecodeError(Check.HEADER) if a field is missing or malformed.

    Only the fields' presence, types and ranges are checked here; whether they fit the game (the right game
    id, the next sequence number, the previous entry's hash, the seat whose turn it is) is the table's job.
    """
    game_id = _field(payload, "g", bytes)
    seq = _field(payload, "n", int)
    prev = _field(payload, "p", bytes)
    seat = _field(payload, "s", int)
    hand = _field(payload, "h", int)
    kind = _field(payload, "t", str)
    if len(game_id) != GAME_ID_SIZE:
        why = Detail(N_("the game id has {count} bytes, not {game_id_size}"), count=len(game_id),
                     game_id_size=GAME_ID_SIZE)
        raise DecodeError(Check.HEADER, why)
    if not 0 <= seq <= _MAX_SEQUENCE:
        raise DecodeError(Check.HEADER, Detail(N_("sequence number {seq} is out of range"), seq=seq))
    if len(prev) != HASH_SIZE:
        why = Detail(N_("the previous hash has {count} bytes, not {hash_size}"), count=len(prev),
                     hash_size=HASH_SIZE)
        raise DecodeError(Check.HEADER, why)
    if seq == 0 and prev != ZERO_HASH:
        why = Detail(N_("the genesis (sequence 0) must carry 32 zero bytes as previous hash"))
        raise DecodeError(Check.HEADER, why)
    if not 0 <= seat <= MAX_SEAT:
        why = Detail(N_("seat {seat} is out of range 0..{max_seat}"), seat=seat, max_seat=MAX_SEAT)
        raise DecodeError(Check.HEADER, why)
    if not 0 <= hand <= _MAX_SEQUENCE:
        raise DecodeError(Check.HEADER, Detail(N_("hand number {hand} is out of range"), hand=hand))
    if not 1 <= len(kind) <= MAX_MESSAGE_TYPE or not all("!" <= c <= "~" for c in kind):
        why = Detail(N_("message type {kind} is not 1..{max_message_type} visible ASCII characters"),
                     kind=repr(kind), max_message_type=MAX_MESSAGE_TYPE)
        raise DecodeError(Check.HEADER, why)
    return Header(game_id=game_id, seq=seq, prev=prev, seat=seat, hand=hand, type=kind)
