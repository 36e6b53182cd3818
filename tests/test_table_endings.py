"""Endings every honest table agrees on (PROTOCOL.md §5): schedules of delays, reorderings, duplicates and
clock jumps, with one faulty seat that stalls, withholds its answer, or crashes and resumes, or a cheater
(with, for some attacks, an accomplice) that attacks the endings as issue-level attacks do: a vote after the
end, a vote and a refusal split between the seats, a phantom refusal, two late answers, junk votes for slots
ahead, a lying vote at once (two players), a colluder that never votes, the lowest club never led while
every clock jumps, and clocks that jump. Every table forwards what it takes, as the real peer does.

The players' own word plays in the same schedules: a seat that says goodbye (at once, or after keeping the
table waiting, crossing the votes against it), a proposal to stop that every seat agrees to, and one that
only some do.

In every schedule: every honest table ends with the same chain and result; `verify` of each honest log, and
of the union of any of them, agrees with it; no honest seat is named (as silent, or for a fault); and no
cheater gains: a seat at fault, or abandoning, never wins by it; a leaver's side never wins by leaving; a
stop needs every seat.
"""

from __future__ import annotations

import random

import msgpack
import pytest
from helpers import claims
from helpers.cheats import Impatient, playing
from helpers.schedules import ATTACKS, PARTINGS, Faults, Schedule
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from p2pspades import crypto, log
from p2pspades.audit.reader import judge_end
from p2pspades.audit.verdict import Status
from p2pspades.audit.verify import verify_frames
from p2pspades.bots import RandomBot
from p2pspades.errors import LocalError
from p2pspades.rules import preset
from p2pspades.table import (
    DropKind,
    Dropped,
    Event,
    GameEnded,
    Rejected,
    SecretCreated,
    Superseded,
    Table,
    TableStatus,
)
from p2pspades.table.harness import Wire, new_game, seeded_entropy
from p2pspades.table.slots import Role

pytestmark = pytest.mark.slow

PRESETS = {
    "classic": preset("classic", target=10, losing_threshold=-10),
    "cutthroat3": preset("cutthroat3", target=10, losing_threshold=-10),
    "two": preset("two", target=10, losing_threshold=-10),
    "low_club": preset("classic", target=10, losing_threshold=-10, first_leader="low_club"),
}
NETWORK = ("none", "stall", "withhold", "crash")
"""Faults of the network: the faulty seat runs the honest table (its table too must agree)."""


def accomplice(name: str, seat: int, kind: str) -> int | None:
    """Who helps the cheater: its partner (or, three players, the next seat) walks out (phantom, colluder);
    a second loser votes too after the end (late-vote, three players)."""
    n = PRESETS[name].players
    if kind in ("phantom", "colluder", "stop-some") and n > 2:
        return (seat + 2) % 4 if n == 4 else (seat + 1) % n
    if kind == "late-vote" and n == 3:
        return (seat + 1) % n
    return None


@st.composite
def schedules(draw: st.DrawFn) -> tuple[str, Faults, int]:
    name = draw(st.sampled_from(sorted(PRESETS)))
    n = PRESETS[name].players
    seat = draw(st.integers(0, n - 1))
    kinds = [*NETWORK, *PARTINGS, *(a for a in ATTACKS if a != "hold-lead")]
    if name == "low_club":
        kinds.append("hold-lead")
    if n == 2:
        kinds = [k for k in kinds if k not in ("phantom", "colluder", "split")]
    kind = draw(st.sampled_from(kinds))
    at = draw(st.integers(1, 40))
    # around the timeouts (10 s automatic steps, 20 s decisions) is where the races are; a jump is longer
    release = draw(st.sampled_from([0.0, 5.0, 9.0, 10.5, 12.0, 19.0, 21.0, 25.0, 40.0, 300.0]))
    others = [s for s in range(n) if s != seat]
    to = tuple(draw(st.lists(st.sampled_from(others), unique=True, max_size=len(others))))
    sent = draw(st.booleans())
    faults = Faults(seat, kind, at, release, to, sent, accomplice(name, seat, kind))
    return name, faults, draw(st.integers(0, 2**32 - 1))


