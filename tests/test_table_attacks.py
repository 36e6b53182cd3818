"""Attacks on the table protocol, on the in-memory wiring.

Each test seats one cheating peer among honest ones. The cheater must be refused or caught and named
correctly, with signed evidence, and the honest peers must lose nothing: they agree with each other, and
their logs verify to the same verdict.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers.cheats import (
    EarlyChallenger,
    LastLockPoisoner,
    Tampering,
    other_point,
    send_unchecked,
    wrong_lock,
)
from helpers.logs import write_log

from p2pspades import crypto, log
from p2pspades.audit import Status, hand_record, verify_frames
from p2pspades.bots import RandomBot
from p2pspades.rules import Action, Bid, Card, Play, RuleSet, SideTotal, preset, score_hand
from p2pspades.table import (
    Accepted,
    Decision,
    DropKind,
    Dropped,
    Event,
    Rejected,
    Stage,
    Table,
    Violation,
)
from p2pspades.table import messages as msg
from p2pspades.table.harness import Wire, new_game, seeded_entropy
from p2pspades.table.makers import Makers, MakerView, position_of

RULES = preset("classic", target=100, losing_threshold=-100)
CHEATER = 1


def seated(
    rules: RuleSet,
    cheater: type[Table] | Callable[..., Makers] | None = None,
    seed: bytes = b"attack",
    version: int = 1,
    **cheater_kw: Any,
) -> tuple[Wire, list[crypto.Identity]]:
    """A table with one cheater: a modified `Table` class, or what makes the `Makers` its table plays with.
    Protocol version 1 by default: these attacks are caught by its checks and its end-of-hand audit
    (tests/test_table_proofs.py attacks version 2, which refuses them live)."""
    n = rules.players
    ids = [crypto.Identity.from_seed(crypto.H("test identity", seed, bytes([i]))[:32]) for i in range(n)]
    genesis = new_game(rules, ids, game_id=crypto.H("game", seed)[:16], version=version)
    tables: list[Table] = []
    for i in range(n):
        entropy = seeded_entropy(seed + bytes([i]))
        if i != CHEATER or cheater is None:
            tables.append(Table(genesis, ids[i], entropy=entropy))
        elif isinstance(cheater, type) and issubclass(cheater, Table):
            tables.append(cheater(genesis, ids[i], entropy=entropy, **cheater_kw))
        else:
            makers: Makers = cheater(**cheater_kw)  # type: ignore[assignment]
            tables.append(Table(genesis, ids[i], entropy=entropy, makers=makers))
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
            and table.hand_secrets is not None
        ):
            j = env.payload["j"]
            other = next(p for p in table.deal.positions_of(CHEATER) if p != j)
            raw = reseal(raw, ids[CHEATER], k=table.hand_secrets.lock_keys[other])
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
    class FalseAlarm(Makers):
        def own_cards(self, table: MakerView) -> tuple[Card | None, ...] | None:
            super().own_cards(table)
            return None  # they open, but it says they do not: it challenges

    wire, _ = seated(RULES, FalseAlarm)
    wire.run()
    assert_caught(wire, "challenge")


class Unknowing(Makers):
    """Opens its own cards, and tells its engine nothing of them."""

    def own_cards(self, table: MakerView) -> tuple[Card | None, ...] | None:
        cards = super().own_cards(table)
        return None if cards is None else tuple(None for _ in cards)


class HandUnknown(Table):
    """A tampered client whose engine does not know its own hand (so it refuses none of its moves); what the
    seat really holds is `real_hand()`, read from its deal."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs, makers=Unknowing())

    def real_hand(self) -> list[Card]:
        d = self.deal
        assert d is not None
        return [c for j, c in d.opened.items() if d.owner[j] == self.seat and j not in d.played]


class Reneger(HandUnknown):
    """A tampered client: its engine does not know its own hand, so nothing stops it from reneging."""

    reneged = False

    def decide(self, action: Action) -> list[Event]:
        decision = self.pending_decision()
        if decision is not None and isinstance(action, Play) and action not in decision.legal:
            # its own engine would refuse the card: sign and send it regardless
            assert self.identity is not None and self.hand_secrets is not None
            j = position_of(self.view, action.card)
            send_unchecked(self, {"t": "play", "j": j, "k": self.hand_secrets.lock_keys[j]})
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


