"""The players' own word (PROTOCOL.md §5.10, §5.11) on the in-memory wiring, and each attack on it made by a
modified peer that signs its statements properly: a goodbye forged for another seat, replayed from another
game or from an earlier hand, or sent after the end; a stop signed by some seats only, one with other scores,
one the awaited seat plays through; a goodbye that crosses a certificate. Tables forward what they take, as
the real peer does. In each: every honest table ends the same, `verify` of each log and of the logs together
says the same, the cheater is the one named, and it gains nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import claims
from test_table_final_endings import agree, union

from p2pspades import crypto, log
from p2pspades.audit import Status, verify_frames
from p2pspades.bots import RandomBot
from p2pspades.checks import Check
from p2pspades.rules import preset
from p2pspades.table import DropKind, Dropped, Rejected, Table, TableStatus
from p2pspades.table import messages as msg
from p2pspades.table.harness import Wire, new_game, seeded_entropy

pytestmark = pytest.mark.slow


def seated(name: str, seed: bytes, target: int = 100, game: bytes | None = None) -> Wire:
    """A table of `name` whose seats' keys come from `seed` (a second game of the same players: another
    `game`), each seat a random bot."""
    rules = preset(name, target=target, losing_threshold=-target)
    n = rules.players
    ids = [crypto.Identity.from_seed(crypto.H("partings", seed, bytes([i]))[:32]) for i in range(n)]
    genesis = new_game(rules, ids, game_id=crypto.H("game", seed, game or b"")[:16], version=1)
    tables = [Table(genesis, ids[i], entropy=seeded_entropy(seed + (game or b"") + bytes([i])))
              for i in range(n)]
    return Wire(tables, [RandomBot(i) for i in range(n)])


def quiet(wire: Wire, decisions: int) -> None:
    """Play until `decisions` decisions were made and every frame is delivered: every table is at one slot."""
    wire.start()
    made = 0
    while True:
        while wire.deliver():
            pass
        if made >= decisions:
            return
        pending = wire.next_decision()
        assert pending is not None, "the game ended before that"
        seat, decision = pending
        player = wire.players[seat]
        assert player is not None
        wire.decide(seat, player(decision))
        made += 1


def settled(wire: Wire) -> None:
    while wire.deliver():
        pass


def goodbye_of(table: Table) -> bytes:
    """`table`'s seat signs its goodbye for the slot it waits for, and holds it (a modified peer: it may send
    it later, or to whom it likes)."""
    table.leave()
    notes = [out.raw for out in table.take_outgoing() if log.open_envelope(out.raw).payload["t"] == "leave"]
    assert len(notes) == 1
    return notes[0]


def signed(identity: crypto.Identity, raw: bytes, **changes: object) -> bytes:
    """The frame `raw` with `changes` to its payload, signed by `identity` (properly: its own key)."""
    return log.seal({**log.open_envelope(raw).payload, **changes}, identity)


# ------------------------------------------------------------------ 1. a goodbye, as people leave
@pytest.mark.parametrize("name", ["classic", "cutthroat3", "two"])
def test_a_goodbye_ends_the_game_at_once_on_every_table_and_the_leavers_side_forfeits(name: str,
                                                                                    tmp_path: Path) -> None:
    """Seat 1 leaves in the middle of a hand, while another seat is awaited: its goodbye ends the game at that
    slot on every table, its own included; its side forfeits, the best of the others win; every log, and the
    logs together, say that seat 1 left, never that it stopped answering."""
    wire = seated(name, b"goodbye " + name.encode())
    quiet(wire, 6)
    leaver = wire.tables[1]
    wire._record(1, leaver.leave())
    settled(wire)
    final = agree(wire.tables)
    result = final.result
    assert result is not None and final.status is TableStatus.LEFT and result.leavers == (1,)
    rules = final.rules
    assert rules.side_of(1) not in result.winners and result.forfeit and result.winners
    code, words = union(tmp_path, wire.tables)
    assert code == Status.INCOMPLETE and "seat 1 left the game (a signed goodbye)" in words, words
    assert "stopped answering" not in words


# ------------------------------------------------------------------ 2. a goodbye forged for another seat
def test_a_goodbye_forged_for_another_seat_changes_nothing_and_a_forged_ending_makes_its_signer_leave(
        tmp_path: Path) -> None:
    """Seat 2, a modified peer, wants its opponent seat 1 out: it signs, with its own key, a goodbye that
    names seat 1 as its signer, and a `left` ending entry that carries it. Every table drops both (the
    signature is not seat 1's; the ending's note does not hold) and plays on. Then it tries a `left` entry
    that says seat 1 left, carrying its own goodbye: the goodbye holds, and it is seat 2 that left: its side
    forfeits."""
    wire = seated("classic", b"forged")
    quiet(wire, 6)
    cheat, victim = wire.tables[2], wire.tables[1]
    honest = victim.sign(msg.Leave().to_fields())  # never sent
    assert cheat.identity is not None
    forged = signed(cheat.identity, honest)  # seat 1's header, seat 2's signature
    ending = log.seal({**{k: v for k, v in log.open_envelope(honest).payload.items() if k != "t"},
                       "t": "left", "v": [forged]}, log.UNSIGNED)
    before = len(wire.tables[0].entries)
    for seat in (0, 3):
        events = wire.tables[seat].receive(forged) + wire.tables[seat].receive(ending)
        assert any(isinstance(e, Dropped) and e.kind is DropKind.BAD_SIGNATURE for e in events), events
        assert not wire.tables[seat].finished and len(wire.tables[seat].entries) == before
    own = goodbye_of(cheat)  # its own goodbye, in an ending that names seat 1 as the seat it took
    lie = log.seal({**{k: v for k, v in log.open_envelope(own).payload.items() if k != "t"},
                    "s": 1, "t": "left", "v": [own]}, log.UNSIGNED)
    for seat in (0, 1, 3):
        wire._record(seat, wire.tables[seat].receive(lie, wire.now))
    settled(wire)
    final = agree(wire.tables)
    assert final.result is not None and final.result.leavers == (2,), final.result
    assert final.rules.side_of(2) not in final.result.winners


# ------------------------------------------------------------------ 3. replayed from another game
def test_a_goodbye_replayed_from_another_game_of_the_same_players_is_dropped() -> None:
    """Seat 1 left an earlier game of the same four players (the same keys, another game id). A modified peer
    replays that goodbye into this game: every table drops it as another game's, and the game goes on to
    its end."""
    old = seated("classic", b"same players", game=b"first")
    quiet(old, 6)
    old._record(1, old.tables[1].leave())
    settled(old)
    replayed = next(raw for raw in old.tables[0].records if log.open_envelope(raw).payload["t"] == "leave")
    new = seated("classic", b"same players", target=10, game=b"second")
    quiet(new, 6)
    for table in new.tables:
        events = table.receive(replayed)
        assert any(isinstance(e, Dropped) and e.kind is DropKind.OTHER_GAME for e in events), events
    new.run()
    final = agree(new.tables)
    assert final.status is TableStatus.COMPLETE


# ------------------------------------------------------------------ 4. replayed from an earlier hand
def test_a_goodbye_held_back_and_sent_a_hand_later_is_void_and_names_its_signer(tmp_path: Path) -> None:
    """Seat 3, a modified peer, signs a goodbye early in the game and keeps it; it plays on, and a hand later,
    losing, sends it: it would take the game back to where it signed. It signed entries after that slot,
    so the goodbye is void: every table names seat 3 for it (a fault that ends nothing) and the game goes on
    to its own end. `verify` of every log says the game is complete, and names seat 3."""
    wire = seated("classic", b"held back", target=10)
    quiet(wire, 4)
    early = goodbye_of(wire.tables[3])
    assert not wire.tables[3].finished or wire.tables[3].status is TableStatus.LEFT
    # the modified peer's own table took its goodbye; it plays on from a table that never did
    wire.tables[3] = Table(wire.tables[0].entries[0], wire.tables[3].identity,
                           entropy=seeded_entropy(b"held back again"),
                           secrets=wire.tables[3].secrets, entries=wire.tables[0].entries, checked=True)
    quiet(wire, 20)
    for seat in (0, 1, 2):
        events = wire.tables[seat].receive(early)
        named = [e for e in events if isinstance(e, Rejected)]
        assert named and named[0].seat == 3 and named[0].check is Check.LEAVE, events
        assert not wire.tables[seat].finished
    wire.run()
    final = agree(wire.tables[:3])
    assert final.status is TableStatus.COMPLETE
    verdict = verify_frames(final.records)
    assert verdict.status is Status.VIOLATION and verdict.violation is not None, verdict.summary
    fault = verdict.violation
    assert (fault.seat, fault.check, fault.halts) == (3, Check.LEAVE, False)
    assert verdict.summary.startswith("the game is complete, but"), verdict.summary


# ------------------------------------------------------------------ 5. sent after the end
def test_a_goodbye_sent_after_the_end_changes_nothing_even_where_it_comes_first() -> None:
    """The game is complete. The losing side's seat then signs goodbyes: one for the slot after the end
    (stale: the game is over there), one backdated to its last bid (void: it signed entries after it; its
    signer is named). A table that takes the backdated goodbye before its signer's `end` (a late reader of
    the same frames) ends the game there only until that `end` comes: then the goodbye is void, and it ends
    complete like every other table, with the game's own result."""
    wire = seated("classic", b"after the end", target=10)
    wire.run()
    first = wire.tables[0]
    assert first.status is TableStatus.COMPLETE and first.result is not None
    rules = first.rules
    loser = next(s for s in range(rules.players) if rules.side_of(s) not in first.result.winners)
    cheat = wire.tables[loser]
    late = cheat.sign(msg.Leave().to_fields())
    payloads = [log.open_envelope(raw).payload for raw in first.entries]
    last_bid = max(n for n, p in enumerate(payloads) if p["t"] == "bid" and p["s"] == loser)
    back = cheat.view.sealed(msg.Leave().to_fields(), last_bid, log.entry_hash(first.entries[last_bid - 1]),
                             payloads[last_bid]["h"])
    for table in wire.tables:
        assert any(isinstance(e, Dropped) and e.kind is DropKind.STALE for e in table.receive(late))
        named = [e for e in table.receive(back) if isinstance(e, Rejected)]
        assert named and (named[0].seat, named[0].check) == (loser, Check.LEAVE)
    final = agree(wire.tables)
    assert final.status is TableStatus.COMPLETE and final.result == first.result
    # a reader that takes a goodbye backdated to just after its signer's last reveal before its `end`
    ends = [n for n, p in enumerate(payloads) if p["t"] == "end"]
    mine = next(n for n in ends if payloads[n]["s"] == loser)
    after = max(n for n, p in enumerate(payloads[:mine]) if p["s"] == loser) + 1
    close = cheat.view.sealed(msg.Leave().to_fields(), after, log.entry_hash(first.entries[after - 1]),
                              payloads[after]["h"])
    reader = Table(first.entries[0])
    for raw in first.entries[1:mine]:
        reader.receive(raw)
    reader.receive(close)
    assert reader.status is TableStatus.LEFT, "it took the goodbye: the game ends there, for now"
    reader = _as_read(reader)
    named = [e for raw in first.entries[mine:] for e in reader.receive(raw) if isinstance(e, Rejected)]
    assert named and (named[0].seat, named[0].check) == (loser, Check.LEAVE)
    assert reader.status is TableStatus.COMPLETE and reader.result == first.result
    assert reader.entries == first.entries


