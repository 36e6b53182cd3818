"""Signed envelopes: what one peer seals, every other peer opens to the same payload, hash and signer."""

from __future__ import annotations

import hashlib
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pspades.crypto import Identity, verify_signature
from p2pspades.errors import RemoteError
from p2pspades.log import (
    ENVELOPE_VERSION,
    MAX_ENVELOPE,
    MAX_PAYLOAD,
    ZERO_HASH,
    BadSignature,
    DecodeError,
    EncodeError,
    Envelope,
    Header,
    check_signature,
    encode,
    entry_hash,
    open_envelope,
    seal,
    validate_header,
)

ALICE = Identity.from_seed(bytes(range(32)))
BOB = Identity.from_seed(bytes(range(32, 64)))
GAME = bytes.fromhex("00112233445566778899aabbccddeeff")


def header(**fields: Any) -> dict[str, Any]:
    payload: dict[str, Any] = {"g": GAME, "n": 1, "p": b"\x11" * 32, "s": 2, "h": 1, "t": "bid"}
    payload.update(fields)
    return payload


def test_an_envelope_is_version_payload_signature_in_canonical_msgpack() -> None:
    payload = header(b=3)
    raw = seal(payload, ALICE)
    payload_raw = encode(payload)
    signature = ALICE.sign(payload_raw)
    assert raw == b"\x93\x01" + b"\xc4" + bytes([len(payload_raw)]) + payload_raw + b"\xc4\x40" + signature
    assert verify_signature(ALICE.public, signature, payload_raw)


def test_a_long_payload_gets_a_bin16_header() -> None:
    payload = header(d=[bytes([i]) * 32 for i in range(54)])
    raw = seal(payload, ALICE)
    payload_raw = encode(payload)
    assert raw[:5] == b"\x93\x01\xc5" + len(payload_raw).to_bytes(2, "big")
    assert open_envelope(raw).payload == payload


def test_open_gives_back_the_exact_bytes_payload_and_hash() -> None:
    raw = seal(header(b=3), ALICE)
    env = open_envelope(raw)
    assert env.raw == raw
    assert env.payload == header(b=3)
    assert env.payload_raw == encode(header(b=3))
    assert env.hash == hashlib.sha256(raw).digest() == entry_hash(raw)
    assert env.signature == ALICE.sign(env.payload_raw)
    check_signature(env, ALICE.public)


def test_signatures_are_deterministic_so_sealing_twice_gives_the_same_entry() -> None:
    assert seal(header(b=3), ALICE) == seal(dict(reversed(header(b=3).items())), ALICE)


def test_a_signature_by_someone_else_is_refused() -> None:
    env = open_envelope(seal(header(b=3), BOB))
    with pytest.raises(BadSignature) as info:
        check_signature(env, ALICE.public)
    assert isinstance(info.value, RemoteError)
    assert info.value.check == "signature"


def test_a_signature_moved_to_another_payload_is_refused() -> None:
    first = open_envelope(seal(header(b=3), ALICE))
    second = open_envelope(seal(header(b=4), ALICE))
    forged = msgpack.packb([1, second.payload_raw, first.signature], use_bin_type=True)
    with pytest.raises(BadSignature):
        check_signature(open_envelope(forged), ALICE.public)


def test_a_malleated_signature_is_refused() -> None:
    """S + L passes lax verifiers; accepting it would let anyone make a second valid envelope of one entry,
    which would look like equivocation by its signer."""
    order = 2**252 + 27742317777372353535851937790883648493
    env = open_envelope(seal(header(b=3), ALICE))
    s = int.from_bytes(env.signature[32:], "little") + order
    malleated = env.signature[:32] + s.to_bytes(32, "little")
    with pytest.raises(BadSignature):
        check_signature(open_envelope(frame(1, env.payload_raw, malleated)), ALICE.public)


def test_a_bad_public_key_is_a_bad_signature_not_a_crash() -> None:
    env = open_envelope(seal(header(b=3), ALICE))
    for public in (b"", b"\x00" * 31, b"\xff" * 32, b"\x00" * 32):
        with pytest.raises(BadSignature):
            check_signature(env, public)


def test_envelopes_compare_and_hash_by_their_bytes() -> None:
    one = open_envelope(seal(header(b=3), ALICE))
    again = open_envelope(bytes(one.raw))
    other = open_envelope(seal(header(b=4), ALICE))
    assert one == again and hash(one) == hash(again)
    assert one != other
    assert isinstance(one, Envelope) and one.hash.hex()[:16] in repr(one)


