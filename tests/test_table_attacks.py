"""Attacks on the table protocol, on the in-memory wiring.

Each test seats one cheating peer among honest ones. The cheater must be refused or caught and named
correctly, with signed evidence, and the honest peers must lose nothing: they agree with each other, and
their logs verify to the same verdict.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from helpers.cheats import (
    EarlyChallenger,
    Impatient,
    LastLockPoisoner,
    Tampering,
    other_point,
    send_unchecked,
    wrong_lock,
)

from p2pspades import crypto, log
from p2pspades.audit import Status, hand_record, verify_frames
from p2pspades.bots import RandomBot
from p2pspades.rules import Action, Card, Deal, Game, Play, RuleSet, preset
from p2pspades.table import (
    Accepted,
    Decision,
    DropKind,
    Dropped,
    Event,
    HandDeal,
    Rejected,
    Stage,
    Table,
    Violation,
)
from p2pspades.table import messages as msg
from p2pspades.table.harness import Wire, new_game, seeded_entropy

RULES = preset("classic", target=100, losing_threshold=-100)
CHEATER = 1


def seated(
    rules: RuleSet,
    cheater_cls: type[Table] | None = None,
    seed: bytes = b"attack",
    version: int = 1,
    **cheater_kw: Any,
) -> tuple[Wire, list[crypto.Identity]]:
    """A table with one cheater. Protocol version 1 by default: these attacks are caught by its checks and
    its end-of-hand audit (tests/test_table_proofs.py attacks version 2, which refuses them live)."""
    n = rules.players
    ids = [crypto.Identity.from_seed(crypto.H("test identity", seed, bytes([i]))[:32]) for i in range(n)]
    genesis = new_game(rules, ids, game_id=crypto.H("game", seed)[:16], version=version)
    tables: list[Table] = []
    for i in range(n):
        cls = cheater_cls if (cheater_cls is not None and i == CHEATER) else Table
        kw = cheater_kw if cls is not Table else {}
        tables.append(cls(genesis, ids[i], entropy=seeded_entropy(seed + bytes([i])), **kw))
    return Wire(tables, [RandomBot(i) for i in range(n)]), ids


def honest(wire: Wire) -> list[Table]:
    return [t for i, t in enumerate(wire.tables) if i != CHEATER]


def assert_caught(wire: Wire, check: str | tuple[str, ...]) -> Violation:
    """Every honest peer halted naming the cheater for `check`, they agree, and their logs say so."""
    checks = (check,) if isinstance(check, str) else check
    verdicts = []
    for table in honest(wire):
        assert table.status == "violation", f"seat {table.seat} did not catch the cheater"
        v = table.violation
        assert v is not None and v.seat == CHEATER and v.check in checks, v
        verdicts.append((v.seat, v.check))
        verdict = verify_frames([*table.entries, *v.evidence])
        assert verdict.status is Status.VIOLATION, verdict.summary
        assert verdict.violation is not None and verdict.violation.seat == CHEATER
    chains = [t.entries for t in honest(wire)]
    assert all(c == chains[0] for c in chains), "honest peers hold the same chain"
    assert len(set(verdicts)) == 1
    v = honest(wire)[0].violation
    assert v is not None
    return v


def reseal(raw: bytes, identity: crypto.Identity, **changes: Any) -> bytes:
    payload = dict(log.open_envelope(raw).payload)
    payload.update(changes)
    return log.seal(payload, identity)


# ------------------------------------------------------------------ caught live, from the entry itself
def test_forged_card_a_key_that_opens_no_card() -> None:
    wire, ids = seated(RULES)

    def tamper(sender: int, raw: bytes) -> list[tuple[int, bytes]]:
        env = log.open_envelope(raw)
        if sender == CHEATER and env.payload["t"] == "play":
            raw = reseal(raw, ids[CHEATER], k=crypto.scalar_from_int(12345))
        return [(d, raw) for d in range(4) if d != sender]

    wire.tamper = tamper
    wire.run()
    assert_caught(wire, "forged card")


def test_forged_card_the_key_of_another_of_its_cards() -> None:
    wire, ids = seated(RULES)

    def tamper(sender: int, raw: bytes) -> list[tuple[int, bytes]]:
        env = log.open_envelope(raw)
        table = wire.tables[CHEATER]
        if (
            sender == CHEATER
            and env.payload["t"] == "play"
            and table.deal is not None
            and table._my is not None
        ):
            j = env.payload["j"]
            other = next(p for p in table.deal.positions_of(CHEATER) if p != j)
            raw = reseal(raw, ids[CHEATER], k=table._my.lock_keys[other])
        return [(d, raw) for d in range(4) if d != sender]

    wire.tamper = tamper
    wire.run()
    assert_caught(wire, "forged card")


def test_playing_from_another_seats_position() -> None:
    wire, ids = seated(RULES)

    def tamper(sender: int, raw: bytes) -> list[tuple[int, bytes]]:
        env = log.open_envelope(raw)
        table = wire.tables[CHEATER]
        if sender == CHEATER and env.payload["t"] == "play" and table.deal is not None:
            theirs = table.deal.positions_of((CHEATER + 1) % 4)[0]
            raw = reseal(raw, ids[CHEATER], j=theirs)
        return [(d, raw) for d in range(4) if d != sender]

    wire.tamper = tamper
    wire.run()
    assert_caught(wire, "ownership")


def test_duplicated_ciphertext_in_the_shuffle() -> None:
    # the cheater's own machine refuses to sign such a shuffle, so it is tampered with on the wire
    wire2, ids = seated(RULES)

    def tamper(sender: int, raw: bytes) -> list[tuple[int, bytes]]:
        env = log.open_envelope(raw)
        if sender == CHEATER and env.payload["t"] == "shuffle":
            d = list(env.payload["d"])
            d[1] = d[0]
            raw = reseal(raw, ids[CHEATER], d=d)
        return [(dest, raw) for dest in range(4) if dest != sender]

    wire2.tamper = tamper
    wire2.run()
    assert_caught(wire2, "shuffle")


def test_reveal_that_does_not_match_the_commitment() -> None:
    wire, ids = seated(RULES)

    def tamper(sender: int, raw: bytes) -> list[tuple[int, bytes]]:
        if sender == CHEATER and log.open_envelope(raw).payload["t"] == "reveal":
            raw = reseal(raw, ids[CHEATER], r=bytes(32))
        return [(d, raw) for d in range(4) if d != sender]

    wire.tamper = tamper
    wire.run()
    assert_caught(wire, "reveal")


def test_equivocation_two_signed_entries_with_one_sequence_number() -> None:
    wire, ids = seated(RULES)

    def tamper(sender: int, raw: bytes) -> list[tuple[int, bytes]]:
        env = log.open_envelope(raw)
        if sender == CHEATER and env.payload["t"] == "bid":
            other = reseal(raw, ids[CHEATER], b=(env.payload["b"] + 1) % 14)
            return [(0, raw), (2, other), (3, other)]
        return [(d, raw) for d in range(4) if d != sender]

    wire.tamper = tamper
    wire.run()
    caught = [t for t in honest(wire) if t.violation is not None and t.violation.check == "equivocation"]
    assert caught, "some honest peer holds both signed entries"
    for table in caught:
        v = table.violation
        assert v is not None and v.seat == CHEATER and len(v.evidence) == 2
        a, b = (log.open_envelope(e) for e in v.evidence)
        assert a.payload["n"] == b.payload["n"] and a.raw != b.raw
        assert crypto.verify_signature(ids[CHEATER].public, a.signature, a.payload_raw)
        assert crypto.verify_signature(ids[CHEATER].public, b.signature, b.payload_raw)
        extra = [e for e in v.evidence if e not in table.entries]
        verdict = verify_frames([*table.entries, *extra])
        assert verdict.status is Status.VIOLATION and verdict.violation is not None
        assert verdict.violation.seat == CHEATER and verdict.violation.check == "equivocation"


# ------------------------------------------------------------------ caught by the reveal and recomputation
def test_replaced_ciphertext_in_the_shuffle() -> None:
    def replace(table: Table, p: dict[str, Any]) -> dict[str, Any]:
        p["d"][3] = other_point(p["d"][3])
        return p

    wire, _ = seated(RULES, Tampering, kind="shuffle", change=replace)
    wire.run()
    v = assert_caught(wire, ("shuffle", "forged card"))
    assert v.seat == CHEATER


def test_wrong_lock() -> None:
    wire, _ = seated(RULES, Tampering, kind="lock", change=wrong_lock)
    wire.run()
    assert_caught(wire, "lock")


def test_wrong_deal_key() -> None:
    def bad_key(table: Table, p: dict[str, Any]) -> dict[str, Any]:
        p["k"][0] = crypto.scalar_from_int(99)
        return p

    wire, _ = seated(RULES, Tampering, kind="keys", change=bad_key)
    wire.run()
    assert_caught(wire, "key")


@pytest.mark.parametrize(
    "point",
    [
        crypto.IDENTITY,
        bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"),  # order 8
        (2**255 - 19 + 1).to_bytes(32, "little"),  # y = 1 + p: a non-canonical encoding
    ],
    ids=["identity", "small-order", "non-canonical"],
)
def test_bad_points_in_a_shuffle(point: bytes) -> None:
    def poison(table: Table, p: dict[str, Any]) -> dict[str, Any]:
        p["d"][0] = point
        return p

    wire, _ = seated(RULES, Tampering, kind="shuffle", change=poison)
    wire.run()
    assert_caught(wire, "shuffle")


def test_false_challenge_names_the_challenger() -> None:
    class FalseAlarm(Table):
        def _deal_all(self, g: Game, d: HandDeal) -> None:
            super()._deal_all(g, d)
            self._challenge_due = "I claim my cards do not open"

    wire, _ = seated(RULES, FalseAlarm)
    wire.run()
    assert_caught(wire, "challenge")


class Reneger(Table):
    """A tampered client: its engine does not know its own hand, so nothing stops it from reneging."""

    reneged = False

    def _deal_all(self, g: Game, d: HandDeal) -> None:
        assert self._my is not None and self.seat is not None
        d.open_own(self.seat, self._my, d.positions_of(self.seat))
        g.apply(Deal(tuple(tuple(None for _ in d.positions_of(s)) for s in range(self.seats))))
        self._to_engine()

    def real_hand(self) -> list[Card]:
        d = self.deal
        assert d is not None
        return [c for j, c in d.opened.items() if d.owner[j] == self.seat and j not in d.played]

    def decide(self, action: Action) -> list[Event]:
        decision = self.pending_decision()
        if decision is not None and isinstance(action, Play) and action not in decision.legal:
            # its own engine would refuse the card: sign and send it regardless
            assert self.identity is not None and self._my is not None
            j = self._my_position(action.card)
            send_unchecked(self, {"t": "play", "j": j, "k": self._my.lock_keys[j]})
            self.stage = Stage.OVER  # it has nothing more to say: the honest peers decide now
            return []
        return super().decide(action)


def renege_player(table: Reneger) -> Callable[[Decision], Action]:
    """Reneges at the first chance, then follows suit with its real cards as well as it can."""
    fallback = RandomBot(5)

    def choose(decision: Decision) -> Action:
        if decision.kind.value != "play":
            return fallback(decision)
        hand = table.real_hand()
        led = decision.view.trick.led_suit
        holds_led = led is not None and any(c.suit == led for c in hand)
        if holds_led and not table.reneged:
            off = [c for c in hand if c.suit != led]
            if off:
                table.reneged = True
                return Play(off[0])
        follow = [c for c in hand if led is None or c.suit == led]
        return Play((follow or hand)[0])

    return choose


def test_a_renege_is_caught_when_the_withheld_suit_shows_up() -> None:
    """Not following suit shows the seat void in that suit; every card is played by the hand's end, so the
    withheld card must appear, and every peer catches the contradiction from the public record alone."""
    wire, _ = seated(RULES, Reneger, seed=b"renege")
    cheater = wire.tables[CHEATER]
    assert isinstance(cheater, Reneger)
    wire.players[CHEATER] = renege_player(cheater)
    wire.run()
    assert cheater.reneged
    v = assert_caught(wire, "rules")
    assert "void" in v.detail


# ------------------------------------------------------------------ refused, and the game goes on
@pytest.mark.parametrize("withheld", ["reveal", "end"])
def test_withholding_a_reveal_or_the_end_is_abandonment_and_forfeits(withheld: str) -> None:
    wire, _ = seated(RULES)

    def tamper(sender: int, raw: bytes) -> list[tuple[int, bytes]]:
        if sender == CHEATER and log.open_envelope(raw).payload["t"] == withheld:
            return []
        return [(d, raw) for d in range(4) if d != sender]

    wire.tamper = tamper
    wire.run()
    assert all(t.waiting_for() == (CHEATER, withheld) for t in honest(wire))
    wire.advance_time(30)
    wire.run()
    assert all(t.status == "running" for t in honest(wire)), "no abandonment before the timeout"
    wire.advance_time(61)
    wire.run()
    for table in honest(wire):
        assert table.status == "abandoned" and table.abandoned_by == CHEATER and table.finished
        assert table.result is not None and table.result.forfeit and table.result.seat == CHEATER
        assert table.result.winners == (1 - RULES.side_of(CHEATER),), "the game has a result: not void"
        verdict = verify_frames(table.entries)
        assert verdict.status is Status.INCOMPLETE and f"seat {CHEATER}" in verdict.summary
        assert f"forfeit by seat {CHEATER}" in verdict.summary


def test_messages_out_of_turn_are_rejected_and_named() -> None:
    wire, ids = seated(RULES)
    wire.start()
    for _ in range(200):
        wire.step()
    target = wire.tables[0]
    whose, kind = target.waiting_for()  # type: ignore[misc]
    intruder = next(s for s in range(4) if s != whose)
    payload = {
        "g": target.game_id,
        "n": len(target.entries),
        "p": target.head,
        "s": intruder,
        "h": target.hand_number,
        "t": kind,
        **_fields_for(kind),
    }
    events = target.receive(log.seal(payload, ids[intruder]))
    rejected = [e for e in events if isinstance(e, Rejected)]
    assert rejected and rejected[0].seat == intruder and rejected[0].check == "turn"
    wire.run()
    assert all(t.status == "complete" for t in wire.tables)


def _fields_for(kind: str) -> dict[str, Any]:
    fields: dict[str, dict[str, Any]] = {
        "bid": {"b": 3},
        "play": {"j": 0, "k": crypto.scalar_from_int(3)},
        "commit": {"c": bytes(32)},
        "shuffle": {"d": []},
        "lock": {"d": []},
        "keys": {"j": [], "k": []},
        "reveal": {"r": bytes(32)},
        "accept": {},
        "dcommit": {"c": bytes(32)},
        "dreveal": {"r": bytes(32)},
        "blind": {"b": False},
    }
    return fields.get(kind, {})


def test_replays_from_another_game_or_another_hand_are_dropped() -> None:
    other, _ = seated(RULES, seed=b"another game")
    other.run()
    wire, _ = seated(RULES)
    wire.start()
    for _ in range(1500):
        wire.step()
    target = wire.tables[0]
    before = list(target.entries)
    for raw in other.tables[0].entries[1:40]:
        events = target.receive(raw)
        assert any(isinstance(e, Dropped) and e.kind is DropKind.OTHER_GAME for e in events)
    for raw in target.entries[1:60]:  # old entries of this game, e.g. of the first hand
        assert target.receive(raw) == []
    assert target.entries == before
    wire.run()
    assert all(t.status == "complete" for t in wire.tables)
    assert all(t.entries == wire.tables[0].entries for t in wire.tables)


@pytest.mark.parametrize(
    "garbage",
    [
        b"",
        b"\x00",
        b"\x93\x01",
        b"\xff" * 64,
        b"x" * 300_000,
        log.encode({"t": "play"}),
        bytes(range(256)) * 10,
    ],
    ids=["empty", "zero", "truncated", "ff", "oversized", "bare-payload", "noise"],
)
def test_malformed_and_oversized_frames_are_dropped(garbage: bytes) -> None:
    wire, _ = seated(RULES)
    wire.start()
    for _ in range(300):
        wire.step()
    target = wire.tables[2]
    before = list(target.entries)
    events = target.receive(garbage)
    assert events and all(isinstance(e, Dropped) for e in events)
    assert target.entries == before and target.status == "running"
    wire.run()
    assert all(t.status == "complete" for t in wire.tables)


def test_a_signed_but_malformed_payload_from_the_seat_on_turn_is_a_violation() -> None:
    wire, ids = seated(RULES)

    def tamper(sender: int, raw: bytes) -> list[tuple[int, bytes]]:
        env = log.open_envelope(raw)
        if sender == CHEATER and env.payload["t"] == "bid":
            raw = reseal(raw, ids[CHEATER], b="seven")
        return [(d, raw) for d in range(4) if d != sender]

    wire.tamper = tamper
    wire.run()
    assert_caught(wire, "schema")


def test_an_entry_with_a_forged_signature_is_dropped() -> None:
    wire, _ids = seated(RULES)
    wire.start()
    for _ in range(100):
        wire.step()
    target = wire.tables[0]
    whose, kind = target.waiting_for()  # type: ignore[misc]
    stranger = crypto.Identity.generate()
    payload = {
        "g": target.game_id,
        "n": len(target.entries),
        "p": target.head,
        "s": whose,
        "h": target.hand_number,
        "t": kind,
        **_fields_for(kind),
    }
    events = target.receive(log.seal(payload, stranger))
    assert any(isinstance(e, Dropped) and e.kind is DropKind.BAD_SIGNATURE for e in events)
    assert target.status == "running"


# ------------------------------------------------------------------ hostile points and misplaced challenges
@pytest.mark.slow
def test_a_poisoned_last_lock_is_challenged_and_names_the_locker() -> None:
    wire, _ = seated(preset("classic", target=500), LastLockPoisoner, seed=b"poison")
    wire.run()
    cheater = wire.tables[CHEATER]
    assert isinstance(cheater, LastLockPoisoner) and cheater.poisoned
    victim = (CHEATER + 1) % 4
    challenges = [
        e for e in wire.events[victim] if isinstance(e, Accepted) and e.own and e.type == msg.Challenge.TYPE
    ]
    assert challenges, "the victim challenged the deal it could not open"
    assert_caught(wire, "lock")


@pytest.mark.parametrize("at", [msg.Shuffle, msg.Lock], ids=["at a shuffle turn", "at a lock turn"])
def test_a_challenge_before_the_deck_is_complete_names_the_challenger(at: type[msg.Message]) -> None:
    wire, _ = seated(RULES, EarlyChallenger, seed=b"early " + at.TYPE.encode(), at=at)
    wire.run()
    v = assert_caught(wire, "challenge")
    assert "false challenge" in v.detail


# ------------------------------------------------------------------ faults end the game with a result
def test_a_caught_cheat_forfeits_the_game_for_the_cheaters_side() -> None:
    wire, _ = seated(RULES, Tampering, kind="lock", change=wrong_lock)
    wire.run()
    assert_caught(wire, "lock")
    honest_side = 1 - RULES.side_of(CHEATER)
    for table in honest(wire):
        assert table.result is not None and table.result.forfeit and table.result.seat == CHEATER
        assert table.result.winners == (honest_side,)
        verdict = verify_frames(table.entries)
        assert verdict.status is Status.VIOLATION
        assert f"forfeit by seat {CHEATER}" in verdict.summary
        record = hand_record(verdict)["result"]
        assert record["winners"] == [honest_side]
        assert record["forfeit"]["seat"] == CHEATER
        assert record["forfeit"]["text"].startswith(f"forfeit by seat {CHEATER}: lock: ")


@pytest.mark.slow
def test_a_void_rule_set_ends_a_cheat_with_no_winner() -> None:
    def bad_lock(table: Table, p: dict[str, Any]) -> dict[str, Any]:
        p["d"][0] = other_point(p["d"][0])
        return p

    wire, _ = seated(RULES.replace(on_fault="void"), Tampering, kind="lock", change=bad_lock)
    wire.run()
    assert_caught(wire, ("lock", "forged card"))
    for table in honest(wire):
        assert table.result is not None and not table.result.forfeit and table.result.winners == ()
        assert "void" in verify_frames(table.entries).summary


# ------------------------------------------------------------------ abandonment: claimed, refuted, co-signed
def until_waiting_for(wire: Wire, seat: int, what: str) -> None:
    for i in range(len(wire.tables)):
        wire._record(i, [])
    while any(t.waiting_for() != (seat, what) for t in wire.tables):
        assert wire.step(), "the game ended before that turn"


def test_a_false_abandonment_is_refuted_and_names_the_claimant() -> None:
    accused = (CHEATER - 1) % 4
    wire, _ = seated(RULES, Impatient, seed=b"false claim")
    until_waiting_for(wire, accused, "bid")
    wire._record(CHEATER, wire.tables[CHEATER].tick(wire.now))  # no time has passed at all
    claims = [t.claim for t in honest(wire)]
    wire.run()
    for table in honest(wire):
        assert table.status == "violation"
        v = table.violation
        assert v is not None and (v.seat, v.check) == (CHEATER, "abandon")
        assert table.result is not None and table.result.winners == (RULES.side_of(accused),)
        verdict = verify_frames(logged(table))
        assert verdict.status is Status.VIOLATION and verdict.violation is not None
        assert verdict.violation.seat == CHEATER and f"forfeit by seat {CHEATER}" in verdict.summary
    chains = [t.entries for t in honest(wire)]
    assert all(c == chains[0] for c in chains)
    assert claims == [None, None, None], "the claim was delivered only by the run"
    kinds = [(e.payload["t"], e.payload["s"]) for e in map(log.open_envelope, logged(honest(wire)[0]))]
    assert [s for t, s in kinds if t == "abandon"] == [CHEATER], "no honest seat co-signed the false claim"
    assert kinds[-1] == ("abandon", CHEATER), "the claim is evidence after the chain, the answer on it"


def logged(table: Table) -> list[bytes]:
    """What a peer's log file holds: the chain, then the evidence of a halting violation that is not on it."""
    v = table.violation
    return [*table.entries, *(raw for raw in (v.evidence if v else ()) if raw not in table.entries)]


