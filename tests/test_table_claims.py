"""The claims machine alone (`table/claims.py`, over the data of `table/slots.py`): no table, only the narrow
view it asks (a fake chain here, with real keys and signatures), the notes it is given and the outputs it
returns.

- every transition of what an honest seat does (`TRANSITIONS`) is walked;
- how a slot stands is a function of its notes: every order of the same notes gives the same standing, the
  same ending and the same fault;
- contradicting notes are a fault at the slot; a refusal proves what it says (a phantom is its signer's
  fault); a vote whose signer has an entry after the slot is void, and named when nobody could release it;
- notes that come early are kept a few per signer; a stalled ending names the fewest silent seats, and a
  refusal from one of them voids it.
"""

from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pspades import crypto, log
from p2pspades.checks import Check
from p2pspades.rules import preset
from p2pspades.table import messages as msg
from p2pspades.table.claims import EARLY_PER_SEAT, Claims
from p2pspades.table.events import Dropped, Rejected, Violation
from p2pspades.table.outputs import Halt, Report
from p2pspades.table.slots import (
    TRANSITIONS,
    Awaited,
    End,
    Held,
    Note,
    Output,
    Reopen,
    Role,
    Send,
    Signal,
    Slot,
    Standing,
    Take,
    ending_entry,
    outcome,
    standing,
)

GAME = hashlib.sha256(b"claims alone").digest()[:16]
IDS = [crypto.Identity.from_seed(hashlib.sha256(b"claims seat" + bytes([i])).digest()) for i in range(5)]
PREV = hashlib.sha256(b"entry 9").digest()
SLOT = Awaited(10, PREV, accused=1, hand=2, awaited="bid", wait=20)


def note(seat: int, kind: str, at: Awaited = SLOT, **fields: Any) -> bytes:
    payload = {"g": GAME, "n": at.seq, "p": at.prev, "s": seat, "h": at.hand, "t": kind, **fields}
    return log.seal(payload, IDS[seat])


def vote(seat: int, at: Awaited = SLOT, wait: int = 20) -> bytes:
    return note(seat, "abandon", at, a=at.accused, w=wait)


def stall(seat: int, missing: tuple[int, ...], at: Awaited = SLOT) -> bytes:
    return note(seat, "stall", at, a=at.accused, m=list(missing), w=20)


def answer(seat: int = 1, at: Awaited = SLOT, bid: int = 3) -> bytes:
    """The awaited entry itself: seat `seat`'s bid for the slot."""
    return note(seat, "bid", at, b=bid)


def refusal(seat: int, carried: bytes, at: Awaited = SLOT) -> bytes:
    return note(seat, "answered", at, a=at.accused, e=carried)


@dataclass
class FakeView:
    """A chain of `next_seq` entries whose slot `SLOT` is the one awaited (or passed, with `past`)."""

    seats: int = 4
    seat: int | None = 0
    next_seq: int = 10
    restoring: bool = False
    signers: dict[int, int] = field(default_factory=dict)  # seq -> seat, beyond SLOT
    entries: dict[int, bytes] = field(default_factory=dict)
    bad: set[bytes] = field(default_factory=set)  # entries that break the rules (a fault of their signer)
    past: bool = False

    def now(self) -> Awaited | None:
        return None if self.past else SLOT

    def passed(self, seq: int, prev: bytes) -> Awaited | None:
        return SLOT if self.past and (seq, prev) == (SLOT.seq, SLOT.prev) else None

    def signed_after(self, seat: int, seq: int) -> bool:
        return any(s == seat for n, s in self.signers.items() if n > seq)

    def entry_at(self, seq: int) -> bytes | None:
        return self.entries.get(seq)

    def signed(self, env: log.Envelope, header: log.Header) -> bool:
        return crypto.verify_signature(IDS[header.seat].public, env.signature, env.payload_raw)

    def answer_problem(self, raw: bytes, at: Awaited) -> Violation | str | None:
        if raw in self.bad:
            seat = log.validate_header(log.open_envelope(raw).payload).seat
            return Violation(seat, Check.RULES, "a bid the rules refuse", at.seq, (raw,))
        return None

    def seal(self, m: msg.Message, at: Awaited) -> bytes:
        assert self.seat is not None
        return note(self.seat, m.TYPE, at, **{k: v for k, v in m.to_fields().items() if k != "t"})