def frame(*items: Any) -> bytes:
    return msgpack.packb(list(items), use_bin_type=True)  # type: ignore[no-any-return]


GOOD_PAYLOAD = encode(header(b=3))
GOOD_SIGNATURE = ALICE.sign(GOOD_PAYLOAD)


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        (b"", "empty"),
        (frame(2, GOOD_PAYLOAD, GOOD_SIGNATURE), "unsupported envelope version 2"),
        (frame(0, GOOD_PAYLOAD, GOOD_SIGNATURE), "unsupported envelope version 0"),
        (frame(True, GOOD_PAYLOAD, GOOD_SIGNATURE), "bool, not an int"),
        (frame("1", GOOD_PAYLOAD, GOOD_SIGNATURE), "str, not an int"),
        (frame(1, GOOD_PAYLOAD), "3 elements, not 2"),
        (frame(1, GOOD_PAYLOAD, GOOD_SIGNATURE, b""), "3 elements, not 4"),
        (frame(), "non-empty array"),
        (msgpack.packb({"v": 1}), "not a dict"),
        (b"\x01", "not a int"),
        (frame(1, GOOD_PAYLOAD.decode("latin-1"), GOOD_SIGNATURE), "payload is a str"),
        (frame(1, [GOOD_PAYLOAD], GOOD_SIGNATURE), "payload is a list"),
        (frame(1, GOOD_PAYLOAD, None), "signature is a NoneType"),
        (frame(1, GOOD_PAYLOAD, GOOD_SIGNATURE[:63]), "63 bytes"),
        (frame(1, GOOD_PAYLOAD, GOOD_SIGNATURE + b"\x00"), "65 bytes"),
        (frame(1, GOOD_PAYLOAD, GOOD_SIGNATURE) + b"\x00", "after the end"),
        (frame(1, GOOD_PAYLOAD, GOOD_SIGNATURE)[:-1], "msgpack"),
        (b"\x93\xcc\x01" + frame(1, GOOD_PAYLOAD, GOOD_SIGNATURE)[2:], "canonical"),
        (b"\xdc\x00\x03" + frame(1, GOOD_PAYLOAD, GOOD_SIGNATURE)[1:], "canonical"),
        (b"\x93\x01\xc5\x00" + frame(1, GOOD_PAYLOAD, GOOD_SIGNATURE)[3:], "canonical"),
        (b"\x93\x01\xc4" + bytes([len(GOOD_PAYLOAD)]) + GOOD_PAYLOAD + b"\xc5\x00\x40" + GOOD_SIGNATURE,
         "canonical"),
        (frame(1, GOOD_PAYLOAD, "x" * 64), "signature is a str"),
        (b"\x93\x01\xc4" + bytes([len(GOOD_PAYLOAD)]) + GOOD_PAYLOAD + b"\xd9\x40" + b"\xff" * 64, "utf-8"),
        (b"\x93\x01\xd6\x01" + b"\x00" * 4 + b"\xc4\x00", "ext"),
    ],
)
def test_malformed_envelopes_are_refused(raw: bytes, why: str) -> None:
    with pytest.raises(DecodeError, match=why) as info:
        open_envelope(raw)
    assert info.value.check == "envelope"


def test_a_non_canonical_payload_inside_a_good_frame_is_refused() -> None:
    unsorted = bytes.fromhex("82a16201a16102")
    with pytest.raises(DecodeError, match="unsorted") as info:
        open_envelope(frame(1, unsorted, ALICE.sign(unsorted)))
    assert info.value.check == "encoding"


def test_size_limits() -> None:
    biggest = header(x=b"")
    biggest["x"] = b"\x00" * (MAX_PAYLOAD - len(encode(biggest)) - 1)  # bin 16's header is one byte longer
    raw = seal(biggest, ALICE)
    assert len(encode(biggest)) == MAX_PAYLOAD
    assert len(raw) == MAX_ENVELOPE
    assert open_envelope(raw).payload == biggest
    biggest["x"] += b"\x00"
    with pytest.raises(EncodeError, match="over the limit"):
        seal(biggest, ALICE)
    with pytest.raises(DecodeError, match="over the limit"):
        open_envelope(raw + b"\x00")
    with pytest.raises(DecodeError, match="over the limit of 100"):
        open_envelope(seal(header(), ALICE), max_size=100)


