"""The group layer: the hash, card points, multiplication and the validation of points and scalars."""

from __future__ import annotations

import hashlib

import nacl.bindings as sodium
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pspades import crypto
from p2pspades.crypto import BadPoint, BadScalar, CryptoUsageError
from p2pspades.errors import RemoteError
from p2pspades.rules import FULL_DECK

FIELD_P = 2**255 - 19
L = crypto.L

GOOD = sodium.crypto_core_ed25519_from_uniform(hashlib.sha256(b"a good point").digest())
SCALAR = sodium.crypto_core_ed25519_scalar_reduce(hashlib.sha512(b"a scalar").digest())
#: a point of order 8 (from the list of small-order encodings every Ed25519 implementation refuses)
ORDER_8 = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")

BAD_POINTS = {
    "identity": crypto.IDENTITY,
    "identity with the sign bit set": bytes([1] + [0] * 30 + [0x80]),
    "order 2": (FIELD_P - 1).to_bytes(32, "little"),
    "order 4": bytes(32),
    "order 8": ORDER_8,
    "torsion component": sodium.crypto_core_ed25519_add(GOOD, ORDER_8),
    "non-canonical y = p + 1 (the identity)": (FIELD_P + 1).to_bytes(32, "little"),
    "non-canonical y = 2^255 - 1": ((1 << 255) - 1).to_bytes(32, "little"),
    "not on the curve": (2).to_bytes(32, "little"),
    "31 bytes": GOOD[:31],
    "33 bytes": GOOD + b"\x00",
    "empty": b"",
}

EXPECTED_REASON = {
    "identity": "identity",
    "identity with the sign bit set": "the identity",
    "order 2": "small order",
    "order 4": "small order",
    "order 8": "small order",
    "torsion component": "torsion",
    "non-canonical y = p + 1 (the identity)": "non-canonical",
    "non-canonical y = 2^255 - 1": "non-canonical",
    "not on the curve": "not a point on the curve",
    "31 bytes": "32 bytes",
    "33 bytes": "32 bytes",
    "empty": "32 bytes",
}


class _Card:
    def __init__(self, code: str) -> None:
        self.code = code


# --- H ---


def test_h_is_sha512_over_length_prefixed_domain_and_parts() -> None:
    expected = hashlib.sha512(
        b"\x00\x00\x00\x05dom\xc3\xa9" + b"\x00\x00\x00\x02ab" + b"\x00\x00\x00\x00" + b"\x00\x00\x00\x01c"
    ).digest()
    assert crypto.H("domé", b"ab", b"", b"c") == expected


def test_h_separates_part_boundaries_and_domains() -> None:
    assert crypto.H("d", b"ab", b"c") != crypto.H("d", b"a", b"bc")
    assert crypto.H("d", b"abc") != crypto.H("d", b"abc", b"")
    assert crypto.H("d1", b"x") != crypto.H("d2", b"x")
    assert len(crypto.H("d")) == 64


# --- card points ---


def test_card_point_is_from_uniform_of_the_card_hash() -> None:
    digest = hashlib.sha512(b"\x00\x00\x00\x11p2pspades/v1/card" + b"\x00\x00\x00\x02TS").digest()
    assert crypto.card_point("TS") == sodium.crypto_core_ed25519_from_uniform(digest[:32])


def test_card_points_are_valid_and_distinct() -> None:
    codes = [r + s for s in "SHDC" for r in "23456789TJQKA"] + ["LJ", "BJ"]
    points = [crypto.card_point(code) for code in codes]
    assert len(set(points)) == 54
    for point in points:
        assert crypto.check_point(point) == point


def test_card_table_maps_points_back_to_cards() -> None:
    deck = [_Card(code) for code in ("AS", "KH", "2C", "BJ")]
    table = crypto.card_table(deck)
    assert len(table) == 4
    for card in deck:
        assert table[crypto.card_point(card.code)] is card


def test_card_table_refuses_a_card_twice() -> None:
    with pytest.raises(CryptoUsageError, match="AS appears twice"):
        crypto.card_table([_Card("AS"), _Card("KH"), _Card("AS")])


def test_card_point_refuses_non_ascii_codes() -> None:
    with pytest.raises(CryptoUsageError, match="ASCII"):
        crypto.card_point("A♠")


def test_card_table_accepts_the_rules_cards() -> None:
    table = crypto.card_table(FULL_DECK)
    assert len(table) == len(FULL_DECK) == 54
    assert table[crypto.card_point("AS")].code == "AS"


# --- scalars ---


def test_reduce_wide_matches_libsodium() -> None:
    for i in range(20):
        wide = hashlib.sha512(bytes([i])).digest()
        assert crypto.reduce_wide(wide) == sodium.crypto_core_ed25519_scalar_reduce(wide)


def test_invert_is_the_inverse_mod_l() -> None:
    inverse = crypto.invert(SCALAR)
    assert sodium.crypto_core_ed25519_scalar_mul(SCALAR, inverse) == (1).to_bytes(32, "little")
    assert inverse == sodium.crypto_core_ed25519_scalar_invert(SCALAR)


@pytest.mark.parametrize(
    ("scalar", "reason"),
    [
        (bytes(32), "zero"),
        (L.to_bytes(32, "little"), "non-canonical"),
        ((L + 5).to_bytes(32, "little"), "non-canonical"),
        (b"\xff" * 32, "non-canonical"),
        (b"\x01" * 31, "32 bytes"),
        (b"\x01" * 33, "32 bytes"),
    ],
)
def test_check_scalar_refuses(scalar: bytes, reason: str) -> None:
    with pytest.raises(BadScalar, match=reason) as info:
        crypto.check_scalar(scalar)
    assert isinstance(info.value, RemoteError)
    assert info.value.check == "bad-scalar"


