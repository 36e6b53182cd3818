"""The log reader: one replay of a log, told to typed callbacks in the order the game happened."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from helpers import claims
from helpers.logs import write_log
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2pspades import crypto, log
from p2pspades.audit import GameVisitor, Status, Verdict, read_game, tell
from p2pspades.bots import RandomBot
from p2pspades.rules import Card, HandResult, preset
from p2pspades.table import GameEnded, HandAudited, Setup, TableStatus, Violation
from p2pspades.table.harness import Wire, new_tables, play_in_memory

RULES = preset("classic", target=100, losing_threshold=-100)
SEED = b"reader"


class Recorder(GameVisitor):
    """Every callback, in order, as (name, arguments)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []

    def names(self) -> list[str]:
        return [name for name, _ in self.calls]

    def of(self, name: str) -> list[tuple[Any, ...]]:
        return [args for n, args in self.calls if n == name]

    def on_genesis(self, setup: Setup) -> None:
        self.calls.append(("genesis", (setup,)))

    def on_first_dealer(self, seat: int) -> None:
        self.calls.append(("first_dealer", (seat,)))

    def on_play(self, seat: int, card: Card) -> None:
        self.calls.append(("play", (seat, card)))

    def on_challenge(self, seat: int, why: str) -> None:
        self.calls.append(("challenge", (seat, why)))

    def on_hand(self, hand: HandResult, audit: HandAudited) -> None:
        self.calls.append(("hand", (hand, audit)))

    def on_violation(self, violation: Violation) -> None:
        self.calls.append(("violation", (violation,)))

    def on_end(self, ended: GameEnded) -> None:
        self.calls.append(("end", (ended,)))

    def on_verdict(self, verdict: Verdict) -> None:
        self.calls.append(("verdict", (verdict,)))


@pytest.fixture(scope="module")
def entries() -> list[bytes]:
    wire = play_in_memory(RULES, [RandomBot(i) for i in range(4)], seed=SEED)
    assert wire.tables[0].status is TableStatus.COMPLETE
    return list(wire.tables[0].entries)


def test_a_complete_game_is_told_in_order(entries: list[bytes], tmp_path: Path) -> None:
    seen = Recorder()
    verdict = read_game(write_log(tmp_path / "game.p2plog", entries), seen)
    assert verdict.status is Status.VALID
    names = seen.names()
    assert names[0] == "genesis" and names[1] == "first_dealer"
    assert names[-2:] == ["end", "verdict"] and names.count("end") == names.count("verdict") == 1
    assert seen.of("verdict") == [(verdict,)]
    (setup,) = seen.of("genesis")[0]
    assert setup.rules == RULES and len(setup.seats) == 4
    (ended,) = seen.of("end")[0]
    assert ended.status is TableStatus.COMPLETE
    # every hand comes after exactly its own plays, in the order they were played
    hands = [args[0] for args in seen.of("hand")]
    assert len(hands) >= 1 and [h.number for h in hands] == list(range(1, len(hands) + 1))
    assert verdict.table is not None and verdict.table.game is not None
    assert hands == verdict.hands == verdict.table.game.history
    plays: list[tuple[int, Card]] = []
    for name, args in seen.calls:
        if name == "play":
            plays.append(args)
        elif name == "hand":
            hand = args[0]
            assert plays == [(s, c) for t in hand.tricks for s, c in t.plays]
            assert args[1].hand == hand.number and args[1].violations == ()
            plays = []
    assert plays == [] and not seen.of("violation") and not seen.of("challenge")


def test_raw_entries_and_a_file_are_told_alike(entries: list[bytes], tmp_path: Path) -> None:
    from_file, from_frames = Recorder(), Recorder()
    read_game(write_log(tmp_path / "game.p2plog", entries), from_file)
    read_game(entries, from_frames)
    assert from_file.calls[:-1] == from_frames.calls[:-1]