class LyingBidder(HandUnknown):
    """A tampered client under mirror bids: its engine does not know its own hand, so it accepts (and signs)
    a bid that is not the seat's spade count; it then plays its real cards by the rules."""

    lied: int | None = None


def lying_bidder(table: LyingBidder) -> Callable[[Decision], Action]:
    """Claims two spades more than it holds (once), and plays a legal card of its real hand."""

    def choose(decision: Decision) -> Action:
        view = decision.view
        order = view.rules.order
        hand = sorted(table.real_hand(), key=order.strength)
        if decision.kind.value == "bid":
            spades = sum(1 for c in hand if order.is_trump(c))
            if table.lied is None:
                table.lied = spades
                return Bid(spades + 2)
            return Bid(spades)
        if decision.kind.value != "play":
            return decision.legal[0]
        led = view.trick.led_suit
        follow = [c for c in hand if led is not None and order.suit(c) is led]
        if led is None and not view.spades_broken:
            follow = [c for c in hand if not order.is_trump(c)]
        return Play((follow or hand)[0])

    return choose


@pytest.mark.slow
@pytest.mark.parametrize("version", [1, 2])
def test_a_false_mirror_bid_is_named_by_the_audit_of_the_revealed_hand(version: int, tmp_path: Path) -> None:
    """A mirror bid claims the bidder's spade count, which no peer can see when it is made: every peer takes
    the properly signed bid, and the end-of-hand audit, with every hand revealed, names the lie. The verifier
    reports it from the log alone."""
    rules = preset("mirror", target=100, losing_threshold=-100)
    wire, _ = seated(rules, LyingBidder, seed=b"mirror liar", version=version)
    cheater = wire.tables[CHEATER]
    assert isinstance(cheater, LyingBidder)
    wire.players[CHEATER] = lying_bidder(cheater)
    wire.run()
    assert cheater.lied is not None
    for table in honest(wire):
        assert table.status == "complete", table.status  # a penalised violation: the game goes on
        game = table.game
        assert game is not None
        first = game.history[0]
        assert first.bids[CHEATER] == cheater.lied + 2
        [lie] = [v for v in first.violations if v.kind == "bad_bid"]
        assert lie.seat == CHEATER and f"bid {cheater.lied + 2} holding {cheater.lied} spade" in lie.detail
        assert first.scores[rules.side_of(CHEATER)].penalized  # "set", the rule set's renege penalty
        verdict = verify_frames(table.records)
        assert verdict.status is Status.VIOLATION, verdict.summary
        assert verdict.violation is not None and verdict.violation.seat == CHEATER
        assert verdict.violation.check == "bad_bid" and "penalised" in verdict.summary
    chains = [t.entries for t in honest(wire)]
    assert all(c == chains[0] for c in chains)
    # `p2pspades verify` on an honest seat's log file says who lied, and what the revealed hand held
    path = write_log(tmp_path / "liar.p2plog", honest(wire)[0].records)
    out = subprocess.run([sys.executable, "-m", "p2pspades", "verify", str(path)], capture_output=True,
                         text=True, timeout=120, check=False)
    assert out.returncode == 1, out.stdout + out.stderr
    assert (f"seat {CHEATER}" in out.stdout and "bad_bid" in out.stdout) or "bid" in out.stdout
    assert f"holding {cheater.lied} spade" in out.stdout and "(penalised: " in out.stdout


