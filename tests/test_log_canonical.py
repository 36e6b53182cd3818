"""Canonical msgpack: one encoding per value, and every other byte string refused with a DecodeError."""

from __future__ import annotations

import struct
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2pspades.errors import LocalError, RemoteError
from p2pspades.log import (
    MAX_DEPTH,
    MAX_INT,
    MAX_ITEMS,
    MAX_KEY_LENGTH,
    MAX_PAYLOAD,
    MIN_INT,
    DecodeError,
    EncodeError,
    decode,
    encode,
)

# --- an independent encoder, written from protocol/encoding.md alone ----------------------------------------


def reference_encode(value: Any) -> bytes:
    """The canonical encoding as the spec describes it, without msgpack-python."""
    if value is None:
        return b"\xc0"
    if value is False:
        return b"\xc2"
    if value is True:
        return b"\xc3"
    if isinstance(value, int):
        return _reference_int(value)
    if isinstance(value, str):
        data = value.encode("utf-8")
        n = len(data)
        if n < 32:
            return bytes([0xA0 | n]) + data
        return _sized(n, (0xD9, 0xDA, 0xDB)) + data
    if isinstance(value, bytes):
        return _sized(len(value), (0xC4, 0xC5, 0xC6)) + value
    if isinstance(value, list):
        head = bytes([0x90 | len(value)]) if len(value) < 16 else _sized(len(value), (None, 0xDC, 0xDD))
        return head + b"".join(reference_encode(item) for item in value)
    if isinstance(value, dict):
        n = len(value)
        head = bytes([0x80 | n]) if n < 16 else _sized(n, (None, 0xDE, 0xDF))
        keys = sorted(value, key=lambda k: k.encode("utf-8"))
        return head + b"".join(reference_encode(k) + reference_encode(value[k]) for k in keys)
    raise AssertionError(f"no reference encoding for {value!r}")


def _reference_int(value: int) -> bytes:
    """An integer in the smallest of the spec's forms."""
    if 0 <= value <= 0x7F:
        return bytes([value])
    if -32 <= value < 0:
        return struct.pack(">b", value)
    if value > 0:
        for tag, fmt, top in ((0xCC, ">B", 2**8), (0xCD, ">H", 2**16), (0xCE, ">I", 2**32)):
            if value < top:
                return bytes([tag]) + struct.pack(fmt, value)
        return b"\xcf" + struct.pack(">Q", value)
    for tag, fmt, bottom in ((0xD0, ">b", -(2**7)), (0xD1, ">h", -(2**15)), (0xD2, ">i", -(2**31))):
        if value >= bottom:
            return bytes([tag]) + struct.pack(fmt, value)
    return b"\xd3" + struct.pack(">q", value)


def _sized(n: int, tags: tuple[int | None, int, int]) -> bytes:
    if n < 2**8 and tags[0] is not None:
        return bytes([tags[0], n])
    if n < 2**16:
        return bytes([tags[1]]) + struct.pack(">H", n)
    return bytes([tags[2]]) + struct.pack(">I", n)


