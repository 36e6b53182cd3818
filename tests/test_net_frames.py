"""The net-level frame codec: every message round-trips, and every malformed frame is refused clearly."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pspades.net.frames import (
    MAX_BATCH,
    MAX_FRAME,
    BadFrame,
    Entries,
    Entry,
    Get,
    Hello,
    Ping,
    Pong,
    decode_message,
    encode_message,
    pack,
)

seqs = st.integers(0, 2**32 - 1)
raws = st.binary(min_size=1, max_size=300)


@st.composite
def hellos(draw: st.DrawFn) -> Hello:
    seq = draw(seqs)
    head = b"" if seq == 0 else draw(st.binary(min_size=32, max_size=32))
    return Hello(draw(st.binary(min_size=8, max_size=64)), draw(st.integers(0, 7)), seq, head)


@st.composite
def gets(draw: st.DrawFn) -> Get:
    start = draw(st.integers(0, 2**32 - 2))
    return Get(start, draw(st.integers(start + 1, min(start + MAX_BATCH, 2**32))))


messages = st.one_of(
    hellos(),
    raws.map(Entry),
    gets(),
    st.builds(Entries, seqs, st.lists(raws, max_size=5).map(tuple)),
    seqs.map(Ping),
    seqs.map(Pong),
)


@settings(max_examples=200, deadline=None)
@given(messages)
def test_every_message_round_trips(message: object) -> None:
    assert decode_message(encode_message(message)) == message  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_garbage_is_refused_or_parsed_never_crashes(data: bytes) -> None:
    try:
        message = decode_message(data)
    except BadFrame:
        return
    assert encode_message(message) == data


def bad(obj: object) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b"\xc1", "not valid msgpack"),
        (bad([1, 2]), "not a map"),
        (bad({"k": "nope"}), "unknown message kind"),
        (bad({"k": 7}), "unknown message kind"),
        (pack({"e": b"x", "k": "entry", "z": 1}), "exactly the fields"),
        (pack({"e": "text", "k": "entry"}), "entry must be"),
        (pack({"e": b"", "k": "entry"}), "entry must be"),
        (pack({"k": "ping", "t": True}), "token must be an integer"),
        (pack({"k": "ping", "t": -1}), "token must be an integer"),
        (pack({"a": 5, "b": 5, "k": "get"}), "stop must be"),
        (pack({"a": 0, "b": MAX_BATCH + 1, "k": "get"}), "stop must be"),
        (pack({"a": 0, "e": b"x", "k": "entries"}), "must be a list"),
        (pack({"g": b"g" * 16, "h": b"", "k": "hello", "n": 3, "s": 1, "v": 1}), "head must be empty"),
        (pack({"g": b"g" * 16, "h": b"", "k": "hello", "n": 0, "s": 9, "v": 1}), "seat must be"),
        (bad({"t": 1, "k": "ping"}), "unsorted map key"),
        (b"\x82\xa1k\xa4ping\xa1k\xa4ping", "duplicate map key"),
        (bad({"k": "ping", "t": 1.5}), "floats are not allowed"),
        (bad({"k": "ping", "t": msgpack.ExtType(1, b"x")}), "extension|not valid msgpack"),
        (pack({"k": "ping", "t": 1}) + b"\x00", "bytes after the end"),
        (b"\x82\xa1k\xa4ping\xa1t\xcc\x01", "canonical form"),
        (b"\x82\xa1k\xa4ping\xa1t" + b"\x91" * 20 + b"\x80", "nested deeper"),
        (b"\x91" * 5000 + b"\x80", "not valid msgpack"),
    ],
)
def test_malformed_frames_are_refused_with_a_reason(data: bytes, why: str) -> None:
    with pytest.raises(BadFrame, match=why):
        decode_message(data)


def test_oversized_frame_is_refused_before_decoding() -> None:
    with pytest.raises(BadFrame, match="exceeds the limit"):
        decode_message(pack({"e": b"x" * MAX_FRAME, "k": "entry"}))


def test_messages_check_their_own_fields() -> None:
    with pytest.raises(BadFrame):
        Hello(b"short", 0, 0, b"")
    with pytest.raises(BadFrame):
        Entries(0, tuple([b"x"] * (MAX_BATCH + 1)))
