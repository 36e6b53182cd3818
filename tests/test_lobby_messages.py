"""The lobby's typed messages: the exact wire maps, round trips of generated messages, and hostile payloads
that decode or are refused with one clear error, never anything else."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2pspades import crypto, log
from p2pspades.checks import Check
from p2pspades.net.lobby_messages import (
    LOBBY_VERSION,
    MAX_WHY,
    TYPES,
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
    decode,
    open_frame,
)
from p2pspades.net.lobby_seats import LobbySeat
from p2pspades.reasons import Closing, Objection, Refusal, Said
from p2pspades.rules import PRESETS, RuleSet, preset

ANN = crypto.Identity.from_seed(bytes(range(32)))
BO = crypto.Identity.from_seed(bytes(range(32, 64)))
LOBBY = bytes(range(16))
HASH = bytes(range(100, 132))


def sealed(identity: crypto.Identity, payload: dict[str, Any]) -> bytes:
    return log.seal(payload, identity)


# ------------------------------------------------------------------ the wire maps, written out by hand
def test_every_message_is_encoded_as_the_map_protocol_network_md_lists() -> None:
    rules = preset("two")
    seats = (LobbySeat(0, "Ann", ANN.public, "tcp://10.0.0.1:7000"),
             LobbySeat(1, "Bo's bot", BO.public, "tcp://10.0.0.2:7001", ANN.public))
    wire_seats = [{"e": "tcp://10.0.0.1:7000", "k": ANN.public, "n": "Ann", "o": None, "s": 0},
                  {"e": "tcp://10.0.0.2:7001", "k": BO.public, "n": "Bo's bot", "o": ANN.public, "s": 1}]
    table = {"l": LOBBY, "name": "Room", "pv": 2, "r": rules.to_dict(), "seats": wire_seats}
    cases: list[tuple[LobbyMessage, dict[str, Any]]] = [
        (Info(), {}),
        (Table(LOBBY, "Room", 2, rules, seats), table),
        (Start(LOBBY, "Room", 2, rules, seats, b"genesis"), {**table, "g": b"genesis"}),
        (Join(LOBBY, "Bo", "tcp://10.0.0.2:7001"), {"l": LOBBY, "name": "Bo", "e": "tcp://10.0.0.2:7001"}),
        (Join(LOBBY, "Bo", "tcp://h:1", ANN.public),
         {"l": LOBBY, "name": "Bo", "e": "tcp://h:1", "o": ANN.public}),
        (Refuse(Refusal.FULL), {"why": "full"}),
        (Accept(LOBBY, HASH), {"l": LOBBY, "x": HASH}),
        (Decline(LOBBY, HASH), {"l": LOBBY, "x": HASH}),
        (Decline(LOBBY, why=(Objection.SEATS, Objection.RULES)), {"l": LOBBY, "why": "seats,rules"}),
        (Leave(LOBBY), {"l": LOBBY}),
        (Go(HASH), {"x": HASH}),
        (Closed(Closing.CANCELLED), {"why": "cancelled"}),
    ]
    assert {type(m) for m, _ in cases} == set(TYPES.values()), "every type is written out here"
    for message, fields in cases:
        expected = sealed(BO, {"t": message.TYPE, "v": 2, "k": BO.public, **fields})
        assert message.encode(BO) == expected, message
        assert open_frame(expected) == Frame(BO.public, message)


# ------------------------------------------------------------------ generated messages
keys = st.binary(min_size=32, max_size=32).map(lambda seed: crypto.Identity.from_seed(seed).public)
names = st.text(min_size=1, max_size=32).filter(str.isprintable)
hosts = st.sampled_from(["127.0.0.1", "10.1.2.3", "peer.local", "[fe80::1]", "a-b.example"])
endpoints = st.builds(lambda h, p: f"tcp://{h}:{p}", hosts, st.integers(1, 65535))
whys = st.text(max_size=MAX_WHY)
#: a reason as an older peer words it (never one of our codes, which it would read as)
said = whys.filter(lambda text: text not in set(Refusal) | set(Closing)
                   and not set(text.split(",")) <= set(Objection)).map(Said)
refusals = st.sampled_from(list(Refusal)) | said
closings = st.sampled_from(list(Closing)) | said
objections = st.lists(st.sampled_from(list(Objection)), min_size=1, max_size=3).map(tuple) | said.map(
    lambda s: (s,))
ids = st.binary(min_size=16, max_size=16)
hashes = st.binary(min_size=32, max_size=32)


@st.composite
def seat_maps(draw: st.DrawFn) -> dict[str, Any]:
    rules = draw(st.sampled_from(list(PRESETS.values())))
    numbers = draw(st.lists(st.integers(0, rules.players - 1), unique=True, max_size=rules.players))
    seat_keys = draw(st.lists(keys, min_size=len(numbers), max_size=len(numbers), unique=True))
    seats = tuple(LobbySeat(n, draw(names), k, draw(endpoints), draw(st.none() | keys))
                  for n, k in zip(numbers, seat_keys, strict=True))
    return {"lobby": draw(ids), "name": draw(names), "version": draw(st.sampled_from([1, 2])),
            "rules": rules, "seats": seats}


#: a strategy for each message type
MESSAGES: dict[str, st.SearchStrategy[LobbyMessage]] = {
    "info": st.just(Info()),
    "table": seat_maps().map(lambda kw: Table(**kw)),
    "start": st.builds(lambda kw, g: Start(**kw, genesis=g), seat_maps(), st.binary(min_size=1, max_size=99)),
    "join": st.builds(Join, ids, names, endpoints, st.none() | keys),
    "refuse": st.builds(Refuse, refusals),
    "accept": st.builds(Accept, ids, hashes),
    "decline": st.builds(Decline, ids, st.none() | hashes, st.none() | objections),
    "leave": st.builds(Leave, ids),
    "go": st.builds(Go, hashes),
    "closed": st.builds(Closed, closings),
}
messages = st.one_of(*MESSAGES.values())


def test_every_type_is_generated() -> None:
    assert set(MESSAGES) == set(TYPES)


@pytest.mark.slow
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(messages)
def test_every_message_survives_encode_then_decode(message: LobbyMessage) -> None:
    raw = message.encode(ANN)
    assert open_frame(raw) == Frame(ANN.public, message)
    assert open_frame(raw, expect_key=ANN.public).message == message
    assert decode(log.open_envelope(raw).payload) == message


# ------------------------------------------------------------------ hostile payloads
scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**63), 2**64 - 1), st.binary(max_size=40),
                    st.text(max_size=40))
wire_keys = st.sampled_from(["t", "v", "k", "l", "name", "pv", "r", "seats", "e", "o", "why", "x", "g", "s",
                             "n"])
map_keys = wire_keys | st.text("abcxyz", min_size=1, max_size=3)
junk = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(map_keys, inner, max_size=4), max_leaves=12)


def refused_clearly(payload: Any) -> None:
    """`payload` decodes to a message, or is refused with one `LobbyDecodeError` of one line."""
    try:
        message = decode(payload)
    except LobbyDecodeError as exc:
        assert isinstance(exc.check, Check) and exc.detail and "\n" not in exc.detail
        return
    assert isinstance(message, LobbyMessage)


def spoil(draw: st.DrawFn, value: Any) -> Any:
    """`value` with one part, at any depth (a field, a seat's field, a rule option), replaced by junk."""
    if isinstance(value, dict) and value and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(value)))
        return {**value, key: spoil(draw, value[key])}
    if isinstance(value, list) and value and draw(st.booleans()):
        index = draw(st.integers(0, len(value) - 1))
        return [*value[:index], spoil(draw, value[index]), *value[index + 1:]]
    return draw(junk)