def run(name: str, faults: Faults, seed: int) -> Schedule:
    rng = random.Random(seed)
    slow = rng.random() < 0.5  # half the schedules have some slow deliveries

    def delay() -> float:
        # an honest seat's entry reaches every other seat, even through a forward, well within the shortest
        # timeout (10 s): a network slower than the timeouts makes any seat look silent, honest or not
        if slow and rng.random() < 0.2:
            return rng.uniform(0.0, 4.5)
        return rng.uniform(0.0, 1.0)

    def duplicate() -> bool:
        return rng.random() < 0.1

    schedule = Schedule(PRESETS[name], faults, delay, duplicate, seed=b"endings" + bytes([seed % 251]))
    schedule.run()
    return schedule


def union(logs: list[list[bytes]], first: int) -> Table:
    """An observer given every frame of these logs, round by round, log `first` first (as `verify A B ...`
    reads several logs), then all of them once more."""
    order = logs[first:] + logs[:first]
    table = Table(logs[0][0])
    rounds = [frames[k] for k in range(1, max(map(len, order))) for frames in order if k < len(frames)]
    for raw in rounds + [raw for frames in order for raw in frames[1:]]:
        table.receive(raw)
    return table


def check(schedule: Schedule, subset_seed: int = 0) -> GameEnded:
    tables = [t for t in schedule.tables if t is not None]
    assert len(tables) == len(schedule.tables), "the crashed seat came back"
    cheaters = schedule.cheaters
    network = schedule.drawn.kind in (*NETWORK, *PARTINGS)  # the faulty seat's own table is honest too
    honest = [t for t in tables if network or t.seat not in cheaters]
    first = honest[0]
    assert all(t.finished for t in honest), [(t.seat, t.status, t.waiting_for()) for t in honest]
    for t in honest:
        assert t.entries == first.entries, f"seat {t.seat} holds another chain"
        assert t.result == first.result, (t.seat, t.result, first.result)
    result = first.result
    assert result is not None
    # no cheater gains: the seat at fault, or abandoning, never wins by it (in individual play an accomplice
    # may: colluders can hand each other a game, PROTOCOL.md §5.9, at the price of the other's forfeit)
    side = schedule.rules.side_of
    sides = {side(result.seat)} if result.seat is not None else set()
    if result.status is TableStatus.ABANDONED:
        claimed = result.contested and not result.missing and set(result.signers) & cheaters
        assert result.seat in cheaters or claimed, f"an honest seat is never claimed silent: {result}"
        assert set(result.missing) <= cheaters, "only a cheater is named for signing nothing"
        if result.scored:  # at an `end`: the game was decided before, its result stands
            game = first.game
            assert game is not None and game.outcome is not None and result.winners == game.outcome.winners
        else:
            assert not sides & set(result.winners), "a staller never wins by stalling"
            assert result.forfeit or result.contested
    if result.status is TableStatus.VIOLATION:
        assert first.violation is not None and first.violation.seat in cheaters, first.violation
        assert not sides & set(result.winners), "a cheat never pays"
    if result.status is TableStatus.LEFT:
        assert schedule.drawn.kind in ("leave", "leave-late") and set(result.leavers) == {schedule.drawn.seat}
        leaving = {side(s) for s in result.leavers}
        assert result.scored or not leaving & set(result.winners), "leaving never pays"
    if result.status is TableStatus.STOPPED:
        assert schedule.drawn.kind == "stop", "a stop needs every seat"
        assert result.scored or result.winners == ()
    expected = {
        TableStatus.COMPLETE: Status.VALID,
        TableStatus.ABANDONED: Status.INCOMPLETE,
        TableStatus.VIOLATION: Status.VIOLATION,
        TableStatus.LEFT: Status.INCOMPLETE,
        TableStatus.STOPPED: Status.INCOMPLETE,
    }[result.status]
    for t in honest:
        verdict = verify_frames(t.records)
        assert verdict.table is not None and verdict.table.result == result, verdict.summary
        assert verdict.table.entries == first.entries, verdict.summary
        named = verdict.violation
        if verdict.status is not expected:  # a fault that did not end the game: a cheater named
            assert verdict.status is Status.VIOLATION, verdict.summary
            assert named is not None and not named.halts, verdict.summary
        assert named is None or named.seat in cheaters, verdict.summary
    rnd = random.Random(subset_seed)
    chosen = rnd.sample([t.records for t in honest], rnd.randint(1, len(honest)))
    together = union(chosen, rnd.randrange(len(chosen)))
    assert together.result == result and together.entries == first.entries, "the union of the logs agrees"
    assert judge_end(together, []).table is together
    return result


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schedules())
# the holder of the lowest club is the seat at the dealer's left and never leads: its table is left its lead
@example(("low_club", Faults(0, "hold-lead", 1), 372))
def test_every_schedule_ends_the_same_on_every_honest_table(case: tuple[str, Faults, int]) -> None:
    check(run(*case), case[2])


