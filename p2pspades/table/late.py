"""Entries that come for a slot our chain holds already, or after the end of our game.

Peers forward every entry, so most of these are copies of another branch or of the past, and stale. Some
prove something: a second entry of the seat that signed ours there is equivocation (or the fault it is by
itself, if it breaks the rules); the awaited entry of a slot a provisional ending took voids that ending; an
entry any seat may make (rule "low_club"'s first lead) is judged; after a fault, a second entry of the
seat whose entry is the evidence is equivocation. A machine that knows no table: it reads the narrow
`LateView` and returns what follows (`outputs.py`, `slots.Reopen`, `Late`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from p2pspades import log
from p2pspades.checks import Check
from p2pspades.errors import Detail, RemoteError
from p2pspades.table.events import TWICE, DropKind, Dropped, GameEnded, Rejected, Violation
from p2pspades.table.outputs import Halt, Known, Report
from p2pspades.table.slots import Reopen, Slot, provisional
from p2pspades.table.stages import ANY_SEAT, Step


@dataclass(frozen=True)
class Late:
    """An answer for a slot whose certificate took it: the claims machine judges it (`Claims.late`)."""

    slot: Slot
    raw: bytes


Output = Halt | Known | Report | Reopen | Late


class LateView(Protocol):
    """What the judge of late entries reads of its table."""

    @property
    def certified(self) -> Slot | None:
        """The claim whose ending ended the game, if one did."""

    @property
    def result(self) -> GameEnded | None: ...

    @property
    def violation(self) -> Violation | None: ...

    def signed_by(self, seq: int, seat: int) -> bytes | None:
        """Our entry at `seq` if `seat` signed it."""

    def step_at(self, seq: int) -> Step | None:
        """The step our entry `seq` was taken at."""

    def prev_of(self, seq: int) -> bytes:
        """The hash an entry for slot `seq` of our chain follows."""

    def problem_of(self, raw: bytes, seq: int) -> Violation | str | None:
        """What `raw` earns at slot `seq` of our chain, checked as every peer checks an entry there: None if
        it holds, the violation it earns its signer, or why it is no entry that slot takes."""


def competing(view: LateView, header: log.Header, raw: bytes) -> list[Output]:
    """An entry for a slot our chain holds already. A second entry of the seat that signed ours there is
    equivocation, a fault at that slot. Another seat's entry after the same entry as ours is judged too: out
    of turn (named, the game goes on), or, at the first lead of rule "low_club" (any seat's), a lead that does
    not hold (its signer's fault there). Anything else is stale: another branch."""
    seat, seq = header.seat, header.seq
    ending = view.certified
    if ending is not None and ending.seq == seq and (seat == ending.accused or ending.at.anyone):
        stalled = view.result is not None and bool(view.result.missing)
        if provisional(ending, stalled) and view.problem_of(raw, seq) is None:
            return [Reopen(ending, raw)]  # the awaited entry after all: the ending is void
        return [Late(ending, raw)]  # a twin of it is a fault
    ours = view.signed_by(seq, seat)
    if ours is not None:  # a second entry of its seat there: the fault it is by itself, or equivocation
        problem = view.problem_of(raw, seq)
        if not isinstance(problem, Violation):
            problem = _twice(seat, seq, ours, raw)
        return [Halt(problem, seq)]
    step = view.step_at(seq)
    if step is None or header.prev != view.prev_of(seq):
        return [Report(Dropped(DropKind.STALE, seat, seq, signed=True))]
    if step.seat != ANY_SEAT:
        want = f"seat {step.seat}'s {step.types[0].TYPE}"
        detail = f"entry {seq} from seat {seat} is a {header.type}; it was {want}'s turn"
        return [Report(Rejected(seat, Check.TURN, detail, raw))]
    problem = view.problem_of(raw, seq)
    if isinstance(problem, Violation):
        return [Halt(problem, seq)]
    return [Known((raw,)), Report(Dropped(DropKind.STALE, seat, seq, signed=True))]


def after_the_end(view: LateView, header: log.Header, raw: bytes) -> list[Output]:
    """An entry for the slot after the end of our chain, the game over: a second entry of the seat whose entry
    there is the evidence of our fault (the one that ended the game) is equivocation, else it is too late."""
    seat, seq = header.seat, header.seq
    v, result = view.violation, view.result
    if v is not None and result is not None and seq == result.at:
        other = next((e for e in v.evidence if e != raw and _seat_seq(e) == (seat, seq)), None)
        if other is not None:
            return [Halt(_twice(seat, seq, other, raw), seq)]
    return [Report(Dropped(DropKind.GAME_OVER, seat, seq, signed=True))]


def _twice(seat: int, seq: int, one: bytes, other: bytes) -> Violation:
    detail = Detail(TWICE, seat=seat, seq=seq)
    return Violation(seat, Check.EQUIVOCATION, detail, seq, tuple(sorted((one, other))))


def _seat_seq(raw: bytes) -> tuple[int, int] | None:
    """The signer and sequence number an entry's header names (None if it has none)."""
    try:
        header = log.validate_header(log.open_envelope(raw).payload)
    except RemoteError:
        return None
    return header.seat, header.seq
