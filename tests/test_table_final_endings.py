"""Endings that are final: each attack on the endings, made by a modified peer that signs its hostile notes
and entries properly, on the in-memory wiring (tables forward what they take, notes included, as the real
peer does). For each: every honest table ends the same, `verify` of the honest logs, alone and together,
says the same, the cheater is the one named, and it gains nothing.

(The schedules of `test_table_endings.py` play the same attacks under random delays, duplicates and clock
jumps; `test_net_attacks.py` plays the junk votes against a real `host` process.)
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import claims
from helpers.cheats import Impatient
from helpers.logs import write_log

from p2pspades import crypto, log
from p2pspades.audit import Status, hand_record, verify_frames
from p2pspades.audit.dispute import Ruling, settle
from p2pspades.bots import RandomBot
from p2pspades.checks import Check
from p2pspades.rules import preset
from p2pspades.table import DropKind, Dropped, Event, Rejected, Table, TableStatus, Violation
from p2pspades.table import messages as msg
from p2pspades.table.harness import Wire, new_game, seeded_entropy

pytestmark = pytest.mark.slow


def seated(name: str, seed: bytes, kinds: dict[int, type[Table]] | None = None, pause: float = float("inf"),
           **options: object) -> Wire:
    rules = preset(name, target=10, losing_threshold=-10, **options)
    n = rules.players
    ids = [crypto.Identity.from_seed(crypto.H("final", seed, bytes([i]))[:32]) for i in range(n)]
    genesis = new_game(rules, ids, game_id=crypto.H("game", seed)[:16], version=1)
    tables = [(kinds or {}).get(i, Table)(genesis, ids[i], entropy=seeded_entropy(seed + bytes([i])),
                                          pause=pause) for i in range(n)]
    return Wire(tables, [RandomBot(i) for i in range(n)])


def agree(tables: list[Table]) -> Table:
    """Every one of `tables` ended, with the same chain and result, and `verify` of each log and of their
    union says the same result. The first of them."""
    first = tables[0]
    for t in tables:
        assert t.finished and t.entries == first.entries and t.result == first.result, (t.seat, t.result)
        verdict = verify_frames(t.records)
        assert verdict.table is not None and verdict.table.result == first.result, verdict.summary
    return first


def union(tmp_path: Path, tables: list[Table]) -> tuple[int, str]:
    """`verify A B ...` of these tables' logs: its exit code and the result's words."""
    paths = [str(write_log(tmp_path / f"seat{t.seat}.p2plog", t.records)) for t in tables]
    dispute = settle(paths)
    verdict = dispute.verdict
    assert dispute.ruling is not Ruling.UNSETTLED and verdict is not None, dispute.why
    return dispute.exit_code, verdict.summary


def deliver(wire: Wire, seat: int, *raws: bytes) -> None:
    """Give `raws` to seat `seat`'s table alone, which forwards what it takes, as a peer does."""
    for raw in raws:
        wire._record(seat, wire.tables[seat].receive(raw, wire.now))


def seal_note(table: Table, m: msg.Message, n: int) -> bytes:
    """A note `table`'s seat signs for slot `n` of its own chain (a modified peer's: anything it likes)."""
    prev = log.entry_hash(table.entries[n - 1])
    hand = log.validate_header(log.open_envelope(table.entries[n]).payload).hand if n < len(table.entries) \
        else table.hand_number
    return seal(table, m, n, prev, hand)


def seal(table: Table, m: msg.Message, n: int, prev: bytes, hand: int) -> bytes:
    """`m` signed by `table`'s seat for slot `n` after the entry hashed `prev`, in hand `hand`."""
    return table.view.sealed(m.to_fields(), n, prev, hand)