def test_a_claim_is_held_until_our_own_timer_runs_out_then_co_signed() -> None:
    """The accused is really gone: honest seats co-sign only after their own timeout, and the log says
    who claimed what after how long, not that the silence is proven."""
    wire, _ = seated(RULES)
    gone = CHEATER
    until_waiting_for(wire, gone, "bid")
    wire.players[gone] = None  # the seat's player stopped answering
    claimant = (gone + 1) % 4
    wire.now = 700.0
    wire._record(claimant, wire.tables[claimant].tick(wire.now))
    wire.run()  # every honest clock has run past the 600 s of a decision too
    for table in honest(wire):
        assert table.status == "abandoned" and table.finished and table.claim is not None
        assert table.claim.signers == [claimant, (gone + 2) % 4, (gone + 3) % 4]
        assert table.result is not None and table.result.forfeit and table.result.seat == gone
        verdict = verify_frames(table.entries)
        assert verdict.status is Status.INCOMPLETE
        others = f"{(gone + 2) % 4}, {(gone + 3) % 4}"
        assert f"claimed by seats {claimant}, {others} after a silence from seat {gone}" in verdict.summary
        assert "600 s by default" in verdict.summary
        assert f"silence from seat {gone}" in verdict.summary and "not a proof" in verdict.summary
        assert hand_record(verdict)["result"]["abandonment"]["claimed_by"] == table.claim.signers