def give(claims: Claims, view: FakeView, raw: bytes) -> list[Output]:
    env = log.open_envelope(raw)
    return claims.note(view, env, log.validate_header(env.payload))


def machine(seats: int = 4, seat: int | None = 0, **view: Any) -> tuple[Claims, FakeView]:
    return Claims(seats, seat, 1), FakeView(seats=seats, seat=seat, **view)


def slot_of(claims: Claims) -> Slot:
    return claims.slots[(SLOT.seq, SLOT.prev)]


def only(outputs: list[Output], kind: type[Any]) -> list[Any]:
    return [o for o in outputs if isinstance(o, kind)]


# ------------------------------------------------------------------ what an honest seat does
def test_every_transition_of_what_an_honest_seat_does_is_walked(monkeypatch: pytest.MonkeyPatch) -> None:
    fired: set[tuple[Role, Signal]] = set()
    fire = Slot.fire

    def watched(self: Slot, signal: Signal) -> Any:
        fired.add((self.role, signal))
        return fire(self, signal)

    monkeypatch.setattr(Slot, "fire", watched)
    a = answer()
    # quiet: a vote, our timer, the answer, a refusal
    for first in (vote(2), None, a, refusal(2, a)):
        claims, view = machine()
        if first is None:
            claims.timer(view, 20)
        elif first == a:
            claims.slot(SLOT)
            claims.took(view, SLOT, a, own=False)
        else:
            give(claims, view, first)
    # open: a vote, the answer (we refuse), our timer, a refusal
    claims, view = machine()
    give(claims, view, vote(2))
    give(claims, view, vote(3))
    view.entries[SLOT.seq] = a
    assert only(claims.took(view, SLOT, a, own=False), Send), "we took it first: we refuse the votes"
    claims, view = machine()
    give(claims, view, vote(2))
    claims.timer(view, 20)
    claims, view = machine()
    give(claims, view, vote(2))
    give(claims, view, refusal(3, a))
    # voted: a vote, the answer (held), our timer again (stall), a refusal (release); stalled likewise
    for then in ("refusal", "stall"):
        claims, view = machine(seats=5)
        claims.timer(view, 20)
        give(claims, view, vote(2))
        assert only(claims.arriving(view, slot_of(claims), a) or [], Held)
        if then == "stall":
            assert only(claims.timer(view, 20), Send), "a timeout later: our stall"
            assert only(give(claims, view, vote(3)), Send), "a late vote: we stall again, naming fewer"
            claims.arriving(view, slot_of(claims), a)
        give(claims, view, refusal(4, a))
    # answered: a vote (refuse), a refusal; released: the answer, a refusal
    claims, view = machine(past=True, next_seq=11)
    view.entries[SLOT.seq] = a
    give(claims, view, vote(2))
    give(claims, view, refusal(3, a))
    claims, view = machine()
    claims.timer(view, 20)
    give(claims, view, refusal(3, a))
    claims.took(view, SLOT, a, own=False)
    give(claims, view, refusal(2, a))
    # our own notes read back from our log, and our own entry: quiet and open
    for first in (None, vote(2)):
        claims, view = machine()
        if first is not None:
            give(claims, view, first)
        give(claims, view, vote(0))
        assert slot_of(claims).role is Role.VOTED
        give(claims, view, stall(0, (3,)))
        assert slot_of(claims).role is Role.STALLED
        claims, view = machine()
        claims.slot(SLOT)
        if first is not None:
            give(claims, view, first)
        claims.took(view, SLOT, a, own=True)
        assert slot_of(claims).role is Role.ANSWERED
    # a provisional ending made void by its awaited entry, in every role
    for role in Role:
        claims, view = machine()
        slot = claims.slot(SLOT)
        slot.role = role
        assert only(claims.void(slot, a, ended_here=False), Take) == [Take(a)]
        assert slot.role is (Role.RELEASED if role in (Role.VOTED, Role.STALLED) else role)
    assert set(TRANSITIONS) - fired == set()