@pytest.mark.parametrize("kind", ["stall", "withhold", "crash"])
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_each_fault_at_a_decision_and_at_an_automatic_step(name: str, kind: str) -> None:
    """Fixed points of each kind, so that every run of the suite covers them whatever hypothesis draws."""
    for at, release in ((3, 10.5), (12, 25.0), (20, 5.0)):
        check(run(name, Faults(1, kind, at, release, (), at % 2 == 0), at))


def test_a_stall_ends_in_a_certificate_that_the_stallers_side_forfeits() -> None:
    schedule = run("classic", Faults(1, "stall", 10), 7)
    check(schedule)
    result = schedule.tables[0].result if schedule.tables[0] else None
    assert result is not None and result.status is TableStatus.ABANDONED and result.forfeit
    assert result.signers == (0, 2, 3) and result.seat == 1


def test_an_answer_released_to_one_seat_before_its_timeout_voids_the_claim() -> None:
    """Seat 1 stays silent; the others' timers differ by their delays. Its answer reaches seat 2 only, 9 s
    into a 10 or 20 s timeout, so seat 2 takes it, refuses the others' votes, and the game goes on."""
    schedule = Schedule(
        PRESETS["classic"], Faults(1, "withhold", 5, 9.0, (2,)), lambda: 0.5, lambda: False, seed=b"refuse"
    )
    schedule.run()
    check(schedule)
    table = schedule.tables[0]
    assert table is not None and table.result is not None
    assert table.result.status is TableStatus.COMPLETE, table.result


# ------------------------------------------------------------------ one claim, delivered by hand
def _same_ending(wire: Wire) -> None:
    wire.run()
    first = wire.tables[0]
    assert all(t.finished and t.entries == first.entries and t.result == first.result for t in wire.tables)
    verdicts = {(v.status, v.summary) for v in (verify_frames(t.records) for t in wire.tables)}
    assert len(verdicts) == 1, verdicts


def test_a_seat_that_took_the_answer_first_refuses_and_every_voter_takes_it_after_all() -> None:
    wire = claims.classic(b"refusal")
    claims.until_waiting_for(wire, 1, "bid")
    answer, vote0 = claims.answer(wire, 1), claims.vote(wire, 0)
    claims.give(wire, 3, vote0)
    vote3 = claims.vote(wire, 3)  # seat 3 saw seat 0's vote, then its own timer ran out
    (refusal,) = claims.give(wire, 2, vote0, answer)  # seat 2: a vote, then the answer: it takes it, says so
    assert log.open_envelope(refusal).payload["t"] == "answered"
    assert claims.give(wire, 0, refusal, vote3, answer) == []  # seat 0 voted: the refusal releases the answer
    assert claims.give(wire, 3, answer, vote0) == []  # seat 3 voted: it holds the answer ...
    assert len(wire.tables[3].entries) < len(wire.tables[2].entries)
    claims.give(wire, 3, refusal)  # ... until the refusal comes
    assert [len(t.entries) for t in wire.tables] == [len(wire.tables[1].entries)] * 4
    claims.give(wire, 1, vote0, vote3, refusal)
    _same_ending(wire)
    assert wire.tables[0].result is not None and wire.tables[0].result.status is TableStatus.COMPLETE