# ------------------------------------------------------------------ 1. a loser rewrites a finished game
@pytest.mark.parametrize("name", ["two", "cutthroat3"])
def test_a_loser_cannot_rewrite_a_finished_game_by_voting_after_the_end(name: str, tmp_path: Path) -> None:
    """The game is complete; the loser (in cutthroat3 both losers) then signs a vote that the winner never
    made its first bid. Every seat signed `end` after that slot: the game is sealed, the votes are void, and
    since no seat could have released them, their signers are named. The result stands everywhere, and
    `verify` of the winner's and the losers' logs together upholds it."""
    wire = seated(name, b"sealed " + name.encode())
    wire.run()
    winner_side = wire.tables[0].result.winners[0] if wire.tables[0].result else None
    rules = wire.tables[0].rules
    winner = next(s for s in range(rules.players) if rules.side_of(s) == winner_side)
    losers = [t for t in wire.tables if t.seat != winner]
    payloads = [log.open_envelope(raw).payload for raw in wire.tables[0].entries]
    first_bid = next(n for n, p in enumerate(payloads) if p["t"] == "bid" and p["s"] == winner)
    before = wire.tables[0].result
    for loser in losers:
        vote = seal_note(loser, msg.Abandon(winner, 600), first_bid)
        for t in wire.tables:
            t.receive(vote, wire.now)
    wire.run()
    final = agree(wire.tables)
    assert final.status is TableStatus.COMPLETE and final.result == before, final.result
    verdict = verify_frames(wire.tables[winner].records)
    assert verdict.status is Status.VIOLATION and "the game is complete, but" in verdict.summary
    assert verdict.violation is not None and verdict.violation.seat != winner
    assert verdict.violation.check == Check.ABANDON and not verdict.violation.halts
    code, words = union(tmp_path, wire.tables)
    assert code == Status.VIOLATION and words.startswith("the game is complete"), words
    assert hand_record(verdict)["result"]["violation"]["seat"] in [t.seat for t in losers]


# ------------------------------------------------------------------ 2. one seat splits the honest tables
def test_a_vote_and_a_refusal_split_between_the_tables_end_every_table_on_its_fault(tmp_path: Path) -> None:
    """Seat 1 is awaited. Seat 2 takes its bid, yet signs a vote that it never came, which it sends to seat 0
    alone, and a refusal carrying the bid, which it sends to seat 3 alone. The tables forward what they take:
    every honest table sees both and ends on seat 2's equivocation at that slot (even seat 0, whose votes
    with seat 3's would otherwise certify), and `verify` of the honest logs together says so."""
    wire = claims.classic(b"split")
    claims.until_waiting_for(wire, 1, "bid")
    bid = claims.answer(wire, 1)
    claims.give(wire, 2, bid)
    cheat = wire.tables[2]
    n = len(cheat.entries) - 1
    vote = seal_note(cheat, msg.Abandon(1, 600), n)
    refusal = seal_note(cheat, msg.Answered(1, bid), n)
    own = {s: claims.vote(wire, s) for s in (0, 3)}  # their timers ran out: their votes, sent below
    deliver(wire, 0, vote, own[3])
    deliver(wire, 3, refusal, own[0])
    wire.run()
    honest = [wire.tables[s] for s in (0, 1, 3)]
    final = agree(honest)
    v = final.violation
    assert v is not None and (v.seat, v.check) == (2, Check.EQUIVOCATION)
    assert set(v.evidence) == {vote, refusal} and final.result is not None
    assert final.result.forfeit and 0 not in final.result.winners, "seat 2's side forfeits"
    code, words = union(tmp_path, honest)
    assert code == Status.VIOLATION and "seat 2 failed the equivocation check" in words


# ------------------------------------------------------------------ 3. a phantom refusal
def test_a_refusal_carrying_no_answer_is_its_signers_fault_and_nothing_hangs() -> None:
    """Seat 3 walked out (it never bids); its partner, seat 1, refuses the others' votes with a refusal
    carrying an entry that is not seat 3's answer (its own bid, signed by itself). A refusal proves what it
    says: this one proves a fault of seat 1, and the game ends there, seat 1's side forfeiting."""
    wire = claims.classic(b"phantom")
    claims.until_waiting_for(wire, 3, "bid")
    wire.players[3] = None
    votes = [claims.vote(wire, s) for s in (0, 2)]
    partner = wire.tables[1]
    n = len(partner.entries)
    fake = seal(partner, msg.Bid(4), n, partner.head, partner.hand_number)
    phantom = seal(partner, msg.Answered(3, fake), n, partner.head, partner.hand_number)
    for seat in (0, 2, 3):
        claims.give(wire, seat, *votes, phantom)
    wire.run()
    final = agree([wire.tables[s] for s in (0, 2)])
    v = final.violation
    assert v is not None and (v.seat, v.check) == (1, Check.ABANDON) and "no such entry" in v.detail
    assert final.result is not None and final.result.winners == (0,) and final.result.forfeit