def test_a_claim_before_our_timer_is_held_and_checked_again_on_tick() -> None:
    wire, _ = seated(RULES)
    gone = CHEATER
    until_waiting_for(wire, gone, "bid")
    wire.players[gone] = None
    claimant = (gone + 1) % 4
    wire.tables[claimant].timeouts["decision"] = 5.0  # an impatient (or cheating) clock
    wire.now = 10.0
    wire._record(claimant, wire.tables[claimant].tick(wire.now))
    wire.run()
    held = [t for i, t in enumerate(wire.tables) if i not in (gone, claimant)]
    claim = wire.tables[claimant].entries[-1]
    assert all(t.claim is None and t.held_claim == claim for t in held), "held off the chain"
    wire.advance_time(500)  # 510 s: still within the others' 600 s
    wire.run()
    assert all(t.claim is None and t.held_claim == claim for t in held)
    wire.advance_time(100)
    wire.run()
    assert all(t.status == "abandoned" for t in held)


def test_a_false_claim_that_crosses_the_accuseds_answer_in_flight_is_still_refuted() -> None:
    """Over a network the accused may answer before the claim reaches it: its answer and the claim then both
    follow the same entry. Whatever order they arrive in, the claim must not stand against a seat that
    answered."""
    accused = (CHEATER - 1) % 4
    wire, _ = seated(RULES, seed=b"crossing claim")
    until_waiting_for(wire, accused, "bid")
    tables = wire.tables
    decision = tables[accused].pending_decision()
    assert decision is not None
    tables[accused].decide(wire.players[accused](decision))  # type: ignore[misc]
    (answer,) = [out.raw for out in tables[accused].take_outgoing()]
    claimant = tables[CHEATER]
    claimant._send(msg.Abandon(accused, f"seat {accused} stopped answering"))
    claimant._advance()
    claimant._flush()
    (claim,) = [out.raw for out in claimant.take_outgoing()]
    for seat in range(4):  # the claim reaches every other seat before the answer does
        for raw in (claim, answer):
            if seat not in (accused, CHEATER) or (seat, raw) in ((accused, claim), (CHEATER, answer)):
                wire._record(seat, tables[seat].receive(raw, wire.now))
    wire.advance_time(700)  # every honest timer runs out
    wire.run()
    for table in honest(wire):
        assert table.result is None or table.result.seat != accused, f"seat {table.seat} blames the accused"
    chains = [t.entries for t in honest(wire)]
    assert all(c == chains[0] for c in chains), "the honest peers hold the same chain"
    for table in honest(wire):  # and the log file of each gives the live verdict: the claimant forfeits
        assert table.violation is not None and table.violation.seat == CHEATER
        verdict = verify_frames(logged(table))
        assert verdict.violation is not None and verdict.violation.seat == CHEATER
    own = verify_frames(logged(claimant))  # the claim on the chain, the answer after it: the same verdict
    assert own.violation is not None and own.violation.seat == CHEATER and own.violation.check == "abandon"