def test_two_seats_refuse_and_the_last_voter_takes_theanswer() -> None:
    wire = claims.classic(b"two refusals")
    claims.until_waiting_for(wire, 1, "bid")
    answer, vote3 = claims.answer(wire, 1), claims.vote(wire, 3)
    (refusal0,) = claims.give(wire, 0, answer, vote3)  # took it, then saw the vote
    (refusal2,) = claims.give(wire, 2, answer, vote3)
    assert claims.give(wire, 0, refusal2) == [] and claims.give(wire, 3, refusal2, refusal0, answer) == []
    _same_ending(wire)


def test_a_vote_that_does_not_hold_is_refused_and_the_answer_taken_as_usual() -> None:
    wire = claims.classic(b"bad vote")
    claims.until_waiting_for(wire, 1, "bid")
    target = wire.tables[2]
    voter = wire.tables[0]
    assert voter.identity is not None
    fields = {"g": target.game_id, "n": len(target.entries), "p": target.head, "s": 0, "t": "abandon"}
    wrong_hand = log.seal({**fields, "h": target.hand_number + 1, "a": 1, "w": 20}, voter.identity)
    wrong_seat = log.seal({**fields, "h": target.hand_number, "a": 3, "w": 20}, voter.identity)
    for raw in (wrong_hand, wrong_seat):
        events = target.receive(raw, wire.now)
        assert any(isinstance(e, Rejected) and e.seat == 0 for e in events), events
    assert target.claim is None and target.status == "running"
    _same_ending(wire)


@pytest.mark.parametrize("refusal_first", [True, False])
def test_a_vote_and_a_refusal_from_one_seat_are_equivocation(refusal_first: bool) -> None:
    wire = claims.classic(b"both")
    claims.until_waiting_for(wire, 1, "bid")
    answer, vote0 = claims.answer(wire, 1), claims.vote(wire, 0)
    (refusal,) = claims.give(wire, 2, vote0, answer)
    two = wire.tables[2]
    assert two.identity is not None
    header = log.validate_header(log.open_envelope(vote0).payload)
    vote2 = log.seal({"g": two.game_id, "n": header.seq, "p": header.prev, "s": 2, "h": header.hand,
                      "t": "abandon", "a": 1, "w": 10}, two.identity)  # seat 2 signs a vote as well
    table = wire.tables[3]
    claims.give(wire, 3, vote0, *((refusal, vote2) if refusal_first else (vote2, refusal)))
    assert table.violation is not None and table.violation.check == "equivocation"
    assert table.violation.seat == 2 and set(table.violation.evidence) == {refusal, vote2}


def test_a_certificate_with_a_vote_that_does_not_verify_is_dropped() -> None:
    wire = claims.classic(b"forged certificate")
    claims.until_waiting_for(wire, 1, "bid")
    votes = [claims.vote(wire, s) for s in (0, 2, 3)]
    t = wire.tables[0]
    header = log.validate_header(log.open_envelope(votes[0]).payload)
    envelope = log.open_envelope(votes[1])
    forged = msgpack.packb([1, envelope.payload_raw, bytes(63) + b"\x01"], use_bin_type=True)
    fields = {"g": t.game_id, "n": header.seq, "p": header.prev, "s": 1, "h": header.hand, "t": "certificate"}
    target = wire.tables[3]
    for bad in ([votes[0], forged, votes[2]], [votes[0], votes[2]], [votes[0], votes[0], votes[2]]):
        cert = log.seal({**fields, "v": bad}, log.UNSIGNED)
        target.receive(cert, wire.now)
        assert not target.finished and cert not in target.entries
    assert t.identity is not None
    signed = log.seal({**fields, "v": votes}, t.identity)  # a certificate is signed by nobody
    events = target.receive(signed, wire.now)
    assert any(isinstance(e, Dropped) and e.kind is DropKind.BAD_SIGNATURE for e in events)
    good = log.seal({**fields, "v": votes}, log.UNSIGNED)
    target.receive(good, wire.now)
    assert target.finished and target.entries[-1] == good and target.status == "abandoned"