# ------------------------------------------------------------------ 4. two late answers
def test_two_late_answers_are_named_once_per_table_however_often_they_come() -> None:
    """Seat 1 is silent until the others voted, then sends one bid to seat 0 and another to seat 2 and 3,
    each many times over. Every honest table ends once on seat 1's equivocation, whatever it receives after:
    one `Violation` each, never another halt."""
    wire = claims.classic(b"twins")
    claims.until_waiting_for(wire, 1, "bid")
    one = wire.tables[1]
    n = len(one.entries)
    bids = [seal(one, msg.Bid(b), n, one.head, one.hand_number) for b in (3, 4)]
    votes = [claims.vote(wire, s) for s in (0, 2, 3)]
    events: dict[int, list[Event]] = {s: [] for s in (0, 2, 3)}
    for seat in (0, 2, 3):
        for raw in [v for v in votes if v != votes[(0, 2, 3).index(seat)]]:
            events[seat] += wire.tables[seat].receive(raw, wire.now)
    for _ in range(20):
        for seat, raw in ((0, bids[0]), (2, bids[1]), (3, bids[1]), (0, bids[1]), (2, bids[0]), (3, bids[0])):
            events[seat] += wire.tables[seat].receive(raw, wire.now)
    for seat in (0, 2, 3):
        halts = [e for e in events[seat] if isinstance(e, Violation)]
        assert len(halts) == 1 and halts[0].seat == 1, halts
    final = agree([wire.tables[s] for s in (0, 2, 3)])
    assert final.violation is not None and final.violation.check == Check.EQUIVOCATION
    assert set(final.violation.evidence) == set(bids)


# ------------------------------------------------------------------ 5. junk votes
def test_junk_votes_are_kept_a_few_per_signer_and_every_refusal_names_their_signer() -> None:
    """Seat 2 signs votes for 40 slots ahead; seat 3 passes them on to seat 0. Seat 0 keeps a few, refuses
    the rest, and drops those it kept as the chain passes them: every one of those events names seat 2 as
    the signer (the peer charges it, not seat 3 that passed them on, nor the seat whose entry moved the
    chain), and the game is none the worse."""
    wire = claims.classic(b"junk")
    claims.until_waiting_for(wire, 1, "bid")
    cheat = wire.tables[2]
    base = len(cheat.entries)
    junk = [seal(cheat, msg.Abandon(k % 4, 600), base + k, crypto.H("nowhere", bytes([k]))[:32],
                       cheat.hand_number) for k in range(2, 42)]
    events = [e for raw in junk for e in wire.tables[0].receive(raw, wire.now)]
    assert sum(1 for e in events if isinstance(e, Dropped) and e.kind is DropKind.TOO_FAR_AHEAD) == 40 - 16
    wire.run()
    later = [e for e in wire.events[0] if isinstance(e, Dropped) and e.seat == 2 and e.kind is DropKind.STALE]
    refused = [e for e in events + later if isinstance(e, Dropped | Rejected)]
    assert refused and all(isinstance(e, Dropped) and e.signed and e.seat == 2 for e in refused), refused
    final = agree(wire.tables)
    assert final.status is TableStatus.COMPLETE


# ------------------------------------------------------------------ 6. two players: a lying vote
@pytest.mark.parametrize("answered", [False, True])
def test_a_two_player_claim_at_once_is_a_dispute_naming_the_claimant_not_the_accused(answered: bool) -> None:
    """Seat 1 votes the moment seat 0 is to decide (a wait of 0 s): alone, its vote is a whole
    certificate, contested (it wins by it): nobody wins, and no log says that seat 0 kept the table waiting,
    only that seat 1 claimed it. If seat 0 had answered (its answer reached nobody), its own log holds its
    signed answer, and its verdict says: a claim against a signed answer."""
    wire = seated("two", b"two liar " + bytes([answered]), {1: Table})
    wire.tables[1].makers = Impatient()
    wire.start()
    while wire.tables[0].pending_decision() is None:
        assert wire.step()
    if answered:
        claims.answer(wire, 0)  # on seat 0's chain, never sent
    wire._record(1, wire.tables[1].tick(wire.now))
    wire.run()
    for table in wire.tables:
        result = table.result
        assert result is not None and result.contested and result.winners == () and result.signers == (1,)
        verdict = verify_frames(table.records)
        assert verdict.status is Status.INCOMPLETE, verdict.summary
        assert "kept the table waiting" not in verdict.summary and "contested" in verdict.summary
    own = verify_frames(wire.tables[0].records).summary
    assert ("a claim against a signed answer" in own) is answered, own


