"""The table protocol's conformance suite: every test runs on the in-memory wiring and again over ZeroMQ.

The same bodies, the same seeded games; only the transport differs (see helpers/conformance.py). Over
ZeroMQ each seat is a whole peer with its own CURVE sockets on 127.0.0.1 and its own log on disk, and the
logs on disk are what gets compared and verified.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from helpers.conformance import TRANSPORTS, Game, Run, open_run

from p2pspades import crypto, log
from p2pspades.audit import Status, verify_frames
from p2pspades.rules import Action, Play, RuleSet, preset
from p2pspades.table import (
    DecisionKind,
    DropKind,
    Dropped,
    Event,
    Rejected,
    Stage,
    Table,
    Violation,
)

pytestmark = [pytest.mark.net, pytest.mark.timeout(120), pytest.mark.parametrize("transport", TRANSPORTS)]


def quick(name: str) -> RuleSet:
    """A short game (a hand or two) of a preset."""
    return preset(name, target=10, losing_threshold=-10)


async def with_run(transport: str, game: Game, home: Path, body: Callable[[Run], Awaitable[None]]) -> None:
    run = await open_run(transport, game, home)
    try:
        await body(run)
    finally:
        await run.close()


def assert_same_valid_chain(run: Run, seats: range | list[int]) -> list[bytes]:
    chains = [run.entries_of(s) for s in seats]
    assert all(c == chains[0] for c in chains), "every peer holds the same chain"
    verdict = verify_frames(chains[0])
    assert verdict.status is Status.VALID, verdict.summary
    return chains[0]


def of(events: list[Event], kind: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["classic", "cutthroat3", "two", "five"])
async def test_a_whole_game_ends_with_identical_logs_that_verify(transport: str, name: str,
                                                                 tmp_path: Path) -> None:
    game = Game(quick(name), name.encode())

    async def body(run: Run) -> None:
        await run.play()
        n = game.rules.players
        assert all(t.status == "complete" for t in run.tables)
        chain = assert_same_valid_chain(run, range(n))
        assert log.open_envelope(chain[-1]).payload["t"] == "end"
        for events in run.events:
            assert not of(events, Violation) and not of(events, Rejected)
        first = run.tables[0].game
        assert first is not None
        totals = first.totals
        assert all(t.game is not None and t.game.totals == totals for t in run.tables)

    await with_run(transport, game, tmp_path, body)


def signed(table: Table, identity: crypto.Identity, seat: int, kind: str, **fields: Any) -> bytes:
    payload = {"g": table.game_id, "n": len(table.entries), "p": table.head, "s": seat,
               "h": table.hand_number, "t": kind, **fields}
    return log.seal(payload, identity)


@pytest.mark.slow
async def test_an_entry_out_of_turn_is_rejected_and_the_game_goes_on(transport: str, tmp_path: Path) -> None:
    game = Game(quick("classic"), b"out of turn")

    async def body(run: Run) -> None:
        bidder = await run.until_decision(lambda d: d.kind is DecisionKind.BID)
        target = (bidder + 1) % 4
        intruder = (bidder + 2) % 4
        table = run.tables[target]
        assert table.waiting_for() == (bidder, "bid")
        before = list(table.entries)
        await run.inject(target, intruder, signed(table, game.identities[intruder], intruder, "bid", b=3))
        await run.settle()
        rejected = of(run.events[target], Rejected)
        assert [(r.seat, r.check) for r in rejected] == [(intruder, "turn")]
        assert table.entries == before
        await run.play()
        assert all(t.status == "complete" for t in run.tables)
        assert_same_valid_chain(run, range(4))

    await with_run(transport, game, tmp_path, body)


async def test_garbage_and_stale_entries_are_dropped_and_the_game_goes_on(transport: str,
                                                                         tmp_path: Path) -> None:
    game = Game(quick("classic"), b"garbage")

    async def body(run: Run) -> None:
        await run.until_decision(lambda d: d.kind is DecisionKind.PLAY and len(d.view.tricks) == 2)
        table = run.tables[2]
        before = list(table.entries)
        stranger = crypto.Identity.generate()
        for raw in (b"\x00", b"\x93\x01", b"\xff" * 64, log.encode({"t": "play"}), bytes(range(256)) * 8,
                    signed(table, stranger, 1, "bid", b=3),  # signed by a key no seat holds
                    before[5], before[-1]):  # stale copies of entries already in the chain
            await run.inject(2, 1, raw)
        await run.settle()
        assert table.entries == before and table.status == "running"
        kinds = {d.kind for d in of(run.events[2], Dropped)}
        assert {DropKind.MALFORMED, DropKind.BAD_SIGNATURE} <= kinds
        assert not of(run.events[2], Violation) and not of(run.events[2], Rejected)
        await run.play()
        assert all(t.status == "complete" for t in run.tables)
        assert_same_valid_chain(run, range(4))

    await with_run(transport, game, tmp_path, body)


FORGER = 1


class Forger(Table):
    """A tampered peer: its first card is played with a key that opens no card at all."""

    def decide(self, action: Action) -> list[Event]:
        if isinstance(action, Play):
            assert self.identity is not None and self.seat is not None and self.deal is not None
            j = next(p for p in self.deal.positions_of(self.seat) if p not in self.deal.played)
            v2 = {"x": b""} if self.version >= 2 else {}  # version 2: no void proof on a lead
            raw = signed(self, self.identity, self.seat, "play", j=j, k=crypto.scalar_from_int(12345), **v2)
            self.emit(raw)
            self.stage = Stage.OVER  # nothing more to say: the honest peers judge it
            return []
        return super().decide(action)


def forging(seat: int, genesis: bytes, identity: crypto.Identity, entropy: Callable[[int], bytes],
            now: float) -> Table:
    cls = Forger if seat == FORGER else Table
    return cls(genesis, identity, entropy=entropy, now=now)


async def test_a_forged_play_is_caught_and_the_forger_named(transport: str, tmp_path: Path) -> None:
    game = Game(quick("classic"), b"forgery", forging)
    honest = [0, 2, 3]

    async def body(run: Run) -> None:
        await run.play(honest)
        for seat in honest:
            table = run.tables[seat]
            assert table.status == "violation" and table.violation is not None
            # version 2 checks the key against the forger's commitment P_j before it opens anything
            check = "key" if table.version >= 2 else "forged card"
            assert (table.violation.seat, table.violation.check) == (FORGER, check)
        chains = [run.entries_of(s) for s in honest]
        assert all(c == chains[0] for c in chains)
        violation = run.tables[0].violation
        assert violation is not None
        evidence = violation.evidence
        verdict = verify_frames([*chains[0], *evidence])
        assert verdict.status is Status.VIOLATION and verdict.violation is not None
        assert verdict.violation.seat == FORGER

    await with_run(transport, game, tmp_path, body)


async def test_a_peer_restored_from_its_log_catches_up(transport: str, tmp_path: Path) -> None:
    game = Game(quick("classic"), b"restore")
    victim = 3

    async def body(run: Run) -> None:
        # the victim goes down in the middle of the bidding, then the others play on as far as they can
        await run.until_decision(lambda d: d.kind is DecisionKind.BID and d.view.seat == (victim + 1) % 4)
        on_disk = list(run.tables[victim].entries)
        await run.crash(victim)
        await run.advance()
        ahead = len(run.tables[(victim + 1) % 4].entries)
        assert ahead > len(on_disk), "the others went on without it"
        await run.restore(victim)
        restored = run.tables[victim]
        assert restored.entries[: len(on_disk)] == on_disk
        await run.play()
        assert all(t.status == "complete" for t in run.tables)
        chain = assert_same_valid_chain(run, range(4))
        assert chain[: len(on_disk)] == on_disk and len(chain) > ahead >= len(on_disk)

    await with_run(transport, game, tmp_path, body)