def test_seal_refuses_what_cannot_be_encoded_or_signed() -> None:
    with pytest.raises(EncodeError, match="float"):
        seal(header(x=0.5), ALICE)
    with pytest.raises(EncodeError, match="not a list"):
        seal([1, 2], ALICE)  # type: ignore[arg-type]

    class Broken:
        def sign(self, data: bytes) -> bytes:
            return b"\x00" * 63

    with pytest.raises(EncodeError, match="64 bytes"):
        seal(header(), Broken())


def test_every_single_bit_flip_of_an_envelope_is_caught() -> None:
    raw = seal(header(b=3, w="♠"), ALICE)
    for bit in range(8 * len(raw)):
        flipped = bytearray(raw)
        flipped[bit // 8] ^= 1 << (bit % 8)
        try:
            check_signature(open_envelope(bytes(flipped)), ALICE.public)
        except (DecodeError, BadSignature):
            continue
        pytest.fail(f"flipping bit {bit} gave an envelope that still opens and verifies")


@given(st.binary(max_size=300))
@settings(max_examples=800, deadline=None)
def test_arbitrary_bytes_give_an_envelope_or_a_decode_error(raw: bytes) -> None:
    try:
        env = open_envelope(raw)
    except DecodeError as exc:
        assert exc.check in ("envelope", "encoding")
        return
    assert env.raw == raw


@given(st.binary(min_size=1, max_size=120), st.integers(0, 255), st.data())
@settings(max_examples=500, deadline=None)
def test_damaged_envelopes_give_an_envelope_or_a_decode_error(
    junk: bytes, byte: int, data: st.DataObject
) -> None:
    raw = bytearray(seal(header(b=3), ALICE))
    at = data.draw(st.integers(0, len(raw) - 1))
    kind = data.draw(st.sampled_from(["set", "splice", "cut"]))
    if kind == "set":
        raw[at] = byte
    elif kind == "splice":
        raw[at : at + data.draw(st.integers(0, 8))] = junk
    else:
        del raw[at:]
    try:
        env = open_envelope(bytes(raw))
    except DecodeError:
        return
    assert env.raw == bytes(raw)
    assert msgpack.unpackb(env.raw) == [ENVELOPE_VERSION, env.payload_raw, env.signature]


# --- the header every payload carries -----------------------------------------------------------------------


def test_a_header_is_read_from_the_common_fields() -> None:
    assert validate_header(header(b=3)) == Header(GAME, 1, b"\x11" * 32, 2, 1, "bid")
    genesis = validate_header(header(n=0, p=ZERO_HASH, h=0, s=0, t="genesis"))
    assert (genesis.seq, genesis.prev, genesis.hand) == (0, bytes(32), 0)


@pytest.mark.parametrize("missing", ["g", "n", "p", "s", "h", "t"])
def test_every_header_field_is_required(missing: str) -> None:
    payload = header()
    del payload[missing]
    with pytest.raises(DecodeError, match=f"no '{missing}' field") as info:
        validate_header(payload)
    assert info.value.check == "header"


@pytest.mark.parametrize(
    ("fields", "why"),
    [
        ({"g": GAME[:15]}, "15 bytes"),
        ({"g": GAME.hex()}, "str, not bytes"),
        ({"n": True}, "bool, not int"),
        ({"n": -1}, "out of range"),
        ({"n": "1"}, "str, not int"),
        ({"p": b"\x11" * 31}, "31 bytes"),
        ({"p": None}, "NoneType, not bytes"),
        ({"n": 0, "p": b"\x11" * 32}, "zero bytes"),
        ({"s": -1}, "seat -1"),
        ({"s": 16}, "seat 16"),
        ({"s": False}, "bool, not int"),
        ({"h": -1}, "hand number"),
        ({"t": ""}, "message type"),
        ({"t": "x" * 33}, "message type"),
        ({"t": "a b"}, "message type"),
        ({"t": b"bid"}, "bytes, not str"),
    ],
)
def test_malformed_headers_are_refused(fields: dict[str, Any], why: str) -> None:
    with pytest.raises(DecodeError, match=why) as info:
        validate_header(header(**fields))
    assert info.value.check == "header"