@st.composite
def near_misses(draw: st.DrawFn, kind: str | None = None) -> dict[str, Any]:
    """A good message's payload (under a good header) with a field spoilt at some depth, dropped, or added."""
    message = draw(messages if kind is None else MESSAGES[kind])
    fields = message.fields()
    choice = draw(st.sampled_from(["spoil", "spoil", "drop", "add"]))
    if choice == "spoil" and fields:
        key = draw(st.sampled_from(sorted(fields)))
        fields[key] = spoil(draw, fields[key])
    elif choice == "drop" and fields:
        fields.pop(draw(st.sampled_from(sorted(fields))))
    else:
        fields.update(draw(st.dictionaries(map_keys, junk, min_size=1, max_size=2)))
    return {"t": message.TYPE, "v": LOBBY_VERSION, "k": ANN.public, **fields}


@pytest.mark.slow
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(junk)
def test_junk_decodes_or_is_refused_in_one_line(payload: Any) -> None:
    refused_clearly(payload)


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(MESSAGES))
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_near_misses_decode_or_are_refused_in_one_line(kind: str, data: st.DataObject) -> None:
    refused_clearly(data.draw(near_misses(kind)))


@pytest.mark.slow
@settings(max_examples=200)
@given(st.sampled_from(sorted(RuleSet().to_dict())), junk)
def test_a_rule_set_with_one_hostile_option_is_refused_in_one_line(option: str, value: Any) -> None:
    info = Table(LOBBY, "Room", 2, preset("classic"), ())
    payload = {"t": "table", "v": LOBBY_VERSION, "k": ANN.public, **info.fields()}
    payload["r"] = {**payload["r"], option: value}
    refused_clearly(payload)