def same(a: Any, b: Any) -> bool:
    """Equal with the same types all the way down (so True is not 1, and b"" is not "")."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return set(a) == set(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


# --- strategies ---------------------------------------------------------------------------------------------

keys = st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1,
               max_size=MAX_KEY_LENGTH)
scalars = (
    st.none()
    | st.booleans()
    | st.integers(MIN_INT, MAX_INT)
    | st.integers(-300, 300)
    | st.text(max_size=40)
    | st.binary(max_size=40)
)


def values_at(depth: int) -> st.SearchStrategy[Any]:
    """Values that may sit at nesting `depth` (the top-level map is depth 1)."""
    if depth >= MAX_DEPTH:
        return scalars
    inner = st.deferred(lambda: values_at(depth + 1))
    return scalars | st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4)


payloads = st.dictionaries(keys, values_at(1), max_size=6)


# --- encoding -----------------------------------------------------------------------------------------------


def test_keys_are_sorted_by_their_bytes_and_nothing_else_changes() -> None:
    assert encode({"b": 1, "a": -1}) == bytes.fromhex("82 a161 ff a162 01")
    # "A" (0x41) < "_" (0x5f) < "a" (0x61) < "a1" < "ab": byte order, not case-insensitive order
    assert list(decode(encode({"ab": 0, "_": 0, "a1": 0, "A": 0, "a": 0}))) == ["A", "_", "a", "a1", "ab"]


@pytest.mark.parametrize(
    ("value", "wire"),
    [
        (0, "00"), (127, "7f"), (128, "cc80"), (255, "ccff"), (256, "cd0100"), (65535, "cdffff"),
        (65536, "ce00010000"), (2**32 - 1, "ceffffffff"), (2**32, "cf0000000100000000"),
        (2**64 - 1, "cfffffffffffffffff"), (-1, "ff"), (-32, "e0"), (-33, "d0df"), (-128, "d080"),
        (-129, "d1ff7f"), (-(2**15), "d18000"), (-(2**15) - 1, "d2ffff7fff"), (-(2**31), "d280000000"),
        (-(2**31) - 1, "d3ffffffff7fffffff"), (-(2**63), "d38000000000000000"),
        ("", "a0"), ("a" * 31, "bf" + "61" * 31), ("a" * 32, "d920" + "61" * 32), ("♠", "a3e299a0"),
        (b"", "c400"), (b"\x01" * 256, "c50100" + "01" * 256),
        (True, "c3"), (False, "c2"), (None, "c0"),
        ([], "90"), ([0] * 15, "9f" + "00" * 15), ([0] * 16, "dc0010" + "00" * 16), ({}, "80"),
    ],
)
def test_every_value_uses_its_smallest_encoding(value: Any, wire: str) -> None:
    assert encode({"v": value}) == bytes.fromhex("81a176" + wire)
    assert same(decode(bytes.fromhex("81a176" + wire)), {"v": value})


def test_a_map_with_sixteen_keys_uses_map16() -> None:
    payload = {f"k{i:02}": i for i in range(16)}
    assert encode(payload)[:3] == bytes.fromhex("de0010")
    assert same(decode(encode(payload)), payload)


@given(payloads)
@settings(max_examples=200, deadline=None)
def test_encoding_follows_the_written_rules_and_decode_inverts_it(payload: dict[str, Any]) -> None:
    raw = encode(payload)
    assert raw == reference_encode(payload)
    back = decode(raw)
    assert same(back, payload)
    assert list(back) == sorted(payload, key=str.encode)
    assert encode(back) == raw


@given(payloads, st.randoms(use_true_random=False))
@settings(max_examples=50, deadline=None)
def test_key_insertion_order_does_not_matter(payload: dict[str, Any], rnd: Any) -> None:
    items = list(payload.items())
    rnd.shuffle(items)
    assert encode(dict(items)) == encode(payload)


@pytest.mark.parametrize(
    ("value", "why"),
    [
        (1.5, "float"),
        (float("nan"), "float"),
        ((1, 2), "tuple"),
        ({1, 2}, "set"),
        (bytearray(b"x"), "bytearray"),
        (2**64, "outside"),
        (-(2**63) - 1, "outside"),
        ("\ud800", "Unicode"),
        (object(), "object"),
        (RemoteError, "type"),
        ([0] * (MAX_ITEMS + 1), "elements"),
    ],
)
def test_values_without_a_canonical_encoding_are_refused(value: Any, why: str) -> None:
    with pytest.raises(EncodeError, match=why):
        encode({"v": value})


@pytest.mark.parametrize(
    ("key", "why"),
    [(1, "int"), (b"k", "bytes"), ("", "0 characters"), ("k" * (MAX_KEY_LENGTH + 1), "33 characters"),
     ("é", "ASCII"), ("a b", "ASCII"), ("a\n", "ASCII"), (None, "NoneType")],
)
def test_bad_map_keys_are_refused(key: Any, why: str) -> None:
    with pytest.raises(EncodeError, match=why):
        encode({"v": {key: 1}})


def test_nesting_deeper_than_the_limit_is_refused_by_both_sides() -> None:
    deepest: Any = 0
    for _ in range(MAX_DEPTH - 1):
        deepest = [deepest]
    assert decode(encode({"v": deepest})) == {"v": deepest}
    with pytest.raises(EncodeError, match="deeper"):
        encode({"v": [deepest]})
    too_deep = bytes.fromhex("81a176") + b"\x91" * MAX_DEPTH + b"\x00"
    with pytest.raises(DecodeError, match="deeper"):
        decode(too_deep)


def test_a_list_that_contains_itself_is_refused_not_looped_on() -> None:
    loop: list[Any] = []
    loop.append(loop)
    with pytest.raises(EncodeError, match="deeper"):
        encode({"v": loop})


def test_enum_and_other_subclasses_are_refused_so_nothing_encodes_by_accident() -> None:
    import enum

    class Rank(enum.IntEnum):
        ACE = 14

    with pytest.raises(EncodeError, match="Rank"):
        encode({"r": Rank.ACE})


def test_encode_error_is_a_local_value_error() -> None:
    assert issubclass(EncodeError, LocalError)
    assert issubclass(EncodeError, ValueError)
    assert issubclass(DecodeError, RemoteError)


# --- decoding refuses everything else -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wire", "why"),
    [
        ("", "empty"),
        ("81a161ca00000000", "float"),
        ("81a161cb0000000000000000", "float"),
        ("81a161d40100", "ext"),
        ("81a161d6ff00000000", "ext"),
        ("81a161c70105aa", "ext"),
        ("810101", "map key"),
        ("81c4016101", "map key"),
        ("81a001", "0 characters"),
        ("81a2c3a901", "ASCII"),
        ("81a1200a", "ASCII"),
        ("82a16101a16102", "duplicate"),
        ("82a16201a16102", "unsorted"),
        ("81a161cc01", "canonical"),
        ("81a161d0ff", "canonical"),
        ("81a161d90161", "canonical"),
        ("81a161c50001ff", "canonical"),
        ("81a161dc000101", "canonical"),
        ("de0001a16101", "canonical"),
        ("9101", "not a map"),
        ("01", "not a map"),
        ("a161", "not a map"),
        ("8000", "after the end"),
        ("81a161", "incomplete"),
        ("81a161a1ff", "utf-8"),
        ("81a161c1", "msgpack"),
        ("81a161ddffffffff", "max_array_len"),
        ("81a161dfffffffff", "max_map_len"),
        ("81a161dbffffffff", "incomplete"),
        ("81a161c6ffffffff", "incomplete"),
    ],
)
def test_non_canonical_or_malformed_bytes_are_refused(wire: str, why: str) -> None:
    with pytest.raises(DecodeError, match=why) as info:
        decode(bytes.fromhex(wire))
    assert info.value.check == "encoding"


def test_size_limit_is_checked_before_parsing() -> None:
    raw = encode({"v": b"x" * (MAX_PAYLOAD - 10)})
    assert len(raw) <= MAX_PAYLOAD
    assert decode(raw)["v"] == b"x" * (MAX_PAYLOAD - 10)
    with pytest.raises(DecodeError, match="over the limit"):
        decode(encode({"v": b"x" * MAX_PAYLOAD}))
    with pytest.raises(DecodeError, match="over the limit of 10"):
        decode(encode({"v": b"x" * 10}), max_size=10)


def test_a_container_longer_than_the_limit_is_refused_before_it_is_built() -> None:
    ok = bytes.fromhex("81a176dc") + struct.pack(">H", MAX_ITEMS) + b"\x00" * MAX_ITEMS
    assert len(decode(ok)["v"]) == MAX_ITEMS
    long = bytes.fromhex("81a176dc") + struct.pack(">H", MAX_ITEMS + 1) + b"\x00" * (MAX_ITEMS + 1)
    with pytest.raises(DecodeError, match="max_array_len"):
        decode(long)


def test_decode_needs_bytes() -> None:
    with pytest.raises(TypeError, match="bytes"):
        decode("81a16101")  # type: ignore[arg-type]
    assert decode(bytearray(b"\x81\xa1a\x01")) == {"a": 1}


def _accepted_only_if_canonical(raw: bytes) -> None:
    try:
        value = decode(raw)
    except DecodeError as exc:
        assert exc.check == "encoding" and exc.detail
        return
    assert isinstance(value, dict)
    assert encode(value) == raw
    assert reference_encode(value) == raw


@given(st.binary(max_size=200))
@settings(max_examples=1000, deadline=None)
def test_arbitrary_bytes_give_a_value_or_a_decode_error(raw: bytes) -> None:
    _accepted_only_if_canonical(raw)


@given(st.binary(max_size=60).map(lambda b: bytes([0x80 | (len(b) % 16)]) + b))
@settings(max_examples=1000, deadline=None)
def test_arbitrary_bytes_behind_a_map_header_give_a_value_or_a_decode_error(raw: bytes) -> None:
    _accepted_only_if_canonical(raw)


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    raw = bytearray(encode(draw(payloads)))
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["flip", "set", "insert", "delete", "truncate"]))
        at = draw(st.integers(0, max(len(raw) - 1, 0)))
        if kind == "flip" and raw:
            raw[at] ^= 1 << draw(st.integers(0, 7))
        elif kind == "set" and raw:
            raw[at] = draw(st.integers(0, 255))
        elif kind == "insert":
            raw[at:at] = draw(st.binary(min_size=1, max_size=4))
        elif kind == "delete" and raw:
            del raw[at : at + draw(st.integers(1, 4))]
        elif kind == "truncate":
            del raw[at:]
    return bytes(raw)


@given(mutated())
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_mutated_encodings_give_a_value_or_a_decode_error(raw: bytes) -> None:
    _accepted_only_if_canonical(raw)


SAMPLE = {
    "b": [b"", b"\x00" * 3],
    "i": [127, 128, -33, 70000, MIN_INT],
    "m": {"A": None, "_": True, "z": False, "n": {"x": [[]]}},
    "s": ["", "♠", "x" * 32],
    "w": {f"k{i:x}": 0 for i in range(16)},
}
# every msgpack type tag, the edges of the fixed-size ranges, and whatever one bit flip gives
TAGS = {*range(0xC0, 0xE0), 0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xE0, 0xFF}


def test_every_tag_and_bit_flip_at_every_position_gives_a_value_or_a_decode_error() -> None:
    raw = encode(SAMPLE)
    for position, original in enumerate(raw):
        for byte in TAGS | {original ^ (1 << bit) for bit in range(8)}:
            _accepted_only_if_canonical(raw[:position] + bytes([byte]) + raw[position + 1 :])
        _accepted_only_if_canonical(raw[:position])
        _accepted_only_if_canonical(raw[:position] + raw[position + 1 :])


@given(payloads, st.data())
@settings(max_examples=100, deadline=None)
def test_a_single_bit_flip_never_yields_the_original_value(
    payload: dict[str, Any], data: st.DataObject
) -> None:
    raw = bytearray(encode(payload))
    bit = data.draw(st.integers(0, 8 * len(raw) - 1))
    raw[bit // 8] ^= 1 << (bit % 8)
    try:
        value = decode(bytes(raw))
    except DecodeError:
        return
    assert not same(value, decode(encode(payload)))


def test_hostile_nesting_is_refused() -> None:
    """Nested headers that each claim the most elements end at msgpack's stack limit, as a DecodeError."""
    raw = (b"\x81\xa1v" + (b"\xdc" + struct.pack(">H", MAX_ITEMS)) * 6000)[:MAX_PAYLOAD]
    with pytest.raises(DecodeError, match="msgpack"):
        decode(raw)
