"""Properly signed hostile entries, at every stage of a game, against seated tables and the verifier.

An honest game is played once in memory. Each example cuts its log at some entry and sends, in its place, an
entry signed by a seat's real key whose type and fields are hostile: any type, values of any shape in every
field, or the honest entry with one field replaced. A seated table restored from the cut log, an observer and
the offline verifier must each turn it into a drop, a rejection or a named violation (or accept it, when it
happens to be valid), and never raise.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from p2pspades import crypto, log
from p2pspades.audit import Status, verify_frames
from p2pspades.bots import RandomBot
from p2pspades.errors import LocalError
from p2pspades.rules import RuleSet, preset
from p2pspades.table import (
    Accepted,
    DropKind,
    Dropped,
    Event,
    Noted,
    Rejected,
    SecretCreated,
    Table,
    TableStatus,
    Violation,
    Wanted,
)
from p2pspades.table import messages as msg
from p2pspades.table.harness import play_in_memory, seeded_entropy

SMALL_ORDER = bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")
NON_CANONICAL = (2**255 - 19 + 1).to_bytes(32, "little")


@dataclass(frozen=True)
class Played:
    rules: RuleSet
    seed: bytes
    entries: list[bytes]
    secrets: list[dict[int, bytes]]

    def identity(self, seat: int) -> crypto.Identity:
        # the identities `play_in_memory` derives from its seed
        return crypto.Identity.from_seed(hashlib.sha256(self.seed + bytes([seat])).digest())


@cache
def played(name: str) -> Played:
    low_club = name.endswith("+low_club")
    rules = preset(name.removesuffix("+low_club"), target=10, losing_threshold=-10)
    if low_club:
        rules = rules.replace(first_leader="low_club")
    seed = b"hostile " + name.encode()
    wire = play_in_memory(rules, [RandomBot(i) for i in range(rules.players)], seed=seed)
    entries = wire.tables[0].entries
    assert wire.tables[0].status == "complete"
    secrets = [{e.hand: e.seed for e in events if isinstance(e, SecretCreated)} for events in wire.events]
    return Played(rules, seed, list(entries), secrets)


scalar_like = st.one_of(
    st.binary(min_size=32, max_size=32),
    st.sampled_from([crypto.IDENTITY, SMALL_ORDER, NON_CANONICAL, bytes(32), b"\xff" * 32]),
    st.integers(0, 2**40).map(crypto.scalar_from_int),
)
anything = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**63), 2**64 - 1),
    st.integers(-3, 70),
    st.binary(max_size=40),
    scalar_like,
    st.text(max_size=220),
    st.lists(st.integers(-3, 70), max_size=64),
    st.lists(scalar_like, min_size=0, max_size=60),
    st.lists(st.integers(-(2**63), 2**64 - 1), max_size=5),
    st.dictionaries(st.sampled_from(["k", "n", "x"]), st.integers(), max_size=2),
)

pytestmark = [pytest.mark.slow]


@st.composite
def hostile(draw: st.DrawFn, name: str) -> tuple[Played, int, int, dict[str, Any]]:
    """(the game, where to cut its log, the signing seat, the payload fields after the header)."""
    game = played(name)
    cut = draw(st.integers(1, len(game.entries) - 1))
    honest = dict(log.open_envelope(game.entries[cut]).payload)
    seat = draw(st.sampled_from([honest["s"], *range(game.rules.players)]))
    if draw(st.booleans()):  # the honest entry with one field replaced
        fields = {k: v for k, v in honest.items() if k not in msg.HEADER_KEYS}
        if fields:
            key = draw(st.sampled_from(sorted(fields)))
            fields[key] = draw(anything)
        kind = honest["t"]
    else:  # any type with fields of any shape
        kind = draw(st.sampled_from([*msg.TYPES, "bogus"]))
        keys = [key for _, key, _ in msg.TYPES[kind]._WIRE] if kind in msg.TYPES else ["x"]
        fields = {key: draw(anything) for key in keys if draw(st.integers(0, 9)) > 0}
    hand = draw(st.sampled_from([honest["h"], honest["h"] + 1, -1, 2**40]))
    return game, cut, seat, {"t": kind, "h": hand, **fields}


def seal(game: Played, cut: int, seat: int, fields: dict[str, Any]) -> bytes:
    env = log.open_envelope(game.entries[cut - 1])
    payload = {"g": env.payload["g"], "n": cut, "p": env.hash, "s": seat, **fields}
    try:
        return log.seal(payload, game.identity(seat))
    except LocalError:
        assume(False)  # a value with no canonical encoding: it cannot be sent at all
        raise


def judged(events: list[Event], before: int, table: Table) -> None:
    """Every outcome is an accepted entry, or a drop, a rejection or a violation naming a seat."""
    if len(table.entries) > before:
        assert any(isinstance(e, Accepted) for e in events)
        return
    assert any(isinstance(e, Dropped | Rejected | Violation | Wanted | Noted) for e in events), events
    for e in events:
        if isinstance(e, Violation):
            assert 0 <= e.seat < table.seats and e.check


def verdict_of(events: list[Event], observer: Table, cut: int) -> Status:
    """What the verifier must say of the cut log and the hostile entry, by what the observer made of it: a
    violation or a rejection is a violation, a malformed entry makes the log unreadable, and an accepted one
    leaves it valid (complete or not), as does a note the observer takes (a goodbye, say); any other refusal
    breaks the chain, which is a violation too."""
    if any((isinstance(e, Violation) and e.halts) or isinstance(e, Rejected) for e in events):
        return Status.VIOLATION
    if any(isinstance(e, Dropped) and e.kind is DropKind.MALFORMED for e in events):
        return Status.UNREADABLE
    noted = any(isinstance(e, Noted) for e in events)  # a note off the chain (a goodbye, say): the log stands
    if len(observer.entries) > cut or noted:
        return Status.VALID if observer.status is TableStatus.COMPLETE else Status.INCOMPLETE
    return Status.VIOLATION


def check(example: tuple[Played, int, int, dict[str, Any]]) -> None:
    game, cut, seat, fields = example
    raw = seal(game, cut, seat, fields)
    prefix = game.entries[:cut]
    genesis = prefix[0]
    observer = Table(genesis, entries=prefix)
    seen = observer.receive(raw)
    judged(seen, cut, observer)
    for victim in range(game.rules.players):
        table = Table(
            genesis,
            game.identity(victim),
            entropy=seeded_entropy(b"restored"),
            secrets=game.secrets[victim],
            entries=prefix,
        )
        table.take_outgoing()
        before = len(table.entries)
        if before == cut:  # not our turn right after the cut: the hostile entry is next
            judged(table.receive(raw), before, table)
    verdict = verify_frames([*prefix, raw])
    assert verdict.status is verdict_of(seen, observer, cut), verdict.summary
    assert verdict.summary


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile("classic"))
def test_hostile_entries_in_a_dealt_game(example: tuple[Played, int, int, dict[str, Any]]) -> None:
    check(example)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile("two"))
def test_hostile_entries_in_a_draw_pile_game(example: tuple[Played, int, int, dict[str, Any]]) -> None:
    check(example)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile("classic+low_club"))
def test_hostile_entries_in_a_low_club_game(example: tuple[Played, int, int, dict[str, Any]]) -> None:
    check(example)