def test_we_vote_once_our_timer_runs_out_and_stall_a_timeout_later_naming_the_votes_we_lack() -> None:
    claims, view = machine()
    out = claims.timer(view, 20)
    (sent,) = only(out, Send)
    assert log.open_envelope(sent.raw).payload == {**log.open_envelope(vote(0)).payload}
    assert slot_of(claims).role is Role.VOTED
    give(claims, view, vote(2))
    out = claims.timer(view, 20)
    (sent,) = only(out, Send)
    fields = log.open_envelope(sent.raw).payload
    assert fields["t"] == "stall" and fields["m"] == [3], "seat 3's vote is missing"
    assert slot_of(claims).role is Role.STALLED
    assert claims.timer(view, 20) == [], "one stall per missing set"
    accused, _ = machine(seat=1)
    assert accused.timer(FakeView(seat=1), 20) == [], "nobody votes against itself"


# ------------------------------------------------------------------ the standing: a function of the notes
def test_the_votes_of_every_seat_but_the_accused_end_the_game_in_a_certificate() -> None:
    claims, view = machine(seat=None)
    ends = [o for raw in (vote(0), vote(2), vote(3)) for o in only(give(claims, view, raw), End)]
    assert [(e.standing, e.missing) for e in ends] == [(Standing.CERTIFIED, ())]
    raw = ending_entry(GAME, ends[0].slot, Standing.CERTIFIED, ())
    cert = log.open_envelope(raw)
    assert cert.signature == log.NO_SIGNATURE and cert.payload["v"] == [vote(0), vote(2), vote(3)]
    again, view2 = machine(seat=None)
    for v in (vote(3), vote(0), vote(2)):
        give(again, view2, v)
    assert ending_entry(GAME, slot_of(again), Standing.CERTIFIED, ()) == raw, "canonical bytes"


NOTES = {
    "v0": vote(0), "v2": vote(2), "v3": vote(3), "v4": vote(4),
    "s0": stall(0, (3, 4)), "s2": stall(2, (3, 4)), "s0b": stall(0, (4,)), "s2b": stall(2, (4,)),
    "s3b": stall(3, (4,)),
}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(sorted(NOTES)), min_size=1, max_size=9, unique=True), st.randoms())
def test_every_order_of_the_same_notes_gives_the_same_standing(names: list[str], rnd: Any) -> None:
    """Five seats, seat 1 awaited: votes and stalls in any order. The standing, the ending applied last and
    the notes kept depend on the set alone."""
    results = set()
    for order in (names, sorted(names), rnd.sample(names, len(names))):
        claims, view = machine(seats=5, seat=None)
        last: tuple[Standing, tuple[int, ...]] | None = None
        for name in order:
            for out in give(claims, view, NOTES[name]):
                if isinstance(out, End):
                    last = (out.standing, out.missing)
        slot = slot_of(claims)
        results.add((standing(slot, 5), last if last is None else standing(slot, 5), tuple(slot.notes())))
    assert len(results) == 1, results


def test_the_seats_still_playing_end_a_claim_the_others_will_not_sign_naming_them() -> None:
    """Five seats: seat 1 silent, seats 3 and 4 never vote. Seats 0 and 2 voted and stalled naming them."""
    claims, view = machine(seats=5, seat=None)
    for raw in (vote(0), vote(2), stall(0, (3, 4))):
        assert not only(give(claims, view, raw), End)
    (end,) = only(give(claims, view, stall(2, (3, 4))), End)
    assert (end.standing, end.missing) == (Standing.STALLED, (3, 4))
    entry = log.open_envelope(ending_entry(GAME, end.slot, Standing.STALLED, (3, 4))).payload
    assert entry["t"] == "stalled" and entry["v"] == [vote(0), vote(2)] and entry["x"] == [stall(0, (3, 4)),
                                                                                          stall(2, (3, 4))]
    # seat 3 votes late, and every seat still playing stalls again naming seat 4 alone: a stronger ending
    give(claims, view, vote(3))
    for raw in (stall(0, (4,)), stall(2, (4,))):
        assert not only(give(claims, view, raw), End)
    (end,) = only(give(claims, view, stall(3, (4,))), End)
    assert end.missing == (4,)
    # seat 4 took the awaited entry before it voted, and says so: the stalled ending is void
    out = give(claims, view, refusal(4, answer()))
    assert [type(o) for o in out] == [Note, Reopen] and only(out, Reopen)[0].raw == answer()