def cross_an_honest_claim(wire: Wire, ids: list[crypto.Identity], fields: dict[str, Any], first: int) -> int:
    """The cheater, silent past every honest timeout, answers with `fields`, timed to cross seat 2's claim:
    seat `first` takes the answer first, the other honest seats the claim. Its sequence number."""
    tables = wire.tables
    slot = tables[0]  # the slot the cheater's step is due in, as the honest seats see it
    seq = len(slot.entries)
    header = {"g": slot.game_id, "n": seq, "p": slot.head, "s": CHEATER, "h": slot.hand_number}
    wire.now = 700.0  # every honest timer for the cheater's step has run out
    claimant = tables[2]
    claimant._send(msg.Abandon(CHEATER, f"seat {CHEATER} stopped answering"))
    claimant._advance()
    claimant._flush()
    (claim,) = [out.raw for out in claimant.take_outgoing()]
    answer = log.seal({**fields, **header}, ids[CHEATER])
    for seat in (0, 2, 3):
        order = (answer, claim) if seat == first else (claim, answer)
        for raw in order:
            if seat != 2 or raw != claim:
                wire._record(seat, tables[seat].receive(raw, wire.now))
    wire.run()
    return seq


def assert_named_at(wire: Wire, check: str, seq: int) -> None:
    for table in honest(wire):
        assert table.violation is not None, f"seat {table.seat} named nobody"
        found = (table.violation.seat, table.violation.check, table.violation.seq)
        assert found == (CHEATER, check, seq), (table.seat, table.violation)
        verdict = verify_frames(logged(table))
        assert verdict.violation is not None and verdict.violation.seat == CHEATER, verdict.summary