# ------------------------------------------------------------------ 6. a stop, signed by some seats only
def test_a_stop_signed_by_some_seats_only_pauses_the_table_then_lapses_and_the_game_goes_on() -> None:
    """Seat 2 proposes to stop; seat 0 agrees; seats 1 and 3 never answer. Every table holds the slot it
    waits for and counts no time against anyone while the proposal is open, then, its wait over, lets it
    lapse: the game goes on to its end, nobody voted out, and the stops are in every log."""
    wire = seated("classic", b"some only", target=10)
    quiet(wire, 5)
    wire._record(2, wire.tables[2].stop_here())
    settled(wire)
    wire._record(0, wire.tables[0].stop_here())
    settled(wire)
    assert all(t.pausing for t in wire.tables) and wire.next_decision() is None
    wire.advance_time(59)  # past every timeout but the stop's wait: no vote, no move
    settled(wire)
    assert all(t.pausing for t in wire.tables) and not any(t.claim for t in wire.tables)
    wire.advance_time(2)
    wire.run()
    final = agree(wire.tables)
    assert final.status is TableStatus.COMPLETE
    stops = [raw for raw in final.records if log.open_envelope(raw).payload["t"] == "stop"]
    assert len(stops) == 2
    assert verify_frames(final.records).status is Status.VALID