@pytest.mark.slow
@settings(max_examples=200)
@given(st.binary(max_size=300) | near_misses().map(lambda p: sealed(ANN, p)))
def test_hostile_bytes_are_opened_or_refused_in_one_line(raw: bytes) -> None:
    try:
        frame = open_frame(raw)
    except LobbyDecodeError as exc:
        assert exc.detail and "\n" not in exc.detail
        return
    assert frame.sender == ANN.public


# ------------------------------------------------------------------ what is refused, and how
def payload_of(message: LobbyMessage, **changes: Any) -> dict[str, Any]:
    return {"t": message.TYPE, "v": LOBBY_VERSION, "k": BO.public, **message.fields(), **changes}


@pytest.mark.parametrize(("payload", "check", "words"), [
    ([1, 2], Check.HEADER, "is a map"),
    (payload_of(Info(), v=1), Check.HEADER, "lobby version '1' is not 2"),
    (payload_of(Info(), t="hello"), Check.HEADER, "unknown message type 'hello'"),
    (payload_of(Info(), k=bytes(32)), Check.HEADER, "public key"),
    (payload_of(Go(HASH), x=HASH[:31]), Check.SCHEMA, "a genesis hash is 32 bytes, not a bytes of length 31"),
    (payload_of(Go(HASH), extra=1), Check.SCHEMA, "unexpected ['extra']"),
    (payload_of(Leave(LOBBY), l=None), Check.SCHEMA, "the lobby id is 16 bytes"),
    (payload_of(Refuse(Refusal.FULL)) | {"why": "x" * (MAX_WHY + 1)}, Check.SCHEMA, "at most 200 characters"),
    ({"t": "accept", "v": 2, "k": BO.public, "l": LOBBY}, Check.SCHEMA, "missing fields ['x']"),
    (payload_of(Join(LOBBY, "Bo", "tcp://h:1"), name="\x07"), Check.SCHEMA, "printable"),
    (payload_of(Join(LOBBY, "Bo", "tcp://h:1"), e="tcp://*:1"), Check.SCHEMA, "an endpoint is"),
    (payload_of(Table(LOBBY, "R", 2, preset("two"), (LobbySeat(2, "A", ANN.public, "tcp://h:1"),))),
     Check.SCHEMA, "a seat the rules do not have"),
    (payload_of(Table(LOBBY, "R", 2, preset("two"), ()), seats=5), Check.SCHEMA, "the seats are a list"),
    (payload_of(Table(LOBBY, "R", 2, preset("two"), ()), seats=[5]), Check.SCHEMA, "exactly the fields e, k"),
    (payload_of(Table(LOBBY, "R", 2, preset("two"), ()), r=[]), Check.SCHEMA, "the rules are a map"),
    (payload_of(Table(LOBBY, "R", 2, preset("two"), ()), pv=3), Check.SCHEMA, "protocol version 3 is not"),
])
def test_what_is_wrong_is_said(payload: Any, check: Check, words: str) -> None:
    with pytest.raises(LobbyDecodeError) as caught:
        decode(payload)
    assert caught.value.check is check and words in caught.value.detail
    assert isinstance(caught.value, BadLobbyMessage) == (check is Check.SCHEMA)