@pytest.mark.slow
@pytest.mark.parametrize("renege", ["set", "three_tricks", "stop"])
def test_a_caught_false_bid_never_pays_and_is_said_mid_game_and_after_an_abandonment(renege: str) -> None:
    """The liar bids two spades more than it holds. Whatever `renege` says, its side scores no more than its
    honest bid failed ("stop": the game ends on the lie, and the liar's side forfeits). `verify` names the lie
    in words on a log cut after that hand, and on the log of a game the liar then abandons (it withholds its
    reveal of the second hand, and the others' certificate ends the game)."""
    rules = preset("mirror", target=2000, losing_threshold=-2000, renege=renege)
    wire, _ = seated(rules, LyingBidder, seed=b"mirror liar " + renege.encode())
    cheater = wire.tables[CHEATER]
    assert isinstance(cheater, LyingBidder)
    wire.players[CHEATER] = lying_bidder(cheater)

    def withhold(sender: int, raw: bytes) -> list[tuple[int, bytes]]:
        payload = log.open_envelope(raw).payload
        if sender == CHEATER and payload["t"] == "reveal" and payload["h"] == 2:
            return []
        return [(d, raw) for d in range(4) if d != sender]

    wire.tamper = withhold
    wire.run()
    assert cheater.lied is not None
    table = honest(wire)[0]
    game = table.game
    assert game is not None
    first = game.history[0]
    side = rules.side_of(CHEATER)
    if renege == "stop":
        assert table.status == "violation" and table.violation is not None
        assert (table.violation.seat, table.violation.check) == (CHEATER, "bad_bid")
        assert table.result is not None and table.result.winners == (1 - side,), "the liar's side forfeits"
        return
    honest_bids = list(first.bids)
    honest_bids[CHEATER] = cheater.lied
    before = [SideTotal()] * 2
    honest_set, _ = score_hand(rules, honest_bids, list(first.blind), first.tricks_won, before, {side})
    assert first.scores[side].penalized and first.scores[side].points <= honest_set[side].points
    # the log cut after the first hand: valid so far, and the lie in words
    cut = next(i for i, raw in enumerate(table.records) if log.open_envelope(raw).payload["h"] == 2)
    verdict = verify_frames(table.records[:cut])
    lie = f"bid {cheater.lied + 2} holding {cheater.lied} spade"
    assert verdict.status is Status.VIOLATION and "valid so far" in verdict.summary, verdict.summary
    assert lie in verdict.summary and "its side scored the hand as a failed contract" in verdict.summary
    # the liar withholds its second reveal: abandoned, and the lie is still said
    wire.advance_time(61)
    wire.run()
    wire.advance_time(61)
    wire.run()
    assert table.status == "abandoned" and table.abandoned_by == CHEATER
    verdict = verify_frames(table.records)
    assert verdict.status is Status.VIOLATION and "abandoned" in verdict.summary, verdict.summary
    assert lie in verdict.summary and f"forfeit by seat {CHEATER}" in verdict.summary
    assert hand_record(verdict)["result"]["violation"]["check"] == "bad_bid"


class WrongSuicideBid(Table):
    """A tampered client under suicide bids: once its partner has bid, it bids what its engine refuses (nil
    after a nil, 4 after a bid), signed and sent regardless."""

    sent: int | None = None

    def decide(self, action: Action) -> list[Event]:
        decision = self.pending_decision()
        game = self.game
        if decision is not None and decision.kind.value == "bid" and game is not None:
            assert self.seat is not None
            partner_bid = game.hand.bids[(self.seat + 2) % 4]
            if partner_bid is not None:
                self.sent = 0 if partner_bid == 0 else 4
                send_unchecked(self, {"t": "bid", "b": self.sent})
                self.stage = Stage.OVER
                return []
        return super().decide(action)


def test_a_wrong_suicide_bid_is_refused_live() -> None:
    """Suicide bids depend on the public bids alone: every peer refuses a second nil, or a second bid that
    is not nil, in a side at once."""
    rules = preset("suicide", target=300, losing_threshold=-300)
    wire, _ = seated(rules, WrongSuicideBid, seed=b"suicide")
    wire.run()
    cheater = wire.tables[CHEATER]
    assert isinstance(cheater, WrongSuicideBid) and cheater.sent is not None
    v = assert_caught(wire, "rules")
    assert "under suicide bids" in v.detail