def test_a_stop_with_other_scores_is_refused_and_names_its_signer() -> None:
    """A modified peer signs a stop whose scores are not the table's at that slot (to carry the game on from
    better ones): every table refuses it and names its signer; it proposes nothing."""
    wire = seated("classic", b"other scores", target=10)
    quiet(wire, 20)
    cheat = wire.tables[1]
    totals = list(cheat.view.totals())
    totals[cheat.rules.side_of(1)] += 200
    lie = cheat.sign(msg.Stop(tuple(totals)).to_fields())
    for seat in (0, 2, 3):
        named = [e for e in wire.tables[seat].receive(lie) if isinstance(e, Rejected)]
        assert named and (named[0].seat, named[0].check) == (1, Check.STOP), named
        assert wire.tables[seat].stop_proposal() is None and not wire.tables[seat].pausing


# ------------------------------------------------------------------ 7. a stop by agreement
def test_a_stop_every_seat_signs_ends_the_game_with_the_scores_standing(tmp_path: Path) -> None:
    """Seat 3 proposes; every other seat agrees: the game ends at that slot on every table, nobody wins, the
    scores stand; every log and the logs together say it was stopped by agreement."""
    wire = seated("classic", b"agreed")
    quiet(wire, 30)
    totals = wire.tables[0].view.totals()
    for seat in (3, 0, 1, 2):
        wire._record(seat, wire.tables[seat].stop_here())
        settled(wire)
    final = agree(wire.tables)
    assert final.status is TableStatus.STOPPED and final.result is not None
    assert final.result.winners == () and final.view.totals() == totals
    code, words = union(tmp_path, wire.tables)
    assert code == Status.INCOMPLETE and "stopped by agreement" in words, words


