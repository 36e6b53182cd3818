"""The sync machine alone (`net/sync.py`) and the flood accounting (`net/flood.py`): no socket, no event loop,
no table; a fake view of our chain, HELLOs and GETs given by hand, the clock as numbers, and the frames it
says to send read back.

- HELLO: a seat behind is pushed what it lacks; one ahead is asked; one whose last entry is not ours gets our
  view of that slot and is asked for its own; each gets the open claim's notes;
- GET: answered with what fits in one frame, at most `ANSWERS_PER_SECOND` answers to a seat each second;
  our asks for one gap go out once a second;
- what we took goes, at the next tick, to the seats not known to hold it, in runs; a note to every seat but
  its signer; a certificate to the seat it names too; the evidence of a fault to each peer once;
- a resumed table writes again once every other seat said HELLO and we hold what each holds, or a while after
  a seat of another process answered; our own bot seats' answers do not count; nobody at all: alone;
- a refused statement costs its signer; unsigned junk its sender; nothing after the end.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from p2pspades import log
from p2pspades.checks import Check
from p2pspades.net.flood import charged
from p2pspades.net.frames import MAX_BATCH, MAX_FRAME, Entries, Get, Hello
from p2pspades.net.sync import ANSWERS_PER_SECOND, Send, Sync
from p2pspades.table import Accepted, DropKind, Dropped, Event, Noted, Rejected, Violation
from p2pspades.table.slots import Awaited, Slot

GAME = hashlib.sha256(b"sync alone").digest()[:16]


def entry(n: int, size: int = 0) -> bytes:
    return log.seal({"g": GAME, "n": n, "p": bytes(32), "s": n % 4, "h": 1, "t": "bid", "b": 1,
                     "pad": b"x" * size}, log.UNSIGNED)


@dataclass
class FakeView:
    """Our chain of `length` entries (seat 0's)."""

    length: int = 10
    seats: int = 4
    syncing: bool = False
    finished: bool = False
    claim: Slot | None = None
    notes: list[bytes] = field(default_factory=list)
    game_id: bytes = GAME
    entries: list[bytes] = field(init=False)

    def __post_init__(self) -> None:
        self.entries = [entry(n) for n in range(self.length)]

    @property
    def head(self) -> bytes:
        return log.entry_hash(self.entries[-1])

    def claim_notes(self) -> list[bytes]:
        return self.notes


def hello(view: FakeView, seat: int, held: int) -> Hello:
    return Hello(GAME, seat, held, log.entry_hash(view.entries[held - 1]))


def test_a_seat_behind_is_pushed_what_it_lacks_and_one_ahead_is_asked() -> None:
    view, sync = FakeView(), Sync(0, 5.0, 60.0)
    pushed = [Send(1, Entries(7, tuple(view.entries[7:])))]
    assert sync.on_hello(view, 1, hello(view, 1, 7), now=0.0) == pushed
    ahead = Hello(GAME, 2, 300, bytes(32))
    assert sync.on_hello(view, 2, ahead, now=0.0) == [Send(2, Get(10, 10 + MAX_BATCH))]
    assert sync.on_hello(view, 3, hello(view, 3, 10), now=0.0) == [], "it holds what we hold"
    assert sync.heads == {1: 7, 2: 300, 3: 10}


def test_a_seat_whose_last_entry_is_not_ours_gets_our_view_of_that_slot_and_is_asked_for_its_own() -> None:
    view, sync = FakeView(), Sync(0, 5.0, 60.0)
    forked = Hello(GAME, 1, 6, b"\x01" * 32)
    ours = Send(1, Entries(5, tuple(view.entries[5:])))
    assert sync.on_hello(view, 1, forked, now=0.0) == [Send(1, Get(5, 6)), ours]


def test_a_seat_that_says_hello_gets_the_open_claims_notes() -> None:
    slot = Slot(Awaited(10, bytes(32), 2, 1, "bid", 600))
    view, sync = FakeView(claim=slot, notes=[b"vote of 1", b"vote of 3"]), Sync(0, 5.0, 60.0)
    out = sync.on_hello(view, 3, hello(view, 3, 10), now=0.0)
    assert out == [Send(3, Entries(10, (b"vote of 1", b"vote of 3")))]


def test_answers_fit_in_one_frame_and_a_flood_of_gets_gets_a_few_a_second() -> None:
    view, sync = FakeView(length=40), Sync(0, 5.0, 60.0)
    view.entries = [entry(n, size=15_000) for n in range(40)]
    (answer,) = sync.answer(view, 1, 0, 40, now=0.0)
    assert isinstance(answer.message, Entries), answer
    fits = len(answer.message.raws)
    assert 0 < fits < 40 and sum(len(raw) for raw in answer.message.raws) <= MAX_FRAME, "what fits in a frame"
    answers = [sync.answer(view, 1, 0, 40, now=0.5) for _ in range(3 * ANSWERS_PER_SECOND)]
    assert sum(1 for a in answers if a) == ANSWERS_PER_SECOND - 1, "one answer went out at 0.0 already"
    assert sync.answer(view, 1, 0, 40, now=1.6) != [], "a second later: answered again"
    assert sync.answer(view, 2, 0, 40, now=0.5) != [], "another seat's GETs are its own"
    assert sync.answer(view, 2, 40, 50, now=0.5) == [], "nothing we hold: nothing sent"


def test_our_asks_for_one_gap_go_out_once_a_second() -> None:
    sync = Sync(0, 5.0, 60.0)
    get = Get(12, 12 + MAX_BATCH)
    assert sync.ask(12, [1, 2], now=0.0) == [Send(1, get), Send(2, get)]
    assert sync.ask(12, [1, 2], now=0.9) == []
    assert sync.ask(14, [1, 2], now=0.9) != [], "another gap"
    assert sync.ask(12, [1, 2], now=1.0) != []


def test_what_we_took_goes_to_the_seats_not_known_to_hold_it_in_runs() -> None:
    view, sync = FakeView(length=20), Sync(0, 5.0, 60.0)
    e = view.entries
    for n, signer in ((10, 1), (11, 2), (12, 3), (15, 2)):
        sync.forward_later(Accepted(n, e[n], signer, "bid", False))
    sync.forward_later(Noted(16, b"a vote of 3", 3, "abandon"))
    sync.holds(view, 1, e[11], 11)  # seat 1 sent us entry 11: it holds everything up to it
    out = sync.forwards([1, 2, 3])
    to = {seat: [s.message for s in out if s.seat == seat] for seat in (1, 2, 3)}
    vote = Entries(16, (b"a vote of 3",))
    assert to[1] == [Entries(12, (e[12],)), Entries(15, (e[15],)), vote], "what it lacks, in runs"
    assert to[2] == [Entries(10, (e[10],)), Entries(12, (e[12],)), vote], "not its own entries"
    assert to[3] == [Entries(10, (e[10], e[11])), Entries(15, (e[15],))], "not its own entry, nor note"
    assert sync.forwards([1, 2, 3]) == [], "each once"


def test_a_certificate_goes_to_the_seat_it_names_too_and_an_ending_takes_back_what_it_cut() -> None:
    view, sync = FakeView(length=20), Sync(0, 5.0, 60.0)
    sync.heads = {1: 18, 2: 18}
    sync.forward_later(Accepted(13, view.entries[13], 2, "bid", False))
    sync.superseded(12)  # reported before the certificate itself
    sync.forward_later(Accepted(12, b"the certificate", 1, "certificate", False))
    assert sync.heads == {1: 12, 2: 12}
    assert sync.forwards([1, 2]) == [Send(1, Entries(12, (b"the certificate",))),
                                    Send(2, Entries(12, (b"the certificate",)))]


def test_the_evidence_of_a_fault_goes_to_each_peer_once() -> None:
    sync = Sync(0, 5.0, 60.0)
    one, two = entry(12), entry(13)
    fault = Violation(1, Check.EQUIVOCATION, "two entries", 12, (one, two))
    proof = Entries(12, (one, two))
    assert sync.evidence(fault, [1, 2]) == [Send(1, proof), Send(2, proof)]
    assert sync.evidence(fault, [1, 2, 3]) == [Send(3, Entries(12, (one, two)))]
    quiet = Violation(2, Check.RULES, "a renege", 30, (entry(30),), halts=False)
    assert sync.evidence(quiet, [1]) == [], "a fault that ends nothing ends no chain"


def test_a_resumed_table_writes_again_once_all_answered_or_a_while_after_one_of_another_process() -> None:
    view, sync = FakeView(syncing=True), Sync(0, 5.0, 60.0)
    sync.companions = frozenset({3})
    assert sync.may_write(view, 0.0) is None, "nobody heard yet"
    sync.on_hello(view, 3, hello(view, 3, 10), 0.0)
    assert sync.may_write(view, 100.0) is None, "only our own bot seat: that says nothing"
    sync.on_hello(view, 1, hello(view, 1, 10), 101.0)
    assert sync.may_write(view, 101.0) is None, "seat 2 may yet answer"
    assert sync.may_write(view, 105.9) is None
    assert sync.may_write(view, 106.0) == [2], "5 s after seat 1 answered: on without seat 2"
    everyone = Sync(0, 5.0, 60.0)
    for seat in (1, 2, 3):
        everyone.on_hello(view, seat, hello(view, seat, 10), 0.0)
    assert everyone.may_write(view, 0.0) == [], "everyone answered and we hold what each holds"


def test_a_resumed_table_that_hears_nobody_else_is_alone() -> None:
    view, sync = FakeView(syncing=True), Sync(0, 5.0, 60.0)
    sync.companions, sync.resumed_at = frozenset({3}), 10.0
    sync.on_hello(view, 3, hello(view, 3, 10), 11.0)
    assert not sync.alone(view, 69.0) and sync.alone(view, 70.0)
    sync.on_hello(view, 2, hello(view, 2, 10), 71.0)
    assert not sync.alone(view, 200.0)


def test_a_refusal_costs_the_signer_or_for_junk_the_sender_and_nothing_after_the_end() -> None:
    events: list[Event] = [Rejected(2, Check.TURN, "out of turn", b"raw"),
                           Dropped(DropKind.STALE, 3, 9, signed=True),
              Dropped(DropKind.MALFORMED), Dropped(DropKind.GAME_OVER, 2, 40, signed=True)]
    assert charged(1, events) == [(2, "turn check failed"), (3, "stale"), (1, "malformed")]