def test_two_players_a_claim_at_once_gives_the_claimant_no_win() -> None:
    rules = preset("two", target=10, losing_threshold=-10)
    ids = [crypto.Identity.from_seed(crypto.H("two", bytes([i]))[:32]) for i in range(2)]
    genesis = new_game(rules, ids, game_id=crypto.H("game", b"two")[:16], version=1)
    tables = [
        Table(genesis, ids[i], entropy=seeded_entropy(bytes([i])), makers=Impatient() if i == 1 else None)
        for i in range(2)
    ]
    wire = Wire(tables, [RandomBot(i) for i in range(2)])
    wire.start()
    while tables[0].pending_decision() is None:
        assert wire.step()
    wire._record(1, tables[1].tick(wire.now))  # the instant its opponent is to decide: no time has passed
    wire.run()
    for table in tables:
        result = table.result
        assert result is not None and result.status is TableStatus.ABANDONED and result.seat == 0
        assert result.contested and result.winners == () and not result.forfeit, result
        verdict = verify_frames(table.records)
        assert verdict.status is Status.INCOMPLETE and "contested" in verdict.summary, verdict.summary
        assert "side 1 wins" not in verdict.summary


def test_colluding_opponents_cannot_certify_without_the_partner() -> None:
    """Seats 1 and 3 vote against seat 2 the moment it is to bid; its partner, seat 0, has not voted, takes
    the bid, refuses, and the colluders take the bid after all: the claim is void, the game goes on."""
    wire = claims.classic(b"colluders", {1: playing(Impatient), 3: playing(Impatient)})
    claims.until_waiting_for(wire, 2, "bid")
    for seat in (1, 3):
        wire._record(seat, wire.tables[seat].tick(wire.now))
    _same_ending(wire)
    for table in wire.tables:
        assert table.result is not None and table.result.status is not TableStatus.ABANDONED
        assert any(log.open_envelope(r).payload["t"] == "answered" for r in table.records), "seat 0 refused"


def test_a_colluder_that_never_votes_leaves_no_certificate_and_no_winner() -> None:
    rules = PRESETS["cutthroat3"]
    ids = [crypto.Identity.from_seed(crypto.H("stonewall", bytes([i]))[:32]) for i in range(3)]
    genesis = new_game(rules, ids, game_id=crypto.H("game", b"stonewall")[:16], version=1)
    kinds = [Table, Stonewall, Table]
    tables = [kind(genesis, ids[i], entropy=seeded_entropy(bytes([i]))) for i, kind in enumerate(kinds)]
    wire = Wire(tables, [RandomBot(i) for i in range(3)])
    claims.until_waiting_for(wire, 2, "bid")
    wire.players[2] = None  # seat 2 stops answering; its colluder, seat 1, never votes
    wire.advance_time(5000)
    wire.run()
    table = tables[0]
    assert not table.finished and table.claim is not None and table.claim.voters == (0,)
    verdict = verify_frames(table.records)
    assert verdict.status is Status.INCOMPLETE
    assert "no certificate: seat 1 signed nothing yet" in verdict.summary, verdict.summary


class Stonewall(Table):
    """A colluder: it never votes on a claim."""

    def tick(self, now: float) -> list[Event]:
        return []


def test_an_invalid_answer_released_to_voters_names_its_signer_everywhere() -> None:
    wire = claims.classic(b"invalid answer")
    claims.until_waiting_for(wire, 1, "bid")
    for s in (0, 2, 3):
        claims.vote(wire, s)
    one = wire.tables[1]
    assert one.identity is not None
    bad = log.seal({"g": one.game_id, "n": len(one.entries), "p": one.head, "s": 1, "h": one.hand_number,
                    "t": "bid", "b": 99}, one.identity)
    for seat in (0, 2, 3):  # each voted, and holds its own vote only: the bad answer is checked, not held
        claim = wire.tables[seat].claim
        assert claim is not None and claim.role is Role.VOTED
        claims.give(wire, seat, bad)
    for seat in (0, 2, 3):
        v = wire.tables[seat].violation
        assert v is not None and (v.seat, v.check) == (1, "rules"), (seat, v)
        verdict = verify_frames([*wire.tables[seat].records, *v.evidence])
        assert verdict.violation is not None and verdict.violation.seat == 1