def plays_through(wire: Wire) -> tuple[int, Table]:
    """The seat the tables wait for becomes a modified peer: its own table, made again from its chain, never
    takes a proposal, its own or another's, and plays on as if there were none. Its seat, and its table as
    it was (to sign with)."""
    awaited = wire.tables[0].waiting_for()
    assert awaited is not None
    a = awaited[0]
    cheat = wire.tables[a]
    wire.tables[a] = Table(cheat.entries[0], cheat.identity, entropy=seeded_entropy(b"plays through"),
                           secrets=cheat.secrets, entries=cheat.entries, checked=True)
    return a, cheat


def test_a_stop_the_awaited_seat_signs_then_plays_through_is_void_everywhere() -> None:
    """Seat a, awaited, signs its stop with the others' (a modified peer), and then sends its entry for the
    slot anyway. The tables that ended the game on the stops take the entry: a stop is void when the awaited
    entry comes. Their agreement holds for the hand: they sign again for the next slot, where seat a never
    does, so that proposal lapses in its time, and every table plays on, on one chain, to the game's end."""
    wire = seated("classic", b"played through", target=10)
    quiet(wire, 20)
    a, cheat = plays_through(wire)
    stop = cheat.sign(msg.Stop(tuple(cheat.view.totals())).to_fields())
    others = [t for t in wire.tables if t.seat != a]
    for t in others:
        assert t.seat is not None
        wire._record(t.seat, t.stop_here())
        wire._record(t.seat, t.receive(stop, wire.now))
    while wire._queue:  # what the others send reaches the others only: the modified peer plays on
        dest, raw = wire._queue.popleft()
        if dest != a:
            wire._record(dest, wire.tables[dest].receive(raw, wire.now))
    assert all(t.status is TableStatus.STOPPED for t in others)
    wire.run()  # the others take its entry: the stop is void; their agreement holds, for the next slot
    assert not any(t.finished for t in wire.tables) and all(t.pausing for t in others)
    wire.advance_time(61)  # it never agrees there: the proposal lapses
    wire.run()
    final = agree(wire.tables)
    assert final.status is TableStatus.COMPLETE