@pytest.mark.parametrize("answer_first", [0, 2, 3])
def test_an_invalid_answer_timed_to_cross_an_honest_claim_names_the_accused(answer_first: int) -> None:
    """The accused is the cheater: silent past every timeout, then it sends an answer that breaks the rules,
    timed to cross the honest claim. Whether a seat holds the claim or the answer first, every honest seat
    must name the accused (its answer is checked as it would have been in its turn), and every log says so."""
    wire, ids = seated(RULES, seed=b"crossing cheat")
    until_waiting_for(wire, CHEATER, "bid")
    seq = cross_an_honest_claim(wire, ids, {"t": "bid", "b": 14}, answer_first)
    assert_named_at(wire, "rules", seq)


@pytest.mark.slow
@pytest.mark.parametrize("answer_first", [0, 3])
def test_a_bad_shuffle_proof_timed_to_cross_an_honest_claim_names_the_accused(answer_first: int) -> None:
    """The same with a live proof (protocol version 2): the crossing answer's proof is checked too."""
    wire, ids = seated(RULES, seed=b"crossing proof", version=2)
    kept: list[dict[str, Any]] = []

    def withhold(sender: int, raw: bytes) -> list[tuple[int, bytes]]:
        payload = dict(log.open_envelope(raw).payload)
        if sender == CHEATER and payload["t"] == "shuffle" and not kept:
            kept.append(payload)
            return []  # the cheater goes silent at its shuffle
        return [(d, raw) for d in range(4) if d != sender]

    wire.tamper = withhold
    wire.run()
    assert kept, "the cheater never shuffled"
    proof = bytearray(kept[0]["x"])
    proof[-1] ^= 1
    fields = {k: v for k, v in kept[0].items() if k not in ("g", "n", "p", "s", "h")}
    seq = cross_an_honest_claim(wire, ids, {**fields, "x": bytes(proof)}, answer_first)
    assert_named_at(wire, "shuffle", seq)