def test_the_accuseds_own_answer_is_cut_back_by_the_certificate() -> None:
    wire = claims.classic(b"superseded")
    claims.until_waiting_for(wire, 1, "bid")
    answer = claims.answer(wire, 1)  # on seat 1's chain and log, never sent: it crashed, say
    votes = [claims.vote(wire, s) for s in (0, 2, 3)]
    accused = wire.tables[1]
    events = [e for raw in votes for e in accused.receive(raw, wire.now)]
    cut = [e for e in events if isinstance(e, Superseded)]
    assert len(cut) == 1 and cut[0].raws[0] == answer
    assert accused.status == "abandoned" and answer in accused.records and answer not in accused.entries
    claims.give(wire, 0, votes[1], votes[2])
    assert wire.tables[0].entries == accused.entries, "the same chain, the certificate at the accused's slot"
    assert verify_frames(accused.records).summary == verify_frames(wire.tables[0].records).summary


def test_an_on_chain_claim_of_an_earlier_release_is_reported_not_judged() -> None:
    wire = claims.classic(b"legacy")
    claims.until_waiting_for(wire, 1, "bid")
    t = wire.tables[2]
    assert t.identity is not None
    old = log.seal({"g": t.game_id, "n": len(t.entries), "p": t.head, "s": 2, "h": t.hand_number,
                    "t": "abandon", "a": 1, "why": "seat 1 stopped answering"}, t.identity)
    verdict = verify_frames([*t.records, old])
    assert verdict.status is Status.INCOMPLETE and "earlier release" in verdict.summary, verdict.summary
    assert verdict.violation is None
    live = t.receive(old, wire.now)  # a peer refuses it, naming its signer, and the game goes on
    assert any(isinstance(e, Rejected) and e.seat == 2 for e in live) and t.status == "running"


def test_a_refusal_of_an_earlier_release_carrying_a_hash_is_reported_not_judged() -> None:
    """Before refusals carried the entry they took, they carried its hash: such a log verifies up to it (exit
    3), its signer not named."""
    wire = claims.classic(b"legacy refusal")
    claims.until_waiting_for(wire, 1, "bid")
    bid = claims.answer(wire, 1)
    vote = claims.vote(wire, 0)
    t = wire.tables[2]
    assert t.identity is not None
    claims.give(wire, 2, bid)
    n = len(t.entries) - 1
    old = log.seal({"g": t.game_id, "n": n, "p": log.entry_hash(t.entries[n - 1]), "s": 2, "h": t.hand_number,
                    "t": "answered", "a": 1, "e": log.entry_hash(bid)}, t.identity)
    verdict = verify_frames([*t.records, vote, old])
    assert verdict.status is Status.INCOMPLETE and "refusal of an earlier release" in verdict.summary
    assert verdict.violation is None, verdict.summary


def test_a_vote_restored_from_our_own_log_still_holds_the_answer_back() -> None:
    wire = claims.classic(b"restored vote")
    claims.until_waiting_for(wire, 1, "bid")
    answer = claims.answer(wire, 1)
    claims.vote(wire, 0)
    old = wire.tables[0]
    assert old.identity is not None
    secrets = {e.hand: e.seed for e in wire.events[0] if isinstance(e, SecretCreated)}  # saved on disk
    back = Table(old.entries[0], old.identity, entropy=seeded_entropy(b"unused"), secrets=secrets,
                 entries=old.records, timeouts=old.timeouts, checked=True, syncing=True)
    back.synced()
    claim = back.claim
    assert claim is not None and claim.role is Role.VOTED
    before = len(back.entries)
    back.receive(answer)
    assert len(back.entries) == before, "a seat that voted takes the answer only on a refusal"


def test_the_last_end_withheld_ends_by_certificate_on_the_withholders_own_table_too() -> None:
    """Seat 2's `end` is the last entry of the game: its own table is complete, nobody else's is. The others'
    certificate still takes that slot on its table (found by a longer run of the schedules above)."""
    faults = Faults(seat=2, kind="withhold", at=27, release_after=10.0, release_to=(1,), sent=True)
    schedule = run("cutthroat3", faults, 523401844)
    check(schedule)
    table = schedule.tables[2]
    assert table is not None and table.status == "abandoned" and table.abandoned_by == 2