def test_check_scalar_accepts_the_extremes() -> None:
    one = (1).to_bytes(32, "little")
    top = (L - 1).to_bytes(32, "little")
    assert crypto.check_scalar(one) == one
    assert crypto.check_scalar(top) == top


def test_mul_refuses_bad_scalars() -> None:
    with pytest.raises(BadScalar, match="zero"):
        crypto.mul(bytes(32), GOOD)
    with pytest.raises(BadScalar, match="non-canonical"):
        crypto.mul(L.to_bytes(32, "little"), GOOD)
    with pytest.raises(BadScalar, match="32 bytes"):
        crypto.mul(SCALAR[:31], GOOD)


# --- points ---


def test_mul_matches_libsodium_and_composes() -> None:
    assert crypto.mul(SCALAR, GOOD) == sodium.crypto_scalarmult_ed25519_noclamp(SCALAR, GOOD)
    inverse = crypto.invert(SCALAR)
    assert crypto.mul(inverse, crypto.mul(SCALAR, GOOD)) == GOOD


@pytest.mark.parametrize("name", sorted(BAD_POINTS))
def test_mul_refuses_bad_points(name: str) -> None:
    with pytest.raises(BadPoint, match=EXPECTED_REASON[name]) as info:
        crypto.mul(SCALAR, BAD_POINTS[name])
    assert info.value.check == "bad-point"


@pytest.mark.parametrize("name", sorted(BAD_POINTS))
def test_check_point_refuses_bad_points(name: str) -> None:
    with pytest.raises(BadPoint, match=EXPECTED_REASON[name]):
        crypto.check_point(BAD_POINTS[name])


@pytest.mark.parametrize("name", sorted(BAD_POINTS))
def test_explain_bad_point_gives_the_reason(name: str) -> None:
    reason = crypto.explain_bad_point(BAD_POINTS[name])
    assert reason is not None
    assert EXPECTED_REASON[name] in reason


@pytest.mark.parametrize("name", sorted(BAD_POINTS))
def test_open_card_refuses_bad_points(name: str) -> None:
    table = crypto.card_table([_Card("AS")])
    with pytest.raises(BadPoint, match=EXPECTED_REASON[name]):
        crypto.open_card(BAD_POINTS[name], [SCALAR, SCALAR], table)


def test_mul_many_names_the_first_bad_position() -> None:
    points = [GOOD, GOOD, crypto.IDENTITY, ORDER_8]
    with pytest.raises(BadPoint, match="position 2: the identity") as info:
        crypto.mul_many([SCALAR] * 4, points)
    assert info.value.position == 2


def test_points_that_are_not_bytes_are_bad_points() -> None:
    with pytest.raises(BadPoint, match="not bytes"):
        crypto.mul(SCALAR, bytearray(GOOD))  # type: ignore[arg-type]
    with pytest.raises(BadPoint, match="not bytes"):
        crypto.check_point("x" * 32)  # type: ignore[arg-type]
    with pytest.raises(BadPoint):
        crypto.mul(SCALAR, None)  # type: ignore[arg-type]


def test_a_valid_point_has_no_explanation() -> None:
    assert crypto.explain_bad_point(GOOD) is None
    negated = GOOD[:31] + bytes([GOOD[31] ^ 0x80])  # -P is a valid point too
    assert crypto.explain_bad_point(negated) is None
    assert crypto.mul(SCALAR, negated) != crypto.mul(SCALAR, GOOD)


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=32, max_size=32))
def test_any_32_bytes_multiply_or_fail_with_bad_point(data: bytes) -> None:
    try:
        out = crypto.mul(SCALAR, data)
    except BadPoint as exc:
        assert exc.detail
        assert not sodium.crypto_core_ed25519_is_valid_point(data)
    else:
        assert sodium.crypto_core_ed25519_is_valid_point(data)
        assert sodium.crypto_core_ed25519_is_valid_point(out)


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=0, max_size=40))
def test_check_point_agrees_with_libsodium(data: bytes) -> None:
    valid = len(data) == 32 and sodium.crypto_core_ed25519_is_valid_point(data)
    if valid:
        assert crypto.check_point(data) == data
    else:
        with pytest.raises(BadPoint):
            crypto.check_point(data)


@settings(max_examples=100, deadline=None)
@given(st.binary(min_size=32, max_size=32))
def test_any_32_byte_scalar_is_checked_exactly(data: bytes) -> None:
    value = int.from_bytes(data, "little")
    if 0 < value < L:
        assert crypto.check_scalar(data) == data
        assert crypto.mul(data, GOOD) == sodium.crypto_scalarmult_ed25519_noclamp(data, GOOD)
    else:
        with pytest.raises(BadScalar):
            crypto.check_scalar(data)
        with pytest.raises(BadScalar):
            crypto.mul(data, GOOD)


@settings(max_examples=100, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.binary(min_size=32, max_size=32))
def test_mul_of_arbitrary_inputs_raises_only_remote_errors(scalar: bytes, point: bytes) -> None:
    try:
        out = crypto.mul(scalar, point)
    except (BadPoint, BadScalar) as exc:
        assert isinstance(exc, RemoteError)
    else:
        assert sodium.crypto_core_ed25519_is_valid_point(out)