def answer_after_the_claim(wire: Wire, ids: list[crypto.Identity]) -> tuple[bytes, bytes, bytes]:
    """Seat 2 claims, after every honest timeout, that the cheater stopped bidding; seat 3 co-signs at once;
    the cheater bids the moment it sees the claim, so its bid follows the claim. (claim, co-signature, bid)"""
    tables = wire.tables
    wire.now = 700.0  # every honest timer for the cheater's bid has run out
    claimant, cosigner = tables[2], tables[3]
    claimant._send(msg.Abandon(CHEATER, f"seat {CHEATER} stopped answering"))
    claimant._advance()
    claimant._flush()
    (claim,) = [out.raw for out in claimant.take_outgoing()]
    header = {"g": claimant.game_id, "n": len(claimant.entries), "p": claimant.head, "s": CHEATER,
              "h": claimant.hand_number}
    cosigner.receive(claim, wire.now)
    (cosign,) = [out.raw for out in cosigner.take_outgoing()]
    assert tables[CHEATER].receive(claim, wire.now)
    assert tables[CHEATER].pending_decision() is None, "an honest table does not answer a claim on its chain"
    return claim, cosign, log.seal({**header, "t": "bid", "b": 3}, ids[CHEATER])


def assert_late(wire: Wire, seq: int) -> None:
    """Every honest seat, and the verifier on each one's log, names the cheater for answering late."""
    for table in honest(wire):
        v = table.violation
        assert v is not None and (v.seat, v.check, v.seq) == (CHEATER, "late", seq), (table.seat, v)
        verdict = verify_frames(logged(table))
        assert verdict.violation is not None, verdict.summary
        assert (verdict.violation.seat, verdict.violation.check) == (CHEATER, "late"), verdict.summary
        assert f"forfeit by seat {CHEATER}" in verdict.summary