def test_the_holder_of_the_lowest_club_at_the_dealers_left_is_left_its_lead_and_may_still_make_it() -> None:
    """Rule low_club: the seat at the dealer's left holds the lowest club and its player stops playing, so
    nobody challenges, and the others' certificate against the challenger ends the game on their tables. That
    ending is provisional (PROTOCOL.md §5.5): the holder's own table does not apply it and leaves its player
    the lead. When the player leads after all, the ending is void everywhere and the game goes on to one end
    (a schedule that once ran to its horizon waiting for that lead)."""
    schedule = run("low_club", Faults(0, "hold-lead", 1), 372)
    first = check(schedule, 372)
    holder = schedule.drawn.seat
    table, other = schedule.tables[holder], schedule.tables[(holder + 1) % 4]
    assert table is not None and other is not None
    assert first.seat == holder and first.forfeit and not table.finished, first
    assert table.entries == other.entries[:-1] and table.pending_decision() is not None, "its lead is left it"
    schedule.bots[holder] = RandomBot(holder)  # the player is back: it leads
    schedule.run()
    after = check(schedule, 372)
    assert after != first and after.at != first.at, "the certificate is void: the game went on"
    assert table.finished and table.result == after and table.entries == other.entries


def test_the_vote_is_due_one_timeout_after_the_chain_last_grew_and_not_before() -> None:
    wire = claims.classic(b"vote due")
    claims.until_waiting_for(wire, 1, "bid")
    table, accused = wire.tables[0], wire.tables[1]
    due = table.vote_due()
    assert due is not None and due == table.last_progress + table.timeouts["decision"]
    assert accused.vote_due() is None, "nobody votes against itself"
    wire._record(0, table.tick(due - 0.5))
    assert table.claim is None and table.vote_due() == due
    wire._record(0, table.tick(due))
    assert table.claim is not None and table.claim.voters == (0,)
    assert table.vote_due() is None, "voted already"


def test_waiting_longer_moves_our_vote_by_a_timeout_for_this_wait_only() -> None:
    wire = claims.classic(b"wait longer")
    claims.until_waiting_for(wire, 1, "bid")
    table, accused = wire.tables[0], wire.tables[1]
    limit = table.timeouts["decision"]
    due = table.vote_due()
    assert due is not None
    assert accused.wait_longer() == 0, "nobody waits for itself"
    assert table.wait_longer() == limit and table.vote_due() == due + limit
    assert table.wait_longer(5) == 5 and table.vote_due() == due + limit + 5, "each choice adds to the wait"
    with pytest.raises(LocalError):
        table.wait_longer(-1)
    wire._record(0, table.tick(due))
    assert table.claim is None, "no vote at the timeout: we chose to wait longer"
    wire._record(0, table.tick(due + limit + 5))
    assert table.claim is not None and table.claim.voters == (0,)
    assert table.wait_longer() == 0, "voted already"


def test_waiting_longer_ends_with_the_next_progress() -> None:
    wire = claims.classic(b"wait longer, then progress")
    claims.until_waiting_for(wire, 1, "bid")
    table = wire.tables[0]
    table.wait_longer(100)
    claims.until_waiting_for(wire, 2, "bid")
    usual = table.last_progress + table.timeouts["decision"]
    assert table.vote_due() == usual, "the next wait is the usual one"


def test_waiting_longer_after_another_seat_voted_delays_our_vote_and_the_vote_says_so() -> None:
    wire = claims.classic(b"wait longer, a claim open")
    claims.until_waiting_for(wire, 1, "bid")
    table, other = wire.tables[0], wire.tables[2]
    limit = table.timeouts["decision"]
    due = table.vote_due()
    assert due is not None
    wire._record(2, other.tick(due))
    while wire.deliver():
        pass
    claim = table.claim
    assert claim is not None and claim.voters == (2,), "seat 2 voted; our vote is still ahead"
    assert table.wait_longer() == limit
    wire._record(0, table.tick(due))
    assert set(claim.voters) == {2}, "no vote at the timeout: we chose to wait longer"
    wire._record(0, table.tick(due + limit))
    assert set(claim.voters) == {0, 2}
    waits = {2: round(limit), 0: round(2 * limit)}
    assert claim.waits == waits, "each vote states the wait its seat used"