def test_a_nil_owner_is_read_as_a_person_and_nil_elsewhere_is_refused() -> None:
    join = Join(LOBBY, "Bo", "tcp://h:1")
    assert decode(payload_of(join, o=None)) == join
    with pytest.raises(BadLobbyMessage, match="lobby id"):
        decode(payload_of(join, l=None))


def test_bad_fields_blame_the_sender_only_under_its_own_signature() -> None:
    bad = payload_of(Go(HASH), x=b"short")
    with pytest.raises(BadLobbyMessage) as caught:
        open_frame(sealed(BO, bad))
    assert caught.value.kind == "go"
    forged = sealed(ANN, bad)  # names BO's key, signed by ANN
    with pytest.raises(LobbyDecodeError) as refused:
        open_frame(forged)
    assert refused.value.check is Check.SIGNATURE and not isinstance(refused.value, BadLobbyMessage)
    with pytest.raises(LobbyDecodeError, match="other than the host's"):
        open_frame(Go(HASH).encode(BO), expect_key=ANN.public)


# ------------------------------------------------------------------ reasons travel as codes
@pytest.mark.parametrize(("message", "why"), [
    (Refuse(Refusal.OWNER_LEFT), "owner_left"),
    (Closed(Closing.STOPPED), "stopped"),
    (Decline(LOBBY, why=(Objection.DOWNGRADE,)), "downgrade"),
])
def test_a_reason_travels_as_its_code_never_as_words(message: LobbyMessage, why: str) -> None:
    assert message.fields()["why"] == why
    assert decode(payload_of(message)) == message


@pytest.mark.parametrize(("payload", "kept"), [
    (payload_of(Refuse(Refusal.FULL), why="the table is full"), Said("the table is full")),
    (payload_of(Closed(Closing.LEFT), why="the host left"), Said("the host left")),
    (payload_of(Decline(LOBBY), why="its seats differ from the seat map"),
     (Said("its seats differ from the seat map"),)),
    (payload_of(Decline(LOBBY), why="seats,its rules"), (Said("seats,its rules"),)),
])
def test_an_older_peers_words_are_kept_as_its_own(payload: dict[str, Any], kept: object) -> None:
    message = decode(payload)
    assert message.why == kept  # type: ignore[attr-defined]
    assert message.fields()["why"] == payload["why"], "written back as it came"


def test_protocol_network_md_lists_every_reason_code_and_no_other() -> None:
    """The table of codes in network.md §6 is the one a second implementation reads: it must be complete."""
    text = (Path(__file__).parent.parent / "protocol" / "network.md").read_text()
    table = text[text.index("| frame | code | meaning |"):text.index("Whatever the receiver shows")]
    listed: dict[str, set[str]] = {}
    frame = ""
    for row in table.splitlines()[2:]:
        cells = row.split("|")
        if len(cells) < 4:
            continue
        frame = cells[1].strip().strip("`") or frame
        listed.setdefault(frame, set()).update(re.findall(r"`([a-z_]+)`", cells[2]))
    assert listed == {"refuse": set(Refusal), "closed": set(Closing), "decline": set(Objection)}