# ------------------------------------------------------------------ 7. colluders who never vote
class Stonewall(Table):
    """A colluder: it never votes on a claim, nor stalls."""

    def tick(self, now: float) -> list[Event]:
        return []


@pytest.mark.parametrize(("name", "gone", "colluder"), [("classic", 1, 3), ("cutthroat3", 2, 1)])
def test_the_seats_still_playing_end_a_claim_a_colluder_will_not_sign(name: str, gone: int,
                                                                        colluder: int) -> None:
    """Seat `gone` walks out; `colluder` (its partner, or an accomplice) never votes. A timeout after their
    votes, the seats still playing stall, naming the colluder: the game ends, contested (nobody wins), and
    names who did not sign. If the awaited entry turns up after all, the ending is void and the game goes
    on."""
    wire = seated(name, b"stonewall " + name.encode(), {colluder: Stonewall})
    claims.until_waiting_for(wire, gone, "bid")
    wire.players[gone] = None
    wire.advance_time(5000)
    wire.run()
    wire.advance_time(5000)
    wire.run()
    honest = [t for t in wire.tables if t.seat not in (gone, colluder)]
    final = agree(honest)
    result = final.result
    assert result is not None and result.status is TableStatus.ABANDONED and result.seat == gone
    assert result.missing == (colluder,) and result.contested and result.winners == ()
    verdict = verify_frames(final.records)
    assert f"that seat {colluder} signed nothing" in verdict.summary, verdict.summary
    # the walker comes back and bids: the stalled ending is void, the game goes on
    wire.players[gone] = RandomBot(gone)
    decision = wire.tables[gone].pending_decision()
    assert decision is not None
    wire.decide(gone, RandomBot(gone)(decision))
    wire.run()
    assert all(not t.finished or t.result != result for t in honest), "the ending is void"


# ------------------------------------------------------------------ 8. simultaneous low-club timers
def test_simultaneous_low_club_timers_end_every_table_on_one_chain_naming_the_holder() -> None:
    """Nobody leads the lowest club, and every seat's clock jumps past twice the timeout at once (no pause
    guard here: the tables are told nothing of the jump). Only the seat at the dealer's left may challenge;
    the others vote against it at the same moment, so its challenge crosses their votes. A claim on the first
    lead is provisional: the challenge, when it comes, takes the slot, and the reveal names the holder. One
    chain everywhere, and the challenger is not named."""
    wire = seated("classic", b"low club jump", first_leader="low_club")
    wire.start()
    while not all(t.waiting_for() == (-1, "play") for t in wire.tables):
        assert wire.step()
    holder = next(s for s, t in enumerate(wire.tables) if t.pending_decision() is not None)
    wire.players[holder] = None
    challenger = wire.tables[0].view.lead_step(wire.tables[0].hand_number).seat
    wire.advance_time(3 * wire.tables[0].timeouts["decision"])
    wire.run()
    wire.advance_time(3 * wire.tables[0].timeouts["decision"])
    wire.run()
    final = agree(wire.tables)
    v = final.violation
    assert v is not None and (v.seat, v.check) == (holder, Check.LEAD), final.result
    if challenger != holder:
        assert final.result is not None and final.result.seat != challenger


def test_a_table_told_of_pauses_does_not_count_a_clock_jump_as_waiting() -> None:
    """A table with a pause guard (as the peer makes it) reads its clock jump 10,000 s: it votes no sooner
    than a timeout of steady ticks later."""
    wire = seated("classic", b"jump", pause=3.0)
    claims.until_waiting_for(wire, 1, "bid")
    t = wire.tables[0]
    t.tick(wire.now + 10_000)
    assert t.claim is None and t.take_outgoing() == []
    limit = t.timeouts["decision"]
    clock = wire.now + 10_000
    while t.claim is None:
        clock += 1.0
        t.tick(clock)
    assert clock - (wire.now + 10_000) >= limit - 3.0 - 1.0, "the jump counted as one pause, not as waiting"
