"""Where a frame goes, alone (`table/intake.py` for every frame, `table/late.py` for the entries behind us):
no table and no signature checked, a fake view of a chain of ten entries, frames built by hand, and the
route or the outputs read back.

- the checks come in the order PROTOCOL.md §1 gives them, and the first that fails decides;
- an entry for a slot we hold is stale, out of turn, the fault it is by itself, or equivocation;
- the awaited entry of a slot a provisional ending took voids it; after a fault, a twin of its evidence is
  equivocation.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import pytest

from p2pspades import crypto, log
from p2pspades.checks import Check
from p2pspades.errors import RemoteError
from p2pspades.rules import RuleSet, preset
from p2pspades.table import intake, late
from p2pspades.table import messages as msg
from p2pspades.table.chain import Frame
from p2pspades.table.events import (
    DecisionKind,
    DropKind,
    Dropped,
    GameEnded,
    Rejected,
    TableStatus,
    Violation,
    Wanted,
)
from p2pspades.table.outputs import Halt, Known, Report
from p2pspades.table.slots import Awaited, Reopen, Role, Slot
from p2pspades.table.stages import ANY_SEAT, Step

GAME = hashlib.sha256(b"intake alone").digest()[:16]
HEAD = hashlib.sha256(b"entry 9").digest()
BID = Step(1, (msg.Bid, msg.Challenge), DecisionKind.BID)


def frame(seq: int = 10, seat: int = 1, kind: str = "bid", prev: bytes = HEAD, hand: int = 2,
          game: bytes = GAME, **fields: Any) -> bytes:
    """An envelope as the network brings it (unsigned: the fake view says whose signature holds)."""
    body = fields or ({"b": 3} if kind == "bid" else {})
    return log.seal({"g": game, "n": seq, "p": prev, "s": seat, "h": hand, "t": kind, **body}, log.UNSIGNED)


def opened(raw: bytes) -> Frame:
    env = log.open_envelope(raw)
    return Frame(env, log.validate_header(env.payload))


@dataclass
class FakeView:
    """A chain of ten entries (the next slot is 10) whose head is `HEAD`."""

    game_id: bytes = GAME
    seats: int = 4
    next_seq: int = 10
    head: bytes = HEAD
    finished: bool = False
    version: int = 2
    rules: RuleSet = field(default_factory=lambda: preset("classic"))
    hand_number: int = 2
    held: set[bytes] = field(default_factory=set)
    forged: set[bytes] = field(default_factory=set)

    def known(self, raw: bytes) -> bool:
        return raw in self.held

    def signed(self, env: log.Envelope, header: log.Header) -> bool:
        return env.raw not in self.forged


def test_a_frame_goes_where_the_first_check_it_fails_or_passes_says() -> None:
    view = FakeView()
    assert intake.route(view, frame()) == intake.Next(opened(frame()))
    view.held.add(frame())
    assert intake.route(view, frame()) == intake.Copy()
    cases: list[tuple[bytes, DropKind]] = [
        (b"\x00" * (log.MAX_ENVELOPE + 1), DropKind.OVERSIZED),
        (b"not msgpack at all", DropKind.MALFORMED),
        (frame(game=bytes(16)), DropKind.OTHER_GAME),
        (frame(seat=4), DropKind.NO_SUCH_SEAT),
    ]
    for raw, kind in cases:
        refused = intake.route(view, raw)
        assert isinstance(refused, intake.Refused), kind
        assert [getattr(e, "kind", None) for e in refused.events] == [kind]
    forged = frame(seq=11)
    view.forged.add(forged)
    assert intake.route(view, forged) == intake.Refused((Dropped(DropKind.BAD_SIGNATURE, 1, 11),))


def test_an_entrys_place_against_our_chain() -> None:
    view = FakeView()
    assert intake.route(view, frame(seq=7)) == intake.Behind(opened(frame(seq=7)))
    assert intake.route(view, frame(seq=12)) == intake.Early(12, frame(seq=12), 1, True)
    other = frame(prev=bytes(32))
    assert intake.route(view, other) == intake.Refused((Dropped(DropKind.NOT_CHAINED, 1, 10, signed=True),
                                                        Wanted(9)))
    assert intake.route(FakeView(finished=True), frame()) == intake.AfterEnd(opened(frame()))
    vote = frame(kind="abandon", a=1, w=600)
    assert intake.route(view, vote) == intake.Note(log.open_envelope(vote), log.validate_header(
        log.open_envelope(vote).payload))


def test_an_ending_is_signed_by_nobody_and_may_come_early() -> None:
    view = FakeView()
    ending = frame(kind="certificate", v=[])
    assert intake.route(view, ending) == intake.Ending(opened(ending))
    ahead = frame(seq=15, kind="certificate", v=[])
    assert intake.route(view, ahead) == intake.Early(15, ahead, 1, False)
    someone = crypto.Identity.from_seed(hashlib.sha256(b"a signer").digest())
    signed = log.seal({**log.open_envelope(ending).payload}, someone)
    assert intake.route(view, signed) == intake.Refused((Dropped(DropKind.BAD_SIGNATURE, 1, 10),))


def test_an_entrys_message_is_checked_against_its_schema_and_the_hand_in_play() -> None:
    view = FakeView()
    assert intake.decoded(view, opened(frame())) == msg.Bid(3)
    with pytest.raises(RemoteError) as caught:
        intake.decoded(view, opened(frame(hand=3)))
    assert (caught.value.check, caught.value.seat) == (Check.HEADER, 1)
    with pytest.raises(RemoteError) as caught:
        intake.decoded(view, opened(frame(b="three")))
    assert (caught.value.check, caught.value.seat) == (Check.SCHEMA, 1)


# ------------------------------------------------------------------ the entries behind us
@dataclass
class LateView:
    """Our chain holds slots up to 9; `ours[seq]` is our entry there and who signed it."""

    ours: dict[int, tuple[int, bytes]] = field(default_factory=dict)
    steps: dict[int, Step] = field(default_factory=dict)
    bad: dict[bytes, Violation | str] = field(default_factory=dict)
    certified: Slot | None = None
    result: GameEnded | None = None
    violation: Violation | None = None

    def signed_by(self, seq: int, seat: int) -> bytes | None:
        signer, raw = self.ours.get(seq, (-1, b""))
        return raw if signer == seat else None

    def step_at(self, seq: int) -> Step | None:
        return self.steps.get(seq)

    def prev_of(self, seq: int) -> bytes:
        return hashlib.sha256(b"entry %d" % (seq - 1)).digest()

    def problem_of(self, raw: bytes, seq: int) -> Violation | str | None:
        return self.bad.get(raw)


def behind(seq: int, seat: int, **fields: Any) -> tuple[log.Header, bytes]:
    raw = frame(seq=seq, seat=seat, prev=hashlib.sha256(b"entry %d" % (seq - 1)).digest(), **fields)
    return log.validate_header(log.open_envelope(raw).payload), raw


def test_a_second_entry_of_the_seat_that_signed_ours_is_equivocation_or_the_fault_it_is() -> None:
    ours = frame(seq=5, seat=2, b=4)
    header, twin = behind(5, 2, b=5)
    view = LateView(ours={5: (2, ours)})
    (halt,) = late.competing(view, header, twin)
    assert isinstance(halt, Halt) and halt.at == 5
    assert (halt.violation.seat, halt.violation.check, halt.violation.evidence) == (
        2, Check.EQUIVOCATION, tuple(sorted((ours, twin))))
    rules = Violation(2, Check.RULES, "a bid the rules refuse", 5, (twin,))
    view.bad[twin] = rules
    assert late.competing(view, header, twin) == [Halt(rules, 5)], "one entry proves its fault by itself"


def test_another_seats_entry_behind_us_is_stale_out_of_turn_or_a_first_lead_judged() -> None:
    header, raw = behind(5, 3)
    view = LateView(ours={5: (2, b"ours")})
    stale = Report(Dropped(DropKind.STALE, 3, 5, signed=True))
    assert late.competing(view, header, raw) == [stale], "no step there"
    view.steps[5] = Step(2, (msg.Bid,), DecisionKind.BID)
    (report,) = late.competing(view, header, raw)
    assert isinstance(report, Report) and isinstance(report.event, Rejected)
    assert report.event.check is Check.TURN and "it was seat 2's bid's turn" in report.event.detail
    view.steps[5] = Step(ANY_SEAT, (msg.Play,), DecisionKind.PLAY)
    assert late.competing(view, header, raw) == [Known((raw,)), stale]
    fault = Violation(3, Check.OWNERSHIP, "not its card", 5, (raw,))
    view.bad[raw] = fault
    assert late.competing(view, header, raw) == [Halt(fault, 5)]
    other_branch = frame(seq=5, seat=3, prev=bytes(32))
    branch_header = log.validate_header(log.open_envelope(other_branch).payload)
    assert late.competing(view, branch_header, other_branch) == [stale], "another branch"


def test_the_awaited_entry_of_a_slot_a_provisional_ending_took_voids_it() -> None:
    header, raw = behind(5, 1)
    stalled = Slot(Awaited(5, bytes(32), 1, 2, "bid", 600), Role.VOTED)
    result = GameEnded(TableStatus.ABANDONED, (), 1, at=5, missing=(3,))
    view = LateView(certified=stalled, result=result)
    assert late.competing(view, header, raw) == [Reopen(stalled, raw)]
    view.result = GameEnded(TableStatus.ABANDONED, (), 1, at=5)  # a certificate: it stands
    assert late.competing(view, header, raw) == [late.Late(stalled, raw)]


def test_after_a_fault_a_twin_of_its_evidence_is_equivocation_and_anything_else_is_too_late() -> None:
    evidence = frame(seq=10, seat=2, b=13)
    header, twin = behind(10, 2, b=4)
    fault = Violation(2, Check.RULES, "a bid of 13 the rules refuse", 10, (evidence,))
    view = LateView(violation=fault, result=GameEnded(TableStatus.VIOLATION, (), 2, violation=fault, at=10))
    (halt,) = late.after_the_end(view, header, twin)
    assert isinstance(halt, Halt) and halt.violation.check is Check.EQUIVOCATION and halt.at == 10
    other_header, other = behind(10, 3)
    too_late = Report(Dropped(DropKind.GAME_OVER, 3, 10, signed=True))
    assert late.after_the_end(view, other_header, other) == [too_late]