def test_a_violation_is_told_then_the_end_then_the_verdict(entries: list[bytes]) -> None:
    # seat s signs a play whose lock key does not open its card: a valid signature on a cheat
    index = next(i for i, e in enumerate(entries) if log.open_envelope(e).payload["t"] == "play")
    payload = dict(log.open_envelope(entries[index]).payload)
    seat = payload["s"]
    key = bytearray(payload["k"])
    key[0] ^= 1
    payload["k"] = bytes(key)
    cheat = log.seal(payload, crypto.Identity.from_seed(hashlib.sha256(SEED + bytes([seat])).digest()))
    seen = Recorder()
    verdict = read_game([*entries[:index], cheat], seen)
    assert verdict.status is Status.VIOLATION
    assert seen.names()[-3:] == ["violation", "end", "verdict"]
    (violation,) = seen.of("violation")[0]
    assert violation.seat == seat and violation.halts and violation.seq == index
    assert verdict.violation == violation
    (ended,) = seen.of("end")[0]
    assert ended.status is TableStatus.VIOLATION and ended.seat == seat and ended.forfeit


def test_an_abandonment_is_told_as_the_end() -> None:
    gone = 1
    wire = Wire(new_tables(RULES, seed=SEED), [RandomBot(i) for i in range(4)])
    table = claims.abandoned_at_a_reveal(wire, gone)
    assert table.status is TableStatus.ABANDONED
    seen = Recorder()
    verdict = read_game(table.entries, seen)
    assert verdict.status is Status.INCOMPLETE
    assert seen.names()[-2:] == ["end", "verdict"] and not seen.of("hand")
    (ended,) = seen.of("end")[0]
    assert ended.status is TableStatus.ABANDONED and ended.seat == gone


def test_tell_gives_a_live_table_the_same_callbacks(entries: list[bytes]) -> None:
    wire = play_in_memory(RULES, [RandomBot(i) for i in range(4)], seed=SEED)
    live, logged = Recorder(), Recorder()
    tell(wire.tables[2], wire.events[2], live)
    read_game(entries, logged)
    # a seat hears every card, every hand and the end, as the log tells them
    assert live.of("hand") == logged.of("hand") and live.of("end") == logged.of("end")
    assert live.of("play") == logged.of("play") and live.of("first_dealer") == logged.of("first_dealer")


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_hostile_entries_never_raise_and_always_end_in_a_verdict(
    entries: list[bytes], data: st.DataObject
) -> None:
    frames = list(entries[: data.draw(st.integers(0, len(entries)))])
    if frames:
        i = data.draw(st.integers(0, len(frames) - 1))
        raw = bytearray(frames[i])
        cut = data.draw(st.integers(0, len(raw)))
        raw[cut:] = data.draw(st.binary(max_size=40))
        frames[i] = bytes(raw)
    seen = Recorder()
    verdict = read_game(frames, seen)
    assert seen.names()[-1] == "verdict" and seen.names().count("verdict") == 1
    assert seen.of("verdict") == [(verdict,)]


@settings(max_examples=60, deadline=None)
@given(blob=st.binary(max_size=400))
def test_a_hostile_file_never_raises(blob: bytes, tmp_path_factory: pytest.TempPathFactory) -> None:
    path = tmp_path_factory.mktemp("hostile") / "x.p2plog"
    path.write_bytes(blob if len(blob) % 2 else log.MAGIC + blob)
    seen = Recorder()
    verdict = read_game(path, seen)
    assert seen.names() == ["verdict"] or seen.names()[0] == "genesis"
    assert verdict.status is not Status.VALID


def test_no_file_and_a_directory_end_in_a_verdict(tmp_path: Path) -> None:
    for path in (tmp_path / "missing.p2plog", tmp_path):
        seen = Recorder()
        verdict = read_game(path, seen)
        assert verdict.status is Status.UNREADABLE and seen.names() == ["verdict"]