def test_an_answer_made_after_the_claim_is_late_and_names_the_accused_not_the_claimant() -> None:
    """The bait: stay silent past every timeout, then answer the instant the claim shows. The answer follows
    the claim, so it was made after the claimant's timeout: the accused is named, never the claimant."""
    wire, ids = seated(RULES, seed=b"bait")
    until_waiting_for(wire, CHEATER, "bid")
    claim, _, answer = answer_after_the_claim(wire, ids)
    tables = wire.tables
    for raw in (claim, answer):
        tables[0].receive(raw, wire.now)
    tables[2].receive(answer, wire.now)
    tables[3].receive(answer, wire.now)
    assert_late(wire, log.validate_header(log.open_envelope(answer).payload).seq)


def test_an_answer_that_crosses_a_co_signature_gives_every_peer_the_same_verdict() -> None:
    """The late answer and the first co-signature both follow the claim: seats that took the answer first
    and seats that took the co-signature first must reach the same verdict, and so must the verifier."""
    wire, ids = seated(RULES, seed=b"crossing co-signature")
    until_waiting_for(wire, CHEATER, "bid")
    claim, cosign, answer = answer_after_the_claim(wire, ids)
    tables = wire.tables
    for raw in (claim, answer, cosign):
        tables[0].receive(raw, wire.now)
    for raw in (cosign, answer):
        tables[2].receive(raw, wire.now)
    tables[3].receive(answer, wire.now)
    assert all(t.finished for t in honest(wire)), [t.status for t in honest(wire)]
    assert_late(wire, log.validate_header(log.open_envelope(answer).payload).seq)


def test_an_abandonment_of_no_seat_is_refused() -> None:
    rules = RULES.replace(first_leader="low_club")
    wire, ids = seated(rules, seed=b"low club")
    for i in range(4):
        wire._record(i, [])
    # every seat but the holder of the lowest club waits for "any seat" to lead it
    while not any(t.waiting_for() == (-1, "play") for t in wire.tables):
        assert wire.step()
    target = next(t for t in wire.tables if t.waiting_for() == (-1, "play"))
    before = list(target.entries)
    raw = log.seal(
        {"g": target.game_id, "n": len(before), "p": target.head, "s": 0, "h": target.hand_number,
         "t": "abandon", "a": -1, "why": "nobody leads"},
        ids[0],  # seat (-1 + 1) mod 4, the seat that would start the claim against "seat -1"
    )
    events = target.receive(raw, wire.now)
    assert target.entries == before and target.status == "running"
    assert any(isinstance(e, Rejected) and e.seat == 0 for e in events)


class Stonewall(Table):
    """A colluder: it never claims an abandonment and never co-signs one."""

    def tick(self, now: float) -> list[Event]:
        return []

    def _holding_claim(self) -> bool:
        return self.stage is Stage.ABANDON


@pytest.mark.slow
def test_two_colluders_in_cutthroat3_cannot_stall_the_game() -> None:
    rules = preset("cutthroat3", target=100, losing_threshold=-100)
    ids = [crypto.Identity.from_seed(crypto.H("colluders", bytes([i]))[:32]) for i in range(3)]
    genesis = new_game(rules, ids, game_id=crypto.H("game", b"colluders")[:16])
    stalled, colluder, honest_seat = 1, 2, 0
    kinds = [Stonewall if i in (stalled, colluder) else Table for i in range(3)]
    tables = [kind(genesis, ids[i], entropy=seeded_entropy(bytes([i]))) for i, kind in enumerate(kinds)]
    wire = Wire(tables, [RandomBot(i) for i in range(3)])
    until_waiting_for(wire, stalled, "bid")
    wire.players[stalled] = None  # it never bids, and its neighbour never claims
    wire.advance_time(1199)
    wire.run()
    honest_table = wire.tables[honest_seat]
    assert honest_table.claim is None, "the seat two after waits two timeouts"
    wire.advance_time(2)
    wire.run()
    assert honest_table.claim is not None and honest_table.claim.signers == [honest_seat]
    wire.advance_time(599)
    wire.run()
    assert not honest_table.finished, "the co-signer is waited for as long as the accused was"
    wire.advance_time(2)
    wire.run()
    assert honest_table.status == "abandoned" and honest_table.claim.passed == [colluder]
    assert honest_table.result is not None and honest_table.result.seat == stalled
    assert rules.side_of(stalled) not in honest_table.result.winners
    verdict = verify_frames(honest_table.entries)
    assert verdict.status is Status.INCOMPLETE
    assert f"passed over without co-signing: seat {colluder}" in verdict.summary