def test_a_stall_names_the_seats_it_lacks_and_only_a_refusal_voids_a_stalled_ending() -> None:
    """Seat 0 alone voted and stalled: a stalled ending (every seat still playing signed it), which any seat
    it names can void by showing the answer. Once seat 2 votes and stalls naming fewer seats, seat 0's first
    stall no longer makes the ending: the one naming the fewest seats, signed by all the others, does."""
    claims, view = machine(seats=5, seat=None)
    give(claims, view, vote(0))
    assert only(give(claims, view, stall(0, (2, 3, 4))), End)
    give(claims, view, vote(2))
    give(claims, view, stall(2, (3, 4)))
    assert standing(slot_of(claims), 5) == (Standing.STALLED, (2, 3, 4)), "seat 0 has not stalled again yet"
    give(claims, view, stall(0, (3, 4)))
    assert standing(slot_of(claims), 5) == (Standing.STALLED, (3, 4))
    give(claims, view, vote(4))
    assert standing(slot_of(claims), 5) == (Standing.STALLED, (3, 4)), "only a refusal voids it"


# ------------------------------------------------------------------ faults, void votes, phantoms
@pytest.mark.parametrize(("one", "two"), [
    (vote(2), refusal(2, answer())),
    (vote(2), vote(2, wait=99)),
    (refusal(2, answer()), refusal(2, answer(bid=4))),
    (stall(2, (3,)), refusal(2, answer())),
])
def test_two_contradicting_notes_of_one_seat_are_equivocation_at_the_slot(one: bytes, two: bytes) -> None:
    for first, second in ((one, two), (two, one)):
        claims, view = machine(seat=None)
        give(claims, view, first)
        (halt,) = only(give(claims, view, second), Halt)
        v = halt.violation
        assert (v.seat, v.check, v.seq, halt.at) == (2, Check.EQUIVOCATION, SLOT.seq, SLOT.seq)
        assert v.evidence == tuple(sorted((first, second))), "the same evidence whatever the order"


def test_a_vote_and_its_signers_stalls_do_not_contradict() -> None:
    claims, view = machine(seats=5, seat=None)
    for raw in (vote(2), stall(2, (3, 4)), stall(2, (4,))):
        assert not only(give(claims, view, raw), Halt)


@pytest.mark.parametrize("what", ["garbage", "another slot", "another seat", "a forged signature"])
def test_a_refusal_whose_entry_is_no_answer_of_the_slot_is_its_signers_fault(what: str) -> None:
    other = Awaited(11, hashlib.sha256(b"entry 10").digest(), 1, 2, "bid", 20)
    carried = {
        "garbage": b"\x93\x01nothing",
        "another slot": answer(at=other),
        "another seat": answer(seat=3),
        "a forged signature": answer()[:-1] + bytes([answer()[-1] ^ 1]),
    }[what]
    claims, view = machine(seat=None)
    give(claims, view, vote(0))
    (halt,) = only(give(claims, view, refusal(2, carried)), Halt)
    assert (halt.violation.seat, halt.violation.check) == (2, Check.ABANDON), halt
    assert "no such entry took that slot" in halt.violation.detail


def test_a_refusal_carrying_an_answer_that_breaks_the_rules_names_the_answers_signer() -> None:
    claims, view = machine(seat=None)
    bad = answer(bid=99)
    view.bad.add(bad)
    (halt,) = only(give(claims, view, refusal(2, bad)), Halt)
    assert (halt.violation.seat, halt.violation.check) == (1, Check.RULES)


def test_a_valid_refusal_voids_the_claim_and_carries_the_answer_to_us() -> None:
    claims, view = machine()
    claims.timer(view, 20)
    out = give(claims, view, refusal(2, answer()))
    assert only(out, Take) == [Take(answer())] and slot_of(claims).role is Role.RELEASED
    assert standing(slot_of(claims), 4)[0] is Standing.VOID