# ------------------------------------------------------------------ refused, and the game goes on
@pytest.mark.parametrize("withheld", ["reveal", "end"])
def test_withholding_a_reveal_forfeits_and_withholding_the_end_changes_nothing(withheld: str) -> None:
    """A seat that withholds its reveal keeps the hand from being scored: the others' certificate makes its
    side forfeit. One that withholds its `end` changes nothing: the game was decided by the last audit, so
    the certificate at an `end` leaves the game's own result (and losers cannot rewrite a finished game by
    claiming that the winner did not sign its `end`)."""
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
        result = table.result
        assert result is not None and result.seat == CHEATER
        verdict = verify_frames(table.records)
        assert verdict.status is Status.INCOMPLETE and f"seat {CHEATER}" in verdict.summary
        if withheld == "reveal":
            assert result.forfeit and result.winners == (1 - RULES.side_of(CHEATER),), "not void"
            assert f"forfeit by seat {CHEATER}" in verdict.summary
        else:
            game = table.game
            assert game is not None and game.outcome is not None
            assert result.scored and not result.forfeit and result.winners == tuple(game.outcome.winners)
            assert "forfeit" not in verdict.summary and "the result stands" in verdict.summary


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
    assert isinstance(cheater.makers, LastLockPoisoner) and cheater.makers.poisoned
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


def until_waiting_for(wire: Wire, seat: int, what: str) -> None:
    for i in range(len(wire.tables)):
        wire._record(i, [])
    while any(t.waiting_for() != (seat, what) for t in wire.tables):
        assert wire.step(), "the game ended before that turn"


# ------------------------------------------------------------------ a contradiction only one seat can see
class Confused(Makers):
    """Its engine believes it holds one card that the next seat was dealt (as if that seat's card were a
    copy of one of its own): only this seat can see the contradiction when that card is played."""

    peer: Table | None = None
    believed: Card | None = None

    def own_cards(self, table: MakerView) -> tuple[Card | None, ...] | None:
        peer, d = self.peer, table.deal
        if self.believed is not None or peer is None or peer.hand_secrets is None or peer.seat is None:
            return super().own_cards(table)
        assert d is not None
        j = d.positions_of(peer.seat)[0]
        card = d.open_position(j, {peer.seat: peer.hand_secrets.lock_keys[j]})
        mine = super().own_cards(table)
        assert card is not None and mine is not None
        self.believed = card
        return (card, *mine[1:])


def test_a_contradiction_only_one_seat_sees_leads_to_a_challenge_not_a_split() -> None:
    confusion = Confused()
    wire, _ = seated(RULES, lambda: confusion, seed=b"confused")
    confused = wire.tables[CHEATER]
    confusion.peer = wire.tables[(CHEATER + 1) % 4]
    bot = RandomBot(CHEATER)

    def player(decision: Decision) -> Action:
        # it never plays the card it only believes it holds (it could not open it)
        legal = tuple(a for a in decision.legal if a != Play(confusion.believed or Card.parse("BJ")))
        assert legal, "the believed card was the only legal play"
        return bot(Decision(decision.kind, decision.view, legal))

    wire.players[CHEATER] = player
    wire.run()
    assert confusion.believed is not None
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
    """The seat at the dealer's left (the only one that may challenge a first lead nobody made) challenges
    at once; the holder leads the lowest club after all, before the last reveal: a false challenge."""
    wire, _ = seated(LOW_CLUB, ImpatientChallenger, seed=b"impatient lead 16")
    holder = until_the_low_club_lead(wire)
    assert holder != CHEATER and wire.tables[0].view.claimed_step() is not None
    assert wire.tables[0].view.lead_step(1).seat == CHEATER, "the cheater sits at the dealer's left"
    wire._record(CHEATER, wire.tables[CHEATER].tick(wire.now))
    wire.run()
    for table in honest(wire):
        v = table.violation
        assert v is not None and (v.seat, v.check) == (CHEATER, "challenge"), v
        assert "led it in time" in v.detail
        assert table.result is not None and table.result.seat == CHEATER
        verdict = verify_frames(table.entries)
        assert verdict.violation is not None and verdict.violation.seat == CHEATER