# ------------------------------------------------------------------ a contradiction only one seat can see
class Confused(Table):
    """Its engine believes it holds one card that the next seat was dealt (as if that seat's card were a
    copy of one of its own): only this seat can see the contradiction when that card is played."""

    peer: Table | None = None
    believed: Card | None = None

    def _deal_all(self, g: Game, d: HandDeal) -> None:
        peer = self.peer
        if self.believed is not None or peer is None or peer._my is None or peer.seat is None:
            super()._deal_all(g, d)
            return
        assert self.seat is not None and self._my is not None
        j = d.positions_of(peer.seat)[0]
        card = d.open_position(j, {peer.seat: peer._my.lock_keys[j]})
        mine = d.open_own(self.seat, self._my, d.positions_of(self.seat))
        assert card is not None and mine is not None
        hand = [mine[p] for p in d.positions_of(self.seat)]
        hand[0], self.believed = card, card
        unknown = [tuple(None for _ in d.positions_of(s)) for s in range(self.seats)]
        g.apply(Deal(tuple(tuple(hand) if s == self.seat else unknown[s] for s in range(self.seats))))
        self._to_engine()


def test_a_contradiction_only_one_seat_sees_leads_to_a_challenge_not_a_split() -> None:
    wire, _ = seated(RULES, Confused, seed=b"confused")
    confused = wire.tables[CHEATER]
    assert isinstance(confused, Confused)
    confused.peer = wire.tables[(CHEATER + 1) % 4]
    bot = RandomBot(CHEATER)

    def player(decision: Decision) -> Action:
        # it never plays the card it only believes it holds (it could not open it)
        legal = tuple(a for a in decision.legal if a != Play(confused.believed or Card.parse("BJ")))
        assert legal, "the believed card was the only legal play"
        return bot(Decision(decision.kind, decision.view, legal))

    wire.players[CHEATER] = player
    wire.run()
    assert confused.believed is not None
    own = [e for e in wire.events[CHEATER] if isinstance(e, Accepted) and e.own]
    challenges = [e for e in own if e.type == "challenge"]
    assert challenges, "the seat that saw the contradiction challenged"
    assert_caught(wire, "challenge")  # the deal checks out: its own knowledge was wrong
    assert confused.entries == wire.tables[0].entries, "every table holds the same chain: no split"
    assert confused.violation is not None and confused.violation.seat == CHEATER


# ------------------------------------------------------------------ rule low_club: the "any seat" lead
LOW_CLUB = preset("classic", target=100, losing_threshold=-100, first_leader="low_club")


def until_the_low_club_lead(wire: Wire) -> int:
    """Run until every table waits for the lead of the lowest club; the seat that holds it."""
    for i in range(len(wire.tables)):
        wire._record(i, [])
    while not all(t.waiting_for() == (-1, "play") for t in wire.tables):
        assert wire.step(), "the game ended before a low-club lead"
    holders = [i for i, t in enumerate(wire.tables) if t.pending_decision() is not None]
    assert len(holders) == 1
    return holders[0]


def test_a_low_club_holder_that_never_leads_is_named_and_forfeits() -> None:
    wire, _ = seated(LOW_CLUB, seed=b"silent holder")
    holder = until_the_low_club_lead(wire)
    wire.players[holder] = None
    wire.advance_time(599)
    wire.run()
    assert all(t.lead_claim is None for t in wire.tables), "one timeout first"
    wire.advance_time(2)  # one seat asks for the reveal; the one after it would wait another timeout
    wire.run()
    for table in wire.tables:
        v = table.violation
        assert v is not None and (v.seat, v.check) == (holder, "lead"), v
        assert table.result is not None and table.result.forfeit and table.result.seat == holder
    verdict = verify_frames(wire.tables[0].entries)
    assert verdict.violation is not None and verdict.violation.seat == holder


class ImpatientChallenger(Table):
    """Says at once that nobody led the lowest club."""

    def tick(self, now: float) -> list[Event]:
        self.timeouts["decision"] = 0.0
        return super().tick(now)


def test_a_premature_low_club_claim_is_refuted_by_the_lead() -> None:
    wire, _ = seated(LOW_CLUB, ImpatientChallenger, seed=b"impatient lead")
    holder = until_the_low_club_lead(wire)
    assert holder != CHEATER
    wire._record(CHEATER, wire.tables[CHEATER].tick(wire.now))
    wire.run()
    for table in honest(wire):
        v = table.violation
        assert v is not None and (v.seat, v.check) == (CHEATER, "challenge"), v
        assert "led it in time" in v.detail
        assert table.result is not None and table.result.seat == CHEATER
        verdict = verify_frames(table.entries)
        assert verdict.violation is not None and verdict.violation.seat == CHEATER