def test_a_vote_for_a_slot_its_signer_passed_is_void_and_named_only_when_nobody_could_release_it() -> None:
    """Seat 3 signed an entry after the slot: its vote counts for nothing. With seat 2 not voting, seat 2
    may have refused and released seat 3 (no fault); once seat 2 votes too, no seat could have."""
    claims, view = machine(seat=None, past=True, next_seq=14, signers={12: 3})
    out = give(claims, view, vote(3))
    assert only(out, Note) and not only(out, Report) and slot_of(claims).void == {3}
    assert not only(give(claims, view, vote(2)), Report), "seat 0 could still have refused and released it"
    (report,) = only(give(claims, view, vote(0)), Report)
    named = report.event
    assert isinstance(named, Rejected) and (named.seat, named.check) == (3, Check.ABANDON)
    assert standing(slot_of(claims), 4)[0] is Standing.OPEN, "a void vote never completes a certificate"
    two, view2 = machine(seats=2, seat=None, past=True, next_seq=14, signers={12: 0})
    (report,) = only(give(two, view2, vote(0)), Report)
    assert isinstance(report.event, Rejected), "two players: nobody could have released the voter"


def test_a_note_that_does_not_hold_against_its_slot_is_refused_and_named() -> None:
    claims, view = machine(seat=None)
    wrong_seat = note(0, "abandon", a=3, w=20)
    wrong_hand = note(0, "abandon", Awaited(10, PREV, 1, 3, "bid", 20), a=1, w=20)
    own = vote(1)
    for raw in (wrong_seat, wrong_hand, own, stall(2, (1,))):
        (report,) = only(give(claims, view, raw), Report)
        assert isinstance(report.event, Rejected) and report.event.check == Check.ABANDON


def test_notes_that_come_early_are_kept_a_few_per_signer() -> None:
    claims, view = machine(seat=None, next_seq=5)
    later = [Awaited(5 + k, hashlib.sha256(bytes([k])).digest(), 1, 2, "bid", 20) for k in range(1, 30)]
    kept = [give(claims, view, vote(2, at)) for at in later]
    assert kept[:EARLY_PER_SEAT] == [[]] * EARLY_PER_SEAT
    refused = [o for out in kept[EARLY_PER_SEAT:] for o in out]
    assert refused and all(isinstance(o, Report) and isinstance(o.event, Dropped) and o.event.seat == 2
                           for o in refused), "the flood is its signer's"
    assert give(claims, view, vote(3, later[0])) == [], "another signer still has room"
    assert len(claims.take_early(7)) == 3


def test_two_different_answers_held_are_equivocation_of_the_accused() -> None:
    claims, view = machine()
    claims.timer(view, 20)
    assert only(claims.arriving(view, slot_of(claims), answer()) or [], Held)
    (halt,) = only(claims.arriving(view, slot_of(claims), answer(bid=4)) or [], Halt)
    assert (halt.violation.seat, halt.violation.check, halt.at) == (1, Check.EQUIVOCATION, SLOT.seq)


def test_outcome_a_forfeit_needs_a_signer_that_does_not_win_by_it() -> None:
    rules = preset("cutthroat3")
    assert outcome(rules, 0, (1, 2), [0, 10, 0]) == outcome(rules, 0, (1, 2), [0, 10, 0])
    assert outcome(rules, 0, (1, 2), [0, 10, 0]).forfeit, "seat 2 does not win by it"
    tied = outcome(rules, 0, (1, 2), [0, 10, 10])
    assert tied.contested and tied.winners == (), "every signer wins by it: it proves nothing"
    two = outcome(preset("two"), 0, (1,), [0, 0])
    assert two.contested


def test_every_pair_of_a_refusal_and_a_stall_set_in_any_order_ends_the_same() -> None:
    """Five seats: the stalls of seats 0 and 2 against the refusal of seat 3 (named as silent), any order:
    the claim is void (a refusal proves the answer), reported as a reopening when it came after."""
    raws = [vote(0), vote(2), stall(0, (3, 4)), stall(2, (3, 4)), refusal(3, answer())]
    for order in itertools.permutations(raws):
        claims, view = machine(seats=5, seat=None)
        for raw in order:
            give(claims, view, raw)
        assert standing(slot_of(claims), 5)[0] is Standing.VOID