def test_a_proposer_that_plays_through_its_own_proposal_pauses_nobody_again_in_that_hand() -> None:
    """Seat a, a modified peer, proposes to stop at its own turn (every table pauses: no time counts against
    it), and plays its card before the wait runs out, again at its next turn of the hand: a pause for each
    of its turns. It played through its own proposal: its pause is spent as if it had lapsed, so its
    next proposal in that hand pauses nobody (it is shown, and taken, and the game goes on); in the next hand
    it pauses the tables again, once."""
    wire = seated("classic", b"stalls", target=1000)
    quiet(wire, 8)
    a, _ = plays_through(wire)
    others = [t for t in wire.tables if t.seat != a]

    def propose() -> int:
        """Seat a's stop for the slot it is awaited at, sent to the others; the hand it is in."""
        own = wire.tables[a]
        at = own.view.now()
        assert at is not None and at.accused == a
        stop = own.view.sealed(msg.Stop(own.view.totals_at(at.seq)).to_fields(), at.seq, at.prev, at.hand)
        for t in others:
            assert t.seat is not None
            wire._record(t.seat, t.receive(stop, wire.now))
        while wire._queue:  # its own table never takes it back from the others
            dest, raw = wire._queue.popleft()
            if raw != stop:
                wire._record(dest, wire.tables[dest].receive(raw, wire.now))
        return at.hand

    def until_awaited(seat: int) -> None:
        """Until every table waits for `seat`'s bid or card."""
        while True:
            settled(wire)
            slots = [t.view.now() for t in wire.tables]
            if all(at is not None and at.accused == seat and at.awaited in ("bid", "play") for at in slots):
                return
            assert wire.step(), "the game ended before that"

    hand = propose()
    assert all(t.pausing for t in others), "a first proposal pauses every table"
    assert wire.step()  # seat a plays through its own stop
    settled(wire)
    until_awaited(a)
    assert propose() == hand
    assert not any(t.pausing for t in others), "its pause was spent in this hand"
    assert all(t.stop_proposal() is not None for t in others), "the proposal is taken all the same"
    while (now := wire.tables[0].view.now()) is not None and now.hand == hand:
        assert wire.step(), "the game ended in that hand"
    until_awaited(a)
    propose()
    assert all(t.pausing for t in others), "in the next hand it pauses the tables again"
    wire.advance_time(61)
    wire.run()
    final = agree(wire.tables)
    assert final.status is TableStatus.COMPLETE


# ------------------------------------------------------------------ 8. a goodbye crossing a certificate
@pytest.mark.parametrize("who", ["the silent seat", "a voter"])
def test_a_goodbye_crossing_a_certificate_ends_every_table_the_same(who: str, tmp_path: Path) -> None:
    """Seat 1 is awaited and silent; past the timeout every other seat votes, and the votes make a
    certificate. Just then a goodbye crosses them: seat 1's own (it comes back to its screen and leaves), or
    a voter's (seat 2, tired of waiting). Each table gets the frames in its own order; every table ends the
    same: the certificate holds (at one slot it is stronger than a goodbye: every other seat's timer had run
    out first), seat 1's side forfeits, and the logs together say so."""
    wire = claims.classic(b"crossing " + who.encode())
    claims.until_waiting_for(wire, 1, "bid")
    votes = {s: claims.vote(wire, s) for s in (0, 2, 3)}
    leaver = 1 if who == "the silent seat" else 2
    goodbye = goodbye_of(wire.tables[leaver])
    orders = {0: [goodbye, *votes.values()], 3: [*votes.values(), goodbye], 1: [*votes.values(), goodbye],
              2: [votes[0], goodbye, votes[3]]}
    for seat, frames in orders.items():
        for raw in frames:
            if log.open_envelope(raw).payload["s"] != seat:
                wire._record(seat, wire.tables[seat].receive(raw, wire.now))
    wire.run()
    final = agree(wire.tables)
    result = final.result
    assert result is not None and final.status is TableStatus.ABANDONED and result.seat == 1, result
    assert result.forfeit and final.rules.side_of(1) not in result.winners
    code, words = union(tmp_path, wire.tables)
    assert code == Status.INCOMPLETE and "certificate" in words, words


def _as_read(table: Table) -> Table:
    """`table`, its status read again by the type checker (a test looks at it before and after more
    frames)."""
    return table
